"""Tantrix hides nothing (hands are open, the bag is drawn by the server's seeded chance
moves), so the replay viewer shows an unfinished Tantrix game like any other."""

from server_helpers import bearer, create


def test_an_unfinished_tantrix_game_replays_move_by_move(client):
    import qipan

    assert qipan.load("tantrix").hides_information is False
    humans = [{"kind": "human", "join": True}, {"kind": "human", "join": True}]
    gid, tokens = create(client, humans, game="tantrix", seed=11)
    live = client.get(f"/api/games/{gid}").json()
    setup = live["ply"]  # the start-order draws and the deal, played by the server
    assert setup >= 12 and live["status"] != "over"
    for _ in range(3):  # three placements (and the draws after them)
        seat = live["to_move"]
        mover = client.get(f"/api/games/{gid}", headers=bearer(tokens[seat])).json()
        r = client.post(
            f"/api/games/{gid}/move",
            json={"move": mover["legal"][0]["text"], "ply": mover["ply"]},
            headers=bearer(tokens[seat]),
        )
        assert r.status_code == 200, r.text
        live = client.get(f"/api/games/{gid}").json()
    assert live["status"] != "over"
    placements = [m["text"] for m in live["moves"][setup:] if not m["text"].startswith("+")]
    assert len(placements) == 3
    before = client.get(f"/api/games/{gid}/position?ply={setup}")
    assert before.status_code == 200, before.text  # not refused "because it hides information"
    assert "Placements:" not in before.json()["text"]  # the deal done, the board still empty
    now = client.get(f"/api/games/{gid}/position?ply={live['ply']}").json()
    assert now["text"] == live["text"] and now["move"] == live["moves"][-1]["text"]
    assert all(p.split("@")[0] in now["text"] for p in placements)
