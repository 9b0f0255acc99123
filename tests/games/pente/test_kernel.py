"""The compiled Pente kernel against the reference rules: perft, and seeded random games over
every preset and option comparing legal move sets, positions (every cell, captures, counters)
and outcomes at every ply. CI plays 60 games per case; ``benchmarks/pente_kernel_vs_openspiel.py
--check 2000`` plays the issue's 2,000."""

from __future__ import annotations

import random

import pytest

import qipan
from qipan.core.perft import perft
from qipan.fast import HAVE_NUMBA, check_kernel
from qipan.games.pente.kernel import PenteKernel, kernel_for

pytestmark = pytest.mark.skipif(not HAVE_NUMBA, reason="the kernel needs qipan[fast] (numba)")

CASES = [
    ("pente", {}, 2),
    ("pente-tournament", {}, 2),
    ("pente-team", {}, 4),
    ("pente-4", {}, 4),
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
    from qipan.agents.mcts import MCTSAgent

    game = qipan.load("pente", board_size=9)
    assert isinstance(game.kernel(), PenteKernel) and game.kernel().searches == ()
    state = game.new()
    state.play(state.legal_moves()[0])
    assert MCTSAgent(iterations=30, seed=1).choose(state) in state.legal_moves()
    monkeypatch.setenv("QIPAN_KERNELS", "0")
    assert game.kernel() is None and kernel_for(game) is None
    assert MCTSAgent(iterations=30, seed=1).choose(state) in state.legal_moves()
