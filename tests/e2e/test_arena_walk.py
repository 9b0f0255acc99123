"""The tournaments' walk in real browsers on two server processes (PostgreSQL + Redis):
Alice, on process A, creates a one-minute arena and enters two bots; Bob, on process B,
joins from his page; both play (and lose: they resign each game they are paired in)
until the arena ends; both pages then show the final standings of all four."""

from __future__ import annotations

import os
import sys
import time
import uuid
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
from browser_steps import TIMEOUT, sign_up  # noqa: E402
from cluster_helpers import REDIS_URL, absent, redis_answers, start_processes  # noqa: E402

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.postgres, pytest.mark.timeout(600)]
PG_ADMIN_URL = os.environ.get("QIPAN_TEST_PG", "postgresql+psycopg://postgres@127.0.0.1:5432/test")


@pytest.fixture
def two_processes():
    admin = sa.create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect():
            pass
    except Exception:
        absent(f"PostgreSQL is not reachable at {PG_ADMIN_URL}")
    if not redis_answers(REDIS_URL):
        absent(f"Redis is not answering at {REDIS_URL}")
    name = f"qipan_arena_{uuid.uuid4().hex[:10]}"
    with admin.connect() as conn:
        conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    # Without rate limits: Alice's and Bob's browsers share 127.0.0.1, and their page loads in
    # the one-minute arena came over the per-address rate (a resignation answered 429).
    servers = start_processes(PG_ADMIN_URL.rsplit("/", 1)[0] + "/" + name, REDIS_URL, 2, rates=False)
    yield servers
    for i, server in enumerate(servers):
        server.kill()
        print(f"--- log of process {i} ---\n{server.output()[-4000:]}")
    with admin.connect() as conn:
        conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


def event(base: str, event_id: str) -> dict:
    return httpx.get(f"{base}/api/tournaments/{event_id}", timeout=30).json()


def resign_if_paired(page, base: str, event_id: str) -> bool:
    """On the tournament page: if the player has a game on, open it, resign, come back."""
    page.goto(f"{base}/t/{event_id}")
    page.wait_for_selector("#event-status", timeout=TIMEOUT)
    link = page.locator("#event-your-game a")
    try:
        link.wait_for(timeout=1500)
    except Exception:
        return False
    page.click("#event-your-game a")
    # The click only starts the navigation: wait for the game page, then for its first drawing
    # (the page has drawn the game, and its buttons work, once the status says so).
    page.wait_for_url("**/g/*", timeout=TIMEOUT)
    page.wait_for_function("document.getElementById('status')?.dataset.status", timeout=TIMEOUT)
    if page.evaluate("document.getElementById('status').dataset.status") != "active":
        return False  # it ended meanwhile
    page.click("#resign")
    try:
        page.wait_for_function("document.getElementById('status').dataset.status === 'over'", timeout=TIMEOUT)
    except Exception as exc:
        game_id = page.url.rstrip("/").split("/")[-1]
        state = httpx.get(f"{base}/api/games/{game_id}", timeout=30).json()
        shown = page.evaluate(
            "document.getElementById('status').textContent + ' | ' + document.getElementById('error').textContent"
        )
        raise AssertionError(
            f"{page.url}: {shown!r}; {state['status']} {state['seats']} {state.get('result')}"
        ) from exc
    return True


def test_a_four_entrant_arena_on_two_processes_runs_to_its_standings(two_processes, new_page, screenshots):
    a, b = two_processes
    alice, bob = new_page(), new_page()
    for page in (alice, bob):
        page.on("dialog", lambda dialog: dialog.accept())  # "resign?" -> yes
    sign_up(alice, a.base, "alice", "/tournaments")
    sign_up(bob, b.base, "bob", "/tournaments")
    # Alice creates the arena on process A: toy tic-tac-toe, 1+0, one minute, bots allowed.
    alice.click("#new-event summary")
    alice.fill("#event-form input[name=name]", "Lunch arena")
    alice.select_option("#event-kind", "arena")
    alice.select_option("#event-game", "toy-ttt")
    alice.select_option("#event-control", "0")
    alice.fill("#event-form input[name=starts_in]", "0")
    alice.fill("#event-form input[name=minutes]", "1")
    alice.check("#event-form input[name=bots_allowed]")
    alice.click("#event-form button[type=submit]")
    alice.wait_for_url("**/t/*", timeout=TIMEOUT)
    event_id = alice.url.rstrip("/").split("/")[-1]
    for _ in range(2):
        alice.select_option("#event-bot-level", "1")
        alice.click("#event-add-bot")
    alice.click("#event-join")
    # Bob finds it in the list on process B and joins.
    bob.goto(f"{b.base}/tournaments")
    bob.click(f"#event-list a[href='/t/{event_id}']")
    bob.wait_for_selector("#event-join", state="visible", timeout=TIMEOUT)
    bob.click("#event-join")
    bob.wait_for_function("document.querySelectorAll('#standings tbody tr').length === 4", timeout=TIMEOUT)
    bob.screenshot(path=str(screenshots / "arena-joined.png"), full_page=True)
    # Until it ends: each plays (and resigns) whatever game they are paired in.
    played = {"alice": 0, "bob": 0}
    humans = [("alice", alice, a), ("bob", bob, b)]
    deadline = time.monotonic() + 400
    while event(a.base, event_id)["status"] != "finished":
        assert time.monotonic() < deadline, event(a.base, event_id)
        for name, page, server in humans:
            if resign_if_paired(page, server.base, event_id):
                played[name] += 1
        # Who looks first alternates: while the bots play each other, the arena pairs the two
        # people again and again, and the one who looks first resigns each of those games.
        humans.reverse()
    assert played["alice"] >= 1 and played["bob"] >= 1
    # Both pages show the final standings, with the same table through either process.
    for page, server in ((alice, a), (bob, b)):
        page.goto(f"{server.base}/t/{event_id}")
        page.wait_for_function(
            "document.getElementById('event-status').dataset.status === 'finished'", timeout=TIMEOUT
        )
        page.wait_for_function(
            "document.querySelectorAll('#standings tbody tr').length === 4", timeout=TIMEOUT
        )
    final = event(a.base, event_id)
    assert final == event(b.base, event_id) | {"you": final["you"]}
    table = final["standings"]
    assert sorted(r["name"] for r in table) == ["alice", "bob", "level 1", "level 1"]
    people = {"alice", "bob"}
    for g in final["games"]:  # a person resigned every game: against a bot, they lost it
        for seat, name in enumerate(g["names"]):
            if name in people and not people >= set(g["names"]):
                assert g["scores"][seat] == 0, g
    assert [r["points"] for r in table] == sorted((r["points"] for r in table), reverse=True)
    assert all(g["scores"] is not None for g in final["games"])
    rows = alice.locator("#standings tbody tr").all_inner_texts()
    assert len(rows) == 4 and all(r["name"] in row for r, row in zip(table, rows, strict=True)), rows
    alice.screenshot(path=str(screenshots / "arena-standings.png"), full_page=True)
