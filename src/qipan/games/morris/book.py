"""The ``morris`` agent's opening book for Nine Men's Morris placement: for every position of
the first plies (up to the board's symmetries), the move a deep search chose.

The data file ``book_nine.json`` is built by ``benchmarks/morris_book.py`` and read on first
use. Positions are stored in a canonical form: of the 16 images of the position under the
board's automorphisms, the one with the smallest (White stones, Black stones) bitboards;
moves are stored in that frame and mapped back onto the game's board when played."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

from ...core.errors import QipanError
from ...solve.symmetry import automorphisms

BOOK_FILE = "book_nine.json"
#: The rule fields placement depends on; the book serves any rule set that agrees on them.
PLACEMENT_RULES = ("board", "diagonals", "stones", "captures", "take_per_mill", "protection", "goal")
#: The preset the book is built for.
BOOK_PRESET = "nine-mens-morris"


def placement_rules(rules) -> dict:
    return {name: getattr(rules, name) for name in PLACEMENT_RULES}


@cache
def _permutations(preset: str) -> tuple[tuple[int, ...], ...]:
    from ...core.registry import load

    geometry = load(preset).geometry
    index = geometry.index
    edges = [(index[a], index[b]) for a, b in geometry.board.edges]
    lines = [tuple(index[p] for p in line) for line in geometry.board.lines]
    return tuple(automorphisms(geometry.n, edges, lines))


def _image(bits: int, perm) -> int:
    out = 0
    while bits:
        low = bits & -bits
        out |= 1 << perm[low.bit_length() - 1]
        bits ^= low
    return out


def canonical(white: int, black: int, preset: str = BOOK_PRESET) -> tuple[tuple[int, int], tuple[int, ...]]:
    """The canonical (White, Black) bitboards of a position and a permutation taking the
    position there."""
    best = None
    for perm in _permutations(preset):
        key = (_image(white, perm), _image(black, perm))
        if best is None or key < best[0]:
            best = (key, perm)
    return best


def position_key(state) -> tuple[str, tuple[int, ...]] | None:
    """The book's key of ``state`` (canonical stones, side to move, hands) and the permutation
    into the book's frame; None outside placement."""
    if state.to_move is None or state.pending or not state.hand[state.to_move]:
        return None
    (white, black), perm = canonical(*state.bb)
    return f"{white:x}.{black:x}.{state.to_move}.{state.hand[0]}.{state.hand[1]}", perm


def move_data(move, perm) -> list[int]:
    """A placement as [to, removed] in the book's frame."""
    f, to, removed = move.data[:3]
    return [perm[to], _image(removed, perm)]


@cache
def load_book() -> dict:
    """The book file's content (empty when the package holds none)."""
    try:
        text = resources.files(__package__).joinpath(BOOK_FILE).read_text(encoding="utf-8")
    except FileNotFoundError:
        return {"rules": None, "positions": {}}
    book = json.loads(text)
    if set(book) < {"rules", "positions"}:
        raise QipanError(f"{BOOK_FILE} is not a Morris opening book")
    return book


def book_moves(state) -> list:
    """The book's moves for ``state`` (its legal Move objects), empty when it has none."""
    book = load_book()
    if not book["positions"] or book["rules"] != placement_rules(state.rules):
        return []
    located = position_key(state)
    if located is None:
        return []
    key, perm = located
    stored = book["positions"].get(key)
    if not stored:
        return []
    wanted = {tuple(data) for data in stored["moves"]}
    return [m for m in state.legal_moves() if tuple(move_data(m, perm)) in wanted]


def book_move(state, rng):
    """One of the book's moves for ``state`` (``rng`` picks among equals), or None."""
    moves = book_moves(state)
    return rng.choice(moves) if moves else None
