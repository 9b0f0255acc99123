"""The compiled Pente kernel against the reference rules: perft, and seeded random games
comparing legal move sets, positions (every cell, captures, counters) and outcomes at every
ply: the issue's 2,000 per preset (one test each, so that xdist spreads them) and 60 per
further option set. Then the generic agents' searches in the kernel against theirs."""

from __future__ import annotations

import random

import pytest

import qipan
from qipan.agents.alphabeta import AlphaBetaAgent
from qipan.agents.mcts import MCTSAgent
from qipan.core.errors import OptionError
from qipan.core.perft import perft
from qipan.fast import HAVE_NUMBA, check_kernel
from qipan.games.pente.kernel import PenteKernel, kernel_for

pytestmark = pytest.mark.skipif(not HAVE_NUMBA, reason="the kernel needs qipan[fast] (numba)")

#: Seeded random games per preset; benchmarks/kernel_check.py runs 2,000 (the tests stay within CI).
GAMES = 400
PRESETS = [("pente", 2), ("pente-tournament", 2), ("pente-team", 4), ("pente-4", 4)]
CASES = [
    ("pente", dict(exact_five=True), 2),
    ("pente", dict(double_tria=True), 2),
    ("pente", dict(double_tria=True, capture_win_overrides=True, board_size=9), 2),
    ("pente", dict(max_pairs_per_move=1, board_size=9), 2),
    ("pente-team", dict(count_partner_captures=False, first_player=3), 4),
    ("pente-4", dict(exact_five=True, board_size=11, tournament=True, first_player=2), 4),
]


def kernel_of(game) -> PenteKernel:
    kernel = kernel_for(game)
    assert kernel is not None
    return kernel


@pytest.mark.parametrize(("preset", "players"), PRESETS)
def test_random_games_agree_on_every_preset(preset, players):
    game = qipan.load(preset)
    plies, reasons = check_kernel(
        game, GAMES, seed=21, kernel=kernel_of(game), start=lambda: game.new(players=players)
    )
    assert sum(reasons.values()) == GAMES and plies > GAMES * 9


@pytest.mark.parametrize(("preset", "options", "players"), CASES)
def test_random_games_agree(preset, options, players):
    game = qipan.load(preset, **options)
    plies, reasons = check_kernel(
        game, 60, seed=21, kernel=kernel_of(game), start=lambda: game.new(players=players)
    )
    assert sum(reasons.values()) == 60 and plies > 60 * 9


def test_the_special_endings_were_exercised():
    game = qipan.load("pente", double_tria=True, capture_win_overrides=True, board_size=9)
    _, reasons = check_kernel(game, 60, seed=3, kernel=kernel_of(game))
    assert reasons["double open tria"]
    game = qipan.load("pente", max_pairs_per_move=1, board_size=9)
    _, reasons = check_kernel(game, 60, seed=3, kernel=kernel_of(game))
    assert reasons["10 stones captured"]


@pytest.mark.parametrize(
    ("options", "depth"), [({"board_size": 7}, 3), ({"board_size": 7, "tournament": True}, 4)]
)
def test_perft_matches_the_reference(options, depth):
    game = qipan.load("pente", **options)
    state = game.new()
    assert kernel_of(game).perft(state, depth) == perft(state, depth)


def test_perft_from_positions_with_captures_and_choices():
    game = qipan.load("pente", board_size=9, max_pairs_per_move=1, exact_five=True)
    kernel = kernel_of(game)
    rng = random.Random(5)
    for _ in range(5):
        state = game.new()
        for _ in range(rng.randrange(10, 30)):
            if state.outcome is None:
                state.play(rng.choice(state.legal_moves()))
        if state.outcome is None:
            assert kernel.perft(state, 2) == perft(state, 2), state.position()


def test_playouts_finish_and_are_reproducible():
    game = qipan.load("pente")
    kernel = kernel_of(game)
    stats = kernel.playouts(game.new(), 100, seed=2)
    plies, draws, unfinished, *wins = stats
    assert sum(wins) + draws == 100 and unfinished == 0 and plies > 100 * 9
    assert kernel.playouts(game.new(), 20, seed=2) == kernel.playouts(game.new(), 20, seed=2)
    team = qipan.load("pente-team")
    _, _, _, *wins = kernel_of(team).playouts(team.new(players=4), 50, seed=2)
    assert wins[0] == wins[2] and wins[1] == wins[3]  # partners win together


def test_the_game_declares_its_kernel_and_runs_without_it(monkeypatch):
    game = qipan.load("pente", board_size=9)
    assert isinstance(game.kernel(), PenteKernel) and game.kernel().searches == ("mcts", "alphabeta")
    state = game.new()
    state.play(state.legal_moves()[0])
    assert MCTSAgent(iterations=30, seed=1).choose(state) in state.legal_moves()
    monkeypatch.setenv("QIPAN_KERNELS", "0")
    assert game.kernel() is None and kernel_for(game) is None
    assert MCTSAgent(iterations=30, seed=1).choose(state) in state.legal_moves()


# -- the generic agents' searches in the kernel ----------------------------------------------------
def random_position(game, rng, plies, players=2):
    """A position after ``plies`` random moves that is still playing, with a choice to make."""
    while True:
        state = game.new(players=players)
        for _ in range(plies):
            if state.outcome is None:
                state.play(rng.choice(state.legal_moves()))
        if state.outcome is None and len(state.legal_moves()) > 1:
            return state


@pytest.mark.parametrize(
    ("preset", "options", "players"),
    [
        ("pente", dict(board_size=9), 2),
        ("pente-tournament", dict(board_size=11), 2),
        ("pente-team", dict(board_size=11), 4),
        ("pente-team", dict(board_size=9, count_partner_captures=False), 4),
        ("pente-4", dict(board_size=9), 4),
        ("pente", dict(board_size=9, max_pairs_per_move=1, exact_five=True), 2),
    ],
)
def test_compiled_evaluation_is_the_reference_evaluation(preset, options, players):
    """Every ply of random games (captures, the opening rules, partners, three foes)."""
    game = qipan.load(preset, **options)
    kernel = kernel_of(game)
    rng = random.Random(3)
    compared = 0
    for _ in range(6):
        state = game.new(players=players)
        while state.outcome is None:
            s = kernel.state(state)
            for p in range(players):
                assert kernel.evaluate(s, p) == game.evaluate(state, p), (state.ply, p)
                compared += 1
            state.play(rng.choice(state.legal_moves()))
    assert compared > 300


@pytest.mark.parametrize(
    ("preset", "options", "depth", "plies"),
    [
        ("pente", dict(board_size=7), 3, (8, 30)),
        ("pente", dict(board_size=9), 2, (10, 40)),
        ("pente-tournament", dict(board_size=9), 2, (2, 3)),  # the second stone's restriction
        ("pente", dict(board_size=9, max_pairs_per_move=1, exact_five=True), 2, (12, 40)),
        ("pente", dict(board_size=7, double_tria=True), 3, (6, 25)),
    ],
)
def test_compiled_alphabeta_has_the_generic_agents_values(monkeypatch, preset, options, depth, plies):
    """The kernel's PVS finds the values of the reference ``alphabeta`` at every depth."""
    game = qipan.load(preset, **options)
    kernel = kernel_of(game)
    rng = random.Random(4)
    for _ in range(2):
        state = random_position(game, rng, rng.randrange(*plies))
        for d in range(1, depth + 1):
            result = kernel.alphabeta(state, depth=d)
            with monkeypatch.context() as m:
                m.setenv("QIPAN_KERNELS", "0")
                reference = AlphaBetaAgent(depth=d)
                reference.choose(state)
            assert result.depth == reference.reached_depth and result.move in state.legal_moves()
            assert result.score == reference.last_score, (state.position(), d)


def test_compiled_alphabeta_takes_a_five_and_stops_at_its_deadline():
    import time

    game = qipan.load("pente", board_size=9)
    state = game.new().play_many(["E5", "A1", "F5", "A2", "G5", "B1", "H5", "C3"])
    result = kernel_of(game).alphabeta(state, depth=3)
    assert result.move.text in {"D5", "J5"} and result.score == 1_000_000 - 1
    state = game.new().play_many(["E5", "D4"])
    result = kernel_of(game).alphabeta(state, deadline=time.perf_counter() + 0.2)
    assert result.move in state.legal_moves() and 1 <= result.depth < 64


def test_compiled_alphabeta_is_for_two_players():
    game = qipan.load("pente-4", board_size=9)
    state = game.new(players=4)
    with pytest.raises(OptionError, match="two-player"):
        kernel_of(game).alphabeta(state, depth=1)


@pytest.mark.parametrize(("preset", "players"), [("pente", 2), ("pente-team", 4), ("pente-4", 4)])
def test_compiled_mcts_counts_its_iterations_and_repeats_with_its_seed(preset, players):
    game = qipan.load(preset, board_size=9)
    kernel = kernel_of(game)
    state = random_position(game, random.Random(2), 5, players)
    move, done = kernel.mcts(state, iterations=300, seed=5)
    assert done == 300 and move in state.legal_moves()
    assert kernel.mcts(state, iterations=300, seed=5)[0] == move
    assert len({kernel.mcts(state, iterations=40, seed=k)[0] for k in range(8)}) > 1  # the seed matters


def test_compiled_mcts_finds_the_five_and_cuts_long_playouts():
    game = qipan.load("pente", board_size=9)
    state = game.new().play_many(["E5", "A1", "F5", "A2", "G5", "B1", "H5", "C3"])
    move, _ = kernel_of(game).mcts(state, iterations=3000, seed=1)
    assert move.text in {"D5", "J5"}
    move, done = kernel_of(game).mcts(state, iterations=200, seed=1, playout_cap=1)  # scored by evaluate
    assert done == 200 and move in state.legal_moves()


def test_the_generic_agents_search_in_the_kernel(monkeypatch):
    game = qipan.load("pente", board_size=9)
    calls = []
    for name in ("mcts", "alphabeta"):
        original = getattr(PenteKernel, name)

        def spy(self, *args, _original=original, _name=name, **kwargs):
            calls.append(_name)
            return _original(self, *args, **kwargs)

        monkeypatch.setattr(PenteKernel, name, spy)
    state = game.new().play_many(["E5", "D4"])
    mcts = MCTSAgent(iterations=200, seed=3)
    move = mcts.choose(state)
    assert move in state.legal_moves() and mcts.last_iterations == 200
    assert MCTSAgent(iterations=200, seed=3).choose(state) == move
    alphabeta = AlphaBetaAgent(depth=2)
    assert alphabeta.choose(state) in state.legal_moves() and alphabeta.reached_depth == 2
    four = qipan.load("pente-4", board_size=9).new(players=4).play_many(["E5", "D4"])
    assert MCTSAgent(iterations=50, seed=3).choose(four) in four.legal_moves()
    assert calls == ["mcts", "mcts", "alphabeta", "mcts"]
