"""The 8×8 board as data: square names, the 168 five-square patterns and neighbourhoods;
the game's constants (pieces, colours, targets, phases).

Squares are numbered in board order a1, b1, …, h1, a2, …, h8 (index = 8·rank + file), so a
set of squares is an int bitmask and "board order" is ascending index."""

from __future__ import annotations

#: Pieces per player, colours in turn order, and their letters in notation and positions.
X_PIECES = 14
MARKERS = 18
COLOURS = ("red", "black", "yellow", "orange")
LETTERS = "RBYO"
#: Score to win at once by player count; 2v2 teams play to a combined 12.
TARGETS = {2: 15, 3: 12, 4: 10}
TEAM_TARGET = 12
#: The phases of a game: placing the setup jokers, placing X pieces, relocating jokers.
SETUP, PLAY, RELOCATE = "setup", "play", "relocate"

SIZE = 8
SQUARES = SIZE * SIZE
FILES = "ABCDEFGH"
NAMES = tuple(FILES[i % SIZE] + str(i // SIZE + 1) for i in range(SQUARES))
INDEX = {name: i for i, name in enumerate(NAMES)}
BIT = tuple(1 << i for i in range(SQUARES))
FULL = (1 << SQUARES) - 1


def square(file: int, rank: int) -> int:
    return rank * SIZE + file


def _on_board(file: int, rank: int) -> bool:
    return 0 <= file < SIZE and 0 <= rank < SIZE


def _mask(cells) -> int:
    out = 0
    for f, r in cells:
        out |= BIT[square(f, r)]
    return out


def _patterns() -> tuple[tuple[str, int], ...]:
    """Every pattern as (kind, mask): 36 X shapes, 36 plus shapes, 96 lines of five."""
    out = []
    for r in range(1, SIZE - 1):
        for f in range(1, SIZE - 1):
            out.append(("x", _mask([(f, r), (f - 1, r - 1), (f + 1, r + 1), (f - 1, r + 1), (f + 1, r - 1)])))
    for r in range(1, SIZE - 1):
        for f in range(1, SIZE - 1):
            out.append(("plus", _mask([(f, r), (f - 1, r), (f + 1, r), (f, r - 1), (f, r + 1)])))
    for df, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        for r in range(SIZE):
            for f in range(SIZE):
                cells = [(f + k * df, r + k * dr) for k in range(5)]
                if all(_on_board(cf, cr) for cf, cr in cells):
                    out.append(("line", _mask(cells)))
    return tuple(out)


PATTERN_KINDS = _patterns()
#: Every pattern's squares as a bitmask.
PATTERNS: tuple[int, ...] = tuple(mask for _, mask in PATTERN_KINDS)
#: For each square, the patterns that contain it.
PATTERNS_THROUGH: tuple[tuple[int, ...], ...] = tuple(
    tuple(p for p in PATTERNS if p & BIT[s]) for s in range(SQUARES)
)
#: For each square, the indices (into ``PATTERNS``) of the patterns that contain it: the
#: incremental pattern counts of the rules are updated through these only.
PATTERN_IDS_THROUGH: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i, p in enumerate(PATTERNS) if p & BIT[s]) for s in range(SQUARES)
)


def completed(own: int, jokers: int) -> int:
    """The union of the patterns that the X pieces ``own`` complete with the ``jokers``: every
    pattern wholly covered by them that holds at least one of ``own`` (a pattern of jokers
    only is no colour's). The one definition of what a colour scores, for the rules, the
    notation and the evaluation."""
    key = (own, jokers)
    union = _COMPLETED.get(key)
    if union is None:
        cover = own | jokers
        union = 0
        for pat in PATTERNS:
            if pat & cover == pat and pat & own:
                union |= pat
        _remember(key, union)
    return union


def completed_with(own: int, jokers: int, s: int) -> int:
    """``completed(own | BIT[s], jokers)`` from what ``own`` completes already and the
    patterns through ``s``: a pattern without ``s`` is complete with the new X exactly
    when it was without it, so only the patterns through the new square need a look."""
    key = (own | BIT[s], jokers)
    union = _COMPLETED.get(key)
    if union is None:
        union = completed(own, jokers)
        cover = key[0] | jokers
        for pat in PATTERNS_THROUGH[s]:
            if pat & cover == pat:
                union |= pat
        _remember(key, union)
    return union


# ``completed`` is a pure function of two ints, asked again and again for the same ones (the
# mover's placement, then the same pieces at their next turn): a bounded memo.
_COMPLETED: dict[tuple[int, int], int] = {}
_COMPLETED_LIMIT = 1 << 15


def _remember(key: tuple[int, int], union: int) -> None:
    if len(_COMPLETED) >= _COMPLETED_LIMIT:
        _COMPLETED.clear()
    _COMPLETED[key] = union


def _king_area(s: int) -> int:
    f, r = s % SIZE, s // SIZE
    return _mask((f + df, r + dr) for df in (-1, 0, 1) for dr in (-1, 0, 1) if _on_board(f + df, r + dr))


#: The square and its (up to) 8 neighbours, diagonals included.
KING_AREA: tuple[int, ...] = tuple(_king_area(s) for s in range(SQUARES))


def squares_of(mask: int) -> list[int]:
    """The squares of a bitmask in board order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def names_of(mask: int) -> str:
    return " ".join(NAMES[s] for s in squares_of(mask))
