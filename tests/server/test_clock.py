"""Clocks: bookkeeping, and the server making a player who runs out of time lose."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_helpers import bearer, two_humans, wait_for  # noqa: E402

from qipan.server.clock import Clock, ClockError  # noqa: E402


def test_total_time_with_increment():
    clock = Clock.from_request({"mode": "total", "initial": 60, "increment": 2}, 2)
    clock.start(0, now=100.0)
    assert clock.left(0, 110.0) == 50.0 and clock.left(1, 110.0) == 60.0
    assert clock.stop(now=110.0) == 10.0
    assert clock.remaining == [52.0, 60.0]
    clock.start(1, now=110.0)
    assert clock.deadline() == 170.0
    assert clock.flagged(169.9) is None and clock.flagged(170.0) == 1
    assert Clock.from_dict(clock.to_dict()) == clock


def test_time_per_move_resets_each_turn():
    clock = Clock.from_request({"mode": "move", "seconds": 5}, 2)
    clock.start(0, now=0.0)
    clock.stop(now=4.0)
    clock.start(0, now=10.0)
    assert clock.left(0, 11.0) == 4.0  # a fresh 5 s, not 1 s left over
    assert clock.snapshot(20.0)["remaining"] == [0.0, 5.0]


@pytest.mark.parametrize(
    "data",
    [
        {"mode": "x", "initial": 1},
        {"mode": "total"},
        {"initial": 0},
        {"initial": 5, "increment": -1},
        {"initial": "soon"},
    ],
)
def test_bad_clock_requests(data):
    with pytest.raises(ClockError):
        Clock.from_request(data, 2)


def test_running_out_of_time_loses(client):
    gid, (ann, bob) = two_humans(client, clock={"mode": "move", "initial": 0.3})
    s = client.post(f"/api/games/{gid}/move", json={"move": "a1", "ply": 0}, headers=bearer(ann)).json()
    assert s["clock"]["running"] == 1 and s["clock"]["mode"] == "move"
    s = wait_for(lambda: (x := client.get(f"/api/games/{gid}").json())["status"] == "over" and x)
    assert s["result"]["winners"] == [0] and "Bob ran out of time" in s["result"]["reason"]
    r = client.post(f"/api/games/{gid}/move", json={"move": "b2", "ply": 1}, headers=bearer(bob))
    assert r.status_code == 409
    stored = client.app.state.manager.storage.get_game(gid)
    assert stored.status == "over" and stored.result["winners"] == [0]


def test_total_clock_counts_down_and_records_times(client):
    gid, (ann, bob) = two_humans(client, clock={"mode": "total", "initial": 100, "increment": 3})
    s = client.post(f"/api/games/{gid}/move", json={"move": "a1", "ply": 0}, headers=bearer(ann)).json()
    assert 100 < s["clock"]["remaining"][0] <= 103 and s["clock"]["remaining"][1] <= 100
    rec = client.get(f"/api/games/{gid}/record").json()
    assert len(rec["times"]) == 1 and rec["times"][0] >= 0


def test_clock_survives_a_restart(sqlite_url):
    from fastapi.testclient import TestClient

    from qipan.server import create_app

    with TestClient(create_app(sqlite_url)) as client:
        gid, (ann, bob) = two_humans(client, clock={"mode": "total", "initial": 100, "increment": 7})
        started = time.monotonic()  # Bob's clock starts with Ann's move
        s = client.post(f"/api/games/{gid}/move", json={"move": "a1", "ply": 0}, headers=bearer(ann)).json()
        before = s["clock"]
    with TestClient(create_app(sqlite_url)) as client:
        after = client.get(f"/api/games/{gid}").json()["clock"]
        waited = time.monotonic() - started
        assert after["running"] == 1 and after["mode"] == "total" and after["increment"] == 7
        assert after["remaining"][0] == before["remaining"][0] > 100  # Ann's time, with her increment
        # Bob's time runs again from the restart: never more than he had, never less than the
        # time since his clock started (however slow the restart on a loaded machine).
        assert 100 - waited - 0.01 <= after["remaining"][1] <= 100
        r = client.post(f"/api/games/{gid}/move", json={"move": "b2", "ply": 1}, headers=bearer(bob))
        assert r.status_code == 200 and r.json()["clock"]["running"] == 0
