"""What the game page asks of the server: previews (and the rules' reason for an illegal
click), seat colours, the cells of the result, a flagged clock at 0, and real-time moves
that wait for the clock's tick instead of speeding it up."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_helpers import bearer, create, two_humans, wait_for  # noqa: E402


def test_preview_draws_the_move_without_playing_it(client):
    gid, (ann, _bob) = two_humans(client, game="pente")
    r = client.get(f"/api/games/{gid}/preview", params={"move": "K10"}, headers=bearer(ann))
    assert r.status_code == 200 and r.json()["move"] == "K10" and 'class="stone p1"' in r.json()["svg"]
    assert client.get(f"/api/games/{gid}").json()["ply"] == 0  # nothing was played


def test_preview_of_an_illegal_move_gives_the_rules_reason(client):
    gid, (ann, _bob) = two_humans(client, game="pente")
    client.post(f"/api/games/{gid}/move", json={"move": "K10", "ply": 0}, headers=bearer(ann))
    r = client.get(f"/api/games/{gid}/preview", params={"move": "K10"})
    assert r.status_code == 400 and "K10" in r.json()["error"]
    assert client.get(f"/api/games/{gid}").json()["ply"] == 1


def test_preview_in_a_game_that_hides_information_is_for_the_mover_only(client):
    gid, (ann, bob) = create(
        client, [{"kind": "human", "join": True}, {"kind": "human", "join": True}], game="toy-hidden"
    )
    assert client.get(f"/api/games/{gid}/preview", params={"move": "a1"}).status_code == 403
    assert (
        client.get(f"/api/games/{gid}/preview", params={"move": "a1"}, headers=bearer(bob)).status_code == 403
    )


def test_seats_carry_their_colours(client):
    gid, _tokens = two_humans(client, game="trax")
    seats = client.get(f"/api/games/{gid}").json()["seats"]
    assert [(s["colour"], s["fill"][0]) for s in seats] == [("White", "#"), ("Red", "#")]


def test_the_result_names_the_winning_cells(client):
    gid, (ann, bob) = two_humans(client, game="pente")
    moves = ["K10", "A1", "L10", "A2", "M10", "A4", "N10", "A5", "O10"]
    for ply, move in enumerate(moves):
        token = ann if ply % 2 == 0 else bob
        assert (
            client.post(
                f"/api/games/{gid}/move", json={"move": move, "ply": ply}, headers=bearer(token)
            ).status_code
            == 200
        )
    result = client.get(f"/api/games/{gid}").json()["result"]
    assert result["cells"] == ["K10", "L10", "M10", "N10", "O10"]


def test_a_flagged_clock_shows_zero(client):
    gid, (ann, _bob) = two_humans(client, game="pente", clock={"mode": "move", "initial": 0.3})
    s = wait_for(lambda: (x := client.get(f"/api/games/{gid}").json())["status"] == "over" and x)
    assert s["clock"]["remaining"][0] == 0.0 and "ran out of time" in s["result"]["reason"]


def test_real_time_moves_wait_for_the_tick(client):
    """Three placements sent at once are played one per tick, in order, not at once: the
    ply does not jump when they are sent, and no tick passes idle while one waits."""
    gid, (token,) = create(
        client, [{"kind": "human", "join": True}], game="pipemania", players=1, realtime=1.0
    )
    state = client.get(f"/api/games/{gid}", headers=bearer(token)).json()
    start = state["ply"]
    places = [m["text"] for m in state["legal"] if m["text"].startswith("p")]
    wanted = [places[0], places[len(places) // 2], places[-1]]
    for text in wanted:
        r = client.post(f"/api/games/{gid}/move", json={"move": text}, headers=bearer(token))
        assert r.status_code == 200, r.text
        assert r.json()["ply"] <= start + 1  # at most the tick that was due meanwhile
    mine = lambda s: [m["text"] for m in s["moves"][start:] if m["player"] == 0]  # noqa: E731
    s = wait_for(lambda: len(mine(x := client.get(f"/api/games/{gid}").json())) >= 3 and x, timeout=20)
    played = mine(s)
    # The first tick after sending might have been an idle one already under way; after it,
    # the three placements, one per tick.
    assert played[played.index(wanted[0]) :][:3] == wanted
    client.post(f"/api/games/{gid}/resign", headers=bearer(token))


def test_a_real_time_move_that_is_not_legal_is_refused_at_once(client):
    gid, (token,) = create(
        client, [{"kind": "human", "join": True}], game="pipemania", players=1, realtime=5.0
    )
    r = client.post(f"/api/games/{gid}/move", json={"move": "zz99"}, headers=bearer(token))
    assert r.status_code == 400
    client.post(f"/api/games/{gid}/resign", headers=bearer(token))
