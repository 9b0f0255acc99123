"""Real-time games (the server plays the idle move when a tick passes) and games that
hide information (each seat sees its own view; legal moves go to the mover only)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_helpers import bearer, create, wait_for  # noqa: E402


def test_ticks_pass_without_the_player(client):
    gid, (token,) = create(
        client,
        [{"kind": "human", "join": True}],
        game="toy-ticker",
        players=1,
        options={"tick": 0.05, "ticks": 6},
    )
    s = client.get(f"/api/games/{gid}").json()
    assert s["realtime"] == 0.05
    # The player acts once; every other tick goes by on its own.
    r = client.post(f"/api/games/{gid}/move", json={"move": "go", "ply": s["ply"]}, headers=bearer(token))
    assert r.status_code in (200, 409)  # 409 if a tick beat us to it: then it was stale, not applied
    s = wait_for(lambda: (x := client.get(f"/api/games/{gid}").json())["status"] == "over" and x)
    texts = [m["text"] for m in s["moves"]]
    assert len(texts) == 6 and set(texts) <= {"-", "go"}
    assert texts.count("go") == (1 if r.status_code == 200 else 0)
    assert s["result"]["scores"] == [float(texts.count("go"))]
    stored = client.app.state.manager.storage.get_game(gid)
    assert [m.text for m in stored.moves] == texts and all(m.player == 0 for m in stored.moves)


def test_real_time_is_refused_for_a_game_without_a_pass(client):
    r = client.post("/api/games", json={"game": "toy-ttt", "realtime": 1.0})
    assert r.status_code == 400 and "cannot be played in real time" in r.json()["error"]
    for bad in (0, -1, "fast", True, 10_000):
        r = client.post("/api/games", json={"game": "toy-ticker", "players": 1, "realtime": bad})
        assert r.status_code == 400 and "seconds per tick" in r.json()["error"]
    assert client.get("/api/games").json()["games"] == []


def test_real_time_chosen_at_creation(client):
    # Ticks of 10 s from the game itself, overridden by the request's 0.03 s.
    gid, _ = create(
        client,
        [{"kind": "human", "join": True}],
        game="toy-ticker",
        players=1,
        options={"tick": 10, "ticks": 4},
        realtime=0.03,
    )
    s = wait_for(lambda: (x := client.get(f"/api/games/{gid}").json())["status"] == "over" and x)
    assert s["realtime"] == 0.03 and [m["text"] for m in s["moves"]] == ["-"] * 4


def test_pipe_mania_in_real_time(client):
    import qipan

    try:
        qipan.spec("pipemania")
    except qipan.OptionError:
        pytest.skip("pipemania is not registered yet")
    gid, (token,) = create(
        client, [{"kind": "human", "join": True}], game="pipemania", players=1, realtime=0.02, seed=3
    )
    start = client.get(f"/api/games/{gid}").json()["ply"]
    s = wait_for(lambda: (x := client.get(f"/api/games/{gid}").json())["ply"] >= start + 5 and x)
    assert "-" in [m["text"] for m in s["moves"]][start:]
    client.post(f"/api/games/{gid}/resign", headers=bearer(token))


def test_hidden_information_views(client):
    gid, (ann, bob) = create(
        client, [{"kind": "human", "join": True}, {"kind": "human", "join": True}], game="toy-hidden"
    )
    assert client.get(f"/api/games/{gid}").json()["legal"] == []  # spectators
    assert client.get(f"/api/games/{gid}", headers=bearer(bob)).json()["legal"] == []  # not to move
    mover = client.get(f"/api/games/{gid}", headers=bearer(ann)).json()
    assert len(mover["legal"]) == 9 and mover["you"] == 0
    r = client.get(f"/api/games/{gid}/position?ply=0")
    assert r.status_code == 403 and "hides information" in r.json()["error"]
    client.post(f"/api/games/{gid}/resign", headers=bearer(bob))
    assert client.get(f"/api/games/{gid}/position?ply=0").status_code == 200  # over: replay allowed


def test_times_spent_are_recorded_without_a_clock(client):
    gid, (ann, bob) = create(client, [{"kind": "human", "join": True}, {"kind": "human", "join": True}])
    client.post(f"/api/games/{gid}/move", json={"move": "a1", "ply": 0}, headers=bearer(ann))
    client.post(f"/api/games/{gid}/move", json={"move": "b1", "ply": 1}, headers=bearer(bob))
    record = client.get(f"/api/games/{gid}/record").json()
    assert len(record["times"]) == 2 and all(t >= 0 for t in record["times"])
