"""``modx-classic`` is the fixed reference of the matches: with a fixed candidate budget and
seed it makes the moves it made before the live agent stopped inheriting from it
(data/classic_decisions.json, recorded at fb27c71) on positions of 2, 3 and 4 player
games, set-up jokers and X placements. That covers the shared search (``search.py``) and the
classic knowledge of ``evaluation.py`` it runs on."""

import json
from pathlib import Path

from tests.decisions import assert_decides_as_recorded

import qipan

DATA = Path(__file__).parent / "data" / "classic_decisions.json"


def test_the_classic_agent_decides_as_before_on_stored_positions():
    stored = json.loads(DATA.read_text())
    rows = stored["decisions"]
    assert len(rows) >= 10 and {r["players"] for r in rows} == {2, 3, 4}
    assert {r["phase"] for r in rows} >= {"setup", "play"}
    game = qipan.load("modx")
    assert_decides_as_recorded(
        rows,
        lambda row: game.position(row["position"]),
        lambda row: qipan.agents.load("modx-classic", seed=row["seed"], iterations=stored["iterations"]),
    )


def test_the_live_agent_does_not_inherit_from_the_reference():
    from qipan.games.modx.agent import ModXAgent
    from qipan.games.modx.classic import ModXClassicAgent

    assert not issubclass(ModXAgent, ModXClassicAgent)
