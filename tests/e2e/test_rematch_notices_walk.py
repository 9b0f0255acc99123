"""Rematch, abandonment and "your turn" notices in real browsers: Alice and Bob are paired
by quick pairing; Alice's other tab shows "your turn" in its title and icon and lists the
game; after a resignation both pages offer a rematch, which starts with the seats
swapped; then Bob leaves the new game, and once the grace period (shown) is over Alice
claims the win."""

from __future__ import annotations

import sys
from pathlib import Path

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
from browser_steps import TIMEOUT, sign_up  # noqa: E402
from server_helpers import ServerProcess  # noqa: E402

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(600)]


@pytest.fixture
def server(tmp_path):
    process = ServerProcess(
        f"sqlite:///{tmp_path / 'walk.sqlite3'}",
        env={"QIPAN_KERNELS": "0", "QIPAN_GRACE_SECONDS": "3", "QIPAN_RATED_SAME_ADDRESS": "1"},
    ).start()
    yield process
    process.kill()


def game_id_of(page) -> str:
    return page.url.rstrip("/").split("/")[-1].split("#")[0]


def drawn(page) -> str:
    page.wait_for_function("document.getElementById('status').dataset.status", timeout=TIMEOUT)
    return page.evaluate("document.getElementById('status').dataset.status")


def test_rematch_abandonment_and_notices(server, new_page, screenshots):
    base = server.base
    alice, bob = new_page(), new_page()
    for page in (alice, bob):
        page.on("dialog", lambda dialog: dialog.accept())
    sign_up(alice, base, "alice")
    sign_up(bob, base, "bob")
    for page in (alice, bob):  # quick pairing: the second one's click starts the game
        page.goto(f"{base}/")
        page.wait_for_selector("#pair-game option", state="attached", timeout=TIMEOUT)
        page.select_option("#pair-game", "toy-ttt")
        page.click("#pairing-grid button[data-setup='5+3']")
    for page in (alice, bob):
        page.wait_for_url("**/g/*", timeout=TIMEOUT)
    game_id = game_id_of(alice)
    assert game_id_of(bob) == game_id and drawn(alice) == "active"
    state = httpx.get(f"{base}/api/games/{game_id}").json()
    mover = state["seats"][state["to_move"]]["name"]
    waiting = alice if mover == "alice" else bob

    # Notices: another tab of the player to move, on another page, says "your turn".
    other = waiting.context.new_page()
    other.goto(f"{base}/tournaments")
    other.wait_for_function("document.title.startsWith('(1) ')", timeout=TIMEOUT)
    assert other.get_attribute("link[rel~='icon']", "href").startswith("data:image/svg+xml")
    other.click("#waiting summary")
    assert other.get_attribute("#waiting a", "href") == f"/g/{game_id}"
    assert other.is_visible("#notify-on")  # off until asked for
    other.screenshot(path=str(screenshots / "notices-your-turn.png"))

    # The player to move resigns; both pages offer a rematch.
    waiting.click("#resign")
    for page in (alice, bob):
        page.wait_for_function("document.getElementById('status').dataset.status === 'over'", timeout=TIMEOUT)
    other.wait_for_function("!document.title.startsWith('(')", timeout=30_000)  # no stale "your turn"
    alice.wait_for_selector("#rematch", timeout=TIMEOUT)
    alice.click("#rematch")
    bob.wait_for_function(
        "document.getElementById('rematch')?.textContent.includes('Accept')", timeout=TIMEOUT
    )
    bob.click("#rematch")
    for page in (alice, bob):
        page.wait_for_function(f"!location.pathname.endsWith('{game_id}')", timeout=TIMEOUT)
    new_id = game_id_of(alice)
    assert game_id_of(bob) == new_id != game_id
    old_names = [s["name"] for s in state["seats"]]
    new_state = httpx.get(f"{base}/api/games/{new_id}").json()
    assert [s["name"] for s in new_state["seats"]] == old_names[::-1]  # colours swapped
    assert new_state["clock"]["initial"] == 300 and new_state["clock"]["increment"] == 3

    # Bob leaves; Alice sees the grace period, then may claim the win.
    assert drawn(alice) == "active"
    alice.wait_for_selector("#grace", timeout=TIMEOUT)
    assert "3 s" in alice.text_content("#grace")
    # Bob's page must have connected to the new game (a seat never connected is never judged
    # gone: a program playing over plain HTTP has no connection), then he leaves.
    bob_seat = [s["name"] for s in new_state["seats"]].index("bob")
    for _ in range(200):
        if httpx.get(f"{base}/api/games/{new_id}").json()["seats"][bob_seat]["online"]:
            break
        bob.wait_for_timeout(100)
    else:
        raise AssertionError("bob's page never connected to the rematch")
    bob.goto(f"{base}/tournaments")
    alice.wait_for_selector("#claim-win", timeout=TIMEOUT)
    alice.screenshot(path=str(screenshots / "abandoned-claim.png"))
    alice.click("#claim-win")
    alice.wait_for_function("document.getElementById('status').dataset.status === 'over'", timeout=TIMEOUT)
    result = httpx.get(f"{base}/api/games/{new_id}").json()["result"]
    alice_seat = [s["name"] for s in new_state["seats"]].index("alice")
    assert result["winners"] == [alice_seat] and "bob left the game" in result["reason"]
