"""The texts the games draw in their own pictures (captions, legends, labels, tooltips)
follow the page's language: every such text reached in play, on every shipped preset, has
a Traditional Chinese translation that leaves no English word (locales/picture.*.json with
the errors' templates for the results' reasons)."""

from __future__ import annotations

import html
import random
import re

import pytest
from test_i18n import shipped_games

from qipan.core import load
from qipan.server import i18n, rules_pages

#: An English word (coordinates such as K10 or a1, colour letters R B Y O, piece names NE
#: and notation fragments are shorter and read the same in every language).
WORD = re.compile(r"[A-Za-z]{3,}")
LEAF_TEXT = re.compile(r"<(text|title)\b[^>]*>([^<]*)</\1>")
PLIES = 160


def picture_texts(svg: str) -> set[str]:
    return {html.unescape(m.group(2)).strip() for m in LEAF_TEXT.finditer(svg)} - {""}


def texts_in_play(preset: str) -> set[str]:
    """Every text the preset's pictures draw over seeded random games for each number of
    players, from the start to the end (or PLIES plies)."""
    spec = next(g for g in shipped_games() if g.id == preset)
    found: set[str] = set()
    for players in spec.players:
        for seed in range(2):
            state = load(preset).new(players=players, seed=seed)
            rng = random.Random(seed)
            for _ in range(PLIES):
                found |= picture_texts(state.svg())
                if state.outcome is not None:
                    break
                state.play(state.random_move(rng))
            found |= picture_texts(state.svg())
    return found


def untranslated(texts) -> list[tuple[str, str | None]]:
    out = []
    for text in sorted(texts):
        if not WORD.search(text):
            continue
        done = i18n.translate_caption(text, "zh-TW")
        if done is None or WORD.search(done):
            out.append((text, done))
    return out


@pytest.mark.parametrize("preset", [g.id for g in shipped_games()])
def test_every_text_a_picture_draws_has_a_chinese_translation(preset):
    assert untranslated(texts_in_play(preset)) == []


@pytest.mark.parametrize("family", sorted({g.family for g in shipped_games()}))
def test_rules_page_diagrams_are_drawn_in_the_pages_language(family):
    preset = next(g.id for g in shipped_games() if g.family == family)
    page = rules_pages.page(preset, "zh-TW")["html"]
    figures = re.findall(r"<figure .*?</figure>", page, re.S)
    assert figures
    texts = set().union(*(picture_texts(f) for f in figures))
    assert [t for t in texts if WORD.search(t)] == []
    english = rules_pages.page(preset, "en")["html"]
    assert english.count("<svg") == page.count("<svg")


def test_a_missing_translation_is_found():
    assert untranslated({"level 1 (reach the drain), tick 3: over", "K10", "P2 Black"}) == []
    assert untranslated({"a caption nobody wrote"}) == [("a caption nobody wrote", None)]


def test_the_svg_keeps_everything_but_its_texts():
    svg = (
        '<svg><text x="1" class="c">Game over: all tiles are placed</text><title>K10</title>'
        '<text>hurry</text><g data-target="hurry"><text><tspan>free move</tspan></text></g></svg>'
    )
    done = i18n.translate_svg(svg, "zh-TW")
    assert '<text x="1" class="c">對局結束：拼塊都放完了</text>' in done or "對局結束：" in done
    assert "<title>K10</title>" in done and "<text>加速</text>" in done
    assert 'data-target="hurry"' in done and "<tspan>free move</tspan>" in done  # only leaf texts
    assert i18n.translate_svg(svg, "en") == svg
    escaped = i18n.translate_svg(
        "<svg><text>player 1 to act (p&lt;row&gt;,&lt;col&gt;, - to pass, h to hurry)</text></svg>", "zh-TW"
    )
    assert "&lt;" not in escaped and "<text>玩家 1 行動" in escaped


def test_both_catalogues_have_the_same_picture_keys():
    en = {k for k in i18n.own_messages("en") if k.startswith(i18n.PICTURE_PREFIX)}
    zh = {k for k in i18n.own_messages("zh-TW") if k.startswith(i18n.PICTURE_PREFIX)}
    assert en == zh and en
    assert [t["key"] for t in i18n.picture_templates()][:3] == list(i18n.PICTURE_PARTS)


def test_a_reference_picture_follows_the_browsers_language(client):
    """The lobby's Tantrix tile gallery (``Game.pictures``) is served in the page's language."""
    zh = client.get("/api/specs/tantrix/pictures/tiles", headers={"accept-language": "zh-TW"})
    en = client.get("/api/specs/tantrix/pictures/tiles", headers={"accept-language": "en"})
    assert zh.status_code == en.status_code == 200
    assert "The 56 Tantrix tiles by number" in en.text
    assert "56 塊探索遊戲牌" in zh.text and "The 56 Tantrix tiles" not in zh.text
    switched = client.get("/api/specs/tantrix/pictures/tiles?lang=zh-TW", headers={"accept-language": "en"})
    assert "56 塊探索遊戲牌" in switched.text
    assert client.get("/api/specs/tantrix/pictures/tiles?lang=xx").status_code == 400
