"""Official Trax notation (rules §2.7): ``<column><row><symbol>`` relative to the tile area
before the move, e.g. ``@0/``, ``B1+``, ``AA12\\``.

Columns are bijective base 26 (A=1 … Z=26, AA=27) with ``@`` = 0 for the empty column left
of the area; rows are decimal with ``0`` for the empty row above it."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ...core.errors import IllegalMove, NotationError
from ...core.move import Move
from .board import LIMIT, NS, NW, SYMBOL_TILES, WHITE_MASK, column_index, pos_of

if TYPE_CHECKING:
    from .rules import TraxState

MOVE_RE = re.compile(r"(@|[A-Z]+)(\d+)([+/\\])")
#: Result tokens seen in real record files (GnuTrax ``RESIGN``/``DRAW``; traxgame.com style).
RESULT_TOKENS = {"RESIGN": "resign", "DRAW": "draw", "TIME": "time", "WIN": "win"}
_OLD_NOTATION = re.compile(r"(?:[A-Z]\d+[UDLRSC]|\d+[A-Z][UDLRSC])")
#: The two legal first moves and the tiles they mean by convention (rules §2.7).
FIRST_MOVES = {"@0+": NS, "@0/": NW}


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


def is_move_token(token: str) -> bool:
    return MOVE_RE.fullmatch(token.upper()) is not None


def parse_move(state: TraxState, text: str) -> Move:
    """The legal move ``text`` denotes here (lenient about case and spaces): NotationError
    for text that is no move, IllegalMove with the reason for a move not legal here."""
    if not isinstance(text, str) or not text.strip():
        raise NotationError("empty move")
    if state.outcome is not None:
        raise IllegalMove(f"the game is over ({state.outcome.reason})", text)
    pos, tile = locate(state, text)
    move = state.move_for(pos, tile)
    state.check_turn(pos, tile, move.text)
    return move


def locate(state: TraxState, text: str) -> tuple[int, int]:
    """The (cell, tile) a move text names here, checked for everything but forced plays."""
    col, row, symbol = split_move(text)
    board = state.board
    token = text.strip().upper()
    if not board.cells:
        if token not in FIRST_MOVES:
            raise IllegalMove(f"the first move must be @0+ or @0/, not {token}", token)
        return pos_of(0, 0), FIRST_MOVES[token]
    if row > board.height + 1 or col > board.width + 1:
        raise IllegalMove(f"{token}: the cell has no neighbouring tile", token)
    pos = pos_of(board.min_r - 1 + row, board.min_c - 1 + col)
    if pos in board.cells:
        raise IllegalMove(f"{token}: the cell is occupied", token)
    if pos not in board.frontier:
        raise IllegalMove(f"{token}: the cell has no neighbouring tile", token)
    if state.game.limited:
        height, width = board.area_with(pos)
        if height > LIMIT or width > LIMIT:
            raise IllegalMove(
                f"{token}: the tile area would grow beyond 8x8 ({width} wide, {height} high)", token
            )
    white, red = board.neighbour_masks(pos)
    occupied = white | red
    for tile in SYMBOL_TILES[symbol]:
        if WHITE_MASK[tile] & occupied == white:
            return pos, tile
    raise IllegalMove(f"{token}: neither {symbol} tile matches the neighbouring colours", token)
