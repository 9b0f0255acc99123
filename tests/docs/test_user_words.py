"""User documentation speaks to users: no lab notes in the README or under ``docs/``.

Measurement history (which issue asked for what, whose branch was merged, whether a target
was met) belongs in ``benchmarks/results/``; a user doc gives what the software does today and
its figure with the command that measures it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
USER_DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]

#: Words of the lab, each with what a reader would see instead. A "target … met" is matched
#: within one paragraph (a blank line ends the search), the way the docs wrap sentences.
LAB_WORDS = {
    "an issue number": re.compile(r"\bissues?\s+#?\d+", re.IGNORECASE),
    "the lead": re.compile(r"\bthe\s+lead\b(?!-)", re.IGNORECASE),
    "a target met or not": re.compile(r"\btargets?\b(?:(?!\n[ \t]*\n)[\s\S]){0,200}?\bmet\b", re.IGNORECASE),
}


def lab_words(text: str) -> list[str]:
    """Each lab word of ``text``: what it is, its line number and the words found."""
    found = []
    for kind, pattern in LAB_WORDS.items():
        for match in pattern.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            words = " ".join(match.group().split())
            found.append(f"{kind} on line {line}: {words[:80]!r}")
    return found


@pytest.mark.parametrize("path", USER_DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_user_docs_hold_no_lab_notes(path):
    found = lab_words(path.read_text(encoding="utf-8"))
    assert not found, f"{path.relative_to(ROOT)}: move these to benchmarks/results/:\n" + "\n".join(found)


def test_the_docs_are_found():
    names = {p.name for p in USER_DOCS}
    assert {"README.md", "server.md", "tantrix.md", "architecture.md", "levels.md"} <= names


@pytest.mark.parametrize(
    "text",
    [
        "Measured for issue 21, items 3-5.",
        "as Issue 17's engine games showed",
        "the issues 33 and 34",
        "merged by the lead; the agent today",
        "merged by\nThe Lead",
        "the issue's 60 % target is met",
        "The target — 200 concurrent games with p99 under 100 ms — is met at one move",
        "the issue's 60 % target\nis **not met**.",
        "targets of 4 KB are met",
    ],
)
def test_lab_words_are_caught(text):
    assert lab_words(text), text


@pytest.mark.parametrize(
    "text",
    [
        "Click the target cell to place a tile.",
        "The agent scores 75.1 % over 600 games (`benchmarks/tantrix_vs_classic.py`).",
        "a 60 % target\n\nA new paragraph: the stones met in the middle.",
        "the lead-in of a loop; an issue tracker; metres",
        "issued 3 times",
    ],
)
def test_user_words_pass(text):
    assert lab_words(text) == [], lab_words(text)
