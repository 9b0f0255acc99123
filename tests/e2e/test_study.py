"""The study tools in Chromium: the position editor sets up a Pente position by clicks, says
why an impossible one is refused, and hands the position to the analysis page, which analyses
it and shows the opening explorer; a friend is invited to a position set up there; the game
database page searches; the puzzle page shows the day's puzzle on a phone."""

from __future__ import annotations

import httpx
from browser_steps import PHONE, TIMEOUT


def wait_text(page, selector: str, words: str) -> None:
    page.wait_for_function(
        f"(document.querySelector({selector!r}) || {{}}).textContent?.includes({words!r}) "
        f"|| (document.querySelector({selector!r}) || {{}}).value?.includes({words!r})",
        timeout=TIMEOUT,
    )


def test_the_editor_sets_up_a_position_that_the_analysis_page_analyses(live_server, new_page):
    page = new_page()
    page.goto(live_server.base + "/editor?game=pente")
    page.wait_for_selector("#board svg [data-target='K10']", timeout=TIMEOUT)
    page.click("#board [data-target='K10']")
    wait_text(page, "#position-text", "1:K10")
    page.check("input[name=piece] >> nth=1")  # player 2's stones
    page.click("#board [data-target='L11']")
    wait_text(page, "#position-text", "2:L11")
    page.click("#board [data-target='M12']")
    wait_text(page, "#position-text", "2:L11,M12")
    page.select_option("#mover", "1")
    wait_text(page, "#position-text", "next=1")
    # A stone taken off again.
    page.check("input[name=piece] >> nth=2")
    page.click("#board [data-target='M12']")
    page.wait_for_function("!document.getElementById('position-text').value.includes('M12')", timeout=TIMEOUT)
    text = page.locator("#position-text").input_value()

    # An impossible position is refused with the reader's reason; the last good one stays.
    page.fill("#position-text", "next=7 1:K10")
    page.click("#apply-text")
    wait_text(page, "#error", "impossible")
    page.fill("#position-text", text)
    page.click("#apply-text")
    page.wait_for_function("document.getElementById('error').textContent === ''", timeout=TIMEOUT)

    page.click("#analyse-link")
    page.wait_for_selector("#board svg", timeout=TIMEOUT)
    wait_text(page, "#share-link", "position=")
    page.wait_for_function("document.getElementById('status').dataset.ply === '0'", timeout=TIMEOUT)
    assert "K10" in page.locator("#share-link").input_value()
    # The board the analysis page draws is the position set up.
    expected = httpx.post(
        live_server.base + "/api/analysis/position", json={"game": "pente", "position": text, "players": 2}
    ).json()
    assert page.locator("#text").text_content() == expected["text"]
    page.wait_for_selector("#explorer-database, #explorer h4, #explorer p", timeout=TIMEOUT)
    page.select_option("#seconds", "0.5")
    page.click("#analyse")
    # The Pente agent overruns its time from a set-up position (several CPU seconds a ply on
    # a loaded machine): a long wait, not a failure.
    page.wait_for_selector("#engine-report", timeout=8 * TIMEOUT)
    assert page.locator("#engine-line button").count() >= 1
    assert not page.errors


def test_a_friend_is_invited_to_a_position_set_up_in_the_editor(live_server, new_page):
    page = new_page()
    page.goto(live_server.base + "/editor?game=pente")
    page.wait_for_selector("#board svg [data-target='K10']", timeout=TIMEOUT)
    page.click("#board [data-target='K10']")
    wait_text(page, "#position-text", "1:K10")
    page.select_option("#play-seat", "1")  # the friend plays the first stones, I the second
    page.click("#invite-friend")
    page.wait_for_url("**/g/*", timeout=TIMEOUT)
    game_id = page.url.split("/g/", 1)[1].split("#")[0].split("?")[0]
    shown = httpx.get(f"{live_server.base}/api/games/{game_id}").json()
    assert "1:K10" in shown["start_position"] and shown["status"] == "open"
    assert shown["seats"][1]["joined"] and not shown["seats"][0]["joined"]
    page.wait_for_selector("#board svg", timeout=TIMEOUT)
    assert not page.errors


def test_the_database_page_searches_and_the_puzzle_page_fits_a_phone(live_server, new_page):
    page = new_page()
    page.goto(live_server.base + "/database")
    # The shared test server's finished games enter the database: the first count is theirs.
    total = httpx.get(live_server.base + "/api/db/stats").json()["total"]
    page.wait_for_function("/\\d/.test(document.getElementById('found').textContent)", timeout=TIMEOUT)
    assert str(total) in page.locator("#found").text_content()
    page.fill("#f-player", "nobody-at-all")
    page.click("#search")
    wait_text(page, "#found", "0")

    phone = new_page(PHONE)
    phone.goto(live_server.base + "/puzzles")
    phone.wait_for_selector("#board svg", timeout=TIMEOUT)
    assert phone.locator("#task").inner_text()
    box = phone.locator("#board").bounding_box()
    assert box["width"] <= PHONE["width"]
    assert "/puzzles/" in phone.url
    assert not page.errors and not phone.errors
