"""Every option of every game, and every value it offers, has a human label and a
one-line help in both languages: no identifier (``always_protected``, ``n move``) is shown
on the new-game form."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from qipan.core import specs

LOCALES = Path(__file__).resolve().parents[2] / "src" / "qipan" / "web" / "locales"
IDENTIFIER = re.compile(r"\b[a-z]+_[a-z_]+\b")


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_every_option_and_value_has_human_words(lang):
    table = json.loads((LOCALES / f"registry.{lang}.json").read_text(encoding="utf-8"))
    problems = []
    for game in specs():
        if game.family == "toy":  # the server tests' own games
            continue
        for option in game.to_dict().get("options", []):
            key = f"option.{game.family}.{option['name']}"
            label, help_ = table.get(key), table.get(f"{key}.help")
            if not label or not help_:
                problems.append(f"{key}: no label or no help")
                continue
            if "_" in option["name"] and label == option["name"].replace("_", " "):
                problems.append(f"{key}: the identifier spelt out ({label!r})")
            for text in (label, help_):
                if IDENTIFIER.search(text):
                    problems.append(f"{key}: an identifier in {text!r}")
            for value in option.get("choices") or []:
                if isinstance(value, int):
                    continue  # numbers stand as they are
                words = table.get(f"choice.{value}")
                if not words or IDENTIFIER.search(words):
                    problems.append(f"choice.{value}: {words!r}")
    assert problems == []
