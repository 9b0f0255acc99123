"""Tantrix knowledge for agents: a position evaluation and a move ordering.

A colour's *potential* is its best track's score (a line 1 per tile, a loop 2 per tile)
plus a small bonus for each end that can still grow, plus a share of the second-best
track. An end can grow when the empty cell beyond it may still take a tile (before the
endgame: the R2/R3 closure allows a placement there) and some tile not yet on the board
fits it. The evaluation is the mover's potential minus the best opponent colour's: so
building means lengthening one's own best track, and blocking means not feeding the
opponent's line and killing its ends (a cell no remaining tile fits, or a controlled side)."""

from __future__ import annotations

import math

from .hexgrid import DIRECTIONS, Cell, geometry_allows
from .tiles import ORIENTED
from .tracks import link_ends, track_value, tracks

#: Value of an end that can still grow, in tiles: small, so it decides between moves that
#: score the same (measured: larger values, or values growing with the tiles left, won
#: fewer games against random play; see docs/games/tantrix.md).
LIVE_END = 0.3
#: Only the longest tracks of a colour get their ends examined (the expensive part).
TOP_TRACKS = 3
#: An end blocked only by the restriction rules may reopen in the endgame.
RESTRICTED_END = 0.3
#: Weight of the second-best track (a second chance if the best one dies).
SECOND = 0.5


def _fits(edges, cell: Cell, tiles) -> bool:
    required = []
    for d, (dq, dr) in enumerate(DIRECTIONS):
        e = edges.get((cell[0] + dq, cell[1] + dr))
        if e is not None:
            required.append((d, e[(d + 3) % 6]))
    return any(all(oriented[d] == c for d, c in required) for tile in tiles for oriented in ORIENTED[tile])


def _liveness(state, cell: Cell, unplaced, cache: dict) -> float:
    """1 if some tile not on the board fits ``cell`` and (before the endgame) the closure
    allows a placement there; RESTRICTED_END if only the restrictions forbid it; else 0."""
    live = cache.get(cell)
    if live is not None:
        return live
    edges = state.edges
    if not _fits(edges, cell, unplaced):
        live = 0.0
    elif state.endgame or geometry_allows(edges, state.counts, cell):
        live = 1.0
    else:
        live = RESTRICTED_END
    cache[cell] = live
    return live


def colour_potential(state, colour: str, unplaced, cache: dict) -> float:
    """The best track (plus a little for its live ends), and a share of the second best."""
    edges = state.edges
    found = sorted(
        ((track_value(cells, loop), loop, cells) for cells, loop in tracks(edges, colour)),
        key=lambda t: t[0],
        reverse=True,
    )
    values = []
    for value, loop, cells in found[:TOP_TRACKS]:
        value = float(value)
        if not loop:
            for end in {cells[0], cells[-1]}:
                for d in link_ends(edges[end], colour):
                    dq, dr = DIRECTIONS[d]
                    beyond = (end[0] + dq, end[1] + dr)
                    if beyond not in edges:
                        value += LIVE_END * _liveness(state, beyond, unplaced, cache)
        values.append(value)
    values.sort(reverse=True)
    values += [0.0, 0.0]
    return values[0] + SECOND * values[1]


def potentials(state, cache: dict | None = None) -> dict[str, float]:
    """Each colour's potential. ``cache`` (cell -> can grow) may carry what is known from a
    nearby position; cells near a change must have been removed from it."""
    unplaced = set(state.bag).union(*state.hands)
    cache = {} if cache is None else cache
    return {c: colour_potential(state, c, unplaced, cache) for c in set(state.colours)}


def evaluate(state, player: int, cache: dict | None = None) -> float:
    """In [-1, 1]: ``player``'s colour potential against the best opponent colour's."""
    if state.outcome is not None:
        return 2.0 * state.outcome.reward(player) - 1.0
    pots = potentials(state, cache)
    mine = state.colours[player]
    others = [pots[c] for c in set(state.colours) if c != mine]
    if not others:
        return 0.0
    return math.tanh((pots[mine] - max(others)) / 8.0)


def order_moves(state, moves):
    """Placements that join the mover's colour to neighbours first (cheap, no evaluation)."""
    if state.to_move is None or state.to_move < 0:
        return moves
    colour = state.colours[state.to_move]
    edges = state.edges

    def joins(move) -> int:
        if move.data[0] != "place":
            return 0
        _, tile, (q, r), rot, _ = move.data
        oriented = ORIENTED[tile][rot]
        k = 0
        for d, (dq, dr) in enumerate(DIRECTIONS):
            if oriented[d] == colour and (q + dq, r + dr) in edges:
                k += 1
        return k

    return sorted(moves, key=joins, reverse=True)
