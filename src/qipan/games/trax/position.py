"""The position text form: glyph rows (rules §2.7) joined by ``/`` or newlines, then the
side to move, ``W`` or ``R``. Example: ``r7/LJ R``. The empty board is ``. W``."""

from __future__ import annotations

from ...core.errors import NotationError
from .board import COLOUR, DELTA, EMPTY_GLYPH, FROM_GLYPH, GLYPH, LIMIT, pos_of
from .rules import Board, TraxGame, TraxState, outcome_of

SIDES = {"W": 0, "WHITE": 0, "R": 1, "RED": 1}


def read_position(game: TraxGame, text: str) -> TraxState:
    if not isinstance(text, str) or not text.strip():
        raise NotationError("empty Trax position")
    tokens = text.split()
    side = 0
    if len(tokens) > 1 and tokens[-1].upper() in SIDES:
        side = SIDES[tokens.pop().upper()]
    rows = [row for token in tokens for row in token.split("/") if row]
    tiles: dict[int, int] = {}
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch == EMPTY_GLYPH:
                continue
            if ch not in FROM_GLYPH:
                raise NotationError(f"unknown glyph {ch!r} in row {r + 1}: use | - J L 7 r or .")
            try:
                tiles[pos_of(r, c)] = FROM_GLYPH[ch]
            except ValueError as exc:
                raise NotationError(f"the position is too large: {exc}") from None
    _check(game, tiles)
    state = TraxState(game, 2)
    state.board.load(tiles)
    state.first_player = side
    state.to_move = side
    _judge_setup(game, state)
    return state


def glyph_rows(board: Board) -> list[str]:
    """The glyph rows of the tile area, top to bottom."""
    if not board.cells:
        return []
    rows = []
    for r in range(board.min_r, board.max_r + 1):
        row = []
        for c in range(board.min_c, board.max_c + 1):
            t = board.cells.get(pos_of(r, c))
            row.append(EMPTY_GLYPH if t is None else GLYPH[t])
        rows.append("".join(row))
    return rows


def write_position(state: TraxState) -> str:
    """The position text ``read_position`` reads back."""
    rows = glyph_rows(state.board) or [EMPTY_GLYPH]
    return "/".join(rows) + " " + ("W" if state.next_colour() == 0 else "R")


def _check(game: TraxGame, tiles: dict[int, int]) -> None:
    """Reject tile sets no game can reach: colour mismatches and unfilled forced spaces."""
    board = Board()
    board.load(tiles)
    for p, t in tiles.items():
        for d in (1, 2):  # each shared edge once
            q = p + DELTA[d]
            if q in tiles and COLOUR[tiles[q]][d ^ 2] != COLOUR[t][d]:
                raise NotationError("neighbouring tiles show different colours on a shared edge")
    if len(tiles) > 1 and not _connected(tiles):
        raise NotationError("the tiles do not form one connected group")
    for q in board.frontier:
        white, red = board.neighbour_masks(q)
        if bin(white).count("1") >= 2 or bin(red).count("1") >= 2:
            raise NotationError("an empty cell has two same-coloured edges: it should have been forced")
    if tiles and game.limited and (board.width > LIMIT or board.height > LIMIT):
        raise NotationError(f"the tile area is {board.width}x{board.height}; 8x8 Trax allows at most 8x8")


def _connected(tiles: dict[int, int]) -> bool:
    start = next(iter(tiles))
    seen, todo = {start}, [start]
    while todo:
        p = todo.pop()
        for dd in DELTA:
            q = p + dd
            if q in tiles and q not in seen:
                seen.add(q)
                todo.append(q)
    return len(seen) == len(tiles)


def _judge_setup(game: TraxGame, state: TraxState) -> None:
    """A set-up position that already holds a loop or line ended with the last mover's
    turn (the side not to move); an 8x8 board that is full or stuck is drawn."""
    done = state.board.all_wins(game.lines_win)
    outcome = outcome_of(done, 1 - state.to_move, game.simultaneous)
    if outcome is None and game.limited and state.board.cells:
        outcome = state._limited_draw()
    if outcome is not None:
        state.outcome = outcome
        state.to_move = None
