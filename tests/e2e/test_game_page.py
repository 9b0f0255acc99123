"""The game page as players expect it (issue 20, items 1-4), in Chromium: previews that
choose the right move, highlights that match the outcome, colours and names, explanations,
reconnecting, replay buttons, offers and clocks, Pente's etiquette, Pipe Mania in real time."""

from __future__ import annotations

import itertools
import time

import httpx
import pytest
from browser_steps import PHONE, TIMEOUT, game_state, wait_ply, wait_ply_at_least, wait_status
from cluster_helpers import move_rows
from game_page_screens import hold_seats
from server_helpers import ServerProcess, free_port

import qipan


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def new_game(base: str, game: str, players: int = 2, **body) -> tuple[str, list[str]]:
    names = ["Ann", "Bob", "Cy", "Di"]
    seats = [{"kind": "human", "name": names[i], "join": True} for i in range(players)]
    r = httpx.post(f"{base}/api/games", json={"game": game, "players": players, "seats": seats, **body})
    r.raise_for_status()
    data = r.json()
    tokens = [None] * players
    for s in data["seats"]:
        tokens[s["seat"]] = s["token"]
    return data["id"], tokens


def play(base: str, game_id: str, tokens: list[str], moves: list[str]) -> None:
    for text in moves:
        seat = game_state(base, game_id)["to_move"]
        httpx.post(
            f"{base}/api/games/{game_id}/move", json={"move": text}, headers=auth(tokens[seat])
        ).raise_for_status()


def watch_refusals(page) -> list[str]:
    """What the server refused this page from now on (error frames on its sockets, HTTP
    answers of 400 and more), for an assertion's message."""
    seen: list[str] = []

    def frame(payload):
        if '"error"' in str(payload):
            seen.append(f"ws: {payload}")

    page.on("websocket", lambda ws: ws.on("framereceived", frame))
    page.on("response", lambda r: r.status >= 400 and seen.append(f"http {r.status}: {r.url}"))
    return seen


def open_game(new_page, base: str, game_id: str, tokens: list[str], viewport=None, seat: int | None = None):
    """The game in a new browser holding ``tokens`` (every seat, from 0), or only ``seat``'s."""
    page = new_page(viewport) if viewport else new_page()
    if seat is None:
        hold_seats(page, base, game_id, tokens)
    else:
        info = {game_id: {"seat": seat, "token": tokens[seat], "at": 0}}
        page.goto(base + "/healthz")
        page.evaluate("info => localStorage.setItem('qipan.seats', JSON.stringify(info))", info)
    page.goto(f"{base}/g/{game_id}")
    page.wait_for_selector("#board svg", timeout=TIMEOUT)
    return page


# -- previews ------------------------------------------------------------------------------
def test_trax_faces_are_pictured_and_the_one_clicked_is_played(live_server, new_page):
    base = live_server.base
    game_id, tokens = new_game(base, "trax")
    page = open_game(new_page, base, game_id, tokens)
    page.locator('#board [data-target="@0"].qp-target').click(force=True)
    buttons = page.locator("#choices button.choice")
    assert buttons.count() == 2  # the two faces that fit the first cell
    page.wait_for_selector("#choices button.choice .thumb svg", timeout=TIMEOUT)
    second = buttons.nth(1).get_attribute("data-choice")
    buttons.nth(1).hover()
    page.wait_for_selector("#board.previewing", timeout=TIMEOUT)
    assert page.locator("#board .last-move").count() == 1  # the face in place, nothing played yet
    assert game_state(base, game_id)["ply"] == 0
    buttons.nth(1).click()
    wait_ply(page, 1)
    assert game_state(base, game_id)["moves"][0]["text"] == second
    assert page.errors == []


def test_trax_preview_draws_the_forced_tiles_faintly(live_server, new_page):
    base = live_server.base
    game_id, tokens = new_game(base, "trax")
    state = qipan.load("trax").new()
    state.play_many(["@0/", "A0+"])
    # A placement that forces tiles, as the rules say.
    forcing = next(m for m in state.legal_moves() if _forces(state, m))
    play(base, game_id, tokens, ["@0/", "A0+"])
    page = open_game(new_page, base, game_id, tokens)
    wait_ply(page, 2)
    page.locator(f'#board [data-target="{forcing.path[0]}"].qp-target').click(force=True)
    page.locator(f'#choices button[data-choice="{forcing.path[1]}"]').hover()
    page.wait_for_selector("#board.previewing .forced", timeout=TIMEOUT)
    opacity = page.evaluate("getComputedStyle(document.querySelector('#board .forced')).opacity")
    assert float(opacity) < 0.6


def _forces(state, move) -> bool:
    after = state.copy()
    after.play(move)
    return len(after.last_turn()) > 1


def test_tantrix_rotations_cycle_with_r_through_the_legal_ones_only(live_server, new_page):
    base = live_server.base
    game_id, tokens = new_game(base, "tantrix", seed=3)
    data = _to_free_move(base, game_id, tokens)
    seat = data["to_move"]
    move = data["legal"][0]
    tile, cell = move["path"][0], move["path"][1]
    legal_rotations = [m["path"][2] for m in data["legal"] if m["path"][:2] == [tile, cell]]
    page = open_game(new_page, base, game_id, tokens)
    wait_ply(page, data["ply"])
    page.locator(f'#board [data-target="{tile}"].qp-target').click(force=True)
    page.locator(f'#board [data-target="{cell}"].qp-target').click(force=True)
    buttons = page.locator("#choices button.choice")
    assert [buttons.nth(i).get_attribute("data-choice") for i in range(buttons.count())] == legal_rotations
    page.wait_for_selector("#board.previewing", timeout=TIMEOUT)  # the ghost of the first one
    page.keyboard.press("r")
    if len(legal_rotations) > 1:
        assert (
            page.locator("#choices button.choice.current").get_attribute("data-choice") == legal_rotations[1]
        )
    chosen = page.locator("#choices button.choice.current").get_attribute("data-choice")
    page.keyboard.press("Enter")
    page.wait_for_function(f"document.getElementById('status').dataset.ply > {data['ply']}", timeout=TIMEOUT)
    played = next(m["text"] for m in game_state(base, game_id)["moves"][data["ply"] :] if m["player"] == seat)
    assert played == next(m["text"] for m in data["legal"] if m["path"] == [tile, cell, chosen])


def _to_free_move(base: str, game_id: str, tokens: list[str]) -> dict:
    """The state at the first turn whose moves end in a rotation choice (seat's view)."""
    for _ in range(50):
        public = game_state(base, game_id)
        data = game_state(base, game_id, tokens[public["to_move"]])
        if data["legal"] and len(data["legal"][0]["path"]) == 3:
            return data
        play(base, game_id, tokens, [data["legal"][0]["text"]])
    raise AssertionError("no placement turn reached")


def test_on_a_touch_screen_a_choice_waits_for_confirm(live_server, new_page, browser):
    base = live_server.base
    game_id, tokens = new_game(base, "trax")
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        hold_seats(page, base, game_id, tokens)
        page.goto(f"{base}/g/{game_id}")
        page.wait_for_selector("#board svg", timeout=TIMEOUT)
        page.locator('#board [data-target="@0"].qp-target').tap(force=True)
        choice = page.locator("#choices button.choice").nth(1)
        wanted = choice.get_attribute("data-choice")
        choice.tap()
        page.wait_for_selector("#board.previewing", timeout=TIMEOUT)
        assert game_state(base, game_id)["ply"] == 0  # selected, not played
        page.locator("#choices button.confirm").tap()
        wait_ply(page, 1)
        assert game_state(base, game_id)["moves"][0]["text"] == wanted
    finally:
        context.close()


# -- clearer boards -----------------------------------------------------------------------------
FIVE = ["K10", "A1", "L10", "A2", "M10", "A4", "N10", "A5", "O10"]


def test_the_winning_line_is_highlighted_as_the_outcome_names_it(live_server, new_page):
    base = live_server.base
    game_id, tokens = new_game(base, "pente")
    play(base, game_id, tokens, FIVE)
    page = open_game(new_page, base, game_id, tokens)
    wait_status(page, "over")
    cells = game_state(base, game_id)["result"]["cells"]
    shown = page.eval_on_selector_all(
        "#board .qp-win", "ns => ns.map(n => n.dataset.target || n.dataset.cell)"
    )
    assert sorted(shown) == sorted(cells) == sorted(FIVE[0::2])
    result = page.text_content("#result")
    assert "Ann (White) wins" in result and "five in a row" in result


def test_trax_loop_is_highlighted(live_server, new_page):
    base = live_server.base
    state = qipan.load("trax").new(seed=2)
    import random

    rng = random.Random(2)
    while state.outcome is None:
        state.play(state.random_move(rng))
    assert state.outcome.cells
    game_id, tokens = new_game(base, "trax")
    play(base, game_id, tokens, [m.text for m in state.history])
    page = open_game(new_page, base, game_id, tokens)
    wait_status(page, "over")
    shown = page.eval_on_selector_all("#board .qp-win", "ns => ns.map(n => n.dataset.cell)")
    assert sorted(shown) == sorted(state.outcome.cells)


def play_random_to_the_end(base: str, game_id: str, tokens: list[str], seed: int) -> dict:
    """Seeded random legal moves (the server draws the chance moves) until the game ends."""
    import random

    rng = random.Random(seed)
    state = game_state(base, game_id)
    while state["status"] == "active":
        token = tokens[state["to_move"]]
        legal = game_state(base, game_id, token)["legal"]
        reply = httpx.post(
            f"{base}/api/games/{game_id}/move", json={"move": rng.choice(legal)["text"]}, headers=auth(token)
        )
        reply.raise_for_status()
        state = reply.json()  # the game after the move (as the mover sees it)
    return state


def shown_winning_cells(page) -> list[str]:
    return sorted(
        page.eval_on_selector_all("#board .qp-win", "ns => ns.map(n => n.dataset.cell || n.dataset.target)")
    )


@pytest.mark.parametrize(("preset", "players"), [("tantrix", 2), ("modx", 2), ("modx-4", 4)])
def test_tantrix_and_modx_results_are_highlighted(live_server, new_page, preset, players):
    base = live_server.base
    for seed in range(4):  # a seed whose game names cells (a MOD X tie on points names none)
        game_id, tokens = new_game(base, preset, players=players, seed=seed)
        cells = play_random_to_the_end(base, game_id, tokens, seed)["result"].get("cells", [])
        if cells:
            break
    assert cells
    page = open_game(new_page, base, game_id, tokens)
    wait_status(page, "over")
    assert shown_winning_cells(page) == sorted(cells)
    # Read in one step in the page: the board may be drawn again meanwhile (a fresh-clone run
    # once evaluated an svg that a redraw had just detached, with no parent left).
    marked = "() => document.querySelector('#board svg')?.parentElement?.classList.contains('has-win')"
    page.wait_for_function(marked, timeout=10_000)


def test_pipe_mania_highlights_the_pipe_the_flow_went_through(live_server, new_page):
    from qipan.games.pipemania.planner import plan

    base = live_server.base
    options = {"levels": 1}
    game_id, tokens = new_game(base, "pipemania-choice", players=1, seed=3, options=options, realtime=0.1)
    level = qipan.load("pipemania-choice", **options).new(seed=3).boards[0].level
    found = plan(level)  # free choice of pieces: a pipeline that reaches the drain
    for text in found.actions(level.cols, with_piece=True):  # long before the flow starts
        while True:  # real time: at most 3 moves wait for their ticks
            r = httpx.post(f"{base}/api/games/{game_id}/move", json={"move": text}, headers=auth(tokens[0]))
            if r.status_code != 409:
                r.raise_for_status()
                break
            time.sleep(0.05)
    deadline = time.monotonic() + 120
    while game_state(base, game_id)["status"] == "active" and time.monotonic() < deadline:
        time.sleep(0.2)  # the ticks go on by themselves until the flow ends
    result = game_state(base, game_id)["result"]
    assert result["winners"] == [0], result  # the flow reached the drain
    cells = result["cells"]
    assert len(cells) >= len(found.pipeline)  # the whole pipeline, start and drain
    page = open_game(new_page, base, game_id, tokens)
    wait_status(page, "over")
    assert shown_winning_cells(page) == sorted(cells)


def test_the_page_says_which_colour_you_are(live_server, new_page):
    base = live_server.base
    game_id, tokens = new_game(base, "pente-4", players=4)
    page = open_game(new_page, base, game_id, tokens, seat=2)
    assert page.text_content("#you-are") == "you are Red"
    mine = page.locator("#seats li.mine")
    assert mine.count() == 1 and "Red" in mine.text_content() and "you" in mine.text_content()
    assert page.locator("#seats li .swatch").count() == 4


def test_results_name_the_winners_and_their_colours(live_server, new_page):
    base = live_server.base
    game_id, tokens = new_game(base, "pente-team", players=4)
    httpx.post(f"{base}/api/games/{game_id}/resign", headers=auth(tokens[0])).raise_for_status()
    page = open_game(new_page, base, game_id, tokens[:1])
    wait_status(page, "over")
    result = page.text_content("#result")
    assert "winners" not in result and "Bob (Black)" in result and "Di (Blue)" in result


def test_an_illegal_click_is_explained_with_the_rules_reason(live_server, new_page):
    base = live_server.base
    game_id, tokens = new_game(base, "pente")
    play(base, game_id, tokens, ["K10"])
    page = open_game(new_page, base, game_id, tokens)
    wait_ply(page, 1)
    page.locator('#board [data-target="K10"]').click(force=True)
    page.wait_for_function("document.getElementById('error').textContent.length > 0", timeout=TIMEOUT)
    reason = httpx.get(f"{base}/api/games/{game_id}/preview", params={"move": "K10"}).json()["error"]
    assert page.text_content("#error") == reason and game_state(base, game_id)["ply"] == 1


def test_targets_are_subtle_and_big_enough_on_a_phone(live_server, new_page, browser):
    base = live_server.base
    game_id, tokens = new_game(base, "pente")
    play(base, game_id, tokens, ["K10"])  # (the first stone goes on the centre: one target)
    desktop = open_game(new_page, base, game_id, tokens)
    wait_ply(desktop, 1)
    assert desktop.locator("#board.many-targets").count() == 1  # 361 points: shown on hover only
    stroke = desktop.evaluate("getComputedStyle(document.querySelector('#board .qp-target')).strokeOpacity")
    colour = desktop.evaluate("getComputedStyle(document.querySelector('#board .qp-target')).stroke")
    assert colour in ("none", "transparent", "rgba(0, 0, 0, 0)") or float(stroke) == 0
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        hold_seats(page, base, game_id, tokens)
        page.goto(f"{base}/g/{game_id}")
        page.wait_for_selector("#board.zoomed", timeout=TIMEOUT)
        # Neighbouring points' centres at least 32 px apart (a tap goes to the nearest).
        spacing = page.evaluate(
            """() => { const c = Array.from(document.querySelectorAll('#board .qp-target'))
                .map(n => n.getBoundingClientRect()).map(r => [r.x + r.width / 2, r.y + r.height / 2]);
              return Math.min(...c.map(([x, y], i) => Math.min(...c.filter((_, j) => j !== i)
                .map(([u, v]) => Math.hypot(u - x, v - y))))); }"""
        )
        assert spacing >= 31.5
    finally:
        context.close()


def test_replay_buttons_are_drawn(live_server, new_page):
    base = live_server.base
    game_id, tokens = new_game(base, "pente")
    play(base, game_id, tokens, FIVE)
    page = new_page()
    page.goto(f"{base}/replay/{game_id}")
    wait_ply(page, 0)
    for button in ("first", "prev", "next", "last"):
        box = page.locator(f"#replay-{button} svg").bounding_box()
        assert box and box["width"] >= 10 and box["height"] >= 10
    page.click("#replay-last")
    wait_ply(page, len(FIVE))


def test_an_agreed_draw_hides_the_offer(live_server, new_page):
    base = live_server.base
    game_id, tokens = new_game(base, "pente")
    page = open_game(new_page, base, game_id, tokens[:1])
    httpx.post(
        f"{base}/api/games/{game_id}/draw", json={"action": "offer"}, headers=auth(tokens[1])
    ).raise_for_status()
    page.wait_for_function(
        "document.getElementById('offers').textContent.includes('Draw offered')", timeout=TIMEOUT
    )
    httpx.post(
        f"{base}/api/games/{game_id}/draw", json={"action": "accept"}, headers=auth(tokens[0])
    ).raise_for_status()
    wait_status(page, "over")
    assert page.text_content("#offers") == "" and not page.locator("#offers").is_visible()


def test_a_flagged_clock_shows_zero(live_server, new_page):
    base = live_server.base
    game_id, tokens = new_game(base, "pente", clock={"mode": "move", "initial": 1.0})
    page = open_game(new_page, base, game_id, tokens[:1])
    wait_status(page, "over")
    assert page.text_content('[data-clock="0"]') == "0.0"


def test_a_banner_and_reconnecting_when_the_server_goes_away(tmp_path, new_page):
    port = free_port()
    db = f"sqlite:///{tmp_path / 'down.sqlite3'}"
    server = ServerProcess(db, port).start()
    try:
        game_id, tokens = new_game(server.base, "pente")
        page = open_game(new_page, server.base, game_id, tokens[:1])
        wait_status(page, "active")
        server.kill()
        page.wait_for_selector("#connection:not([hidden])", timeout=TIMEOUT)
        assert "cannot be reached" in page.text_content("#connection")
        server = ServerProcess(db, port).start()
        page.wait_for_selector("#connection[hidden]", state="attached", timeout=30_000)
        httpx.post(f"{server.base}/api/games/{game_id}/move", json={"move": "K10"}, headers=auth(tokens[0]))
        wait_ply(page, 1)  # the page follows the game again by itself
        assert not any("Failed to fetch" in e for e in page.errors)
    finally:
        server.kill()


# -- Pente etiquette ----------------------------------------------------------------------------
def test_pente_announces_tria_and_tessera(live_server, new_page):
    base = live_server.base
    game_id, tokens = new_game(base, "pente")
    play(base, game_id, tokens, ["K10", "A1", "L10", "A2", "M10"])
    page = open_game(new_page, base, game_id, tokens)
    wait_ply(page, 5)
    assert page.text_content("#announce") == "Ann (White): Tria!"
    play(base, game_id, tokens, ["A4", "N10"])
    wait_ply(page, 7)
    assert page.text_content("#announce") == "Ann (White): Tessera!"
    assert page.locator('#board .captures[data-player="0"]').count() == 1  # captured pairs beside the board


def test_pente_announces_in_chinese(live_server, browser):
    base = live_server.base
    game_id, tokens = new_game(base, "pente")
    play(base, game_id, tokens, ["K10", "A1", "L10", "A2", "M10"])
    context = browser.new_context(locale="zh-TW", extra_http_headers={"Accept-Language": "zh-TW"})
    try:
        page = context.new_page()
        hold_seats(page, base, game_id, tokens)
        page.goto(f"{base}/g/{game_id}")
        wait_ply(page, 5)
        assert "活三" in page.text_content("#announce") and "輪到" in page.text_content("#status")
    finally:
        context.close()


# -- Pipe Mania in real time ----------------------------------------------------------------------
def cell_centre(page, cell: str) -> tuple[float, float]:
    """The centre of a board cell on the screen (its node may be replaced by a tick's redraw
    while it is read: read again)."""
    from playwright.sync_api import Error as PlaywrightError

    for _ in range(20):
        try:
            box = page.locator(f'#board [data-target="{cell}"]').bounding_box(timeout=5_000)
        except PlaywrightError:  # replaced between being found and measured
            box = None
        if box:
            return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        time.sleep(0.05)
    raise AssertionError(f"cell {cell} never found on the board")


def test_pipe_mania_ticks_at_the_clocks_pace_with_fast_clicks(live_server, new_page):
    """Three cells clicked at once: the ticks do not speed up (the ply does not jump by the
    clicks), and the placements are played one per tick, in the order clicked."""
    base = live_server.base
    game_id, tokens = new_game(base, "pipemania", players=1, realtime=1.0)
    page = open_game(new_page, base, game_id, tokens)
    refusals = watch_refusals(page)
    wait_ply_at_least(page, game_state(base, game_id)["ply"])  # the page is up (the clock ticks on)
    data = game_state(base, game_id, tokens[0])
    start = data["ply"]
    cells = [m["path"][0] for m in data["legal"] if m["text"].startswith("p")][:3]
    # Where the cells are, read first; then three quick clicks there, as a person makes them,
    # whatever redraw the ticks make meanwhile (the cells' nodes are replaced at each tick).
    centres = [cell_centre(page, cell) for cell in cells]
    for x, y in centres:
        page.mouse.click(x, y)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        moves = game_state(base, game_id)["moves"]
        if sum(1 for m in moves[start:] if m["player"] == 0 and m["text"] != "-") >= len(cells):
            break
        time.sleep(0.2)
    placed = [ply for ply, m in enumerate(moves) if ply >= start and m["player"] == 0 and m["text"] != "-"]
    assert [moves[ply]["text"] for ply in placed[:3]] == [f"p{c}" for c in cells], refusals
    db_url = getattr(live_server, "db_url", None)
    if db_url:
        # One placement a tick, at the clock's pace whatever the clicks: the server's own
        # times of the stored moves are a tick (1 s) apart, never a burst.
        at = [row.at for row in move_rows(db_url, game_id)]
        times = [at[ply] for ply in placed[:3]]
        assert all(later - earlier >= 0.9 for earlier, later in itertools.pairwise(times)), times
    httpx.post(f"{base}/api/games/{game_id}/resign", headers=auth(tokens[0]))


@pytest.mark.parametrize("preset", ["pipemania", "pipemania-classic"])
def test_real_time_presets_are_real_time_in_the_lobby(live_server, new_page, preset):
    page = new_page()
    page.goto(live_server.base + "/")
    page.select_option("#game-select", preset)
    tick = qipan.load(preset).realtime_tick
    assert float(page.input_value("input[name=realtime]")) == tick
    page.select_option("#game-select", "pente")
    assert page.input_value("input[name=realtime]") == ""
