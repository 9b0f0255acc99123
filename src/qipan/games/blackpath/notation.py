"""Black Path notation (rules file §1.6): a move is its tile symbol ``+ / \\``, optionally
prefixed by its cell (columns a.. left to right, rows 1.. top to bottom): ``b1\\``. A game
is written as its moves, then ``1-0`` or ``0-1`` when it is over."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ...core import IllegalMove, Move, NotationError
from .board import TILE_OF_SYMBOL, cell_name

if TYPE_CHECKING:
    from .rules import BlackPathGame, BlackPathState


def parse_cell(text: str, rows: int, cols: int) -> int:
    m = re.fullmatch(r"([a-z])(\d+)", text.strip().lower())
    if not m:
        raise NotationError(f"{text!r} is not a cell (like b3)")
    col, row = ord(m.group(1)) - ord("a"), int(m.group(2)) - 1
    if not (0 <= col < cols and 0 <= row < rows):
        raise NotationError(f"{text!r} is off the {rows}x{cols} board")
    return row * cols + col


def parse_move(state: BlackPathState, text: str) -> Move:
    """The move ``text`` denotes: NotationError for text that is no move, IllegalMove with
    the reason for a move not legal here."""
    game = state.game
    raw = "".join(str(text).split()).lower()
    if not raw:
        raise NotationError("empty move")
    if raw in TILE_OF_SYMBOL:
        symbol, cell = raw, None
    else:
        m = re.fullmatch(r"([a-z]\d+)([+/\\])", raw)
        if not m:
            raise NotationError(
                f"{text!r} is not a Black Path move: a tile + / \\ , optionally after its cell (b1\\)"
            )
        cell, symbol = parse_cell(m.group(1), game.rows, game.cols), m.group(2)
    if state.outcome is not None:
        raise IllegalMove(f"the game is over ({state.outcome.reason})", text)
    if cell is not None and cell != state.end_cell:
        raise IllegalMove(
            f"the path ends at {cell_name(state.end_cell, game.cols)}, not {cell_name(cell, game.cols)}", text
        )
    move = game.cell_moves[state.end_cell][TILE_OF_SYMBOL[symbol] - 1]
    state.check_legal(move)
    return move


def game_text(state: BlackPathState, cells: bool = True) -> str:
    """The moves so far as notation (with cells if asked) plus the result when over."""
    parts = []
    replay = state.game.new()
    for move in state.history:
        prefix = cell_name(replay.end_cell, state.game.cols) if cells else ""
        parts.append(prefix + move.text)
        replay.play(move)
    if state.outcome is not None:
        parts.append(state.outcome.result_text())
    return " ".join(parts)


def read_game(game: BlackPathGame, text: str) -> BlackPathState:
    """Replay a game written as symbols or cell+symbol tokens, with an optional result."""
    state = game.new()
    tokens = text.split()
    result = None
    if tokens and tokens[-1] in ("1-0", "0-1"):
        result = tokens.pop()
    for token in tokens:
        state.play(parse_move(state, token))
    if result is not None and (state.outcome is None or state.outcome.result_text() != result):
        got = state.outcome.result_text() if state.outcome else "unfinished"
        raise NotationError(f"the moves give {got}, the text says {result}")
    return state
