"""Official Trax notation (rules §2.7): ``<column><row><symbol>`` relative to the tile area
before the move, e.g. ``@0/``, ``B1+``, ``AA12\\``.

Columns are bijective base 26 (A=1 … Z=26, AA=27) with ``@`` = 0 for the empty column left
of the area; rows are decimal with ``0`` for the empty row above it."""

from __future__ import annotations

import re

from ...core.errors import NotationError

MOVE_RE = re.compile(r"(@|[A-Z]+)(\d+)([+/\\])")
#: Result tokens seen in real record files (GnuTrax ``RESIGN``/``DRAW``; traxgame.com style).
RESULT_TOKENS = {"RESIGN": "resign", "DRAW": "draw", "TIME": "time", "WIN": "win"}
_OLD_NOTATION = re.compile(r"(?:[A-Z]\d+[UDLRSC]|\d+[A-Z][UDLRSC])")


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


def split_move(text: str) -> tuple[int, int, str]:
    """(column index, row index, symbol) of a move text; both indices relative, 0 = outside."""
    token = text.strip().upper()
    m = MOVE_RE.fullmatch(token)
    if m is None:
        if token in RESULT_TOKENS:
            raise NotationError(f"{token} is a result token of a record, not a tile move")
        if _OLD_NOTATION.fullmatch(token):
            raise NotationError(
                f"{text!r} is the old direction-letter notation; use the official notation like B1+"
            )
        raise NotationError(f"{text!r} is not a Trax move: expected column, row, symbol like @0/ or B2+")
    col, row, symbol = m.groups()
    if len(row) > 1 and row.startswith("0"):
        raise NotationError(f"{text!r}: row numbers have no leading zeros")
    return column_index(col), int(row), symbol


def cell_label(col: int, row: int) -> str:
    return f"{column_label(col)}{row}"


def is_move_token(token: str) -> bool:
    return MOVE_RE.fullmatch(token.upper()) is not None
