"""``tantrix-classic`` is the fixed reference of the matches: with a fixed playout budget and
seed it makes the moves it made before the speed work (data/classic_decisions.json, from main
at 0cc3350) on positions of 2-4 player games, forced fills and free moves. That covers the
rules' listings, the closure test, the evaluation, the reply check and the listing playouts
the speed work made faster."""

import json
from pathlib import Path

import qipan

from .conftest import make

DATA = Path(__file__).parent / "data" / "classic_decisions.json"


def test_the_classic_agent_decides_as_before_on_stored_positions():
    game = make()
    rows = json.loads(DATA.read_text())["decisions"]
    assert len(rows) >= 10 and {r["step"] for r in rows} == {1, 2, 3}
    for row in rows:
        state = game.position(row["position"])
        agent = qipan.agents.load("tantrix-classic", seed=row["seed"], playouts=row["playouts"])
        assert agent.choose(state).text == row["move"], row["position"]
