"""``morris-2026``: the ``morris`` agent of 2026-12-03 kept callable as the fixed reference the
``morris`` agent is measured against; pinned by its recorded decisions
(``tests/data/ai/morris_2026_decisions.json``, ``benchmarks/morris_reference_decisions.py``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import qipan
from qipan.agents import load as load_agent
from qipan.agents.base import agent_spec, strongest_agent_name
from qipan.fast import enabled

DECISIONS = json.loads(
    (Path(__file__).resolve().parents[2] / "data" / "ai" / "morris_2026_decisions.json").read_text()
)["positions"]
needs_kernels = pytest.mark.skipif(not enabled(), reason="the compiled kernels are off")


def _position(game, moves: str):
    state = game.new()
    for text in moves.split():
        state.play(game.parse(text, state))
    return state


def test_the_reference_is_registered_beside_the_agent_and_never_the_default():
    game = qipan.load("nine-mens-morris")
    assert agent_spec("morris-2026").strength < agent_spec("morris").strength
    assert strongest_agent_name(game, 2) == "morris"
    assert load_agent("morris-2026", game=game, players=2).time == 1.0


@needs_kernels
def test_the_reference_makes_the_recorded_decisions():
    game = qipan.load("nine-mens-morris")
    for d in DECISIONS:
        state = _position(game, d["moves"])
        agent = load_agent("morris-2026", game=game, players=2, depth=d["depth"], seed=d["seed"])
        assert agent.choose(state).text == d["chosen"], (d["game"], d["ply"])


@needs_kernels
def test_the_agent_itself_decides_differently_somewhere():
    """The pin would pass for the new agent too if the styles were not told apart."""
    game = qipan.load("nine-mens-morris")
    differ = 0
    for d in DECISIONS:
        state = _position(game, d["moves"])
        agent = load_agent("morris", game=game, players=2, depth=d["depth"], seed=d["seed"])
        differ += agent.choose(state).text != d["chosen"]
    assert differ >= 5  # 9 of the 65 when recorded
