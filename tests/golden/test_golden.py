"""Every preset's seeded playthrough matches its golden file (see playthrough.py), and each
file plays its preset through every phase of its rules to the end."""

from __future__ import annotations

import difflib

import pytest

import qipan

from .playthrough import path_for, playthrough

PRESETS = [s.id for s in qipan.specs()]

_MORRIS = ("to place", "to move")
_FLYING = (*_MORRIS, "to move (flying)")
_TANTRIX = ("Setup (order)", "Setup (deal)", "(free move)", "(forced fills after the free move)")
_PIPES = ("the flow starts in", "flowing every")
#: The phases of each preset's rules, in the words of its position text: a golden file must
#: show every one (the end is checked for every preset).
PHASES = {
    "three-mens-morris": ("to place",),  # placement only: a line or a draw once all are placed
    "three-mens-morris-kurna": _MORRIS,
    "six-mens-morris": _FLYING,
    "nine-mens-morris": _FLYING,
    "twelve-mens-morris": _FLYING,
    "openspiel": _FLYING,
    "zhiqi": _MORRIS,
    "tantrix": (*_TANTRIX, "draws a replacement tile"),
    "tantrix-tournament": (*_TANTRIX, "draws a replacement tile"),
    "tantrix-doubles": (*_TANTRIX, "draws a replacement tile"),
    "tantrix-seed-spaces": (*_TANTRIX, "draws a replacement tile"),
    "modx": ("places the jokers", "to place an X"),
    "modx-3": ("places the jokers", "to place an X"),
    "modx-4": ("places the jokers", "to place an X"),
    "modx-teams": ("places the jokers", "to place an X"),
    "modx-claims": ("places the jokers", "to place an X"),
    **{p: _PIPES for p in PRESETS if p.startswith("pipemania")},
}


@pytest.mark.parametrize("preset", PRESETS)
def test_playthrough_matches_golden_file(preset):
    path = path_for(preset)
    assert path.exists(), f"no golden file for {preset}: run python -m tests.golden.playthrough {preset}"
    expected = path.read_text(encoding="utf-8")
    actual = playthrough(preset)
    if actual != expected:
        diff = difflib.unified_diff(
            expected.splitlines(), actual.splitlines(), "golden", "now", n=2, lineterm=""
        )
        pytest.fail(f"{preset} differs from its golden file:\n" + "\n".join(list(diff)[:60]))


def test_the_golden_check_sees_a_changed_ply():
    text = playthrough(PRESETS[0])
    changed = text.replace("ply 1\n", "ply 1 \n", 1)
    assert changed != text and changed != path_for(PRESETS[0]).read_text(encoding="utf-8")


@pytest.mark.parametrize("preset", PRESETS)
def test_the_playthrough_goes_through_every_phase_to_the_end(preset):
    text = path_for(preset).read_text(encoding="utf-8")
    assert "\noutcome: " in text, f"{preset}: the golden playthrough stops before the game ends"
    missing = [words for words in PHASES.get(preset, ()) if words not in text]
    assert not missing, f"{preset}: the golden playthrough never reaches {missing}"


def test_the_phases_named_are_presets():
    assert set(PHASES) <= set(PRESETS)
