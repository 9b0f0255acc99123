"""People playing in headless Chromium by clicking, plus screenshots of every game's page."""

from __future__ import annotations

import sys
from pathlib import Path

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from browser_steps import (  # noqa: E402
    PHONE,
    click_path,
    create_in_lobby,
    game_state,
    tokens_in_browser,
    wait_ply,
    wait_status,
)

import qipan  # noqa: E402
import qipan.agents  # noqa: E402

pytestmark = pytest.mark.e2e


def registered(game_id: str) -> bool:
    try:
        qipan.spec(game_id)
        return True
    except qipan.OptionError:
        return False


def require(game_id: str) -> None:
    if not registered(game_id):
        pytest.skip(f"{game_id} is not registered yet (its package has not landed)")


def real_games() -> list[str]:
    try:
        return [s.id for s in qipan.specs() if s.family != "toy"]
    except Exception:  # a half-written game package must not hide the other tests
        return []


def first_of_each_family() -> set[str]:
    firsts: dict[str, str] = {}
    for s in qipan.specs():
        firsts.setdefault(s.family, s.id)
    return set(firsts.values())


def test_two_people_play_nine_mens_morris(live_server, new_page, screenshots):
    require("nine-mens-morris")
    base = live_server.base
    created = httpx.post(
        f"{base}/api/games",
        json={
            "game": "nine-mens-morris",
            "seats": [{"kind": "human", "name": "White"}, {"kind": "human", "name": "Black"}],
        },
    ).json()
    game_id = created["id"]
    invites = {s["seat"]: s["invite"] for s in created["seats"]}
    pages = [new_page(), new_page(PHONE)]
    for seat, page in enumerate(pages):
        page.goto(base + invites[seat])
    for page in pages:
        wait_status(page, "active")
    # White plays a shallow search, Black its first legal move: a short, decisive game.
    state = qipan.load("nine-mens-morris").new()
    white = qipan.agents.load("alphabeta", depth=2)
    while state.outcome is None and state.ply < 400:
        move = white.choose(state) if state.to_move == 0 else state.legal_moves()[0]
        click_path(pages[state.to_move], move.path)
        state.play(move)
        for page in pages:
            wait_ply(page, state.ply)
        if state.ply == 12:
            pages[0].screenshot(path=str(screenshots / "nine-mens-morris-midgame-desktop.png"))
    assert state.outcome is not None
    for page in pages:
        wait_status(page, "over")
        assert "Game over" in page.text_content("#status")
        assert page.errors == []
    final = game_state(base, game_id)
    assert [m["text"] for m in final["moves"]] == [m.text for m in state.history]
    assert final["result"]["winners"] == list(state.outcome.winners)
    pages[0].screenshot(path=str(screenshots / "nine-mens-morris-over-desktop.png"), full_page=True)
    pages[1].screenshot(path=str(screenshots / "nine-mens-morris-over-phone.png"), full_page=True)

    # The replay viewer steps through the finished game.
    viewer = new_page()
    viewer.goto(f"{base}/replay/{game_id}")
    wait_ply(viewer, 0)
    viewer.click("#replay-next")
    wait_ply(viewer, 1)
    assert state.history[0].text in viewer.text_content("#replay-ply")
    viewer.click("#replay-last")
    wait_ply(viewer, state.ply)
    viewer.screenshot(path=str(screenshots / "nine-mens-morris-replay.png"), full_page=True)
    assert viewer.errors == []


def test_play_pente_against_a_bot(live_server, new_page, screenshots):
    require("pente")
    base = live_server.base
    page = new_page()
    game_id = create_in_lobby(page, base, "pente", ["me", "bot:random"])
    wait_status(page, "active")
    me = (
        qipan.agents.load("pente", time=0.1, seed=1)
        if "pente" in {a.name for a in qipan.agents.agent_specs()}
        else qipan.agents.load("alphabeta", depth=2)
    )
    for _ in range(150):
        data = game_state(base, game_id)
        if data["status"] == "over":
            break
        state = qipan.load("pente").new().play_many(m["text"] for m in data["moves"])
        if data["to_move"] != 0:
            page.wait_for_function(
                f"document.getElementById('status').dataset.ply > {data['ply']}", timeout=20_000
            )
            continue
        move = me.choose(state)
        # The server may be ahead of the page: click only once the page has drawn this ply.
        page.wait_for_function(
            f"document.getElementById('status').dataset.ply >= {data['ply']}", timeout=20_000
        )
        click_path(page, move.path)
        page.wait_for_function(
            f"document.getElementById('status').dataset.ply > {data['ply']}", timeout=20_000
        )
    wait_status(page, "over")
    data = game_state(base, game_id)
    assert data["result"] is not None and data["seats"][1]["kind"] == "bot"
    assert "Game over" in page.text_content("#status") and page.errors == []
    page.screenshot(path=str(screenshots / "pente-vs-bot-desktop.png"), full_page=True)


@pytest.mark.parametrize("game", ["trax", "tantrix"])
def test_a_move_by_clicking(live_server, new_page, screenshots, game):
    require(game)
    base = live_server.base
    page = new_page()
    game_id = create_in_lobby(page, base, game, ["me", "me"])
    wait_status(page, "active")
    tokens = tokens_in_browser(page, game_id)
    assert set(tokens) == {0, 1}
    for _ in range(2):  # two moves: the second one starts from a non-empty board
        seat = game_state(base, game_id)["to_move"]
        data = game_state(base, game_id, tokens[seat])  # hidden hands are shown to their owner only
        move = next(m for m in data["legal"] if m["path"])
        click_path(page, move["path"])
        page.wait_for_function(
            f"document.getElementById('status').dataset.ply > {data['ply']}", timeout=20_000
        )
        after = game_state(base, game_id)
        assert after["moves"][data["ply"]]["text"] == move["text"]
        page.wait_for_function(f"document.getElementById('status').dataset.ply == {after['ply']}")
    assert page.errors == []
    page.screenshot(path=str(screenshots / f"{game}-after-clicks-desktop.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(screenshots / f"{game}-after-clicks-phone.png"), full_page=True)


def test_pipe_mania_in_real_time(live_server, new_page, screenshots):
    require("pipemania")
    base = live_server.base
    page = new_page()
    game_id = create_in_lobby(page, base, "pipemania", ["me"], realtime=1.5)
    wait_status(page, "active")
    token = tokens_in_browser(page, game_id)[0]
    placed = None
    for _ in range(5):  # a tick may pass between reading the moves and the click: try again
        data = game_state(base, game_id, token)
        assert data["realtime"] == 1.5 and "real time" in page.text_content("#status")
        move = next(m for m in data["legal"] if m["text"].startswith("p") and m["path"])
        click_path(page, move["path"])
        page.wait_for_function(
            f"document.getElementById('status').dataset.ply > {data['ply']}", timeout=20_000
        )
        texts = [m["text"] for m in game_state(base, game_id)["moves"]]
        if move["text"] in texts:
            placed = move["text"]
            break
    assert placed is not None
    # Letting ticks go by: the server passes for the player.
    ply = game_state(base, game_id)["ply"]
    page.wait_for_function(f"document.getElementById('status').dataset.ply > {ply + 1}", timeout=20_000)
    assert "-" in [m["text"] for m in game_state(base, game_id)["moves"]][ply:]
    assert page.errors == []
    page.screenshot(path=str(screenshots / "pipemania-real-time-desktop.png"), full_page=True)
    httpx.post(f"{base}/api/games/{game_id}/resign", headers={"Authorization": f"Bearer {token}"})


@pytest.mark.parametrize("game", real_games() or ["(none registered)"])
def test_screenshot_of_every_game(live_server, new_page, screenshots, game):
    if game == "(none registered)":
        pytest.skip("no game is registered yet")
    base = live_server.base
    spec = qipan.spec(game)
    players = spec.players[0]
    created = httpx.post(
        f"{base}/api/games",
        json={
            "game": game,
            "players": players,
            "seed": 1,
            "seats": [{"kind": "human", "name": f"P{i + 1}", "join": True} for i in range(players)],
            # A real-time game's clock would play on while a loaded machine opens the page,
            # and its flow can end the game before the page shows it: ticks far apart here.
            **({"realtime": 600} if qipan.load(game).realtime_tick else {}),
        },
    )
    assert created.status_code == 201, created.text
    data = created.json()
    to_move = data["state"]["to_move"] if data["state"]["to_move"] is not None else 0
    # Seats taken at creation come with their token (invite links are for free seats only).
    token = next(s["token"] for s in data["seats"] if s["seat"] == to_move)
    page = new_page()
    page.goto(f"{base}/g/{data['id']}#seat={to_move}&token={token}")
    wait_status(page, data["state"]["status"])
    page.wait_for_selector("#board svg", timeout=20_000)
    if data["state"]["legal"] and any(m["path"] for m in data["state"]["legal"]):
        page.wait_for_function(
            "document.querySelectorAll('#board .qp-target').length + document.querySelectorAll('#choices .choice').length > 0",
            timeout=20_000,
        )
    assert page.errors == []
    page.screenshot(path=str(screenshots / f"{game}-desktop.png"))
    if game in first_of_each_family():  # phone-sized pages: one game per family
        page.set_viewport_size(PHONE)
        page.screenshot(path=str(screenshots / f"{game}-phone.png"), full_page=True)


def test_lobby_starts_on_the_requested_or_a_default_game(live_server, new_page):
    page = new_page()
    page.goto(live_server.base + "/")
    page.wait_for_selector("#game-select option", state="attached")
    assert page.eval_on_selector("#game-select", "e => e.value") == "nine-mens-morris"
    page.goto(live_server.base + "/?game=pente")
    page.wait_for_function("document.querySelector('#game-select').value === 'pente'")
    page.select_option("#game-select", "trax")
    page.goto(live_server.base + "/")  # the last choice is remembered
    page.wait_for_function("document.querySelector('#game-select').value === 'trax'")
