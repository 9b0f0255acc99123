"""The compiled searches keep their decisions: at fixed depths, the generic ``alphabeta``
search inside the kernel (``agents/ab_kernel.py`` over ``kernel_search.py``'s hooks) and the
``morris`` agent's PVS (both styles) choose the recorded move after the recorded number of
nodes in seeded positions of five presets. The figures were recorded by
``benchmarks/morris_search_decisions.py`` before the searches moved out of ``kernel.py``
(when the generic alpha-beta was still Morris's own recursive one), so a move or a node
more or less after a refactoring fails here."""

from __future__ import annotations

import json

import pytest
from tests.data import DATA

import qipan
from qipan.fast import HAVE_NUMBA
from qipan.games.morris.kernel import kernel_for
from qipan.games.morris.search import Searcher

pytestmark = pytest.mark.skipif(not HAVE_NUMBA, reason="the kernel needs qipan[fast] (numba)")

RECORDED = json.loads((DATA / "morris" / "search_decisions.json").read_text())


@pytest.mark.parametrize("row", RECORDED, ids=[f"{r['preset']}-{r['seed']}" for r in RECORDED])
def test_the_searches_choose_the_recorded_move_after_the_recorded_nodes(row):
    game = qipan.load(row["preset"])
    kernel = kernel_for(game)
    state = game.new(seed=row["seed"])
    for code in row["moves"]:
        state.play(kernel.move(code))
    found = kernel.alphabeta(state, depth=row["ab_depth"])
    assert [kernel.code(found.move), found.nodes] == row["alphabeta"]
    codes = kernel.legal(kernel.state(state))
    for style in (0, 1):
        pvs = Searcher(kernel, table_bits=16, style=style).search(state, codes, depth=row["pvs_depth"])
        assert [pvs.code, pvs.nodes] == row[f"pvs_style{style}"], style
