"""The Black Path position text: the board, one text line per row: ``.`` empty, ``*`` the
goal, ``+ / \\`` tiles. The path is rebuilt by following it from the start."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core import IllegalMove, NotationError
from .board import EMPTY, SYMBOLS, TILE_OF_SYMBOL, cell_name

if TYPE_CHECKING:
    from .rules import BlackPathGame, BlackPathState


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
