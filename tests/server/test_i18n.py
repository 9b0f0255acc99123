"""The message catalogues: every key in both languages, placeholders that agree, the
endpoint's language choice."""

from __future__ import annotations

import json
import re

import pytest

from qipan.server import i18n

PLACEHOLDER = re.compile(r"\{(\w+)\}")
AREAS = sorted({p.name.split(".")[0] for p in i18n.LOCALES.glob("*.json")})


def test_every_catalogue_file_is_a_flat_table_of_strings_with_a_twin_in_each_language():
    assert "site" in AREAS
    for area in AREAS:
        for lang in i18n.LANGUAGES:
            path = i18n.LOCALES / f"{area}.{lang}.json"
            assert path.exists(), f"{area} has no {lang} catalogue"
            i18n.read_catalogue(path)


@pytest.mark.parametrize("area", AREAS)
def test_every_key_has_a_translation_in_every_language(area):
    tables = {lang: i18n.read_catalogue(i18n.LOCALES / f"{area}.{lang}.json") for lang in i18n.LANGUAGES}
    keys = set().union(*tables.values())
    for lang, table in tables.items():
        missing = sorted(keys - set(table))
        assert not missing, f"{area}.{lang}.json lacks {missing[:20]}"
        empty = sorted(k for k, v in table.items() if not v.strip())
        assert not empty, f"{area}.{lang}.json has empty messages {empty[:20]}"


@pytest.mark.parametrize("area", AREAS)
def test_translations_use_the_same_placeholders(area):
    en = i18n.read_catalogue(i18n.LOCALES / f"{area}.en.json")
    for lang in i18n.LANGUAGES:
        other = i18n.read_catalogue(i18n.LOCALES / f"{area}.{lang}.json")
        for key, text in en.items():
            assert set(PLACEHOLDER.findall(other[key])) == set(PLACEHOLDER.findall(text)), (lang, key)


def test_chinese_messages_are_chinese():
    """A zh-TW message copied from English by mistake: every one with letters in it must
    hold at least one CJK character, unless it is a name or notation kept as it is."""
    zh = i18n.own_messages("zh-TW")
    en = i18n.own_messages("en")
    copied = [
        k for k, v in zh.items() if v == en.get(k) and re.search(r"[A-Za-z]{4,}", PLACEHOLDER.sub("", v))
    ]
    allowed = {k for k in copied if k.startswith(("brand", "notation."))}
    assert sorted(set(copied) - allowed) == []


def test_no_two_catalogues_define_a_key_differently(tmp_path, monkeypatch):
    (tmp_path / "a.en.json").write_text(json.dumps({"x": "one"}), encoding="utf-8")
    (tmp_path / "b.en.json").write_text(json.dumps({"x": "two"}), encoding="utf-8")
    monkeypatch.setattr(i18n, "LOCALES", tmp_path)
    i18n.own_messages.cache_clear()
    try:
        with pytest.raises(ValueError, match="'x'"):
            i18n.own_messages("en")
    finally:
        i18n.own_messages.cache_clear()


def test_a_catalogue_that_is_not_flat_is_refused(tmp_path):
    path = tmp_path / "bad.en.json"
    path.write_text(json.dumps({"x": {"nested": "no"}}), encoding="utf-8")
    with pytest.raises(ValueError, match="bad.en.json"):
        i18n.read_catalogue(path)


@pytest.mark.parametrize(
    "header, lang",
    [
        ("zh-TW,zh;q=0.9,en;q=0.8", "zh-TW"),
        ("zh-HK", "zh-TW"),
        ("zh", "zh-TW"),
        ("en-US,en;q=0.9", "en"),
        ("en;q=0.5, zh-TW;q=0.9", "zh-TW"),
        ("fr-FR, de", "en"),
        ("fr, zh-tw;q=0.1", "zh-TW"),
        ("zh-TW;q=0, en", "en"),
        ("zh-TW;q=abc, en", "en"),
        ("", "en"),
        (None, "en"),
    ],
)
def test_accept_language_picks_the_language(header, lang):
    assert i18n.negotiate(header) == lang


def test_the_endpoint_follows_accept_language_or_the_asked_language(client):
    zh = client.get("/api/i18n", headers={"Accept-Language": "zh-TW,zh;q=0.9"})
    assert zh.status_code == 200 and zh.json()["lang"] == "zh-TW"
    assert zh.json()["messages"]["site.language"] == "語言"
    assert "Accept-Language" in zh.headers["vary"]
    en = client.get("/api/i18n?lang=en", headers={"Accept-Language": "zh-TW"}).json()
    assert en["lang"] == "en" and en["messages"]["site.language"] == "Language"
    bad = client.get("/api/i18n?lang=xx")
    assert bad.status_code == 400 and "zh-TW" in bad.json()["error"]


def test_error_templates_are_the_english_error_keys_most_literal_first():
    templates = i18n.error_templates()
    english = i18n.own_messages("en")
    assert {t["key"] for t in templates} == {k for k in english if k.startswith("error.")}
    literal = [len(PLACEHOLDER.sub("", t["template"])) for t in templates]
    assert literal == sorted(literal, reverse=True)
