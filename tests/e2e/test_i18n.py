"""Languages in the browser: a zh-TW browser gets Chinese pages, an English one English; the
header's switch is remembered by the browser (and only by it); messages from the rules and
the server reach the page translated."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from browser_steps import DESKTOP, TIMEOUT  # noqa: E402

pytestmark = pytest.mark.e2e


@pytest.fixture
def context_for(browser):
    """Browser contexts with a locale (Accept-Language and navigator.languages)."""
    made = []

    def make(locale: str):
        context = browser.new_context(locale=locale, viewport=DESKTOP)
        made.append(context)
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda exc: page.errors.append(str(exc)))
        return page

    yield make
    for context in made:
        context.close()


def lobby(page, base: str) -> None:
    page.goto(base + "/")
    page.wait_for_selector("#game-select option", state="attached", timeout=TIMEOUT)
    page.wait_for_selector("#rules-list a", timeout=TIMEOUT)


def test_a_traditional_chinese_browser_gets_chinese_pages(live_server, context_for):
    page = context_for("zh-TW")
    lobby(page, live_server.base)
    assert page.evaluate("document.documentElement.lang") == "zh-TW"
    assert page.text_content("#new-game h2") == "新對局"
    assert page.text_content("#create-button") == "建立對局"
    names = page.eval_on_selector_all("#game-select option", "os => os.map(o => o.textContent)")
    for name in ("九子棋", "直棋", "紐西蘭圍棋", "探索遊戲", "挖地道遊戲", "接水管", "十字連環棋"):
        assert name in names
    assert "莫里斯棋" in page.eval_on_selector_all("#game-select optgroup", "gs => gs.map(g => g.label)")
    assert page.input_value(".language-switch") == "zh-TW"
    page.goto(live_server.base + "/account")
    page.wait_for_selector("#login-button", state="attached", timeout=TIMEOUT)
    assert page.text_content("#login-button") == "登入"
    assert page.title() == "qipan — 帳號"
    assert page.errors == []


def test_an_english_browser_gets_english_pages(live_server, context_for):
    page = context_for("en-US")
    lobby(page, live_server.base)
    assert page.text_content("#new-game h2") == "New game"
    assert "Nine Men's Morris" in page.eval_on_selector_all(
        "#game-select option", "os => os.map(o => o.textContent)"
    )
    assert page.errors == []


def test_the_switch_is_remembered_by_this_browser_only(live_server, context_for):
    page = context_for("en-US")
    lobby(page, live_server.base)
    with page.expect_navigation(timeout=TIMEOUT):
        page.select_option(".language-switch", "zh-TW")
    page.wait_for_selector("#rules-list a", timeout=TIMEOUT)
    assert page.text_content("#new-game h2") == "新對局"
    assert page.evaluate("localStorage.getItem('qipan.lang')") == "zh-TW"
    # Another page of the site, and the same page again: still Chinese in this browser.
    page.goto(live_server.base + "/rules/trax")
    page.wait_for_selector("#rules-body figure.diagram svg", timeout=TIMEOUT)
    assert page.text_content("#rules-title") == "紐西蘭圍棋"
    # ... and back to English by the same switch.
    with page.expect_navigation(timeout=TIMEOUT):
        page.select_option(".language-switch", "en")
    page.wait_for_selector("#rules-body figure.diagram svg", timeout=TIMEOUT)
    assert page.text_content("#rules-title") == "Trax"
    # A browser that chose nothing follows its own language.
    other = context_for("en-US")
    lobby(other, live_server.base)
    assert other.text_content("#new-game h2") == "New game"
    assert page.errors == [] and other.errors == []


def test_a_refusal_from_the_rules_reaches_the_page_translated(live_server, context_for):
    page = context_for("zh-TW")
    lobby(page, live_server.base)
    page.select_option("#game-select", "pipemania")
    page.fill("input[name=opt_layout]", "S:E . / .")  # rows of different lengths
    page.click("#create-button")
    page.wait_for_function("document.getElementById('create-error').textContent.length > 0", timeout=TIMEOUT)
    assert page.text_content("#create-error") == "關卡配置的每一列必須有相同的格數"


def test_the_position_editor_speaks_chinese_and_says_why_a_position_is_impossible(live_server, context_for):
    page = context_for("zh-TW")
    page.goto(live_server.base + "/editor?game=pente")
    page.wait_for_selector("#board svg [data-target='K10']", timeout=TIMEOUT)
    assert page.title() == "qipan — 局面編輯器"
    assert page.text_content("#reset") == "初始局面"
    page.fill("#position-text", "1:K10,K10")  # one point given twice
    page.click("#apply-text")
    page.wait_for_function("document.getElementById('error').textContent.length > 0", timeout=TIMEOUT)
    assert page.text_content("#error") == "這個局面不可能出現：K10 出現了兩次"
    assert page.errors == []


def test_the_lobby_plays_the_computer_at_a_level(live_server, context_for):
    """Pick a game and a level: a game against the computer opens, the computer in the
    other seat (the levels the server lists, else its agents with a time per move)."""
    page = context_for("zh-TW")
    lobby(page, live_server.base)
    page.select_option("#computer-game", "three-mens-morris")
    if page.locator("#computer-level").count():
        labels = page.eval_on_selector_all("#computer-level option", "os => os.map(o => o.textContent)")
        assert len(labels) == 8 and labels[0].startswith("第 1 級")
        page.select_option("#computer-level", "2")
    else:
        assert page.locator("#computer-agent option").count() > 0
    page.click("#computer-button")
    page.wait_for_url("**/g/*", timeout=TIMEOUT)
    game_id = page.url.rstrip("/").split("/")[-1]
    import httpx

    state = httpx.get(f"{live_server.base}/api/games/{game_id}").json()
    kinds = [s["kind"] for s in state["seats"]]
    assert sorted(kinds) == ["bot", "human"]


def test_a_game_page_in_chinese_translates_its_picture_and_chat(live_server, context_for):
    """The game's own SVG texts (status line, buttons) and the chat follow the language."""
    import httpx

    base = live_server.base
    seats = [{"kind": "human", "name": n, "join": True} for n in ("Ann", "Bob")]
    data = httpx.post(f"{base}/api/games", json={"game": "pente", "players": 2, "seats": seats}).json()
    page = context_for("zh-TW")
    page.goto(f"{base}/g/{data['id']}")
    page.wait_for_selector("#board svg", timeout=TIMEOUT)
    status = page.eval_on_selector_all("#board svg text", "ns => ns.map(n => n.textContent)")
    assert any(s.startswith("吃子：") and "輪到：" in s for s in status), status
    page.wait_for_selector("#chat h3", timeout=TIMEOUT)
    assert page.text_content("#chat h3") == "聊天"
    assert page.text_content("#chat-tab-spectators") == "觀眾"
    assert page.errors == []
