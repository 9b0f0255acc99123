"""The study pages (database, puzzles, position editor) show no English that skips the
translations, as the site's other pages (tests/server/test_i18n_ui_strings.py, whose
checker this reuses; it checks every script already), and every key they use exists."""

from __future__ import annotations

import re

import pytest
from test_i18n_ui_strings import WEB, Untranslated

from qipan.server import i18n

PAGES = ["database.html", "puzzles.html", "editor.html"]
SCRIPTS = ["database.js", "puzzles.js", "editor.js", "explorer.js", "move-board.js"]


@pytest.mark.parametrize("name", PAGES)
def test_page_text_goes_through_the_catalogues(name):
    parser = Untranslated()
    parser.feed((WEB / name).read_text(encoding="utf-8"))
    assert parser.found == []


@pytest.mark.parametrize("name", PAGES + SCRIPTS)
def test_every_key_the_study_pages_use_is_in_both_languages(name):
    text = (WEB / name).read_text(encoding="utf-8")
    keys = set(re.findall(r'(?:data-i18n="|:|t\(")((?:study|analysis|account|site)\.[a-z_0-9]+)', text))
    for lang in ("en", "zh-TW"):
        messages = i18n.table(lang)["messages"]
        assert keys - set(messages) == set(), lang
    # Keys made from data (a theme, a source) exist for every value the server sends.
    en = i18n.table("en")["messages"]
    for theme in ("loop", "line", "mill", "blocked"):
        assert f"study.theme_{theme}" in en
    for source in ("import", "site"):
        assert f"study.source_{source}" in en
