"""Random playouts of the agent's best moves: the blend of playout results with the
evaluation, the choice among the best few only, and a state left untouched."""

import random

import pytest

from qipan.core import CHANCE, OptionError, Outcome
from qipan.games.tantrix import TantrixAgent, playouts
from qipan.games.tantrix.board import FREE
from qipan.games.tantrix.playouts import (
    CANDIDATES,
    MARGIN_SCALE,
    MARGIN_SHARE,
    PRIOR_PLAYOUTS,
    best_by_playouts,
    blended,
    playout_result,
)

from .conftest import decisions, make, play_random

WON = Outcome((0,), (20.0, 10.0), "all tiles are placed")
LOST = Outcome((1,), (10.0, 20.0), "all tiles are placed")


class _OneMoveGame:
    """A stand-in state: a move named "win" or "lose" ends the game with that result for
    player 0; "coin" ends it with a fair coin's result."""

    def __init__(self, rng, played=None):
        self.outcome = None
        self.rng = rng
        self.bag = set()
        self.played = [] if played is None else played
        self.colours = ("red", "yellow")

    def copy(self):
        return _OneMoveGame(self.rng, self.played)

    def play_unchecked(self, move):
        self.played.append(move)
        result = {"win": WON, "lose": LOST}.get(move)
        self.outcome = (WON if self.rng.random() < 0.5 else LOST) if result is None else result

    def legal_moves(self):
        return []


def test_without_playouts_the_evaluation_decides():
    assert blended(0.0, 0, 0.2) > blended(0.0, 0, 0.1)
    assert blended(0.0, 0, 0.0) == pytest.approx(0.5)


def test_playout_results_outweigh_a_small_evaluation_edge():
    # A move whose playouts all win beats one the evaluation rates a little higher whose
    # playouts all lose; with the evaluation worth PRIOR_PLAYOUTS playouts.
    assert blended(8.0, 8, 0.0) > blended(0.0, 8, 0.3)
    assert blended(8.0, 8, 0.0) == pytest.approx((8 + PRIOR_PLAYOUTS / 2) / (8 + PRIOR_PLAYOUTS))


def test_playouts_find_the_winning_move_the_evaluation_ranks_second():
    state = _OneMoveGame(random.Random(1))
    ranked = [(0.3, "lose"), (0.1, "win"), (0.2, "coin")]
    assert best_by_playouts(state, 0, ranked, random.Random(2), budget=30) == "win"
    # No budget and no deadline: no playouts, the evaluation's best.
    assert best_by_playouts(state, 0, ranked, random.Random(2)) == "lose"


def test_only_the_best_candidates_are_played_out():
    # Six candidates that lose their playouts and a seventh that would win: it is never
    # played out nor chosen (its evaluation alone would beat the losers' blended value).
    state = _OneMoveGame(random.Random(1))
    ranked = [(0.0, "lose")] * CANDIDATES + [(-0.1, "win")]
    assert best_by_playouts(state, 0, ranked, random.Random(2), budget=60) == "lose"
    assert "win" not in state.played and len(state.played) == 60


def test_agent_plays_out_free_moves_and_fills(monkeypatch):
    calls = []
    real = playouts.playout

    def counting(state, player, rng, order=None, fast=False):
        calls.append(state.to_move)
        return real(state, player, rng, order, fast)

    monkeypatch.setattr(playouts, "playout", counting)
    monkeypatch.setenv("QIPAN_KERNELS", "0")  # the Python playouts (test_kernel.py: the kernel's)
    agent = TantrixAgent(seed=3, playouts=12)
    steps = set()
    for seed in range(12):
        for state in decisions(2, seed, min_board=8):
            if state.endgame or len(state.legal_moves()) < 2 or state.step in steps:
                continue
            key = state.key()
            before = len(calls)
            assert agent.choose(state) in state.legal_moves()
            assert state.key() == key  # the playouts ran on copies
            # Sequential halving plays whole rounds: a remainder smaller than a round is left.
            assert 12 - CANDIDATES < len(calls) - before <= 12
            steps.add(state.step)
        if FREE in steps and steps - {FREE}:
            break
    assert FREE in steps and steps - {FREE}, steps


def test_with_a_time_limit_playouts_run_until_the_deadline_unless_turned_off(monkeypatch):
    # The wiring, not the clock (tests never depend on wall time): with a time limit the
    # agent hands its candidates to the playouts with a deadline and no fixed budget.
    from qipan.games.tantrix import search as search_module

    handed = []

    def recording(state, player, ranked, rng, deadline=None, budget=None, fast=False, whole_rounds=False):
        handed.append((deadline is not None, budget))
        return ranked[0][1]

    def recording_halving(
        state,
        player,
        ranked,
        rng,
        deadline=None,
        budget=None,
        fast=True,
        prior=None,
        runner=None,
        candidates=6,
    ):
        return recording(state, player, ranked, rng, deadline, budget)

    monkeypatch.setattr(search_module, "best_by_playouts", recording)
    monkeypatch.setattr(search_module, "best_by_halving", recording_halving)
    states = [s.copy() for s in decisions(2, 0, min_board=8) if s.step == FREE and len(s.legal_moves()) > 1]
    for state in states[:3]:
        assert TantrixAgent(seed=3, time=30.0).choose(state) in state.legal_moves()
    assert handed == [(True, None)] * 3
    handed.clear()
    for state in states[:3]:
        assert TantrixAgent(seed=3, time=30.0, playouts=0).choose(state) in state.legal_moves()
        assert TantrixAgent(seed=3).choose(state) in state.legal_moves()  # no time limit: none
    assert handed == []


def test_playouts_of_a_round_draw_the_same_tiles():
    # Common random numbers: two candidates of one round see the same draw order.
    state = next(s for s in decisions(2, 6, min_board=10) if s.step == FREE and len(s.legal_moves()) > 3)
    order = random.Random(3).sample(sorted(state.bag), len(state.bag))
    draws = []
    for move in state.legal_moves()[:2]:
        sim = state.copy()
        sim.play_unchecked(move)
        playouts.playout(sim, state.to_move, random.Random(len(draws)), order)
        drawn = [m.data[1] for m in sim.history[len(state.history) :] if m.data[0] == "draw"]
        assert drawn == [t for t in order if t in drawn]  # in the round's order
        draws.append(drawn)
    assert draws[0] and draws[1]
    n = min(len(draws[0]), len(draws[1]))
    assert draws[0][:n] == draws[1][:n]


def test_building_moves_turn_the_movers_colour_to_the_most_neighbours():
    from qipan.games.tantrix.evaluation import own_contacts

    state = next(s for s in decisions(2, 8, min_board=10) if s.step == FREE and len(s.legal_moves()) > 5)
    colour = state.colours[state.to_move]
    counts = {m: own_contacts(m, colour, state.edges) for m in state.legal_moves()}
    chosen = playouts.building_moves(state, state.legal_moves())
    assert chosen and len(set(counts.values())) > 1
    assert {counts[m] for m in chosen} == {max(counts.values())}
    assert set(chosen) == {m for m, k in counts.items() if k == max(counts.values())}


def test_a_playout_builds_at_the_set_share(monkeypatch):
    # With every move a building one, each choice in the playout is a building move.
    monkeypatch.setattr(playouts, "BUILD_SHARE", 1.0)
    state = next(s for s in decisions(2, 2, min_board=10) if s.step == FREE)
    sim = state.copy()
    playouts.playout(sim, 0, random.Random(5))
    replay = state.copy()
    checked = 0
    for move in sim.history[len(state.history) :]:
        if replay.to_move != CHANCE and len(replay.legal_moves()) > 1:
            assert move in playouts.building_moves(replay, replay.legal_moves())
            checked += 1
        replay.play(move)
    assert checked >= 5 and replay.outcome is not None


def test_playout_budget_without_a_time_limit_is_reproducible():
    state = next(s for s in decisions(2, 4, min_board=10) if s.step == FREE and len(s.legal_moves()) > 3)
    first = TantrixAgent(seed=9, playouts=24).choose(state)
    assert first == TantrixAgent(seed=9, playouts=24).choose(state)
    assert first in state.legal_moves()


def test_a_playout_budget_that_is_no_count_is_refused():
    with pytest.raises(OptionError, match=r"option playouts=-1 is not allowed: expected int 0\.\.1000000"):
        TantrixAgent(playouts=-1)
    with pytest.raises(OptionError, match="option playouts=True is not allowed"):
        TantrixAgent(playouts=True)
    with pytest.raises(OptionError, match="option playouts='five' is not allowed"):
        TantrixAgent(playouts="five")
    assert TantrixAgent(playouts="5").playouts == 5  # text from a command line or a form


def test_playout_result_counts_the_margin_as_well_as_the_win():
    def result(scores, winners, colours=("red", "yellow"), player=0):
        return playout_result(Outcome(winners, scores, "all tiles are placed"), colours, player)

    big_win, small_win = result((20.0, 10.0), (0,)), result((11.0, 10.0), (0,))
    small_loss, big_loss = result((10.0, 11.0), (1,)), result((10.0, 20.0), (1,))
    assert 1.0 > big_win > small_win > 0.5 > small_loss > big_loss > 0.0
    assert result((12.0, 12.0), ()) == 0.5
    # A win by MARGIN_SCALE points: the whole win part plus 3/4 of the margin part.
    assert result((10.0 + MARGIN_SCALE, 10.0), (0,)) == pytest.approx(1 - MARGIN_SHARE + 0.75 * MARGIN_SHARE)
    # Doubles: the margin is over the best seat of the other colour, not the partner.
    doubles = ("red", "yellow", "red", "yellow")
    assert result((15.0, 9.0, 15.0, 13.0), (0, 2), doubles) == result((15.0, 13.0), (0,))


@pytest.mark.parametrize("preset,players", [("tantrix", 3), ("tantrix", 4), ("tantrix-doubles", 4)])
def test_playouts_play_legal_moves_for_three_and_four_players_and_doubles(preset, players):
    agent = TantrixAgent(seed=players, iterations=10, playouts=6)
    state = make(preset).new(players=players)
    play_random(state, players, stop=lambda s: len(s.board) >= 8 and s.to_move != CHANCE)
    for _ in range(4):
        key = state.key()
        move = agent.choose(state)
        assert state.key() == key and move in state.legal_moves()
        state.play(move)
        play_random(state, players, stop=lambda s: s.to_move != CHANCE)


@pytest.mark.parametrize("share", [0.0, 1.0])
def test_a_fast_playout_keeps_the_policy(monkeypatch, share):
    # Fast playouts draw the uniform share with random_move and list the placements only
    # for the building share: all building moves at share 1, legal moves at share 0.
    monkeypatch.setattr(playouts, "BUILD_SHARE", share)
    state = next(s for s in decisions(2, 3, min_board=10) if s.step == FREE)
    sim = state.copy()
    result = playouts.playout(sim, 0, random.Random(7), fast=True)
    assert 0.0 <= result <= 1.0 and sim.outcome is not None
    replay = state.copy()
    for move in sim.history[len(state.history) :]:
        legal = replay.legal_moves()
        assert move in legal
        if share == 1.0 and replay.to_move != CHANCE and len(legal) > 1:
            assert move in playouts.building_moves(replay, legal)
        replay.play(move)
    assert replay.outcome == sim.outcome


def test_the_classic_agent_keeps_the_listing_playouts(monkeypatch):
    from qipan.agents import load

    seen = []
    real = playouts.playout
    monkeypatch.setattr(
        playouts, "playout", lambda *a, **k: seen.append(a[4] if len(a) > 4 else k) or real(*a)
    )
    monkeypatch.setenv("QIPAN_KERNELS", "0")  # the tantrix agent's Python playouts
    state = next(s for s in decisions(2, 4, min_board=10) if s.step == FREE and len(s.legal_moves()) > 3)
    for name, fast in (("tantrix", True), ("tantrix-classic", False)):
        seen.clear()
        move = load(name, seed=3, playouts=6).choose(state)
        assert move in state.legal_moves() and seen and set(seen) == {fast}


@pytest.mark.parametrize(
    "preset,players,seed", [("tantrix", 2, 1), ("tantrix", 3, 2), ("tantrix-doubles", 4, 3)]
)
def test_building_moves_without_listing_are_the_listed_ones_in_order(preset, players, seed):
    # Checked at every decision of a whole random game: fills, free moves, the endgame.
    state = make(preset).new(players=players)
    rng = random.Random(seed)
    checked = set()
    while state.outcome is None:
        if state.to_move != CHANCE:
            expected = playouts.building_moves(state, state.legal_moves())
            assert playouts.legal_building_moves(state) == expected
            checked.add((state.step == FREE, state.endgame))
        state.play_unchecked(state.random_move(rng))
    assert checked == {(True, False), (False, False), (True, True), (False, True)}


def test_whole_rounds_judge_every_candidate_on_the_same_draws(monkeypatch):
    # Seven playouts over six candidates: the seventh (a round cut short) is left out, so
    # the choice is the one after six; without whole rounds the seventh counts.
    state = next(s for s in decisions(2, 6, min_board=10) if s.step == FREE and len(s.legal_moves()) > 6)
    ranked = [(0.0, m) for m in state.legal_moves()[:CANDIDATES]]
    rounds = [0.4, 0.5, 0.5, 0.5, 0.5, 0.5, 1.0]
    results = iter(rounds)
    monkeypatch.setattr(playouts, "playout", lambda *args: next(results))
    kept = best_by_playouts(state, 0, ranked, random.Random(1), budget=7, whole_rounds=True)
    results = iter(rounds)
    counted = best_by_playouts(state, 0, ranked, random.Random(1), budget=7)
    assert kept == ranked[1][1]  # after six: the first lost a little, the next ones tie
    assert counted == ranked[0][1]  # the seventh playout (a win) puts the first on top


def test_sequential_halving_finds_the_winning_move_and_spends_most_playouts_on_it():
    from qipan.games.tantrix.playouts import best_by_halving

    state = _OneMoveGame(random.Random(1))
    ranked = [(0.3, "lose"), (0.2, "coin"), (0.1, "win"), (0.0, "coin"), (0.0, "lose"), (0.0, "coin")]
    assert best_by_halving(state, 0, ranked, random.Random(2), budget=60) == "win"
    played = state.played
    assert 48 < len(played) <= 60  # whole rounds: what is left is less than a round
    # Every candidate gets its first phase; the winner, never dropped, the most playouts.
    assert set(played) == {"lose", "coin", "win"}
    assert played.count("win") > len(played) / 3
    # No budget and no deadline: the evaluation's best.
    assert best_by_halving(state, 0, ranked, random.Random(2)) == "lose"


def test_sequential_halving_with_few_playouts_keeps_only_the_best_evaluated_candidates():
    from qipan.games.tantrix.playouts import HALVING_MIN_ROUNDS, best_by_halving

    state = _OneMoveGame(random.Random(1))
    ranked = [(0.0, "coin")] * 2 + [(-0.1, "win")] * (CANDIDATES - 2)
    # Too few playouts for every candidate to get HALVING_MIN_ROUNDS: the two best only.
    best_by_halving(state, 0, ranked, random.Random(2), budget=2 * HALVING_MIN_ROUNDS)
    assert state.played == ["coin"] * (2 * HALVING_MIN_ROUNDS)


def test_sequential_halving_leaves_out_a_round_cut_short(monkeypatch):
    from qipan.games.tantrix.playouts import best_by_halving

    state = next(s for s in decisions(2, 6, min_board=10) if s.step == FREE and len(s.legal_moves()) > 2)
    ranked = [(0.0, m) for m in state.legal_moves()[:2]]
    # A budget of three: one round of two, then a third playout (a win for the first) from
    # a round the budget cuts short; counted, it would put the first on top.
    results = iter([0.4, 0.6, 1.0])
    monkeypatch.setattr(playouts, "playout", lambda *args: next(results))
    assert best_by_halving(state, 0, ranked, random.Random(1), budget=3) == ranked[1][1]
    assert next(results, None) is None  # all three were played
