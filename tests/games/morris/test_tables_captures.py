"""The retrograde tables with the captures that remove two stones: 直棋's 直/擔/槓 and
``take_per_mill=2``. The compiled move generator against the engine's ``legal_moves`` (the
Bellman equation, on positions whose moves include two-stone removals into a smaller table),
the second algorithm (the forward sweep) on every component, and the exhaustive solver
(``solver.py``, over the engine's own moves) on the 3-vs-3 subspace."""

from __future__ import annotations

import random
from dataclasses import asdict

import qipan
from qipan.games.morris.perfect import PerfectTables
from qipan.games.morris.rules import MorrisGame
from qipan.games.morris.solver import three_vs_three_counts
from qipan.games.morris.tables import MorrisSpace
from qipan.games.morris.variant import MorrisRules
from qipan.solve.database import tally

from .test_tables import check_bellman

SOLVABLE = {"repetition_count": None, "n_move": 0}


def zhiqi_on_the_six_board() -> MorrisGame:
    """直棋's captures on the 16-point board, 擔 and 槓 on every line (the board has no radial
    lines of three points): small enough to solve every 3..5-stone endgame in seconds."""
    rules = MorrisRules(
        board="six",
        stones=6,
        captures="zhiqi",
        protection="no_mill_protection",
        flying=None,
        dan_lines="any",
        gang_lines="any",
        **SOLVABLE,
    )
    return MorrisGame(
        {"id": "zhiqi-six", "title": "直棋 captures on the 16-point board", "rules": asdict(rules)}
    )


def two_stone_removals(state) -> int:
    """Moves that remove two stones and leave the game going."""
    count = 0
    for move in state.legal_moves():
        if move.data[2].bit_count() == 2:
            child = state.copy()
            child.play(move)
            count += child.outcome is None
    return count


def check_sample_with_two_stone_removals(tables: PerfectTables, seed: int, per_segment: int) -> int:
    rng = random.Random(seed)
    found = 0
    for segment in tables.space.segments():
        for _ in range(per_segment):
            index = rng.randrange(segment.size)
            check_bellman(tables, segment.key, index, rng.randrange(2))
            found += bool(two_stone_removals(tables.space.state_at(segment.key, index)))
    return found


def engine_successors(space, state) -> list[tuple[int, int]]:
    """(segment number, index) of every legal move's result by the engine (-2: the game ends)."""
    out = []
    for move in state.legal_moves():
        child = state.copy()
        child.play(move)
        if child.outcome is not None:
            out.append((-2, 0))
        else:
            key, index = space.locate(child)
            out.append((space._number[key], index))
    return sorted(out)


def kernel_successors(expansion, index) -> list[tuple[int, int]]:
    lo, hi = expansion.start[index], expansion.start[index + 1]
    return sorted(
        (int(s), int(i) if s >= 0 else 0)
        for s, i in zip(expansion.dest_segment[lo:hi], expansion.dest_index[lo:hi], strict=True)
    )


def test_zhiqi_two_stone_removals_follow_the_engine_and_both_algorithms_agree(tmp_path):
    tables = PerfectTables(zhiqi_on_the_six_board(), tmp_path, max_stones=5)
    assert (3, 5, 0, 0) in {s.key for s in tables.space.segments()}
    tables.build(check=True)  # the forward sweep recomputes every component and must agree
    assert check_sample_with_two_stone_removals(tables, seed=8, per_segment=30) > 10
    # Where a position has such a move, its value follows from the engine's successors.
    space = tables.space
    rng = random.Random(2)
    checked = 0
    while checked < 30:
        index = rng.randrange(space.index.size(5, 5))
        if two_stone_removals(space.state_at((5, 5, 0, 0), index)):
            check_bellman(tables, (5, 5, 0, 0), index)
            checked += 1


def test_take_two_per_mill_successors_are_the_engines(tmp_path):
    """Two mills closed by one placement remove two stones (a slide never closes two: the
    stone would have to come from one of the pairs). Six Men's Morris with 5 stones and
    take_per_mill=2: the compiled successors of a placement segment, position by position,
    are the engine's (located in the tables' index), for random positions and for ones
    built to close two mills."""
    game = qipan.load("six-mens-morris", stones=5, take_per_mill=2, **SOLVABLE)
    space = MorrisSpace(game)
    key = (4, 4, 1, 1)
    expansion = space.expand(key)
    rng = random.Random(5)
    for _ in range(200):
        index = rng.randrange(space.index.size(4, 4))
        assert kernel_successors(expansion, index) == engine_successors(space, space.state_at(key, index))
    names = game.geometry.index
    own = sum(1 << names[p] for p in ("a5", "c5", "e3", "e1"))  # e5 closes two mills
    doubles = 0
    for other in rng.sample(range(space.index.size(4, 4)), 3000):
        opp = space.board_of(key, other)[1] & ~own
        if opp.bit_count() != 4 or opp >> names["e5"] & 1:
            continue
        state = space.state_at(key, 0)
        state.bb = [own, opp]
        _, index = space.locate(state)
        state = space.state_at(key, index)
        assert kernel_successors(expansion, index) == engine_successors(space, state)
        doubles += two_stone_removals(state) > 0
    assert doubles > 20


def test_zhiqi_captures_on_three_against_three_match_the_exhaustive_solver(tmp_path):
    game = zhiqi_on_the_six_board()
    tables = PerfectTables(game, tmp_path, max_stones=3)
    tables.build()
    key = (3, 3, 0, 0)
    assert tally(tables.db.values(key), tables.space.weights(key)) == three_vs_three_counts(game)


def test_zhiqi_keeps_its_sides_and_radials_apart_under_the_symmetries():
    space = MorrisSpace(qipan.load("zhiqi"), max_stones=3)
    assert len(space.symmetries) == 16
    t = space.game.geometry
    dan = {(i, ends) for i in range(t.n) for ends in t.dan_at[i]}
    for perm in space.symmetries:
        image = {(perm[i], sum(1 << perm[j] for j in range(t.n) if ends >> j & 1)) for i, ends in dan}
        assert image == dan
