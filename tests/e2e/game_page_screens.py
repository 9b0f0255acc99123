"""Screenshots of the game page for every game, on a desktop and on a 390 px phone: each
game is created through the API with this browser holding both seats, played forward by
seeded random moves (so the pictures show a game under way, with a last move and, where
the game ended, its result), then photographed.

    .venv/bin/python -m tests.e2e.game_page_screens [OUT_DIR] [preset ...]

starts its own server (toy games included) and writes <preset>-desktop.png and
<preset>-phone.png (a script, not a test: photographing every game takes minutes)."""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

import httpx

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "server"))

from browser_steps import DESKTOP, PHONE, TIMEOUT  # noqa: E402

#: Presets photographed, with the plies of random moves played first (enough to show a
#: game under way on every board; Trax and Pente long enough to show their coordinates).
PLIES = {
    "pente": 18,
    "pente-4": 20,
    "trax": 14,
    "trax-8x8": 14,
    "tantrix": 10,
    "modx": 12,
    "modx-4": 12,
    "nine-mens-morris": 14,
    "zhiqi": 10,
    "blackpath": 8,
    "pipemania": 12,
    "pipemania-2p": 12,
    "tantrix-solitaire": 6,
    "tantrix-doubles": 10,
    "modx-3": 12,
    "pente-team": 16,
    "twelve-mens-morris": 14,
    "three-mens-morris": 6,
    "pipemania-race": 12,
    "blackpath-ww": 8,
}
#: Presets also photographed at the end of a random game (``<preset>-end-*.png``): the
#: result and its highlighted cells.
ENDS = ("pente", "trax", "tantrix", "modx", "blackpath", "nine-mens-morris")


def seats_for(players: int) -> list[dict]:
    names = ["Ann", "Bob", "Cy", "Di"]
    return [{"kind": "human", "name": names[i], "join": True} for i in range(players)]


def start_game(base: str, preset: str, plies: int, seed: int = 5) -> tuple[str, list[str]]:
    """A game of ``preset`` with every seat human, ``plies`` random moves in."""
    spec = next(s for s in httpx.get(f"{base}/api/specs").json()["games"] if s["id"] == preset)
    players = spec["players"][0]
    body = {"game": preset, "players": players, "seats": seats_for(players), "seed": seed}
    realtime = bool(spec.get("capabilities", {}).get("realtime_tick"))
    if realtime:
        body["realtime"] = 0.5  # a move waits for its tick: sent one tick at a time
    r = httpx.post(f"{base}/api/games", json=body)
    r.raise_for_status()
    data = r.json()
    tokens = [None] * players
    for s in data["seats"]:
        tokens[s["seat"]] = s["token"]
    rng = random.Random(seed)
    for _ in range(plies):
        state = httpx.get(
            f"{base}/api/games/{data['id']}", headers={"Authorization": f"Bearer {tokens[0]}"}
        ).json()
        if state["status"] != "active" or state["to_move"] is None:
            break
        token = tokens[state["to_move"]]
        state = httpx.get(
            f"{base}/api/games/{data['id']}", headers={"Authorization": f"Bearer {token}"}
        ).json()
        if not state["legal"]:
            break
        move = rng.choice(state["legal"])["text"]
        httpx.post(
            f"{base}/api/games/{data['id']}/move",
            json={"move": move},
            headers={"Authorization": f"Bearer {token}"},
        ).raise_for_status()
        while realtime and httpx.get(f"{base}/api/games/{data['id']}").json()["ply"] == state["ply"]:
            time.sleep(0.05)
    return data["id"], tokens


def hold_seats(page, base: str, game_id: str, tokens: list[str]) -> None:
    """This browser holds every seat (play on one screen), seat 0 first."""
    seats = [{"seat": i, "token": t} for i, t in enumerate(tokens)]
    info = {game_id: {"seat": 0, "token": tokens[0], "seats": seats, "at": 0}}
    page.goto(base + "/healthz")
    page.evaluate(f"localStorage.setItem('qipan.seats', {json.dumps(json.dumps(info))})")


def photograph(
    browser, base: str, preset: str, out: Path, plies: int | None = None, name: str | None = None
) -> list[Path]:
    game_id, tokens = start_game(base, preset, PLIES.get(preset, 10) if plies is None else plies)
    name = name or preset
    written = []
    for label, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        phone = label == "phone"
        context = browser.new_context(
            viewport=viewport, device_scale_factor=1, is_mobile=phone, has_touch=phone
        )
        page = context.new_page()
        page.on("pageerror", lambda exc, label=label: print(f"{preset} {label}: page error: {exc}"))
        page.on(
            "console",
            lambda msg, label=label: (
                msg.type in ("error", "warning") and print(f"{preset} {label}: {msg.text}")
            ),
        )
        hold_seats(page, base, game_id, tokens)
        page.goto(f"{base}/g/{game_id}")
        page.wait_for_selector("#board svg", timeout=TIMEOUT)
        page.wait_for_timeout(300)
        path = out / f"{name}-{label}.png"
        page.screenshot(path=str(path), full_page=True)
        written.append(path)
        context.close()
    return written


def main(argv: list[str]) -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("e2e_conftest", HERE / "conftest.py")
    conftest = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conftest)
    from playwright.sync_api import sync_playwright
    from server_helpers import ServerProcess

    out = Path(argv[0]) if argv else Path("screenshots")
    out.mkdir(parents=True, exist_ok=True)
    presets = argv[1:] or list(PLIES)
    import os
    import tempfile

    scratch = tempfile.TemporaryDirectory()
    running = os.environ.get("QIPAN_E2E_SERVER")  # a server already started (see conftest)
    server = None if running else ServerProcess(f"sqlite:///{Path(scratch.name) / 'screens.sqlite3'}").start()
    base = running.rstrip("/") if running else server.base
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=conftest.CHROMIUM, args=conftest.CHROMIUM_ARGS)
            for preset in presets:
                for path in photograph(browser, base, preset, out):
                    print("wrote", path)
                if preset in ENDS:
                    for path in photograph(browser, base, preset, out, plies=2000, name=f"{preset}-end"):
                        print("wrote", path)
            browser.close()
    finally:
        if server:
            server.kill()
        scratch.cleanup()


if __name__ == "__main__":
    main(sys.argv[1:])
