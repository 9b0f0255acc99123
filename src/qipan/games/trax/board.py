"""Trax as data: the six tile states with their edge colours, glyphs and notation symbols,
and the cell numbering and names of the unbounded grid. Shared by the rules, the notation,
the position text, the renderer, the evaluation and the agent (imports go one way:
board <- rules <- the rest).

A tile state is named by the edges of its white track (rules §2.1); the red track takes
the other two edges. Directions are 0=N, 1=E, 2=S, 3=W; ``d ^ 2`` is the opposite side.

Cells are plain ints ``pos = (row + OFFSET) * STRIDE + (col + OFFSET)`` so neighbours are
one addition away."""

from __future__ import annotations

N, E, S, W = 0, 1, 2, 3
WHITE, RED = 0, 1
COLOUR_NAMES = ("white", "red")
PLAYER_NAMES = ("White", "Red")

NAMES = ("NS", "WE", "NW", "NE", "SW", "SE")
NS, WE, NW, NE, SW, SE = range(6)

_LETTER = {"N": N, "E": E, "S": S, "W": W}

#: WHITE_MASK[t]: bit d set where tile t shows white on side d.
WHITE_MASK = tuple((1 << _LETTER[name[0]]) | (1 << _LETTER[name[1]]) for name in NAMES)

#: COLOUR[t][d]: the colour tile t shows on side d.
COLOUR = tuple(tuple(WHITE if m >> d & 1 else RED for d in range(4)) for m in WHITE_MASK)

#: OTHER_END[t][d]: the other side of the track that enters tile t through side d.
OTHER_END = tuple(
    tuple(next(e for e in range(4) if e != d and COLOUR[t][e] == COLOUR[t][d]) for d in range(4))
    for t in range(6)
)

#: TRACK[t][c]: the two sides joined by tile t's track of colour c.
TRACK = tuple(tuple(tuple(d for d in range(4) if COLOUR[t][d] == c) for c in (WHITE, RED)) for t in range(6))

#: BY_WHITE_MASK[mask]: the tile whose white track joins the two sides in ``mask``.
BY_WHITE_MASK = {m: t for t, m in enumerate(WHITE_MASK)}


def tile_joining(colour: int, mask: int) -> int:
    """The tile whose track of ``colour`` joins the two sides in ``mask``."""
    return BY_WHITE_MASK[mask if colour == WHITE else 15 ^ mask]


#: Notation symbols (rules §2.7): each allows two states that differ by a colour swap.
SYMBOL_TILES = {"+": (NS, WE), "/": (NW, SE), "\\": (NE, SW)}
SYMBOL = {t: s for s, ts in SYMBOL_TILES.items() for t in ts}
SYMBOLS = ("+", "/", "\\")

#: Glyphs of the ASCII position format (rules §2.7): one character per cell, the white track.
GLYPH = {NS: "|", WE: "-", NW: "J", NE: "L", SW: "7", SE: "r"}
FROM_GLYPH = {g: t for t, g in GLYPH.items()}
EMPTY_GLYPH = "."

#: popcount of a 4-bit side mask.
BITS = tuple(bin(m).count("1") for m in range(16))


# -- the grid ---------------------------------------------------------------------------
STRIDE = 1 << 12
OFFSET = STRIDE // 2
#: Neighbour offsets by direction N, E, S, W.
DELTA = (-STRIDE, 1, STRIDE, -1)
#: A line joins opposite outermost edges of an area at least this long (rules §2.4).
LINE_SPAN = 8
#: The 8x8 game's maximum width and height.
LIMIT = 8


def pos_of(row: int, col: int) -> int:
    if not (-OFFSET < row < OFFSET and -OFFSET < col < OFFSET):
        raise ValueError(f"cell ({row}, {col}) is outside the supported grid")
    return (row + OFFSET) * STRIDE + col + OFFSET


def row_col(pos: int) -> tuple[int, int]:
    r, c = divmod(pos, STRIDE)
    return r - OFFSET, c - OFFSET


# -- cell names (rules §2.7) ----------------------------------------------------------------
def column_label(index: int) -> str:
    """1 → A, 26 → Z, 27 → AA; 0 → @."""
    if index < 0:
        raise ValueError(f"column index {index} is negative")
    if index == 0:
        return "@"
    letters = []
    while index:
        index, rem = divmod(index - 1, 26)
        letters.append(chr(ord("A") + rem))
    return "".join(reversed(letters))


def column_index(label: str) -> int:
    if label == "@":
        return 0
    value = 0
    for ch in label:
        value = value * 26 + (ord(ch) - ord("A") + 1)
    return value


def cell_label(col: int, row: int) -> str:
    return f"{column_label(col)}{row}"
