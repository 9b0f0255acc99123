"""The rules pages: every shipped game and preset in both languages, diagrams the rules
build, a history; the Markdown subset; errors."""

from __future__ import annotations

import json
import re

import pytest
from test_i18n import shipped_games

from qipan.server import rules_pages
from qipan.server.i18n import LANGUAGES

PRESETS = [g.id for g in shipped_games()]
FAMILIES = sorted({g.family for g in shipped_games()})


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_preset_has_a_page_with_diagrams_and_a_history(preset, lang):
    page = rules_pages.page(preset, lang)
    figures = re.findall(r'<figure class="diagram" data-diagram="([\w-]+)"><svg', page["html"])
    assert figures, f"{preset} ({lang}) shows no diagram"
    assert "<h2>" in page["html"]
    history = page["history"]
    for field in ("names", "inventor", "year", "origin"):
        assert history.get(field), (preset, field)
    assert preset in {p["id"] for p in page["presets"]}


@pytest.mark.parametrize("family", FAMILIES)
def test_both_languages_show_the_same_diagrams_on_the_same_presets(family):
    """The two texts have the same structure: the same diagrams under the same @only lines."""

    def structure(lang):
        text = rules_pages.family_file(family, f"rules.{lang}.md")
        return [line.strip() for line in text.splitlines() if line.strip().startswith(("@", "{{"))]

    assert structure("en") == structure("zh-TW")


@pytest.mark.parametrize("family", FAMILIES)
def test_every_diagram_is_shown_somewhere_and_names_the_seeds_game(family):
    data = rules_pages.page_data(family)
    text = rules_pages.family_file(family, "rules.en.md")
    shown = set(re.findall(r"\{\{diagram ([\w-]+)\}\}", text))
    assert shown == {d["id"] for d in data["diagrams"]}
    for d in data["diagrams"]:
        assert set(d["caption"]) == set(LANGUAGES), d["id"]
    # The history names the game as the seeds do (the zh-TW catalogue's family name).
    from qipan.server.i18n import own_messages

    assert own_messages("zh-TW")[f"family.{family}"] in " ".join(data["history"]["names"])


def test_the_diagrams_are_positions_the_rules_reach():
    """The double mill of morris.md 9MM-1: the picture is the position after the removal
    (b4 gone), not a drawing of its own."""
    from qipan.core import load

    state = load("nine-mens-morris").new()
    for move in ["a7", "a1", "g7", "g1", "d6", "b4", "d5", "f4", "d7xb4"]:
        state.play(move)
    assert rules_pages.diagram_svg("morris", "double-mill") == state.svg()


def test_a_diagram_the_rules_refuse_is_an_error_naming_it(monkeypatch):
    bad = {"history": {}, "diagrams": [{"id": "wrong", "preset": "nine-mens-morris", "moves": ["a7", "a7"]}]}
    monkeypatch.setattr(rules_pages, "page_data", lambda family: bad)
    rules_pages.diagram_svg.cache_clear()
    try:
        with pytest.raises(ValueError, match=r"'wrong', move 2 'a7'"):
            rules_pages.diagram_svg("morris", "wrong")
        with pytest.raises(ValueError, match="lacks"):
            rules_pages.diagram_svg("morris", "missing")
    finally:
        rules_pages.diagram_svg.cache_clear()


def test_the_markdown_subset_escapes_and_scopes(monkeypatch):
    monkeypatch.setattr(rules_pages, "page_data", lambda family: {"history": {}, "diagrams": []})
    text = "\n".join(
        [
            "# Title",
            "A <b>bold</b> claim with **stars**, `code` and [a link](https://example.org/x).",
            "[no script](javascript:alert(1))",
            "",
            "- one",
            "  continued",
            "- two",
            "@only other-preset",
            "hidden text",
            "@all",
            "1. first",
        ]
    )
    html = rules_pages.render("morris", "zhiqi", "en", text)
    assert "<h2>Title</h2>" in html
    assert (
        "&lt;b&gt;bold&lt;/b&gt;" in html and "<strong>stars</strong>" in html and "<code>code</code>" in html
    )
    assert '<a href="https://example.org/x">a link</a>' in html
    assert 'href="javascript' not in html
    assert "<ul><li>one continued</li><li>two</li></ul>" in html
    assert "hidden text" not in html
    assert "<ol><li>first</li></ol>" in html


def test_the_endpoint_answers_in_the_asked_or_accepted_language(client):
    zh = client.get("/api/rules/zhiqi", headers={"Accept-Language": "zh-TW"})
    assert zh.status_code == 200 and zh.json()["lang"] == "zh-TW" and "擔" in zh.json()["html"]
    en = client.get("/api/rules/zhiqi?lang=en", headers={"Accept-Language": "zh-TW"}).json()
    assert en["lang"] == "en" and "carrying pole" in en["html"]
    assert client.get("/api/rules/no-such-game").status_code == 404
    bad = client.get("/api/rules/zhiqi?lang=fr")
    assert bad.status_code == 400 and "zh-TW" in bad.json()["error"]
    page = client.get("/rules/zhiqi")
    assert page.status_code == 200 and "rules.js" in page.text
    assert client.get("/rules").status_code == 200


def test_a_family_without_rules_files_is_a_404():
    from qipan.server.errors import ApiError

    with pytest.raises(ApiError) as exc:
        rules_pages.family_file("toy", "rules_page.json")
    assert exc.value.status == 404


def test_rules_page_json_files_are_well_formed():
    for family in FAMILIES:
        data = json.loads(rules_pages.family_file(family, "rules_page.json"))
        ids = [d["id"] for d in data["diagrams"]]
        assert len(ids) == len(set(ids)), family


def test_the_history_names_are_names_in_no_language_of_their_own():
    """Shown as they are on both languages' pages: a remark such as "五子棋 (its ancestor)"
    would leave English on the Chinese page and call Pente by another game's name."""
    for family in FAMILIES:
        names = json.loads(rules_pages.family_file(family, "rules_page.json"))["history"].get("names", [])
        for name in names:
            assert not re.search(r"\(.*[a-z].*\)", name), (family, name)
