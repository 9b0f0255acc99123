"""The analysis page speaks both languages: its HTML and JavaScript show no English that
bypasses the translations (the site's own checks, test_i18n_ui_strings.py), every key it
uses is in the catalogues, and the zh-TW catalogue translates every English key."""

from __future__ import annotations

import json
import re

from test_i18n_ui_strings import WEB, untranslated_html, untranslated_js

LOCALES = WEB / "locales"


def catalogue(lang: str) -> dict:
    return json.loads((LOCALES / f"analysis.{lang}.json").read_text(encoding="utf-8"))


def test_the_page_shows_no_untranslated_text():
    assert untranslated_html((WEB / "analysis.html").read_text(encoding="utf-8")) == []
    assert untranslated_js((WEB / "analysis.js").read_text(encoding="utf-8")) == []


def test_every_key_the_page_uses_is_in_both_catalogues():
    text = (WEB / "analysis.html").read_text(encoding="utf-8") + (WEB / "analysis.js").read_text(
        encoding="utf-8"
    )
    used = set(re.findall(r'"(analysis\.\w+)"', text)) | set(re.findall(r'data-i18n="([^"]+)"', text))
    for pairs in re.findall(r'data-i18n-attr="([^"]+)"', text):
        used |= {p.split(":")[1].strip() for p in pairs.split(";") if p}
    english, chinese = catalogue("en"), catalogue("zh-TW")
    # The panels other pages share (the opening explorer) bring their own catalogues' keys.
    everywhere = {
        k for path in LOCALES.glob("*.en.json") for k in json.loads(path.read_text(encoding="utf-8"))
    }
    assert len(used) > 30 and sorted(used - set(english) - everywhere) == []
    assert set(chinese) == set(english)
    for key, message in english.items():  # the same {parameters}, and really translated
        assert set(re.findall(r"\{\w+\}", chinese[key])) == set(re.findall(r"\{\w+\}", message)), key
        assert chinese[key] != message or not re.search(r"[A-Za-z]{3}", message), key
