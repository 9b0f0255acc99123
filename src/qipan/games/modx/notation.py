"""MOD X notation (rules §3.9).

Moves: ``J@C3`` (setup joker), ``E4`` or ``E4 {C2 D3 E4 F5 G6}`` (X placement with the
squares it scores), ``J>B7`` (relocating a removed joker). Parsing is case-insensitive; a
bare square is read as the move of the current phase."""

from __future__ import annotations

import re

from ...core.errors import IllegalMove, NotationError
from ...core.move import Move
from .board import BIT, INDEX, RELOCATE, SETUP, names_of
from .rules import RELOCATE_MOVES, SETUP_MOVES, ModXState, placement_move

_SQUARE = r"[A-H][1-8]"
_MOVE = re.compile(rf"(?:(J)\s*([@>])\s*)?({_SQUARE})(?:\s*\{{([^}}]*)\}})?")


def parse_move(state: ModXState, text: str) -> Move:
    """The legal move ``text`` denotes (``game.parse`` delegates here). NotationError for
    text that is no move, IllegalMove with the rules' reason for a move not legal here."""
    raw = " ".join(str(text).split())
    if not raw:
        raise NotationError("empty move")
    m = _MOVE.fullmatch(raw.upper())
    if not m:
        raise NotationError(f"{raw!r} is not MOD X notation: expected E4, E4 {{...}}, J@C3 or J>B7")
    joker, sign, name, claimed = m.groups()
    s = INDEX[name]
    if state.outcome is not None:
        raise IllegalMove(f"the game is over ({state.outcome.reason})", raw)
    if joker and claimed is not None:
        raise NotationError(f"{raw!r}: only an X placement lists scored squares")
    if sign == "@" or (not joker and claimed is None and state.phase == SETUP):
        kind = "setup"
    elif sign == ">" or (not joker and claimed is None and state.phase == RELOCATE):
        kind = "relocate"
    else:
        kind = "place"
    state.check_square(kind, s, raw)
    if kind == "setup":
        return SETUP_MOVES[s]
    if kind == "relocate":
        return RELOCATE_MOVES[s]
    scored = state.scored_by(state.to_move, s)
    if claimed is not None:
        mask = 0
        for token in claimed.replace(",", " ").split():
            if token not in INDEX:
                raise NotationError(f"{raw!r}: {token!r} is not a square")
            mask |= BIT[INDEX[token]]
        if mask != scored:
            says = f"scores {{{names_of(scored)}}}" if scored else "scores nothing"
            raise IllegalMove(f"{name} {says}, not {{{names_of(mask)}}}", raw)
    return placement_move(s, scored)
