"""Every preset's seeded playthrough matches its golden file (see playthrough.py)."""

from __future__ import annotations

import difflib

import pytest

import qipan

from .playthrough import path_for, playthrough

PRESETS = [s.id for s in qipan.specs()]


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
