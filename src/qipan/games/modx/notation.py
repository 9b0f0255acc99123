"""MOD X notation (rules §3.9).

Moves: ``J@C3`` (setup joker), ``E4`` or ``E4 {C2 D3 E4 F5 G6}`` (X placement with the
squares it scores), ``J>B7`` (relocating a removed joker). With ``manual_claims``: ``E4 {}``
(a placement that leaves the patterns it completes unclaimed) and ``C1 claim {B2 C3 D4 E5
F6}`` (an X next to another player's unclaimed patterns, claiming them; the braces may be
left out when one player's patterns are next to the square). Parsing is case-insensitive;
a bare square is read as the move of the current phase."""

from __future__ import annotations

import re

from ...core.errors import IllegalMove, NotationError
from ...core.move import Move
from .board import BIT, INDEX, NAMES, PLAY, RELOCATE, SETUP, names_of
from .rules import LEAVE_MOVES, RELOCATE_MOVES, SETUP_MOVES, ModXState, claim_move, placement_move

_SQUARE = r"[A-H][1-8]"
_MOVE = re.compile(rf"(?:(J)\s*([@>])\s*)?({_SQUARE})(\s+CLAIM)?(?:\s*\{{([^}}]*)\}})?")


def parse_move(state: ModXState, text: str) -> Move:
    """The legal move ``text`` denotes (``game.parse`` delegates here). NotationError for
    text that is no move, IllegalMove with the rules' reason for a move not legal here."""
    move = _parse(state, text)
    if state.manual_claims and state.phase == PLAY:
        # Moves sharing a square take a second click (rules._one_click_each): the legal
        # move carries it.
        return next(m for m in state.legal_moves() if m == move)
    return move


def _parse(state: ModXState, text: str) -> Move:
    raw = " ".join(str(text).split())
    if not raw:
        raise NotationError("empty move")
    m = _MOVE.fullmatch(raw.upper())
    if not m:
        raise NotationError(f"{raw!r} is not MOD X notation: expected E4, E4 {{...}}, J@C3 or J>B7")
    joker, sign, name, claim, claimed = m.groups()
    s = INDEX[name]
    if state.outcome is not None:
        raise IllegalMove(f"the game is over ({state.outcome.reason})", raw)
    if joker and (claimed is not None or claim):
        raise NotationError(f"{raw!r}: only an X placement lists scored squares")
    if claim:
        kind = "claim"
    elif sign == "@" or (not joker and claimed is None and state.phase == SETUP):
        kind = "setup"
    elif sign == ">" or (not joker and claimed is None and state.phase == RELOCATE):
        kind = "relocate"
    else:
        kind = "place"
    mask = None if claimed is None else _squares(claimed, raw)
    if kind == "place" and mask == 0 and state.manual_claims and state.scored_by(state.to_move, s):
        kind = "leave"
    state.check_square(kind, s, raw)
    if kind == "leave":
        return LEAVE_MOVES[s]
    if kind == "claim":
        return _claim(state, s, mask, raw)
    if kind == "setup":
        return SETUP_MOVES[s]
    if kind == "relocate":
        return RELOCATE_MOVES[s]
    scored = state.scored_by(state.to_move, s)
    if mask is not None:
        if mask != scored:
            says = f"scores {{{names_of(scored)}}}" if scored else "scores nothing"
            raise IllegalMove(f"{name} {says}, not {{{names_of(mask)}}}", raw)
    return placement_move(s, scored)


def _squares(listed: str, raw: str) -> int:
    """The squares between the braces, as a bitmask."""
    mask = 0
    for token in listed.replace(",", " ").split():
        if token not in INDEX:
            raise NotationError(f"{raw!r}: {token!r} is not a square")
        mask |= BIT[INDEX[token]]
    return mask


def _claim(state: ModXState, s: int, mask: int | None, raw: str) -> Move:
    """The claim of the unclaimed patterns next to ``s`` that ``mask`` lists (any, when one
    player's are there and ``mask`` is None)."""
    name = NAMES[s]
    near = [(owner, union) for owner, union, squares in state.unclaimed(state.to_move) if squares & BIT[s]]
    if mask is not None:
        near = [(owner, union) for owner, union in near if union == mask]
    if len(near) != 1:
        if mask is not None or not near:
            raise IllegalMove(f"{name} is not next to the patterns claimed", raw)
        raise NotationError(
            f"{raw!r}: several players' patterns are next to {name}: list the squares claimed"
        )
    owner, union = near[0]
    return claim_move(s, owner, union)
