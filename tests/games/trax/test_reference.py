"""The fast, incremental engine against a slow, obvious one written here from the rules:
full scans for forced cells and for loops and lines. Random games in every variant must
agree on every legal move, every resulting position and every result."""

from __future__ import annotations

import random

import pytest

from qipan.games.trax import TraxGame
from qipan.games.trax.board import COLOUR, OTHER_END, row_col

STEP = {0: (-1, 0), 1: (0, 1), 2: (1, 0), 3: (0, -1)}


def neighbours(cell):
    r, c = cell
    return [((r + dr, c + dc), d) for d, (dr, dc) in STEP.items()]


def facing(tiles, cell):
    """(white count, red count, {colour: [sides]}) of the tiles around an empty cell."""
    sides = {0: [], 1: []}
    for other, d in neighbours(cell):
        if other in tiles:
            sides[COLOUR[tiles[other]][d ^ 2]].append(d)
    return sides


def fits(tiles, cell, tile):
    return all(COLOUR[tiles[o]][d ^ 2] == COLOUR[tile][d] for o, d in neighbours(cell) if o in tiles)


def turn(tiles, cell, tile):
    """The tiles after a free placement and all forced plays, or None if the turn is illegal."""
    tiles = dict(tiles)
    tiles[cell] = tile
    while True:
        empties = {o for t in tiles for o, _ in neighbours(t) if o not in tiles}
        forced = None
        for e in sorted(empties):
            sides = facing(tiles, e)
            if len(sides[0]) >= 3 or len(sides[1]) >= 3:
                return None
            for colour in (0, 1):
                if len(sides[colour]) == 2 and forced is None:
                    forced = (e, colour, sides[colour])
        if forced is None:
            return tiles
        e, colour, two = forced
        tiles[e] = next(
            t
            for t in range(6)
            if all(COLOUR[t][d] == colour for d in two) and sum(COLOUR[t][d] == colour for d in range(4)) == 2
        )


def completed(tiles, lines):
    """{colour: set of "loop"/"line"} over the whole tile set."""
    rows = [r for r, _ in tiles]
    cols = [c for _, c in tiles]
    top, bottom, left, right = min(rows), max(rows), min(cols), max(cols)
    found = {0: set(), 1: set()}
    seen = set()
    for cell, tile in tiles.items():
        for colour in (0, 1):
            if (cell, colour) in seen:
                continue
            ends = []
            for start in [d for d in range(4) if COLOUR[tile][d] == colour]:
                here, d = cell, start
                while True:
                    seen.add((here, colour))
                    (nr, nc) = (here[0] + STEP[d][0], here[1] + STEP[d][1])
                    if (nr, nc) not in tiles:
                        ends.append((here, d))
                        break
                    if (nr, nc) == cell:
                        break
                    d = OTHER_END[tiles[(nr, nc)]][d ^ 2]
                    here = (nr, nc)
            if not ends:
                found[colour].add("loop")
            elif lines and len(ends) == 2:
                (a, da), (b, db) = sorted(ends, key=lambda e: e[1])
                if (da, db) == (1, 3) and a[1] == right and b[1] == left and right - left + 1 >= 8:
                    found[colour].add("line")
                if (da, db) == (0, 2) and a[0] == top and b[0] == bottom and bottom - top + 1 >= 8:
                    found[colour].add("line")
    return found


def reference_moves(tiles, limited):
    if not tiles:
        return {((0, 0), 0): None, ((0, 0), 2): None}
    out = {}
    empties = {o for t in tiles for o, _ in neighbours(t) if o not in tiles}
    for e in empties:
        if limited:
            rows = [r for r, _ in tiles] + [e[0]]
            cols = [c for _, c in tiles] + [e[1]]
            if max(rows) - min(rows) >= 8 or max(cols) - min(cols) >= 8:
                continue
        for tile in range(6):
            if fits(tiles, e, tile):
                after = turn(tiles, e, tile)
                if after is not None:
                    out[(e, tile)] = after
    return out


@pytest.mark.parametrize("variant", ["unlimited", "8x8", "loop"])
def test_engine_agrees_with_the_reference_on_random_games(variant):
    rng = random.Random({"unlimited": 1, "8x8": 2, "loop": 3}[variant])
    game = TraxGame(variant=variant)
    lines = variant != "loop"
    plies = 0
    for _ in range(8):
        state = game.new()
        tiles = {}
        while state.outcome is None:
            moves = state.legal_moves()
            engine = {(row_col(m.data[0]), m.data[1]) for m in moves}
            expected = reference_moves(tiles, state.game.limited)
            assert engine == set(expected), state.position()
            move = rng.choice(moves)
            mover = state.to_move
            state.play(move)
            plies += 1
            key = (row_col(move.data[0]), move.data[1])
            tiles = expected[key] or {key[0]: key[1]}
            assert {row_col(p): t for p, t in state.board.cells.items()} == tiles
            done = completed(tiles, lines)
            if done[mover]:
                assert state.outcome.winners == (mover,)
            elif done[1 - mover]:
                assert state.outcome.winners == (1 - mover,)
            elif state.outcome is not None:
                assert state.outcome.is_draw and variant == "8x8"
                assert len(tiles) == 64 or not reference_moves(tiles, True)
            # (a game that goes on is checked by the next comparison of the move sets)
    assert plies > 60


def reference_perft(tiles, depth, lines=True):
    """Move sequences of length ``depth``; a finished game has no moves."""
    if depth == 0:
        return 1
    if tiles:
        done = completed(tiles, lines)
        if done[0] or done[1]:
            return 0
    moves = reference_moves(tiles, False)
    if depth == 1:
        return len(moves)
    return sum(
        reference_perft(after or {cell: tile}, depth - 1, lines) for (cell, tile), after in moves.items()
    )


def test_perft_from_the_start_is_pinned_and_matches_the_reference():
    from qipan.core.perft import perft

    counts = [perft(TraxGame().new(), depth) for depth in (1, 2, 3, 4)]
    assert counts == [2, 24, 432, 9568]
    assert [reference_perft({}, depth) for depth in (1, 2, 3, 4)] == counts
    # Nothing reaches 8 columns or a line in 4 plies: 8x8 and Loop Trax count the same.
    assert perft(TraxGame(variant="8x8").new(), 4) == perft(TraxGame(variant="loop").new(), 4) == 9568
