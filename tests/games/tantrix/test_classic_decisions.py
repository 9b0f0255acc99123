"""``tantrix-classic`` is the fixed reference of the matches: with a fixed playout budget and
seed it makes the moves it made before the speed work (data/classic_decisions.json, from main
at 0cc3350) on positions of 2-4 player games, forced fills and free moves. That covers the
rules' listings, the closure test, the evaluation, the reply check and the listing playouts
the speed work made faster."""

import json
from pathlib import Path

from tests.decisions import assert_decides_as_recorded

import qipan

from .conftest import make

DATA = Path(__file__).parent / "data" / "classic_decisions.json"


def test_the_classic_agent_decides_as_before_on_stored_positions():
    game = make()
    rows = json.loads(DATA.read_text())["decisions"]
    assert len(rows) >= 10 and {r["step"] for r in rows} == {1, 2, 3}
    assert_decides_as_recorded(
        rows,
        lambda row: game.position(row["position"]),
        lambda row: qipan.agents.load("tantrix-classic", seed=row["seed"], playouts=row["playouts"]),
    )


def test_the_live_agent_and_the_reference_share_only_the_search():
    from qipan.games.tantrix.agent import TantrixAgent
    from qipan.games.tantrix.classic import TantrixClassicAgent
    from qipan.games.tantrix.search import TantrixSearch

    assert not issubclass(TantrixAgent, TantrixClassicAgent)
    assert not issubclass(TantrixClassicAgent, TantrixAgent)
    assert TantrixAgent.__bases__ == TantrixClassicAgent.__bases__ == (TantrixSearch,)
