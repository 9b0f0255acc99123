"""The analysis page in Chromium: an uploaded Trax ``.trx`` game replays to its result, the
player steps back and branches off with a move of their own, the engine answers, the
share link opens the same position, and a bad file is refused with the server's reason."""

from __future__ import annotations

import httpx
from browser_steps import TIMEOUT, click_path, wait_ply
from tests.data import DATA


def real_trax_game() -> tuple[str, int]:
    """A real 8x8 game from the GnuTrax sample that Red wins at its last ply."""
    for line in (DATA / "trax" / "trax_8x8_gnutrax_sample.tsv").read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        _, record, plies, expected, _ = line.split("\t")
        if expected == "R":
            return record, int(plies)
    raise AssertionError("no game won by Red in the sample")


def upload(page, name: str, text: str) -> None:
    page.set_input_files(
        "#record-file", files=[{"name": name, "mimeType": "text/plain", "buffer": text.encode()}]
    )


def test_an_uploaded_trx_replays_to_its_result_and_branches(live_server, new_page):
    record, plies = real_trax_game()
    page = new_page()
    page.goto(live_server.base + "/analysis")
    upload(page, "game.trx", record + "\n")
    wait_ply(page, plies)
    # Red (the second player) has won, as the record says.
    assert page.locator("#result").get_attribute("data-winners") == "1"
    assert page.locator("#moves li").count() == plies

    page.click("#prev")
    wait_ply(page, plies - 1)
    moves = record.split()
    shown = httpx.post(
        live_server.base + "/api/analysis/position", json={"game": "trax-8x8", "moves": moves[: plies - 1]}
    ).json()
    other = next(m for m in shown["legal"] if m["text"] != moves[plies - 1])
    click_path(page, other["path"])
    wait_ply(page, plies)
    assert page.locator("#moves li").last.inner_text() == other["text"]
    assert "branch" in page.locator("#moves li").last.get_attribute("class")
    assert page.locator("#back-to-record").is_visible()

    page.click("#analyse")
    page.wait_for_selector("#engine-report", timeout=TIMEOUT)
    line = page.locator("#engine-line button")
    if shown_result(live_server, moves[: plies - 1] + [other["text"]]) is None:
        assert line.count() >= 1

    link = page.locator("#share-link").input_value()
    again = new_page()
    again.goto(link)
    wait_ply(again, plies)
    assert again.locator("#moves li").last.inner_text() == other["text"]
    assert not page.errors and not again.errors


def shown_result(live_server, moves):
    return httpx.post(
        live_server.base + "/api/analysis/position", json={"game": "trax-8x8", "moves": moves}
    ).json()["result"]


def test_a_bad_file_is_refused_with_its_reason(live_server, new_page):
    page = new_page()
    page.goto(live_server.base + "/analysis")
    wait_ply(page, 0)  # the default new game is shown
    upload(page, "broken.trx", "@0/ @1\\ Z9+\n")
    page.wait_for_function(
        "document.getElementById('error').textContent.includes('does not replay')", timeout=TIMEOUT
    )
    assert "ply 3" in page.locator("#error").inner_text()


def test_the_board_marks_targets_and_the_result_as_the_game_page_does(live_server, new_page):
    """Pente's 361 points are not ringed (shown on hover only, as on the game page); an
    uploaded Trax game's winning loop is highlighted; a resigned record says so at its end."""
    page = new_page()
    page.goto(live_server.base + "/analysis?game=pente&moves=%5B%22K10%22%5D&ply=1")
    wait_ply(page, 1)
    assert page.locator("#board.many-targets").count() == 1
    ringed = page.evaluate(
        "Array.from(document.querySelectorAll('#board .qp-target'))"
        ".filter((n) => getComputedStyle(n).strokeDasharray !== 'none').length"
    )
    assert page.locator("#board .qp-target").count() > 300 and ringed == 0

    record, plies = real_trax_game()
    upload(page, "game.trx", record + "\n")
    wait_ply(page, plies)
    assert page.locator("#board .qp-win").count() > 0

    tokens = record.split()[:4]
    upload(page, "resigned.trx", " ".join(tokens) + " RESIGN\n")
    wait_ply(page, 4)
    page.wait_for_function("document.getElementById('result').dataset.winners === '1'", timeout=TIMEOUT)
    assert not page.errors
