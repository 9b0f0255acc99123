"""Levels 1-2 and the lapse moves of levels 4-6 choose, in Morris and Pente, exactly the
moves they chose before horizon 2 was changed (those ladders are measured and shipped): the
same positions and seeds give the moves stored in ``data/softmax_choices.json``.

The data were written by this module run as a script on the code before the change
(``python tests/agents/test_softmax_unchanged.py --write`` with that code first on the path)."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

import qipan
from qipan.agents.levels import LEVELS, softmax_move

DATA = Path(__file__).parent / "data" / "softmax_choices.json"
PRESETS = ("nine-mens-morris", "three-mens-morris", "pente")
#: The temperatures of the horizon-1 choices: levels 1 and 2, and the lapses of 4-6.
TEMPERATURES = sorted({lvl.temperature for lvl in LEVELS if lvl.horizon == 1 or lvl.lapse})
POSITIONS = 8


def positions(preset: str):
    """(position seed, move texts) of a few positions reached by random play."""
    game = qipan.load(preset)
    for seed in range(POSITIONS):
        rng = random.Random(seed)
        state = game.new(seed=seed)
        texts = []
        for _ in range(rng.randrange(2, 30)):
            if state.outcome is not None:
                break
            move = rng.choice(state.legal_moves())
            texts.append(move.text)
            state.play(move)
        if state.outcome is None and len(state.legal_moves()) > 1:
            yield seed, texts


def replay(preset: str, seed: int, texts: list[str]):
    game = qipan.load(preset)
    state = game.new(seed=seed)
    for text in texts:
        state.play(game.parse(text, state))
    return state


def choice(preset: str, seed: int, texts: list[str], temperature: float) -> str:
    state = replay(preset, seed, texts)
    return softmax_move(state, 1, temperature, random.Random(seed * 101 + 7), None).text


def cases() -> list[dict]:
    # Missing data fail the coverage test below, not the collection.
    return json.loads(DATA.read_text(encoding="utf-8")) if DATA.exists() else []


@pytest.fixture(autouse=True)
def reference_rules(monkeypatch):
    monkeypatch.setenv("QIPAN_KERNELS", "0")


def test_the_data_cover_every_preset_and_temperature():
    found = {(c["preset"], c["temperature"]) for c in cases()}
    assert found == {(p, t) for p in PRESETS for t in TEMPERATURES}


@pytest.mark.parametrize("case", cases(), ids=lambda c: f"{c['preset']}-{c['seed']}-{c['temperature']}")
def test_horizon_one_chooses_what_it_chose_before(case):
    got = choice(case["preset"], case["seed"], case["moves"], case["temperature"])
    assert got == case["expected"]


def write() -> None:
    out = []
    for preset in PRESETS:
        for seed, texts in positions(preset):
            for temperature in TEMPERATURES:
                expected = choice(preset, seed, texts, temperature)
                out.append(
                    {
                        "preset": preset,
                        "seed": seed,
                        "moves": texts,
                        "temperature": temperature,
                        "expected": expected,
                    }
                )
    DATA.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    write()
