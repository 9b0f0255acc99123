"""The message catalogues: every key in both languages, placeholders that agree, the
endpoint's language choice."""

from __future__ import annotations

import json
import re
from pathlib import Path

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


def shipped_games():
    """The registry's games that qipan ships (not the server tests' toy games)."""
    import qipan.games
    from qipan.core import specs

    packages = {p.name for p in Path(qipan.games.__file__).parent.iterdir() if (p / "__init__.py").exists()}
    return [g for g in specs() if g.family in packages]


#: Names the Chinese text keeps as they are: the Pente seed (002) calls the game PENTE.
KEPT_AS_IS = {"family.pente", "preset.pente"}


def test_chinese_messages_are_not_english_copies():
    """A zh-TW message copied from English by mistake: one with an English word in it that
    reads exactly as the English message, unless it is a name kept as it is."""
    zh = i18n.own_messages("zh-TW")
    en = i18n.own_messages("en")
    copied = {
        k for k, v in zh.items() if v == en.get(k) and re.search(r"[A-Za-z]{4,}", PLACEHOLDER.sub("", v))
    }
    assert sorted(copied - KEPT_AS_IS) == []


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
    last = [t["key"] for t in templates[-len(i18n.SPLITTERS) :]]
    assert last == list(i18n.SPLITTERS)
    literal = [len(PLACEHOLDER.sub("", t["template"])) for t in templates[: -len(i18n.SPLITTERS)]]
    assert literal == sorted(literal, reverse=True)


def test_every_game_preset_family_and_option_has_its_words_in_both_languages():
    """The registry's titles, descriptions and option labels reach the lobby through the
    "registry" catalogues: a new game or option without them fails here."""
    for lang in i18n.LANGUAGES:
        table = i18n.own_messages(lang)
        wanted = set()
        for game in shipped_games():
            wanted |= {f"family.{game.family}", f"preset.{game.id}", f"preset.{game.id}.description"}
            for option in game.to_dict()["options"]:
                wanted |= {
                    f"option.{game.family}.{option['name']}",
                    f"option.{game.family}.{option['name']}.help",
                }
                wanted |= {f"choice.{c}" for c in option.get("choices") or [] if isinstance(c, str) and c}
        assert sorted(wanted - set(table)) == [], lang


#: The seeds' names (the seed articles): the zh-TW catalogue must call the games so.
SEED_NAMES = {
    "preset.nine-mens-morris": "九子棋",
    "preset.twelve-mens-morris": "十二子棋",
    "preset.six-mens-morris": "六子棋",
    "preset.zhiqi": "直棋",
    "preset.trax": "紐西蘭圍棋",
    "preset.tantrix": "探索遊戲",
    "preset.blackpath": "挖地道遊戲",
    "preset.pipemania": "接水管",
    "preset.modx": "十字連環棋",
    "family.morris": "莫里斯棋",
}


def test_game_names_are_the_seeds_names():
    zh = i18n.own_messages("zh-TW")
    for key, name in SEED_NAMES.items():
        assert zh[key] == name
    # Variants carry the family's name (三子棋 for both Three Men's Morris forms).
    for key in ("preset.trax-8x8", "preset.trax-loop"):
        assert "紐西蘭圍棋" in zh[key]
    for key in ("preset.three-mens-morris", "preset.three-mens-morris-kurna"):
        assert "三子棋" in zh[key]
