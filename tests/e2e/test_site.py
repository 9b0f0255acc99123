"""The game site in the browser: two people sign up, one posts a rated seek, the other
accepts, they play Nine Men's Morris to the end by clicking, both ratings move as Glicko-2
says; a third person watches from the live list and chats as a spectator."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from browser_steps import PHONE, TIMEOUT, click_path, game_state, sign_up, wait_ply, wait_status  # noqa: E402

import qipan  # noqa: E402
from conftest import SCREENSHOTS  # noqa: E402
from qipan.server.ratings import Rating, rate_game  # noqa: E402
from qipan.server.standings import first_seat_score  # noqa: E402

pytestmark = pytest.mark.e2e
PASSWORD = "a long enough password"


@pytest.fixture(scope="module")
def shots():
    folder = Path(os.environ.get("QIPAN_SCREENSHOTS", SCREENSHOTS))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def capture_seeker(state):
    """Seat 0 looks two plies ahead against seat 1, which plays its first legal move, and
    prefers captures (pure rules, no search engine: a short, decisive game)."""
    moves = state.legal_moves()
    if state.to_move != 0:
        return moves[0]
    best, best_score = moves[0], -1
    for move in moves:
        score = 100 if "x" in move.text else 0
        state.play(move)
        if state.outcome is not None:
            score += 1000 if 0 in state.outcome.winners else -1000
        else:
            state.play(state.legal_moves()[0])
            if state.outcome is None:
                score += sum("x" in m.text for m in state.legal_moves())
            state.undo()
        state.undo()
        if score > best_score:
            best, best_score = move, score
    return best


def wait_for_status(page, status: str) -> None:
    """wait_status, saying where the page was if it never got there."""
    try:
        wait_status(page, status)
    except Exception as exc:
        shown = page.evaluate("(document.getElementById('status') || {}).textContent || ''")
        raise AssertionError(f"{page.url}: status {shown!r}, errors {page.errors}") from exc


def ratings(base: str, username: str) -> list[dict]:
    return httpx.get(f"{base}/api/users/{username}").json()["ratings"]


def test_rated_seek_played_to_the_end_with_a_spectator(live_server, new_page, shots):
    try:
        qipan.spec("nine-mens-morris")
    except qipan.OptionError:
        pytest.skip("nine-mens-morris is not registered")
    base = live_server.base
    alice, bob, carol = new_page(), new_page(), new_page(PHONE)
    alice.goto(f"{base}/account")
    alice.wait_for_selector("#signup-form")
    alice.screenshot(path=str(shots / "site-account-signup.png"), full_page=True)
    for page, name in ((alice, "alice"), (bob, "bob"), (carol, "carol")):
        sign_up(page, base, name)

    # Alice posts a rated 10+0 seek from the lobby; Bob accepts it from the seek list.
    alice.select_option("#seek-game", "nine-mens-morris")
    alice.select_option("#seek-time", label="10+0 (rapid)")
    assert alice.is_checked("#seek-rated")
    alice.click("#seek-button")
    alice.wait_for_selector("#seek-list li[data-seek] button.cancel-seek", timeout=TIMEOUT)
    bob.goto(f"{base}/")
    bob.wait_for_selector("#seek-list li[data-seek] button.accept", timeout=TIMEOUT)
    bob.screenshot(path=str(shots / "site-lobby-seek.png"), full_page=True)
    bob.click("#seek-list li[data-seek] button.accept")
    bob.wait_for_url("**/g/*", timeout=TIMEOUT)
    alice.wait_for_url("**/g/*", timeout=TIMEOUT)  # her lobby notices the accepted seek
    game_id = bob.url.rstrip("/").split("/")[-1]
    assert alice.url.endswith(f"/g/{game_id}")
    for page in (alice, bob):
        wait_for_status(page, "active")
    seats = {s["name"]: s["seat"] for s in game_state(base, game_id)["seats"]}
    pages = {seats["alice"]: alice, seats["bob"]: bob}

    # Carol finds the game in the live list, watches and chats in the spectators' room.
    carol.goto(f"{base}/")
    carol.click(f'#live-games a.watch[href="/g/{game_id}"]', timeout=TIMEOUT)
    carol.wait_for_selector("#board svg", timeout=TIMEOUT)
    carol.wait_for_selector('#chat-tab-spectators[aria-selected="true"]', timeout=TIMEOUT)
    carol.fill("#chat-input", "good luck <both>!")
    carol.click("#chat-send")
    carol.wait_for_selector("#chat-messages li .text:text('good luck <both>!')", timeout=TIMEOUT)
    # The players talk in their own room (the spectator does not see it during the game).
    alice.wait_for_selector('#chat-tab-players[aria-selected="true"]', timeout=TIMEOUT)
    alice.fill("#chat-input", "have fun")
    alice.click("#chat-send")
    bob.wait_for_selector("#chat-messages li .text:text('have fun')", timeout=TIMEOUT)
    assert carol.locator("#chat-messages li .text:text('have fun')").count() == 0

    # The game, by clicking.
    state = qipan.load("nine-mens-morris").new()
    while state.outcome is None and state.ply < 400:
        move = capture_seeker(state)
        click_path(pages[state.to_move], move.path)
        state.play(move)
        for page in (alice, bob):
            wait_ply(page, state.ply)
        if state.ply == 10:
            wait_ply(carol, state.ply)
            carol.screenshot(path=str(shots / "site-spectator-chat-phone.png"), full_page=True)
    assert state.outcome is not None
    for page in (alice, bob, carol):
        wait_for_status(page, "over")
    final = game_state(base, game_id)
    assert [m["text"] for m in final["moves"]] == [m.text for m in state.history]

    # Both ratings moved exactly as Glicko-2 says for two new players (1500, 350, 0.06).
    expected = rate_game(Rating(), Rating(), first_seat_score(state.outcome))
    by_seat = {seat: name for name, seat in seats.items()}
    for _ in range(100):
        if all(ratings(base, name) for name in seats):
            break
        alice.wait_for_timeout(100)
    for seat, name in by_seat.items():
        (rating,) = ratings(base, name)
        assert (rating["family"], rating["time_class"], rating["games"]) == ("morris", "rapid", 1)
        assert rating["rating"] == round(expected[seat].rating, 1)
        assert rating["rd"] == round(expected[seat].rd, 1)
    # The game page shows both changes.
    for seat, name in by_seat.items():
        change = round(expected[seat].rating - 1500)
        alice.wait_for_selector(f'#game-terms .player[data-seat="{seat}"] [data-change]', timeout=TIMEOUT)
        shown = alice.text_content(f'#game-terms .player[data-seat="{seat}"] [data-change]').strip()
        assert shown == f"{change:+d}", (name, shown)
    alice.screenshot(path=str(shots / "site-game-over-players-chat.png"), full_page=True)

    # The profile shows the rating history plot and the game with a replay link.
    alice.goto(f"{base}/u/alice")
    alice.wait_for_selector(
        '#history svg polyline[data-series="nine-mens-morris rapid"]', state="attached", timeout=TIMEOUT
    )
    alice.wait_for_selector(f'#profile-games a[href="/replay/{game_id}"]', timeout=TIMEOUT)
    alice.screenshot(path=str(shots / "site-profile.png"), full_page=True)
    alice.goto(f"{base}/account")
    alice.wait_for_selector(f'#account-games a[href="/replay/{game_id}"]', timeout=TIMEOUT)
    alice.screenshot(path=str(shots / "site-account-member.png"), full_page=True)
    # The replay shows both rooms' chat.
    carol.goto(f"{base}/replay/{game_id}")
    carol.click("#chat-tab-players", timeout=TIMEOUT)
    carol.wait_for_selector("#chat-messages li .text:text('have fun')", timeout=TIMEOUT)
    # The leaderboard in the lobby lists both players.
    bob.goto(f"{base}/")
    bob.select_option("#board-family", "morris")
    bob.select_option("#board-class", "rapid")
    bob.wait_for_selector("#leaderboard tbody tr:nth-child(2)", timeout=TIMEOUT)
    bob.screenshot(path=str(shots / "site-lobby-leaderboard.png"), full_page=True)
    for page in (alice, bob, carol):
        assert page.errors == []
