"""The message catalogues of the web pages: every ``web/locales/<area>.<lang>.json`` (flat
key -> string) merged per language, and the language a request asks for.

English is the base: a language's table is English overlaid by its own messages, so a key
one catalogue lacks still reads (tests/server/test_i18n.py fails on any such key). Keys
under ``error.`` are also templates of the English messages the rules and the server send
(``"{point} is not empty"``); the page matches a message against them to translate it."""

from __future__ import annotations

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


def error_templates() -> list[dict[str, str]]:
    """The English templates of the error keys, most specific first (the most literal
    text), so a general template such as "{move} is not a legal move here" is tried late
    and the splitters last."""
    english = own_messages(DEFAULT)
    keyed = [(k, v) for k, v in english.items() if k.startswith(ERROR_PREFIX)]
    keyed.sort(
        key=lambda kv: (
            SPLITTERS.index(kv[0]) if kv[0] in SPLITTERS else -1,
            -len(_PLACEHOLDER.sub("", kv[1])),
        )
    )
    return [{"key": k, "template": v} for k, v in keyed]


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


def translate(message: str, lang: str) -> str | None:
    """``message`` (an English message of the rules or the server) in ``lang`` by the error
    templates, as the page's translateError does (i18n.js); None when no template matches.
    Parameters that are messages themselves (a game-over reason) are translated too."""
    table = messages(lang)
    for entry in error_templates():
        pattern, names = _pattern(entry["template"])
        m = pattern.match(message)
        if m:
            params = {n: translate(v, lang) or v for n, v in zip(names, m.groups(), strict=True)}
            return _fill(table[entry["key"]], params)
    return None


def _fill(template: str, params: dict[str, str]) -> str:
    return _PLACEHOLDER.sub(lambda p: params.get(p.group(1), p.group(0)), template)
