"""The compiled Tantrix kernel (``kernel.py``) against the reference rules: seeded random
games of every preset and option (2, 3, 4 players, doubles, tournament setup, tiebreak,
colours, deadlocks) comparing legal moves, positions and outcomes at every ply; the legal
placements in the rules' order; the building moves; the playouts' policy (statistically)
and their result (exactly); clear errors for what the kernel cannot hold."""

from __future__ import annotations

import random

import numpy as np
import pytest

from qipan.core import CHANCE
from qipan.fast import HAVE_NUMBA, check_kernel, seed_word
from qipan.games.tantrix import playouts as P
from qipan.games.tantrix.agent import TantrixAgent
from qipan.games.tantrix.classic import TantrixClassicAgent

from .conftest import make

pytestmark = pytest.mark.skipif(not HAVE_NUMBA, reason="the kernel needs qipan[fast] (numba)")

if HAVE_NUMBA:
    from qipan.games.tantrix import kernel as K

#: (preset, options, players): every preset, then the other option values.
GAMES = [
    ("tantrix", {}, 2),
    ("tantrix", {}, 3),
    ("tantrix", {}, 4),
    ("tantrix-doubles", {}, 4),
    ("tantrix-tournament", {}, 2),
    ("tantrix", {"setup": "tournament"}, 4),
    ("tantrix", {"tiebreak": "second_best"}, 2),
    ("tantrix", {"tiebreak": "second_best"}, 3),
    ("tantrix-doubles", {"tiebreak": "second_best", "colours": "BY"}, 4),
    ("tantrix", {"colours": "GBR"}, 3),
]

#: test_scenarios' deadlock: seat 2 holds tile 38, which fits nowhere; the position before
#: seat 2's draw, so the kernel's turn machine has to find the deadlock itself.
DEADLOCK = (
    "players=2 phase=play turn=2/1 draw=yes order=48,42 board=14@-3,2r3;45@-2,1r1;16@-1,-1r2;"
    "34@-1,0r0;7@-1,1r0;52@0,-2r3;48@0,-1r3;29@0,0r0;54@0,1r0;23@1,-2r4;28@1,-1r2;11@1,0r4;"
    "56@2,-1r3 hands=5,15,19,22|38 bag=3,27"
)


def game_of(preset, options):
    game = make(preset, **options)
    return game


def random_positions(game, players: int, count: int, seed: int):
    """Seeded random positions of the play phase with a placement to choose."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = game.new(players=players)
        stop = rng.randrange(10, 150)
        while state.outcome is None and state.ply < stop:
            state.play_unchecked(state.random_move(rng))
        if state.outcome is None and state.to_move != CHANCE:
            out.append(state)
    return out


@pytest.mark.parametrize("preset,options,players", GAMES, ids=lambda x: str(x))
def test_kernel_plays_every_random_game_as_the_rules(preset, options, players):
    game = game_of(preset, options)
    plies, reasons = check_kernel(game, 60, seed=players, start=lambda: game.new(players=players))
    assert plies > 60 * 100 and sum(reasons.values()) == 60


def test_kernel_finds_deadlocks_as_the_rules():
    game = game_of("tantrix", {})
    plies, reasons = check_kernel(game, 30, seed=2, start=lambda: game.position(DEADLOCK))
    assert reasons["deadlock: player 2 has no legal placement"] > 5
    assert reasons["all tiles are placed"] > 5


@pytest.mark.parametrize("preset,options,players", GAMES[:5], ids=lambda x: str(x))
def test_legal_placements_come_in_the_rules_order(preset, options, players):
    game = game_of(preset, options)
    kernel = game.kernel()
    for state in random_positions(game, players, 40, seed=7):
        assert kernel.moves_of(kernel.legal(kernel.state(state))) == state.legal_moves()


@pytest.mark.parametrize("preset,options,players", GAMES[:4], ids=lambda x: str(x))
def test_building_moves_are_the_playouts_ones(preset, options, players):
    game = game_of(preset, options)
    kernel = game.kernel()
    for state in random_positions(game, players, 60, seed=11):
        expected = P.building_moves(state, state.legal_moves())
        assert kernel.moves_of(kernel.building(kernel.state(state))) == expected
        assert P.legal_building_moves(state) == expected


def test_bad_codes_and_positions_beyond_the_window_are_refused():
    game = game_of("tantrix", {})
    kernel = game.kernel()
    for code in (
        0,
        57,
        -3,
        K.PLACE + (((K.NCELL * 64) + 3) * 8 + 2) * 2,
        K.PLACE + ((100 * 64 + 3) * 8 + 7) * 2,
    ):
        with pytest.raises(ValueError, match="code|tiles"):
            kernel.move(code)
    far = game.position("players=2 phase=play turn=1/2 order=9,38 board=19@30,0r1 hands=1,2|5,8 bag=rest")
    with pytest.raises(ValueError, match="window"):
        kernel.state(far)
    assert not K.holds(far)
    near = game.position("players=2 phase=play turn=1/2 order=9,38 board=19@3,0r1 hands=1,2|5,8 bag=rest")
    assert K.holds(near) and kernel.moves_of(kernel.legal(kernel.state(near))) == near.legal_moves()


def test_no_kernel_when_kernels_are_switched_off(monkeypatch):
    monkeypatch.setenv("QIPAN_KERNELS", "0")
    assert game_of("tantrix", {}).kernel() is None
    state = game_of("tantrix", {}).new(players=2)
    assert TantrixAgent(playouts=2)._kernel_runner(state, 0) is None


def test_the_agent_plays_out_on_the_kernel(monkeypatch):
    calls = []
    real = K.Playouts.after

    def counting(self, move, order):
        calls.append(move)
        return real(self, move, order)

    def python_playout(*args, **kwargs):
        raise AssertionError("a Python playout with the kernel on")

    monkeypatch.setattr(K.Playouts, "after", counting)
    monkeypatch.setattr(P, "playout", python_playout)
    agent = TantrixAgent(seed=3, playouts=12)
    for state in random_positions(game_of("tantrix", {}), 2, 12, seed=5):
        if state.endgame or len(state.legal_moves()) < 2:
            continue
        before = len(calls)
        key = state.key()
        assert agent.choose(state) in state.legal_moves()
        assert state.key() == key
        assert 12 - P.CANDIDATES < len(calls) - before <= 12
        assert set(calls[before:]) <= set(state.legal_moves())


def test_the_agents_seed_decides_its_kernel_playouts():
    """The same seed and playout budget give the same moves (the kernel's random numbers
    come from the agent's), and another seed draws other playouts."""
    states = [
        s
        for s in random_positions(game_of("tantrix", {}), 2, 16, seed=9)
        if not s.endgame and len(s.legal_moves()) > 1
    ]

    def moves(seed):
        agent = TantrixAgent(seed=seed, playouts=30)
        return [agent.choose(s.copy()) for s in states]

    def results(seed):
        state = states[0]
        runner = TantrixAgent(seed=seed)._kernel_runner(state, state.to_move)
        move = state.legal_moves()[0]
        return [runner(move, None) for _ in range(20)]

    assert moves(4) == moves(4)
    assert results(4) == results(4)
    assert results(4) != results(5)


def test_playouts_in_two_threads_at_once_give_the_sequential_results():
    """The server's bots think in threads and the kernel's functions release the GIL: each
    thread's playouts must use their own scratch arrays."""
    from concurrent.futures import ThreadPoolExecutor

    game = game_of("tantrix", {})
    kernel = game.kernel()
    states = [s for s in random_positions(game, 2, 4, seed=21) if not s.endgame][:2]

    def run(i):
        state = states[i % len(states)]
        runs = kernel.playouts(kernel.state(state), state.to_move, seed=i)
        codes = [kernel.code(m) for m in state.legal_moves()[:4]]
        return [runs.round(codes, None) for _ in range(60)]

    alone = [run(i) for i in range(4)]
    with ThreadPoolExecutor(max_workers=4) as pool:
        together = list(pool.map(run, range(4)))
    assert together == alone


def test_the_classic_agent_stays_on_python_playouts():
    state = random_positions(game_of("tantrix", {}), 2, 1, seed=3)[0]
    assert TantrixClassicAgent()._kernel_runner(state, state.to_move) is None
    assert TantrixAgent()._kernel_runner(state, state.to_move) is not None


@pytest.mark.parametrize("preset,options,players", GAMES, ids=lambda x: str(x))
def test_playout_result_of_an_outcome_is_the_pythons(preset, options, players):
    game = game_of(preset, options)
    kernel = game.kernel()
    fpar = K.policy()
    rng = random.Random(5)
    for _ in range(6):
        ref = game.new(players=players)
        s = kernel.state(ref)
        while ref.outcome is None:
            move = ref.random_move(rng)
            ref.play_unchecked(move)
            kernel.play(s, kernel.code(move))
        for p in range(players):
            expected = P.playout_result(ref.outcome, ref.colours, p)
            assert K.result(s.h, s.par, p, fpar) == pytest.approx(expected, abs=1e-12)


def kernel_playouts(kernel, state, n: int, build_share: float):
    """``n`` kernel playouts from ``state``: (mean final score sum, mean result)."""
    fpar = K.policy()
    fpar[0] = build_share
    rng = np.array([seed_word(5)], np.uint64)
    totals, results = [], []
    w = kernel.work()
    for _ in range(n):
        s = kernel.state(state)
        K.playout(
            s.oi,
            s.cnt,
            s.h,
            s.par,
            w.sc,
            w.mark,
            rng,
            np.zeros(1, np.int64),
            0,
            fpar,
            w.buf,
            w.stack,
            0,
        )
        totals.append(s.h[K.H_SCORE] + s.h[K.H_SCORE + 1])
        results.append(K.result(s.h, s.par, state.to_move, fpar))
    return np.mean(totals), np.mean(results), np.std(totals), np.std(results)


def test_kernel_playouts_follow_the_python_policy():
    """The kernel's playouts and Python's fast ones agree in the mean final score and the
    mean result within four standard errors; uniform-only playouts (no building moves) do
    not, so the test tells the policies apart."""
    game = game_of("tantrix", {})
    kernel = game.kernel()
    for seed, plies in ((2, 90), (1, 60)):
        rng = random.Random(seed)
        state = game.new(players=2)
        while state.ply < plies or state.to_move == CHANCE:
            state.play_unchecked(state.random_move(rng))
        prng = random.Random(5)
        totals, results = [], []
        for _ in range(300):
            sim = state.copy()
            results.append(P.playout(sim, state.to_move, prng, fast=True))
            totals.append(sum(sim.outcome.scores))
        py_total, py_result = np.mean(totals), np.mean(results)
        k_total, k_result, k_sd_total, k_sd_result = kernel_playouts(kernel, state, 3000, P.BUILD_SHARE)
        se_total = np.hypot(np.std(totals) / 300**0.5, k_sd_total / 3000**0.5)
        se_result = np.hypot(np.std(results) / 300**0.5, k_sd_result / 3000**0.5)
        assert abs(k_total - py_total) < 4 * se_total
        assert abs(k_result - py_result) < 4 * se_result
        u_total, u_result, _, _ = kernel_playouts(kernel, state, 3000, 0.0)
        assert abs(u_total - py_total) > 4 * se_total


def test_a_round_leaves_the_position_as_it_was():
    game = game_of("tantrix", {})
    kernel = game.kernel()
    for state in random_positions(game, 3, 5, seed=4):
        s = kernel.state(state)
        before = kernel.snapshot(s), s.cnt.copy()
        runs = kernel.playouts(s, state.to_move, seed=1)
        codes = kernel.legal(s)[:4]
        first = runs.round(codes, sorted(state.bag), seed=9)
        assert all(0.0 <= r <= 1.0 for r in first) and len(first) == len(codes)
        assert kernel.snapshot(s) == before[0] and (s.cnt == before[1]).all()
        assert runs.round(codes, sorted(state.bag), seed=9) == first  # seeded: repeatable
        assert runs.after(kernel.move(codes[0]), sorted(state.bag)) >= 0.0
        assert kernel.snapshot(s) == before[0]
