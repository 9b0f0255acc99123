"""Pipe Mania notation (rules file §3.7): ``p<row>,<col>`` (place the front piece),
``p<row>,<col>:<piece>`` (choice and fixed supply), ``p<row>,<col>@<stack>`` (two stacks),
``-`` (pass), ``h`` (hurry) and the dispenser's draws ``+<piece>``. Case and spaces are
ignored. ``why_illegal`` says why an action is not legal here."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ...core import CHANCE, IllegalMove, Move, NotationError
from .board import CHANCE_MOVES, HURRY, PASS

if TYPE_CHECKING:
    from .rules import PipeManiaState

PLACE_RE = re.compile(r"p(\d+),(\d+)(?::([a-z]+)|@([12]))?")


def parse_move(state: PipeManiaState, text: str) -> Move:
    """The move ``text`` denotes, built from the text (no scan of the legal moves) and
    checked: NotationError for text that is no action, IllegalMove with the reason for an
    action that is not legal here."""
    raw = "".join(str(text).split())
    if not raw:
        raise NotationError("empty move")
    low = raw.lower()
    if state.outcome is not None:
        raise IllegalMove(f"the game is over ({state.outcome.reason})", raw)
    if low.startswith("+") and low[1:].upper() in CHANCE_MOVES:
        move = CHANCE_MOVES[low[1:].upper()]
    elif low in ("-", "pass"):
        move = PASS
    elif low in ("h", "hurry"):
        move = HURRY
    else:
        m = PLACE_RE.fullmatch(low)
        if not m:
            raise NotationError(f"{raw!r} is not a Pipe Mania action: p<row>,<col>[:piece|@stack], - or h")
        if state.to_move == CHANCE:
            raise IllegalMove("the dispenser is drawing a piece: expected +<piece>", raw)
        board = state.boards[state.board_of[state.to_move]]
        r, c = int(m.group(1)), int(m.group(2))
        if not (0 <= r < board.level.rows and 0 <= c < board.level.cols):
            raise IllegalMove(f"{r},{c} is off the {board.level.rows}x{board.level.cols} grid", raw)
        piece = m.group(3).upper() if m.group(3) else (f"@{m.group(4)}" if m.group(4) else None)
        move = state.game.place_move(
            r * board.level.cols + c, board.level.cols, piece, state._target_prefix(state.to_move)
        )
    state.check_legal(move)
    return move


def why_illegal(state: PipeManiaState, text: str) -> str:
    """A reason for an action that is not legal (for error messages)."""
    p = state.to_move
    if state.lost[p] > 0:
        return f"player {p + 1} lost this tick to a replacement: only - (pass) is possible"
    if text == "h":
        return "hurry is not possible here (the flow is already at full speed, or hurry is off)"
    m = PLACE_RE.fullmatch(text)
    if not m:
        return f"{text!r} is not possible here"
    board = state.boards[state.board_of[p]]
    r, c = int(m.group(1)), int(m.group(2))
    if not (0 <= r < board.level.rows and 0 <= c < board.level.cols):
        return f"{r},{c} is off the {board.level.rows}x{board.level.cols} grid"
    piece = board.cells[r * board.level.cols + c]
    if piece is not None and piece.kind in ("start", "drain"):
        return f"{r},{c} holds the {piece.kind} piece, which cannot be replaced"
    if piece is not None and not piece.replaceable:
        return f"{r},{c} is {'blocked' if piece.kind == 'blocked' else 'a fixed piece'}"
    if board.flooded[r * board.level.cols + c]:
        return f"the pipe at {r},{c} is flooded and cannot be replaced"
    g = state.game
    if g.supply == "fixed" and not any(state.pools[p].values()):
        return "every piece on screen has been used"
    if g.supply == "queue" and (m.group(3) or m.group(4)):
        return "in queue mode the front piece is placed: write p<row>,<col>"
    if g.supply != "queue" and not (m.group(3) or m.group(4)):
        return "say which piece: p<row>,<col>:<piece> (or @1/@2 for two stacks)"
    return f"{text!r} is not possible here (that piece is not available)"
