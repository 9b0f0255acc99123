"""Black Path notation (rules file §1.6): a move is its tile symbol ``+ / \\``, optionally
prefixed by its cell (columns a.. left to right, rows 1.. top to bottom): ``b1\\``.

Positions are written as the board, one text line per row: ``.`` empty, ``*`` the goal,
``+ / \\`` tiles. The path is rebuilt by following it from the start."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ...core import IllegalMove, Move, NotationError, State
from .tiles import EMPTY, SYMBOLS, TILE_OF_SYMBOL

if TYPE_CHECKING:
    from .rules import BlackPathGame, BlackPathState


def cell_name(cell: int, cols: int) -> str:
    return f"{chr(ord('a') + cell % cols)}{cell // cols + 1}"


def parse_cell(text: str, rows: int, cols: int) -> int:
    m = re.fullmatch(r"([a-z])(\d+)", text.strip().lower())
    if not m:
        raise NotationError(f"{text!r} is not a cell (like b3)")
    col, row = ord(m.group(1)) - ord("a"), int(m.group(2)) - 1
    if not (0 <= col < cols and 0 <= row < rows):
        raise NotationError(f"{text!r} is off the {rows}x{cols} board")
    return row * cols + col


def parse_move(game: BlackPathGame, text: str, state: State) -> Move:
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
        state.play(parse_move(game, token, state))
    if result is not None and (state.outcome is None or state.outcome.result_text() != result):
        got = state.outcome.result_text() if state.outcome else "unfinished"
        raise NotationError(f"the moves give {got}, the text says {result}")
    return state


def write_position(state: BlackPathState) -> str:
    g = state.game
    lines = []
    for r in range(g.rows):
        row = []
        for c in range(g.cols):
            cell = r * g.cols + c
            row.append("*" if cell == g.goal else SYMBOLS[state.tiles[cell]])
        lines.append("".join(row))
    return "\n".join(lines)


def read_position(game: BlackPathGame, text: str) -> BlackPathState:
    lines = [line.strip() for line in str(text).strip().splitlines() if line.strip()]
    if len(lines) != game.rows or any(len(line) != game.cols for line in lines):
        raise NotationError(f"a position of this game is {game.rows} lines of {game.cols} characters")
    wanted = []
    for r, line in enumerate(lines):
        for c, ch in enumerate(line):
            cell = r * game.cols + c
            if ch == "*" and cell == game.goal:
                ch = "."
            if ch != "." and ch not in TILE_OF_SYMBOL:
                raise NotationError(
                    f"{ch!r} at {cell_name(cell, game.cols)} is not . + / \\ (or * on the goal)"
                )
            if cell == game.goal and ch != ".":
                raise NotationError("the goal cell is never filled")
            wanted.append(TILE_OF_SYMBOL.get(ch, EMPTY))
    state = game.new()
    # Replay the tiles the path meets, in path order; any other filled cell is off the path.
    while state.outcome is None and wanted[state.end_cell] != EMPTY:
        try:
            state.play(game.cell_moves[state.end_cell][wanted[state.end_cell] - 1])
        except IllegalMove as exc:
            raise NotationError(f"the position cannot arise: {exc}") from exc
    if sum(t != EMPTY for t in wanted) != state.filled:
        raise NotationError("some tiles are not on the path from the start")
    return state
