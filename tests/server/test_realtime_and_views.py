"""Real-time games (the server plays the idle move when a tick passes) and games that
hide information (each seat sees its own view; legal moves go to the mover only)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from helpers import bearer, create, wait_for  # noqa: E402


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
