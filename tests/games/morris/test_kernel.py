"""The compiled Morris kernel against the reference rules: perft, and seeded random games over
every preset and rule option comparing legal move sets, positions and outcomes at every ply.

Every preset plays the issue's 2,000 games (one test each, so that xdist spreads them), every
further option set 150; ``benchmarks/kernel_check.py`` runs the same check from the command line."""

from __future__ import annotations

import json
import random

import pytest
from tests.data import DATA

import qipan
from qipan.agents.alphabeta import AlphaBetaAgent
from qipan.agents.mcts import MCTSAgent
from qipan.core.perft import perft
from qipan.fast import HAVE_NUMBA, check_kernel
from qipan.games.morris.kernel import MorrisKernel, kernel_for

pytestmark = pytest.mark.skipif(not HAVE_NUMBA, reason="the kernel needs qipan[fast] (numba)")

PERFT = json.loads((DATA / "morris" / "morris_perft.json").read_text())["removal_folded_into_move"]
#: Seeded random games per preset; benchmarks/kernel_check.py runs 2,000 (the tests stay within CI).
GAMES = 500
PRESETS = [
    "nine-mens-morris",
    "twelve-mens-morris",
    "six-mens-morris",
    "zhiqi",
    "three-mens-morris",
    "three-mens-morris-kurna",
    "openspiel",
]
OPTION_SETS = [
    ("nine-mens-morris", dict(take_per_mill=2)),
    ("nine-mens-morris", dict(protection="always_protected")),
    ("nine-mens-morris", dict(repetition_count=1, n_move=20)),
    ("nine-mens-morris", dict(repetition_count=None, max_plies=60, first_player="black", flying=None)),
    ("nine-mens-morris", dict(stones=12, full_board="each_removes", take_per_mill=2)),
    ("six-mens-morris", dict(protection="no_mill_protection", flying=None, n_move=0)),
    ("twelve-mens-morris", dict(diagonal_mills=False, full_board="white_loses")),
    ("zhiqi", dict(dan_gang_moving_only=True)),
    ("zhiqi", dict(stones=6)),
    ("zhiqi", dict(flying=3, protection="fallback")),
    ("three-mens-morris", dict(diagonal_lines=True, first_player="random")),
    ("three-mens-morris-kurna", dict(move_anywhere=True)),
    ("three-mens-morris-kurna", dict(diagonal_lines=False, repetition_count=2)),
    ("three-mens-morris-kurna", dict(line_moving_only=True)),
    ("zhiqi", dict(dan_lines="any")),
    ("zhiqi", dict(gang_lines="any", dan_gang_moving_only=True)),
]


def kernel_of(game):
    kernel = kernel_for(game)
    assert kernel is not None
    return kernel


@pytest.mark.parametrize("depth", [1, 2, 3, 4, 5])
def test_9mm_perft_matches_the_reference_and_the_data(depth):
    game = qipan.load("nine-mens-morris")
    state = game.new()
    assert kernel_of(game).perft(state, depth) == perft(state, depth) == PERFT[depth - 1]


@pytest.mark.parametrize("preset", ["nine-mens-morris", "zhiqi", "six-mens-morris", "twelve-mens-morris"])
def test_perft_from_middle_game_positions(preset):
    """Positions with slides, flying and removals (not only the placing tree)."""
    game = qipan.load(preset)
    kernel = kernel_of(game)
    rng = random.Random(7)
    checked = 0
    while checked < 6:
        state = game.new()
        for _ in range(rng.randrange(20, 60)):
            if state.outcome is not None:
                break
            state.play(rng.choice(state.legal_moves()))
        if state.outcome is None:
            assert kernel.perft(state, 3) == perft(state, 3), state.position()
            checked += 1


@pytest.mark.parametrize("preset", PRESETS)
def test_random_games_agree_on_every_preset(preset):
    game = qipan.load(preset)
    plies, reasons = check_kernel(game, GAMES, seed=11, kernel=kernel_of(game))
    assert plies > GAMES and sum(reasons.values()) == GAMES


@pytest.mark.parametrize(("preset", "options"), OPTION_SETS)
def test_random_games_agree_under_every_option(preset, options):
    game = qipan.load(preset, **options)
    plies, reasons = check_kernel(game, 150, seed=12, kernel=kernel_of(game))
    assert sum(reasons.values()) == 150


def test_the_draw_rules_and_the_n_move_rule_were_exercised():
    game = qipan.load("nine-mens-morris", n_move=30)
    _, reasons = check_kernel(game, 150, seed=5, kernel=kernel_of(game))
    assert reasons["30 plies without a removal"] > 0
    game = qipan.load("six-mens-morris")
    _, reasons = check_kernel(game, 150, seed=5, kernel=kernel_of(game))
    assert reasons["repetition of the position"] > 0


def _quiet_placing(state, moves, rng):
    """Avoid removals while placing, so that the 24 points fill up (the full-board rules)."""
    if state.hand[state.to_move]:
        quiet = [m for m in moves if not m.data[2]]
        if quiet:
            return rng.choice(quiet)
    return rng.choice(moves)


@pytest.mark.parametrize("rule", ["draw", "white_loses", "each_removes"])
@pytest.mark.parametrize("preset", ["twelve-mens-morris", "zhiqi"])
def test_full_board_rules_agree(preset, rule):
    game = qipan.load(preset, full_board=rule)
    plies, reasons = check_kernel(game, 60, seed=2, choose=_quiet_placing, kernel=kernel_of(game))
    if rule == "draw":
        assert reasons["the board is full"] > 0
    elif rule == "white_loses":
        assert reasons["the board is full: White cannot move"] > 0


def test_games_started_in_the_moving_phase_carry_the_repetition_history():
    """A kernel state made from a game in progress counts the positions seen before it."""
    game = qipan.load("six-mens-morris", n_move=0)
    rng = random.Random(3)

    def start():
        state = game.new()
        while state.outcome is None and (state.hand[0] or state.hand[1] or not state.reps):
            state.play(rng.choice(state.legal_moves()))
        for _ in range(30):
            if state.outcome is None:
                state.play(rng.choice(state.legal_moves()))
        if state.outcome is not None:
            return start()
        return state

    _, reasons = check_kernel(game, 60, seed=4, start=start, kernel=kernel_of(game))
    assert reasons["repetition of the position"] > 0


def test_positions_set_up_from_text_agree():
    game = qipan.load("zhiqi")
    kernel = kernel_of(game)
    state = game.position("W:d6,d5,c4 B:a7,g7,a1 hands:9,9 to:W")
    codes = kernel.legal(kernel.state(state))
    assert sorted(codes) == sorted(kernel.code(m) for m in state.legal_moves())
    # 直棋-5: on d7 White takes one of a7/g7/a1 (直) or a7 and g7 (擔), never three stones.
    d7 = {str(kernel.move(c)) for c in codes if str(kernel.move(c)).startswith("d7")}
    assert d7 == {"d7xa7", "d7xg7", "d7xa1", "d7xa7xg7"}


def test_kernels_switched_off_leave_the_reference_rules(monkeypatch):
    monkeypatch.setenv("QIPAN_KERNELS", "0")
    game = qipan.load("nine-mens-morris")
    assert game.kernel() is None and kernel_for(game) is None
    with pytest.raises(ValueError, match="no kernel"):
        check_kernel(game, 1)
    called = []
    monkeypatch.setattr(MorrisKernel, "mcts", lambda *a, **k: called.append(1))
    state = game.new()
    agent = MCTSAgent(iterations=40, seed=1)
    assert agent.choose(state) in state.legal_moves() and agent.last_iterations == 40
    assert AlphaBetaAgent(depth=2).choose(state) in state.legal_moves()
    assert not called


def test_the_generic_agents_search_in_the_kernel_when_the_game_has_one(monkeypatch):
    game = qipan.load("twelve-mens-morris")
    assert isinstance(game.kernel(), MorrisKernel)
    calls = []
    for name in ("mcts", "alphabeta"):
        original = getattr(MorrisKernel, name)

        def spy(self, *args, _original=original, _name=name, **kwargs):
            calls.append(_name)
            return _original(self, *args, **kwargs)

        monkeypatch.setattr(MorrisKernel, name, spy)
    state = game.new()
    mcts = MCTSAgent(iterations=200, seed=3)
    move = mcts.choose(state)
    assert move in state.legal_moves() and mcts.last_iterations == 200
    assert MCTSAgent(iterations=200, seed=3).choose(state) == move
    alphabeta = AlphaBetaAgent(depth=3)
    assert alphabeta.choose(state) in state.legal_moves() and alphabeta.reached_depth == 3
    assert calls == ["mcts", "mcts", "alphabeta"]


def test_playouts_finish_and_count():
    game = qipan.load("nine-mens-morris")
    kernel = kernel_of(game)
    plies, removals, white, black, draws, unfinished = kernel.playouts(game.new(), 200, seed=1)
    assert white + black + draws == 200 and unfinished == 0
    assert plies > 200 * 18 and removals > 200  # every game places 18 stones; most remove several
    assert kernel.playouts(game.new(), 50, seed=1) == kernel.playouts(game.new(), 50, seed=1)
    assert kernel.playouts(game.new(), 50, seed=1, cap=10)[5] == 50


@pytest.mark.parametrize(
    "preset", ["nine-mens-morris", "zhiqi", "three-mens-morris-kurna", "six-mens-morris"]
)
def test_compiled_evaluation_is_the_reference_evaluation(preset):
    from qipan.games.morris.evaluation_kernel import evaluate

    game = qipan.load(preset)
    kernel = kernel_of(game)
    rng = random.Random(9)
    compared = 0
    for _ in range(40):
        state = game.new()
        while state.outcome is None:
            s = kernel.state(state)
            for player in (0, 1):
                ours = evaluate(kernel.pt, kernel.lines, kernel.par, s, player)
                assert ours == pytest.approx(game.evaluate(state, player), abs=1e-12)
                compared += 1
            state.play(rng.choice(state.legal_moves()))
    assert compared > 1000


def test_compiled_mcts_is_reproducible_and_counts_its_iterations():
    game = qipan.load("nine-mens-morris")
    kernel = kernel_of(game)
    state = game.new()
    move, done = kernel.mcts(state, iterations=300, seed=5)
    assert done == 300 and move in state.legal_moves()
    assert kernel.mcts(state, iterations=300, seed=5)[0] == move


def test_compiled_mcts_finds_the_winning_mill():
    # Black has three stones; White slides d6-d7 (mill a7-d7-g7) and removes one: two are left.
    game = qipan.load("nine-mens-morris")
    state = game.position("W:a7,g7,d6,f2 B:a1,g1,c3 to:W")
    move, _ = kernel_of(game).mcts(state, iterations=2000, seed=1)
    state.play(move)
    assert state.outcome is not None and state.outcome.winners == (0,)


@pytest.mark.parametrize("preset", ["nine-mens-morris", "zhiqi", "six-mens-morris"])
def test_compiled_alphabeta_has_the_generic_agents_values(preset):
    game = qipan.load(preset)
    kernel = kernel_of(game)
    rng = random.Random(4)
    compared = 0
    while compared < 12:
        state = game.new()
        for _ in range(rng.randrange(8, 50)):
            if state.outcome is not None:
                break
            state.play(rng.choice(state.legal_moves()))
        if state.outcome is not None or len(state.legal_moves()) < 2:
            continue
        for depth in (1, 2, 3):
            reference = AlphaBetaAgent(depth=depth)
            reference.choose(state)
            result = kernel.alphabeta(state, depth=depth)
            assert result.depth == depth and result.move in state.legal_moves()
            assert result.score == pytest.approx(reference.last_score, abs=1e-9), (state.position(), depth)
        compared += 1


def test_compiled_alphabeta_stops_at_its_deadline_with_a_move():
    import time

    game = qipan.load("nine-mens-morris")
    state = game.new()
    result = kernel_of(game).alphabeta(state, deadline=time.perf_counter() + 0.2)
    assert result.move in state.legal_moves() and 1 <= result.depth < 64


def test_compiled_alphabeta_wins_a_mill_in_one():
    game = qipan.load("nine-mens-morris")
    state = game.position("W:a7,g7,d6,f2 B:a1,g1,c3 to:W")
    result = kernel_of(game).alphabeta(state, depth=3)
    assert result.move.text.startswith("d6-d7x") and result.score == 1_000_000 - 1


def test_a_search_that_outgrows_the_repetition_history_scores_by_the_evaluation():
    game = qipan.load("six-mens-morris", n_move=0)
    kernel = MorrisKernel(game.geometry)
    kernel.history = 3  # room for three positions beyond the game's own
    state = game.position("W:a5,c5,e3,b3 B:a1,c1,d2,c4 to:W")
    assert kernel.playouts(state, 20, seed=1)[5] > 0  # overflowed games count as unfinished
    move, _ = kernel.mcts(state, iterations=200, seed=1)
    assert move in state.legal_moves()
    assert kernel.alphabeta(state, depth=6).move in state.legal_moves()
