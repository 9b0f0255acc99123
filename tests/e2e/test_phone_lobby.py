"""The lobby on a phone: play the computer, quick pairing and seeks come first, above the
fold; the full new-game form waits behind its button; the form's options read as words."""

from __future__ import annotations

from browser_steps import PHONE, TIMEOUT


def test_phone_lobby_shows_the_quick_actions_above_the_fold(live_server, new_page, screenshots):
    page = new_page(PHONE)
    page.goto(live_server.base + "/")
    page.wait_for_selector("#computer-game option", state="attached", timeout=TIMEOUT)
    fold = PHONE["height"]
    for card in ("#play-computer", "#quick-pairing"):
        box = page.locator(f"{card} h2").bounding_box()
        assert box is not None and box["y"] + box["height"] <= fold, card
    assert page.locator("#computer-button").bounding_box()["y"] < fold
    seeks = page.locator("#seeks").bounding_box()
    form = page.locator("#new-game").bounding_box()
    assert seeks["y"] < form["y"]  # seeks before the full form
    assert not page.locator("#new-game-form").is_visible()  # behind its button
    page.screenshot(path=str(screenshots / "site-lobby-phone.png"))
    page.click("#new-game-open")
    assert page.locator("#new-game-form").is_visible()
    page.select_option("#game-select", "nine-mens-morris")
    options = page.locator("#options").inner_text()
    for identifier in ("always_protected", "n move", "max plies", "fallback"):
        assert identifier not in options
    assert "Moves without a capture before a draw" in options
