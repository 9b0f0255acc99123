"""Kill the real server in the middle of a game and start it again: the game goes on."""

from __future__ import annotations

import sys
from pathlib import Path

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_helpers import bearer, wait_for  # noqa: E402


@pytest.mark.slow
def test_restart_resumes_the_game(server_process, tmp_path):
    db = f"sqlite:///{tmp_path / 'restart.sqlite3'}"
    server = server_process(db)
    with httpx.Client(base_url=server.base) as http:
        r = http.post(
            "/api/games",
            json={
                "game": "toy-ttt",
                "options": {"coin": True},
                "seed": 9,
                "seats": [
                    {"kind": "human", "name": "Ann", "join": True},
                    {"kind": "human", "name": "Bob", "join": True},
                ],
            },
        )
        created = r.json()
        gid, tokens = created["id"], {s["seat"]: s["token"] for s in created["seats"]}
        bot_game = http.post(
            "/api/games",
            json={
                "game": "toy-ttt",
                "seats": [{"kind": "human", "join": True}, {"kind": "bot", "agent": "random"}],
            },
        ).json()
        state = http.get(f"/api/games/{gid}").json()
        first = state["to_move"]
        order = [first, 1 - first]
        script = ["a1", "a2", "b1", "b2", "c1"]
        for i, move in enumerate(script[:3]):
            seat = order[i % 2]
            r = http.post(
                f"/api/games/{gid}/move",
                json={"move": move, "ply": state["ply"]},
                headers=bearer(tokens[seat]),
            )
            assert r.status_code == 200, r.text
            state = r.json()
        before = http.get(f"/api/games/{gid}").json()
    server.kill()

    server = server_process(db, port=server.port)
    with httpx.Client(base_url=server.base) as http:
        after = http.get(f"/api/games/{gid}").json()
        for key in ("moves", "ply", "to_move", "svg", "legal", "status", "seats"):
            assert after[key] == before[key], key
        for i, move in enumerate(script[3:], start=3):
            seat = order[i % 2]
            r = http.post(
                f"/api/games/{gid}/move",
                json={"move": move, "ply": after["ply"]},
                headers=bearer(tokens[seat]),
            )
            assert r.status_code == 200, r.text
            after = r.json()
        assert after["status"] == "over" and after["result"]["winners"] == [first]
        assert [m["text"] for m in after["moves"]][1:] == script
        # The bot game resumes too: the human moves and the bot answers after the restart.
        bid, btoken = bot_game["id"], bot_game["seats"][0]["token"]
        http.post(f"/api/games/{bid}/move", json={"move": "b2", "ply": 0}, headers=bearer(btoken))
        wait_for(lambda: http.get(f"/api/games/{bid}").json()["ply"] == 2)
        record = http.get(f"/api/games/{gid}/record").json()
        assert record["moves"][1:] == script and record["result"]["winners"] == [first]
