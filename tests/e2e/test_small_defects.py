"""Defects found while trying the site as new players would (issue 34), each fixed and
checked in a real browser: a hot-seat undo can be accepted, a finished game's live page
shows the players' chat to spectators, and the default seat and bot names read in the
page's language."""

from __future__ import annotations

import httpx
import pytest
from browser_steps import TIMEOUT, create_in_lobby, tokens_in_browser, wait_ply, wait_status

pytestmark = pytest.mark.e2e


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def test_a_hot_seat_undo_can_be_asked_and_accepted(live_server, new_page):
    base = live_server.base
    page = new_page()
    game_id = create_in_lobby(page, base, "toy-ttt", ["me", "me"])
    wait_status(page, "active")
    tokens = tokens_in_browser(page, game_id)
    httpx.post(f"{base}/api/games/{game_id}/move", json={"move": "a1", "ply": 0}, headers=auth(tokens[0]))
    wait_ply(page, 1)
    page.click("#undo")  # asked by seat 1, whose move it takes back
    page.wait_for_function("document.getElementById('undo').textContent === 'Accept undo'", timeout=TIMEOUT)
    page.click("#undo")  # accepted by the other seat held here
    wait_ply(page, 0)
    assert httpx.get(f"{base}/api/games/{game_id}").json()["ply"] == 0


def test_a_finished_games_live_page_shows_the_players_chat(live_server, new_page):
    base = live_server.base
    r = httpx.post(
        f"{base}/api/games",
        json={
            "game": "toy-ttt",
            # Guest names no account of the shared test server has (those are refused).
            "seats": [{"kind": "human", "join": True, "name": n} for n in ("Aster", "Birch")],
        },
    ).json()
    tokens = {s["seat"]: s["token"] for s in r["seats"]}
    game_id = r["id"]
    said = httpx.post(
        f"{base}/api/games/{game_id}/chat",
        json={"room": "players", "text": "good luck"},
        headers=auth(tokens[0]),
    )
    assert said.status_code == 201, said.text
    httpx.post(f"{base}/api/games/{game_id}/resign", headers=auth(tokens[1])).raise_for_status()
    spectator = new_page()
    spectator.goto(f"{base}/g/{game_id}")
    wait_status(spectator, "over")
    spectator.wait_for_selector("#chat-tab-players", state="visible", timeout=TIMEOUT)
    spectator.click("#chat-tab-players")
    spectator.wait_for_selector("#chat-messages li:has-text('good luck')", timeout=TIMEOUT)


def test_default_seat_and_bot_names_in_traditional_chinese(live_server, new_page):
    base = live_server.base
    r = httpx.post(
        f"{base}/api/games",
        json={
            "game": "toy-ttt",
            "seats": [
                {"kind": "human", "join": True},
                {"kind": "bot", "agent": "level", "limits": {"level": 3}},
            ],
        },
    ).json()
    page = new_page()
    page.goto(f"{base}/")
    page.evaluate("localStorage.setItem('qipan.lang', 'zh-TW')")
    page.goto(f"{base}/g/{r['id']}")
    page.wait_for_selector("#seats li[data-seat='1'] .name", timeout=TIMEOUT)
    names = page.locator("#seats .name").all_inner_texts()
    assert names[0].startswith("玩家 1") and names[1].startswith("第 3 級")
    assert not any("player" in n or "(level)" in n for n in names)


def test_an_invited_player_names_their_seat(live_server, new_page):
    base = live_server.base
    host = new_page()
    game_id = create_in_lobby(host, base, "toy-ttt", ["me", "invite"])
    link = host.locator("input.invite").input_value(timeout=TIMEOUT)
    guest = new_page()  # a new browser: no name remembered
    guest.goto(link)
    wait_status(guest, "active")
    guest.fill("#seat-name-input", "Guest Gu")
    guest.click("#seat-name-save")
    guest.wait_for_selector("#seats li[data-seat='1'] .name:has-text('Guest Gu')", timeout=TIMEOUT)
    assert httpx.get(f"{base}/api/games/{game_id}").json()["seats"][1]["name"] == "Guest Gu"
    assert guest.locator("#seat-name-input").count() == 0
