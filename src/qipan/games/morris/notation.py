"""Morris notation (rules file §1.9): ``d2``, ``d2-d3``, ``d2-d3xb4``, ``d6-d7xa7xg7``; a bare
removal ``xd4`` in the full-board phase. Lenient parsing and the reasons for illegal moves."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ...core.errors import IllegalMove, NotationError
from ...core.move import Move
from .board import COLOUR, DAN, bits

if TYPE_CHECKING:
    from .rules import MorrisState

_POINT = r"[a-z]\d+"
_MOVE = re.compile(rf"(x)?({_POINT})(?:-?({_POINT}))?((?:x{_POINT})*)")
_KINDS = "直擔槓擔"


def lex(text: str) -> tuple[str | None, str, list[str]]:
    """(from, to, removals) point names of a move text, or a bare removal (None, "", [v])."""
    s = str(text).strip().lower()
    for kind in _KINDS + DAN:
        s = s.replace(kind, "")
    s = s.replace("×", "x").replace(":", "x").replace("–", "-")
    s = re.sub(r"\s+", "", s)
    if not s:
        raise NotationError("empty move")
    m = _MOVE.fullmatch(s)
    if not m:
        raise NotationError(
            f"{text!r} is not Morris notation: expected a placement 'd2', a move 'd2-d3' "
            "and removals 'xb4' (e.g. 'd2-d3xb4')"
        )
    bare, first, second, rest = m.groups()
    removals = re.findall(_POINT, rest)
    if bare:
        if second:
            raise NotationError(f"{text!r}: a bare removal names one point, e.g. 'xd4'")
        return None, "", [first] + removals
    if second:
        return first, second, removals
    return None, first, removals


def _index(state: MorrisState, name: str) -> int:
    i = state.t.index.get(name)
    if i is None:
        raise NotationError(f"{name} is not a point of this board (points: {', '.join(state.t.names)})")
    return i


def parse_move(state: MorrisState, text: str) -> Move:
    """The legal move ``text`` denotes; NotationError for non-notation, IllegalMove with the
    reason for a move the rules forbid here."""
    frm, to, victims = lex(text)
    f = _index(state, frm) if frm else -1
    t = _index(state, to) if to else -1
    removed = 0
    for v in victims:
        b = 1 << _index(state, v)
        if removed & b:
            raise NotationError(f"{v} is removed twice")
        removed |= b
    if state.outcome is not None:
        raise IllegalMove(f"the game is over ({state.outcome.reason})", text)
    if state.pending and t >= 0 and f < 0 and not removed:
        t, removed = -1, 1 << t  # in the full-board phase a bare point is a removal
    legal = state._legal()  # generates (and so creates) the capture moves first
    move = state.t.known_move(f, t, removed)
    if move is not None:
        for m in legal:
            if m is move:
                return move
    raise IllegalMove(reason(state, f, t, removed), text)


def explain_illegal(state: MorrisState, text: str) -> str:
    try:
        frm, to, victims = lex(text)
        f = _index(state, frm) if frm else -1
        t = _index(state, to) if to else -1
        removed = sum(1 << _index(state, v) for v in victims)
    except NotationError as exc:
        return str(exc)
    return reason(state, f, t, removed)


def reason(state: MorrisState, f: int, t: int, removed: int) -> str:
    """Why the move (from ``f``, to ``t``, removing ``removed``) is not legal."""
    if state.outcome is not None:
        return f"the game is over ({state.outcome.reason})"
    tb, r = state.t, state.rules
    names = tb.names
    c = state.to_move
    me, them = COLOUR[c], COLOUR[1 - c]
    own, opp = state.bb[c], state.bb[1 - c]
    empty = tb.full ^ (own | opp)
    if state.pending:
        if t >= 0:
            return (
                f"the board is full: {me} must first remove a {them} stone (e.g. 'x{names[next(bits(opp))]}')"
            )
        return _removal_reason(state, removed, 1, opp, them) or "that removal is not allowed"
    if t < 0:
        return "a bare removal is only played after the board fills up (full_board=each_removes)"
    if state.hand[c]:
        if f >= 0:
            return f"{me} still has stones in hand: place a stone (e.g. '{names[t]}')"
    elif f < 0:
        if r.placement_only:
            return "every stone is placed: the game is over"
        return f"{me} has no stones in hand: move a stone ('from-to', e.g. 'd2-d3')"
    if r.placement_only and f >= 0:
        return "stones are never moved in this game"
    if not empty >> t & 1:
        return f"{names[t]} is occupied"
    if f >= 0:
        if not own >> f & 1:
            return f"{names[f]} is not a {me} stone"
        if not state.flies(c) and not tb.nbr[f] >> t & 1:
            why = f" ({me} may fly only with {r.flying} stones)" if r.flying is not None else ""
            return f"{names[t]} is not adjacent to {names[f]}{why}"
    options = state.capture_options(f, t, own, opp)
    what = names[t] if f < 0 else f"{names[f]}-{names[t]}"
    if not options:
        if removed:
            own2 = (own & ~(1 << f) if f >= 0 else own) | 1 << t
            if r.goal == "mill" and any(own2 & pm == pm for pm in tb.pairs[t]):
                bad = _removal_reason(state, removed, 1, opp, them, [])
                return bad or f"{what} forms a mill but no {them} stone may be removed"
            return (
                f"{what} removes nothing: no mill is formed"
                if r.captures == "mill"
                else f"{what} makes no 直, 擔 or 槓: nothing may be removed"
            )
        return f"{what} is not a legal move here"
    if not removed:
        if r.captures == "zhiqi":
            return "a capture is made: choose what to remove (直: any one stone, 擔/槓: the stones it takes)"
        return "a mill was formed: a removal is required"
    count = max(m.bit_count() for m in options)
    bad = _removal_reason(state, removed, count, opp, them, options)
    return bad or f"{what}: that removal is not allowed"


def _removal_reason(state, removed: int, count: int, opp: int, them: str, options=None) -> str:
    names = state.t.names
    for v in bits(removed):
        if not opp >> v & 1:
            return f"{names[v]} is not a {them} stone"
    if options is None:
        options = [1 << v for v in bits(state.removable(opp))]
    if removed in options:
        return ""
    in_mill = state.in_mills(opp)
    for v in bits(removed):
        if (
            in_mill >> v & 1
            and state.rules.protection != "no_mill_protection"
            and not state.removable(opp) >> v & 1
        ):
            if state.rules.protection == "always_protected":
                return f"{names[v]} is in a mill and stones in mills are never removed"
            return f"{names[v]} is in a mill and {them} has stones outside mills"
    if removed.bit_count() != count and all(m.bit_count() == count for m in options):
        return f"this ply removes exactly {count} stone{'s' if count > 1 else ''}"
    return ""
