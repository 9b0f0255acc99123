"""The fixed references ``pente-classic`` and ``pente-2026`` make the moves they made when
they were recorded (``data/reference_decisions.json``, from main at fb27c71, by
``benchmarks/pente_reference_decisions.py``) on positions of pente.org games and of four-player
games, with fixed limits and seeds; the generic ``alphabeta`` agent's compiled PVS picks the
same moves after the same number of nodes. ``pente-2026`` and the PVS run compiled (without
Numba the first plays as ``pente-classic``, the second is the Python search)."""

import json
from pathlib import Path

import pytest

import qipan
from qipan.agents import load as load_agent
from qipan.games.pente import kernel

ROWS = json.loads((Path(__file__).parent / "data" / "reference_decisions.json").read_text())["decisions"]


def test_the_record_covers_every_pinned_agent_and_both_player_counts():
    assert {r["agent"] for r in ROWS} == {"pente-classic", "pente-2026", "alphabeta"}
    assert {r["preset"] for r in ROWS} >= {"pente", "pente-tournament", "pente-team", "pente-4"}
    assert len(ROWS) >= 50


@pytest.fixture
def compiled(monkeypatch):
    pytest.importorskip("numba")
    monkeypatch.setenv("QIPAN_KERNELS", "1")


def decide_as_recorded(agent_name):
    for row in (r for r in ROWS if r["agent"] == agent_name):
        kernel._KERNELS.clear()  # a fresh searcher: it keeps its table from move to move
        state = qipan.load(row["preset"]).position(row["position"])
        agent = load_agent(agent_name, seed=row["seed"], **row["limits"])
        assert agent.choose(state).text == row["move"], row["position"]


def test_the_classic_agent_decides_as_recorded():
    decide_as_recorded("pente-classic")


def test_the_2026_agent_decides_as_recorded(compiled):
    decide_as_recorded("pente-2026")


def test_the_generic_alphabeta_finds_the_recorded_moves_after_the_recorded_nodes(compiled):
    for row in (r for r in ROWS if r["agent"] == "alphabeta"):
        state = qipan.load(row["preset"]).position(row["position"])
        agent = load_agent("alphabeta", seed=row["seed"], **row["limits"])
        assert (agent.choose(state).text, agent.nodes) == (row["move"], row["nodes"]), row["position"]
