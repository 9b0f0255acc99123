"""``trax-classic`` is the fixed reference the ``trax`` agent is measured against: at a fixed
depth and seed it makes the moves it made before the rules' forced plays became the only
Python placement engine (data/trax/classic_decisions.json, recorded at fb27c71) on random
positions of every variant."""

import json

from tests.decisions import assert_decides_as_recorded
from trax_helpers import DATA

import qipan
from qipan.games.trax import TraxGame


def test_the_classic_agent_decides_as_before_on_stored_positions():
    stored = json.loads((DATA / "classic_decisions.json").read_text())
    rows = stored["decisions"]
    assert len(rows) >= 10 and {r["variant"] for r in rows} == {"unlimited", "8x8", "loop"}
    assert_decides_as_recorded(
        rows,
        lambda row: TraxGame(variant=row["variant"]).position(row["position"]),
        lambda row: qipan.agents.load("trax-classic", seed=row["seed"], depth=stored["depth"]),
    )


def test_the_live_agent_does_not_inherit_from_the_reference():
    from qipan.games.trax.agent import TraxAgent
    from qipan.games.trax.classic import TraxClassicAgent

    assert not issubclass(TraxAgent, TraxClassicAgent)
