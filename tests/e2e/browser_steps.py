"""What a person does in the browser: click a move's path, wait for the game to move on."""

from __future__ import annotations

import httpx

#: How long a step may wait for the page (ms). Patience, not a speed check (tests assert no
#: wall time): a fresh clone's full run on 2 slow cores, the servers compiling their kernels
#: beside the browsers, once left a Trax upload's replay short of its last ply after 20 s.
TIMEOUT = 60_000
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 860}


def css_string(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def click_path(page, path) -> None:
    """Click each target of a move's path: an SVG element highlighted as a target, or the
    button the page offers for a target that has no SVG element."""
    for target in path:
        node = page.locator(f'#board [data-target="{css_string(target)}"].qp-target')
        if node.count():
            node.first.click(force=True)
        else:
            page.locator(f'#choices button[data-choice="{css_string(target)}"]').click(timeout=TIMEOUT)


def wait_ply(page, ply: int) -> None:
    page.wait_for_selector(f'#status[data-ply="{ply}"]', state="attached", timeout=TIMEOUT)


def wait_ply_at_least(page, ply: int) -> None:
    """The page shows ``ply`` or a later one: in a real-time game the clock keeps ticking, so
    the page can move past a given ply before it is first drawn."""
    page.wait_for_function(
        "ply => Number(document.querySelector('#status')?.dataset.ply ?? -1) >= ply",
        arg=ply,
        timeout=TIMEOUT,
    )


def wait_status(page, status: str) -> None:
    page.wait_for_selector(f'#status[data-status="{status}"]', state="attached", timeout=TIMEOUT)


def game_state(base: str, game_id: str, token: str | None = None) -> dict:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return httpx.get(f"{base}/api/games/{game_id}", headers=headers).json()


def tokens_in_browser(page, game_id: str) -> dict[int, str]:
    """The seats (and their tokens) this browser holds for a game."""
    info = page.evaluate(f"JSON.parse(localStorage.getItem('qipan.seats'))['{game_id}']")
    out = {s["seat"]: s["token"] for s in info.get("seats", [])}
    out[info["seat"]] = info["token"]
    return out


def create_in_lobby(page, base: str, game: str, seats: list[str], realtime: float | None = None) -> str:
    """Fill the lobby's new-game form; ``seats`` are the seat choices ("me", "invite", "bot:random")."""
    page.goto(base + "/")
    page.select_option("#game-select", game)
    page.select_option("#players-select", str(len(seats)))
    if realtime is not None:
        page.fill("input[name=realtime]", str(realtime))
    for i, choice in enumerate(seats):
        page.select_option(f"select[name=seat_{i}]", choice)
        if choice.startswith("bot:"):
            page.fill(f"input[name=seat_time_{i}]", "0.2")
    page.click("#create-button")
    page.wait_for_url("**/g/*", timeout=TIMEOUT)
    return page.url.rstrip("/").split("/")[-1].split("#")[0]


PASSWORD = "a long enough password"


def sign_up(page, base: str, username: str, then: str = "/") -> None:
    """Sign up on the account page; the page then goes to ``then`` and shows the account."""
    page.goto(f"{base}/account?next={then}")
    page.fill("#signup-username", username)
    page.fill("#signup-password", PASSWORD)
    page.fill("#signup-again", PASSWORD)
    page.click("#signup-button")
    page.wait_for_url(f"{base}{then}", timeout=TIMEOUT)
    page.wait_for_selector("#me-link", timeout=TIMEOUT)
    assert page.text_content("#me-link") == username
