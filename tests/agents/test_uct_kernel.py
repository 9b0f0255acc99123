"""The compiled UCT loop that the Pente and Morris kernels share (``agents/uct_kernel.py``):
the same root visits, chosen move and reward sums as each kernel's own loop gave before the
merge (recorded in ``data/uct_visits.json`` from fixed positions and seeds: 2 and 4 players,
teams, 9x9 and 19x19, cut playouts, playouts scored by the evaluation at once, Morris
placement, sliding and zhiqi); and the disk cache of such a loop being emptied when a file
compiled into it changes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import qipan
from qipan.fast import HAVE_NUMBA, njit_guarded

pytestmark = pytest.mark.skipif(not HAVE_NUMBA, reason="the kernels need qipan[fast] (numba)")

CASES = json.loads((Path(__file__).parent / "data" / "uct_visits.json").read_text())["cases"]


def start(case):
    game = qipan.load(case["preset"], **case["options"])
    if case["position"]:
        return game, game.position(case["position"])
    return game, game.new(players=case["players"]).play_many(case["moves"])


def limits(case) -> dict:
    keys = ("iterations", "seed", "exploration", "playout_cap")
    return {key: case[key] for key in keys}


def visits(kernel, tree) -> str:
    """The root's children as ``move:visits`` in the order expanded."""
    return " ".join(f"{kernel.move(code)}:{n}" for code, n, _ in tree.root_children())


@pytest.mark.parametrize("case", CASES, ids=[f"{c['preset']}-{c['seed']}" for c in CASES])
def test_the_shared_loop_searches_exactly_as_each_kernel_did(case):
    game, state = start(case)
    kernel = game.kernel()
    tree, done = kernel.uct(state, **limits(case))
    assert done == case["iterations"] and visits(kernel, tree) == case["visits"]
    move, done = kernel.mcts(state, **limits(case))
    assert str(move) == case["best"] and done == case["iterations"]
    totals = next(t for code, _, t in tree.root_children() if kernel.move(code) == move)[: case["players"]]
    assert totals == pytest.approx(case["best_totals"], rel=1e-12)


@pytest.mark.parametrize("case", [CASES[0], CASES[5]], ids=["pente", "nine-mens-morris"])
def test_a_tree_that_grows_between_batches_searches_the_same(case, monkeypatch):
    # Each kernel sizes its tree for the iterations asked: start it at 16 nodes instead, so
    # that batches stop short and the arrays (and the Morris pool) double many times.
    from qipan.agents.uct_kernel import Tree
    from qipan.games.morris import kernel_search as morris
    from qipan.games.pente import kernel_search_generic as pente

    monkeypatch.setattr(pente, "Tree", lambda nodes, *rest, **options: Tree(16, *rest, **options))
    pooled = morris.PooledTree.__init__
    monkeypatch.setattr(morris.PooledTree, "__init__", lambda self, nodes: pooled(self, 16))
    game, state = start(case)
    kernel = game.kernel()
    tree, done = kernel.uct(state, **limits(case))
    assert done == case["iterations"] and tree.nodes.shape[0] > 16
    assert visits(kernel, tree) == case["visits"]


def _probe(x):
    return x + 1


def test_a_guarded_cache_is_emptied_when_a_source_changes(tmp_path):
    source = tmp_path / "compiled_in.py"
    source.write_text("first version\n")
    compiled = njit_guarded(_probe, [source])
    assert compiled(1) == 2  # compiled and saved, or loaded from an earlier run
    again = njit_guarded(_probe, [source])
    assert again(1) == 2 and sum(again.stats.cache_hits.values()) == 1  # the same sources: loaded
    source.write_text("second version\n")
    changed = njit_guarded(_probe, [source])
    assert changed(1) == 2 and not changed.stats.cache_hits  # emptied: compiled afresh
    assert sum(changed.stats.cache_misses.values()) == 1
