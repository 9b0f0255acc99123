"""The rules pages: each game family's rules text in English and Traditional Chinese, with
diagrams drawn by the game's own SVG from positions the rules build, and a short history.

A family's package holds (data only; see docs/i18n.md):

- ``rules.en.md`` and ``rules.zh-TW.md``: the text in a small Markdown subset (``#`` headings,
  paragraphs, ``-`` and ``1.`` lists, ``**bold**``, ```code```, ``[text](https://...)``), with
  ``{{diagram ID}}`` where a diagram goes and ``@only ID ID...`` / ``@all`` lines that show
  what follows on the pages of those presets only (or on all again);
- ``rules_page.json``: ``history`` (inventor, year, origin, names) and ``diagrams``: each an
  ``id``, the ``preset`` and ``players`` it is played in, the ``moves`` from the start (chance
  moves included, as the records write them) and a ``caption`` per language.

A move list the rules refuse is an error naming the diagram: the pages never draw a position
the rules could not reach (tests/server/test_rules_pages.py builds every one)."""

from __future__ import annotations

import html
import json
import random
import re
from functools import cache
from importlib import resources

from ..core import QipanError, load, spec, specs
from .errors import ApiError
from .i18n import LANGUAGES, translate_svg

DIAGRAM = re.compile(r"^\{\{diagram ([\w-]+)\}\}$")
ONLY = re.compile(r"^@only((?:\s+[\w-]+)+)$")
HEADING = re.compile(r"^(#{1,3}) (.+)$")
BULLET = re.compile(r"^- (.+)$")
NUMBERED = re.compile(r"^\d+\. (.+)$")
LINK = re.compile(r"\[([^\]]+)\]\(((?:https?://|/)[^)\s]+)\)")


def family_file(family: str, name: str) -> str:
    """A data file of the family's package; ApiError 404 when the family has none."""
    try:
        return resources.files(f"qipan.games.{family}").joinpath(name).read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError) as exc:
        raise ApiError(404, f"the {family} games have no rules page ({name})") from exc


@cache
def page_data(family: str) -> dict:
    data = json.loads(family_file(family, "rules_page.json"))
    if not isinstance(data, dict) or not isinstance(data.get("history"), dict):
        raise ValueError(f"{family}/rules_page.json needs a history object")
    return data


@cache
def diagram_svg(family: str, diagram_id: str) -> str:
    """The SVG of a diagram's position, played out by the rules from the start."""
    found = [d for d in page_data(family).get("diagrams", []) if d["id"] == diagram_id]
    if not found:
        raise ValueError(
            f"{family}: the rules text names a diagram {diagram_id!r} that rules_page.json lacks"
        )
    d = found[0]
    game = load(d["preset"], **d.get("options", {}))
    state = game.new(d.get("players"), seed=d.get("seed", 0))
    # "deal": chance moves (Tantrix draws, Pipe Mania's dispenser) not in the list are
    # drawn by a seeded generator, so a diagram lists only what the players do.
    deal = random.Random(d.get("seed", 0)) if d.get("deal") else None
    for ply, move in enumerate(d["moves"]):
        try:
            while deal is not None and state.is_chance:
                play_chance(state, deal)
            state.play(move)
        except QipanError as exc:
            raise ValueError(f"{family} diagram {diagram_id!r}, move {ply + 1} {move!r}: {exc}") from exc
    while deal is not None and state.is_chance:
        play_chance(state, deal)
    return state.svg()


def play_chance(state, rng: random.Random) -> None:
    outcomes = state.chance_outcomes()
    moves = [m for m, _ in outcomes]
    state.play(rng.choices(moves, weights=[p for _, p in outcomes])[0])


def inline(text: str) -> str:
    """Escape, then **bold**, `code` and [links](https://...) (local or http(s) only)."""
    out = html.escape(text, quote=False)
    out = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", out)
    out = re.sub(r"`(.+?)`", r"<code>\1</code>", out)
    return LINK.sub(lambda m: f'<a href="{html.escape(m.group(2))}">{m.group(1)}</a>', out)


def render(family: str, preset: str, lang: str, text: str) -> str:
    """The page's HTML: the blocks shown on ``preset``'s page, diagrams inlined."""
    captions = {d["id"]: d.get("caption", {}) for d in page_data(family).get("diagrams", [])}
    out: list[str] = []
    shown = True
    paragraph: list[str] = []
    items: list[str] = []
    list_tag = ""

    def flush() -> None:
        nonlocal list_tag
        if paragraph:
            out.append(f"<p>{inline(' '.join(paragraph))}</p>")
            paragraph.clear()
        if items:
            out.append(f"<{list_tag}>" + "".join(f"<li>{inline(i)}</li>" for i in items) + f"</{list_tag}>")
            items.clear()
            list_tag = ""

    for raw in text.splitlines():
        line = raw.strip()
        only = ONLY.match(line)
        if only or line == "@all":
            flush()
            shown = line == "@all" or preset in only.group(1).split()
            continue
        if not shown:
            continue
        if not line:
            flush()
            continue
        heading, bullet, numbered, diagram = (p.match(line) for p in (HEADING, BULLET, NUMBERED, DIAGRAM))
        if heading:
            flush()
            level = len(heading.group(1)) + 1  # the page's own title is the h1
            out.append(f"<h{level}>{inline(heading.group(2))}</h{level}>")
        elif diagram:
            flush()
            did = diagram.group(1)
            svg = translate_svg(diagram_svg(family, did), lang)  # the picture's own texts too
            caption = captions.get(did, {}).get(lang) or captions.get(did, {}).get("en", "")
            out.append(
                f'<figure class="diagram" data-diagram="{did}">{svg}<figcaption>{inline(caption)}</figcaption></figure>'
            )
        elif bullet or numbered:
            tag = "ul" if bullet else "ol"
            if paragraph or (items and list_tag != tag):
                flush()
            list_tag = tag
            items.append((bullet or numbered).group(1))
        elif items and raw.startswith("  "):
            items[-1] += " " + line  # a list item's continued line
        else:
            if items:
                flush()
            paragraph.append(line)
    flush()
    return "\n".join(out)


def localized(value, lang: str):
    """A history field: a plain value, or one per language ({"en": ..., "zh-TW": ...})."""
    if isinstance(value, dict):
        return value.get(lang) or value.get("en")
    return value


@cache
def page(preset: str, lang: str) -> dict:
    """What GET /api/rules/{preset} answers."""
    if lang not in LANGUAGES:
        raise ApiError(400, f"unknown language {lang!r}: one of {', '.join(LANGUAGES)}")
    try:
        game_spec = spec(preset)
    except QipanError as exc:
        raise ApiError(404, str(exc)) from exc
    family = game_spec.family
    text = family_file(family, f"rules.{lang}.md")
    data = page_data(family)
    return {
        "preset": preset,
        "family": family,
        "lang": lang,
        "title": game_spec.title,
        "players": list(game_spec.players),
        "html": render(family, preset, lang, text),
        "history": {k: localized(v, lang) for k, v in data["history"].items()},
        "presets": [{"id": g.id, "title": g.title} for g in specs() if g.family == family],
    }
