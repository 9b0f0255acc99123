"""The compiled Trax kernel (``kernel.py``) against the reference rules, and the ``trax``
agent's compiled search (``kernel_search.py``) against the Python one (``search.py``):
seeded random games of every preset and option comparing legal move sets, the tiles after
each turn's forced plays and the outcomes at every ply; the evaluation, immediate wins and
search values on random positions; limits, seeds, the fall-back to Python."""

from __future__ import annotations

import random

import pytest
from trax_helpers import data_rows, play, random_positions

import qipan
from qipan.fast import HAVE_NUMBA, check_kernel, warm_up
from qipan.games.trax import TraxAgent, TraxGame
from qipan.games.trax import search as python_search
from qipan.games.trax.evaluation import GAP_VALUE, evaluate_without_win
from qipan.games.trax.search import PROVEN, Memory, ThreatSearch
from qipan.games.trax.threats import winning_moves

pytestmark = pytest.mark.skipif(not HAVE_NUMBA, reason="the kernel needs qipan[fast] (numba)")

if HAVE_NUMBA:
    from qipan.games.trax import kernel as K
    from qipan.games.trax.kernel_search import CompiledSearch, Workspace

ENGINE_LOSSES = [row[1] for row in data_rows("trax_engine_losses.tsv")]
#: Every preset, then the other option values (both ``simultaneous`` and ``line_rule`` forms).
GAMES = [
    ("trax", {}),
    ("trax-8x8", {}),
    ("trax-loop", {}),
    ("trax", {"simultaneous": "draw"}),
    ("trax-8x8", {"simultaneous": "draw"}),
    ("trax", {"line_rule": "span"}),
]


def game_of(preset, options):
    return qipan.load(preset, **options)


@pytest.mark.parametrize("preset,options", GAMES, ids=lambda x: str(x))
def test_kernel_plays_every_random_game_as_the_rules(preset, options):
    game = game_of(preset, options)
    plies, reasons = check_kernel(game, 120 if not options else 60, seed=17)
    assert plies > (1000 if not options else 500)
    assert any("loop" in r for r in reasons)
    if game.lines_win and not options:
        assert any("line" in r for r in reasons)
    if preset == "trax-8x8" and not options:
        assert any("8x8" in r for r in reasons)  # a full board drawn


def test_kernel_refuses_a_position_beyond_its_window():
    state = play(["@0+"] + ["@1+"] * (K.CENTRE - K.MARGIN + 2), variant="loop")
    assert not K.fits(state.board)
    with pytest.raises(ValueError, match="window"):
        state.game.kernel().state(state)


def test_random_playouts_in_the_kernel_end_as_games_do():
    game = TraxGame(variant="8x8")
    plies, white, red, draws, unfinished = game.kernel().playouts(game.new(), 200, seed=3)
    assert white + red + draws + unfinished == 200 and unfinished == 0
    assert white > 20 and red > 20 and draws > 0
    assert 8 < plies / 200 < 40


def test_constants_agree_with_the_python_search():
    for name in ("WIN", "PROVEN", "INFINITY", "EPSILON", "REDUCE_FROM_DEPTH", "FULL_MOVES", "THREAT_GAP"):
        assert getattr(K, name) == getattr(python_search, name), name
    assert K.VCF_DEPTH == python_search.VCF_DEPTH
    assert [K.GAP_VALUE[g] for g in range(1, 6)] == [GAP_VALUE[g] for g in range(1, 6)]


@pytest.mark.parametrize("preset,options", GAMES, ids=lambda x: str(x))
def test_evaluation_and_immediate_wins_are_the_python_ones(preset, options):
    game = game_of(preset, options)
    work = Workspace(game)
    W = work.W
    for state in random_positions(game, 60, seed=5):
        K.load(W.cells, W.bb, state.board)
        for mover in (0, 1):
            assert K.evaluate(W, mover) == pytest.approx(
                evaluate_without_win(state.board, mover, game.lines_win), abs=1e-12
            )
            wins = winning_moves(
                state.board,
                mover,
                game.lines_win,
                game.limited,
                game.simultaneous == "draw",
                game.line_rule == "span",
            )
            code = K.winning_move(W, mover, -1, 0)
            assert (None if code < 0 else (K.absolute(code >> 3), code & 7)) == (wins[0] if wins else None)


@pytest.mark.parametrize("preset", ["trax-8x8", "trax"])
def test_compiled_search_values_are_the_python_ones(preset):
    # Depth 1 values are exact (every reply searched to the horizon), so the two searches
    # agree on them up to the rounding of the evaluation's sums (summed in another order).
    game = qipan.load(preset)
    for k, state in enumerate(random_positions(game, 12, seed=9)):
        python = ThreatSearch(state, random.Random(k), None, None, Memory())
        compiled = CompiledSearch(state, random.Random(k), None, None, Workspace(game))
        python.best(1)
        compiled.best(1)
        assert python.scores.keys() == compiled.scores.keys()
        for move, value in python.scores.items():
            assert compiled.scores[move] == pytest.approx(value, abs=1e-9), state.position()


def test_compiled_search_proves_the_engine_games_loss_and_undoes_its_trials():
    state = play(ENGINE_LOSSES[0].split()[:6], variant="8x8")
    search = CompiledSearch(state, random.Random(1), None, None, Workspace(state.game))
    before = search.work.W.cells.copy()
    best = search.best(3)
    assert state.move_for(*best).text != "G1\\"
    scores = {state.move_for(*m).text: v for m, v in search.scores.items()}
    assert scores["G1\\"] <= -PROVEN
    assert (search.work.W.cells == before).all() and search.work.W.bb[K.B_SP] == 0


def test_compiled_threat_search_proves_the_white_l_puzzle():
    from trax_helpers import DATA

    from qipan.games.trax.records import read_trx

    puzzle = read_trx((DATA / "trax_puzzles_gnutrax_easy.trx").read_text())[3]
    state = play(puzzle.moves)
    search = CompiledSearch(state, random.Random(1), None, None, Workspace(state.game))
    move = search._vcf(state.to_move, 2, 0)
    assert move is not None and state.move_for(*move).text == "A1\\"
    assert search._vcf(state.to_move, 2, 0) == move  # the cached answer


def test_agent_uses_the_kernel_keeps_its_tables_and_falls_back_to_python(monkeypatch):
    agent = TraxAgent(depth=2, seed=1)
    state = play("@0+ A2+ B1/", variant="8x8")
    state.play(agent.choose(state))
    assert isinstance(agent.last_search, CompiledSearch)
    work = agent._work
    assert work.W.tt_keys.any()  # the transposition table holds entries
    state.play(state.legal_moves()[0])
    agent.choose(state)
    assert agent._work is work
    agent.choose(play("@0+ A2+ B1/"))  # other rules: a fresh workspace
    assert agent._work is not work
    far = play(["@0+"] + ["@1+"] * (K.CENTRE - K.MARGIN + 2), variant="loop")
    shallow = TraxAgent(iterations=50, seed=1)  # many open tracks: keep the threat search short
    shallow.choose(far)
    assert type(shallow.last_search) is ThreatSearch  # beyond the window: the Python search
    monkeypatch.setenv("QIPAN_KERNELS", "0")
    agent.choose(state)
    assert type(agent.last_search) is ThreatSearch


def test_compiled_search_respects_seed_and_node_limit():
    state = play("@0+ A2+ B1/ C1/ D1/ D2/", variant="8x8")
    key = state.key()
    first = TraxAgent(depth=2, seed=4).choose(state)
    assert TraxAgent(depth=2, seed=4).choose(state) == first
    assert state.key() == key
    agent = TraxAgent(iterations=300, seed=1)
    assert agent.choose(state) in state.legal_moves()
    assert isinstance(agent.last_search, CompiledSearch) and agent.last_search.nodes < 3000


def test_warm_up_compiles_the_rules_and_the_search():
    game = TraxGame()
    game.kernel().warm_up(game.new())
    assert "trax" in warm_up(["trax"])
