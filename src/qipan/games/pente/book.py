"""The opening book: the first moves of two-player Pente under the tournament rule, chosen by
deep search (``benchmarks/pente_book.py`` writes ``book.json``). Positions are stored up to
the board's eight symmetries, by the centred coordinates of each player's stones."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from .board import EMPTY

BOOK_FILE = Path(__file__).with_name("book.json")
#: Plies covered by the book (positions with fewer stones placed than this).
BOOK_PLIES = 4

SYMMETRIES = (
    lambda x, y: (x, y),
    lambda x, y: (-x, y),
    lambda x, y: (x, -y),
    lambda x, y: (-x, -y),
    lambda x, y: (y, x),
    lambda x, y: (-y, x),
    lambda x, y: (y, -x),
    lambda x, y: (-y, -x),
)


def _inverse(k: int):
    f = SYMMETRIES[k]
    for g in SYMMETRIES:
        if all(g(*f(x, y)) == (x, y) for x, y in ((1, 2), (3, -1))):
            return g
    raise AssertionError("the symmetries form a group")


def stones(state) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Each player's stones in centred coordinates."""
    g = state.geom
    out = []
    for p in range(state.num_players):
        out.append(tuple(sorted(g.centred(i) for i in g.points if state.cells[i] == p + 1)))
    return tuple(out)


def canonical(position) -> tuple[str, int]:
    """The key of a position (tuple of each player's centred stones) and the symmetry that
    maps it there."""
    best = None
    for k, f in enumerate(SYMMETRIES):
        image = tuple(tuple(sorted(f(x, y) for x, y in side)) for side in position)
        key = ";".join(" ".join(f"{x},{y}" for x, y in side) for side in image)
        if best is None or key < best[0]:
            best = (key, k)
    return best


def key_for(state) -> tuple[str, int] | None:
    """The book key of ``state``, or None when the book does not cover it."""
    game = state.game
    if state.num_players != 2 or state.placed >= BOOK_PLIES or state.placed != state.stones:
        return None
    if not game.tournament or game.exact or game.double_tria or game.max_pairs is not None:
        return None
    if game.size != 19 or state.to_move != (game.first_player + state.placed) % 2:
        return None
    return canonical(stones(state))


@cache
def _entries() -> dict[str, tuple[int, int]]:
    if not BOOK_FILE.exists():
        return {}
    data = json.loads(BOOK_FILE.read_text())
    return {key: tuple(move) for key, move in data["positions"].items()}


def book_move(state) -> int | None:
    """The book's point for ``state`` (a board index), or None."""
    found = key_for(state)
    if found is None:
        return None
    key, k = found
    move = _entries().get(key)
    if move is None:
        return None
    x, y = _inverse(k)(*move)
    i = state.geom.from_centred(x, y)
    if i is None or state.cells[i] != EMPTY or state._placement_error(i) is not None:
        return None
    return i
