"""End-to-end fixtures: the real server in a subprocess and headless system Chromium."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "server"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from browser_steps import DESKTOP  # noqa: E402
from server_helpers import ServerProcess  # noqa: E402

CHROMIUM = os.environ.get("QIPAN_CHROMIUM") or shutil.which("chromium") or "chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"


class RunningServer:
    """A server someone started already (``QIPAN_E2E_SERVER=http://127.0.0.1:PORT``, with
    ``tests/server/serve_toys.py``): starting one takes minutes on a loaded machine."""

    def __init__(self, base: str):
        self.base = base.rstrip("/")


@pytest.fixture(scope="session")
def live_server(tmp_path_factory):
    if os.environ.get("QIPAN_E2E_SERVER"):
        yield RunningServer(os.environ["QIPAN_E2E_SERVER"])
        return
    db = f"sqlite:///{tmp_path_factory.mktemp('e2e') / 'e2e.sqlite3'}"
    # Every browser here comes from 127.0.0.1: two accounts there may still play rated.
    server = ServerProcess(db, env={"QIPAN_RATED_SAME_ADDRESS": "1"}).start()
    yield server
    server.kill()


@pytest.fixture(scope="module")
def browser():
    # Module scope, not session: Playwright's sync API keeps an asyncio loop running in the
    # main thread while it is open, and later tests call asyncio.run().
    if not Path(CHROMIUM).exists():
        # A newcomer's machine may lack it: the browser tests say so and the rest still runs.
        # CI must run them (.ci/run installs Chromium), so there a missing browser fails.
        message = f"Chromium is not installed at {CHROMIUM}: apt-get install -y chromium"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message + " (then the browser tests run)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="session")
def screenshots():
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


@pytest.fixture
def new_page(browser):
    """Pages in fresh browser contexts (separate localStorage, like separate people)."""
    contexts = []

    def make(viewport=DESKTOP):
        context = browser.new_context(viewport=viewport)
        contexts.append(context)
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda exc: page.errors.append(str(exc)))
        return page

    yield make
    for context in contexts:
        context.close()
