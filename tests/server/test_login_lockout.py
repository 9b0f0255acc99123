"""Nobody can lock an account out (server/login_limits.py): wrong passwords slow down the
address they come from, with a growing delay, and the owner logs in from any other address;
guessing from many addresses meets a per-username cap that still lets the owner in from an
address he used before."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from site_helpers import PASSWORD, new_browser, signup, site_client  # noqa: E402

from qipan.server import login_limits  # noqa: E402
from qipan.server.accounts import COOKIE  # noqa: E402
from qipan.server.login_limits import FREE_FAILURES, LoginLimits, delay_after  # noqa: E402

WRONG = {"username": "olive", "password": "wrong-wrong"}
RIGHT = {"username": "olive", "password": PASSWORD}


@pytest.fixture
def site(db_url):
    with site_client(db_url) as client:
        yield client


def test_wrong_passwords_from_one_address_do_not_lock_the_owner_out(site):
    signup(site, "olive")
    attacker = new_browser(site, "10.0.0.66")
    codes = [attacker.post("/api/account/login", json=WRONG).status_code for _ in range(FREE_FAILURES + 5)]
    assert codes == [401] * FREE_FAILURES + [429] * 5
    refused = attacker.post("/api/account/login", json=RIGHT)
    assert refused.status_code == 429 and "try again" in refused.json()["error"]
    assert COOKIE not in attacker.cookies
    owner = new_browser(site, "10.0.0.7")
    r = owner.post("/api/account/login", json=RIGHT)
    assert r.status_code == 200, r.text
    assert COOKIE in owner.cookies


def test_the_delay_grows_with_each_failure_and_a_success_clears_it():
    async def scenario():
        limits = LoginLimits()
        now = 1000.0
        waits = []
        for _ in range(FREE_FAILURES + 4):
            wait = await limits.wait("olive", "10.0.0.66", now)
            waits.append(wait)
            now += wait  # the attacker waits exactly as long as told, then fails again
            await limits.failed("olive", "10.0.0.66", now)
        assert waits[:FREE_FAILURES] == [0.0] * FREE_FAILURES
        grown = waits[FREE_FAILURES:]
        assert grown == sorted(grown) and grown[0] > 0 and grown[-1] == 2 * grown[-2]
        assert await limits.wait("olive", "10.0.0.7", now) == 0  # another address
        await limits.succeeded("olive", "10.0.0.66", now + 10_000)
        assert await limits.wait("olive", "10.0.0.66", now + 10_000) == 0

    asyncio.run(scenario())
    assert delay_after(10_000) == login_limits.MAX_DELAY


def test_many_addresses_meet_the_username_cap_but_a_known_address_gets_in(site, monkeypatch):
    monkeypatch.setattr(login_limits, "GLOBAL_FAILURES", 6)
    site.app.state.site.login_failures = LoginLimits()
    signup(site, "olive")
    home = new_browser(site, "10.0.0.7")
    assert home.post("/api/account/login", json=RIGHT).status_code == 200  # a known address now
    for i in range(6):  # one failure from each of six addresses: the cap
        assert new_browser(site, f"10.1.0.{i}").post("/api/account/login", json=WRONG).status_code == 401
    stranger = new_browser(site, "10.2.0.1")
    assert stranger.post("/api/account/login", json=RIGHT).status_code == 429
    assert new_browser(site, "10.0.0.7").post("/api/account/login", json=RIGHT).status_code == 200
