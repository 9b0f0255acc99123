"""The lobby links the pictures a game declares (Tantrix's tile gallery) and the link opens
the SVG."""

from __future__ import annotations


def test_lobby_links_the_declared_tile_gallery(live_server, new_page):
    page = new_page()
    page.goto(live_server.base + "/?game=tantrix")
    page.wait_for_function("document.querySelector('#game-select').value === 'tantrix'")
    link = page.wait_for_selector("#game-description a.picture-link")
    assert link.text_content().strip() == "[tiles]"
    href = link.get_attribute("href")
    assert href in (
        "/api/specs/tantrix/pictures/tiles?lang=en",
        "/api/specs/tantrix/pictures/tiles?lang=zh-TW",
    )
    page.goto(live_server.base + href)
    assert page.locator("svg.tantrix-tiles g.tile").count() == 56
    page.goto(live_server.base + "/?game=trax")
    page.wait_for_function("document.querySelector('#game-select').value === 'trax'")
    assert page.locator("#game-description a.picture-link").count() == 0
    assert not page.errors
