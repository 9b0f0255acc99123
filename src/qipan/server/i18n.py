"""The message catalogues of the web pages: every ``web/locales/<area>.<lang>.json`` (flat
key -> string) merged per language, and the language a request asks for.

English is the base: a language's table is English overlaid by its own messages, so a key
one catalogue lacks still reads (tests/server/test_i18n.py fails on any such key). Keys
under ``error.`` are also templates of the English messages the rules and the server send
(``"{point} is not empty"``); the page matches a message against them to translate it."""

from __future__ import annotations

import html
import json
import re
from functools import lru_cache
from pathlib import Path

LOCALES = Path(__file__).resolve().parent.parent / "web" / "locales"
LANGUAGES = ("en", "zh-TW")
DEFAULT = "en"
ERROR_PREFIX = "error."
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def catalogue_files(lang: str) -> list[Path]:
    return sorted(LOCALES.glob(f"*.{lang}.json"))


def read_catalogue(path: Path) -> dict[str, str]:
    """One catalogue file; anything but a flat object of strings is an error naming the file."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in data.items()
    ):
        raise ValueError(f"{path.name}: a catalogue is a flat JSON object of strings")
    return data


@lru_cache(maxsize=len(LANGUAGES))
def own_messages(lang: str) -> dict[str, str]:
    """The messages the catalogues of one language define (no fallback)."""
    merged: dict[str, str] = {}
    for path in catalogue_files(lang):
        for key, value in read_catalogue(path).items():
            if key in merged and merged[key] != value:
                raise ValueError(f"{path.name}: key {key!r} is defined differently by another catalogue")
            merged[key] = value
    return merged


def messages(lang: str) -> dict[str, str]:
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}: one of {', '.join(LANGUAGES)}")
    return own_messages(DEFAULT) | own_messages(lang)


#: Templates that split any message at a separator, tried after all others and in this
#: order: a chain of results ("a; b") is split before a "subject: reason" message.
SPLITTERS = ("error.core.joined", "error.core.prefixed")
#: The captions, legends and labels the games draw in their pictures (``picture.`` keys,
#: locales/picture.*.json) are templates too. A status line's parts joined by " | ",
#: " · " or " — " (no message holds these) are split first; a list (", ") last of all.
PICTURE_PREFIX = "picture."
PICTURE_PARTS = ("picture.joined_bar", "picture.joined_dot", "picture.joined_dash")
PICTURE_LIST = ("picture.listed",)


def _templates(
    prefixes: tuple[str, ...], splitters: tuple[str, ...], first: tuple[str, ...] = ()
) -> list[dict[str, str]]:
    """The English templates of the keys under ``prefixes``: the ``first`` ones in their
    order, then the most specific first (the most literal text), so a general template
    such as "{move} is not a legal move here" is tried late, and the ``splitters`` last,
    in their order."""
    english = own_messages(DEFAULT)
    keyed = [(k, v) for k, v in english.items() if k.startswith(prefixes)]

    def rank(kv: tuple[str, str]) -> tuple[int, int]:
        key, template = kv
        if key in first:
            return (0, first.index(key))
        if key in splitters:
            return (2, splitters.index(key))
        return (1, -len(_PLACEHOLDER.sub("", template)))

    keyed.sort(key=rank)
    return [{"key": k, "template": v} for k, v in keyed]


@lru_cache(maxsize=1)
def _error_templates() -> tuple[dict[str, str], ...]:
    return tuple(_templates((ERROR_PREFIX,), SPLITTERS))


def error_templates() -> list[dict[str, str]]:
    """The templates of the messages of the rules and the server."""
    return list(_error_templates())


@lru_cache(maxsize=1)
def _picture_templates() -> tuple[dict[str, str], ...]:
    return tuple(_templates((PICTURE_PREFIX, ERROR_PREFIX), SPLITTERS + PICTURE_LIST, PICTURE_PARTS))


def picture_templates() -> list[dict[str, str]]:
    """The templates of the games' pictures' texts: the picture keys and the error keys
    (a picture shows results' reasons); a line's parts split first, a list last."""
    return list(_picture_templates())


def negotiate(accept_language: str | None) -> str:
    """The best of our languages for an Accept-Language header: any Chinese reads Traditional
    Chinese (the games' articles are zh-TW; there is no Simplified catalogue), any English
    reads English, otherwise English."""
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate((accept_language or "").split(",")):
        fields = part.strip().split(";")
        tag = fields[0].strip().lower()
        quality = 1.0
        for field in fields[1:]:
            name, _, value = field.strip().partition("=")
            if name == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if tag and quality > 0:
            ranked.append((-quality, index, tag))
    for _, _, tag in sorted(ranked):
        if tag == "zh" or tag.startswith("zh-"):
            return "zh-TW"
        if tag == "en" or tag.startswith("en-"):
            return "en"
    return DEFAULT


def table(lang: str) -> dict:
    """What GET /api/i18n answers: the language, its merged messages and the error templates."""
    return {
        "lang": lang,
        "languages": list(LANGUAGES),
        "messages": messages(lang),
        "errors": error_templates(),
        "pictures": picture_templates(),
    }


@lru_cache(maxsize=1024)
def _pattern(template: str) -> tuple[re.Pattern, list[str]]:
    """A template's regular expression: each {name} matches any text (shortest first)."""
    names: list[str] = []
    parts = []
    for part in re.split(r"(\{\w+\})", template):
        m = re.fullmatch(r"\{(\w+)\}", part)
        if m:
            names.append(m.group(1))
            parts.append("(.+?)")
        else:
            parts.append(re.escape(part))
    return re.compile("^" + "".join(parts) + "$", re.S), names


def translate(message: str, lang: str, templates=None) -> str | None:
    """``message`` (an English message of the rules or the server) in ``lang`` by the error
    templates (or ``templates``), as the page's translateError does (i18n.js); None when
    no template matches. Parameters that are messages themselves (a game-over reason) are
    translated too."""
    table = messages(lang)
    for entry in _error_templates() if templates is None else templates:
        pattern, names = _pattern(entry["template"])
        m = pattern.match(message)
        if m:
            params = {n: translate(v, lang, templates) or v for n, v in zip(names, m.groups(), strict=True)}
            return _fill(table[entry["key"]], params)
    return None


def translate_caption(text: str, lang: str) -> str | None:
    """One text a game's picture draws (a caption, a legend, a label, a tooltip) in
    ``lang``, as the page's translatePicture does; None when no template matches."""
    return translate(text, lang, _picture_templates())


_SVG_TEXT = re.compile(r"(<(text|title)\b[^>]*>)([^<]+)(</\2>)")


def translate_svg(svg: str, lang: str) -> str:
    """A game's picture with the text of its ``<text>`` and ``<title>`` elements (those
    with no element inside) in ``lang``; texts no template matches (coordinates, numbers)
    stay as they are."""
    if lang == DEFAULT:
        return svg

    def one(m: re.Match) -> str:
        text = html.unescape(m.group(3))
        done = translate_caption(text.strip(), lang) if text.strip() else None
        return m.group(1) + html.escape(done, quote=False) + m.group(4) if done else m.group(0)

    return _SVG_TEXT.sub(one, svg)


def _fill(template: str, params: dict[str, str]) -> str:
    return _PLACEHOLDER.sub(lambda p: params.get(p.group(1), p.group(0)), template)
