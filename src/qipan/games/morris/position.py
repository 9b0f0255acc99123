"""The Morris position text (FEN-like): ``W:a7,d7 B:a1 hands:5,5 to:W nmove:0 ply:0``, plus
``remove:N`` in the full-board removal phase and ``to:- result:1-0`` for a finished game."""

from __future__ import annotations

from ...core.editing import PositionEditor
from ...core.errors import NotationError
from ...core.outcome import Outcome
from .board import COLOUR, LETTER, board_symmetries
from .rules import MorrisState


def write_position(state: MorrisState) -> str:
    parts = [f"{LETTER[p]}:{','.join(state.stones(p))}" for p in (0, 1)]
    parts.append(f"hands:{state.hand[0]},{state.hand[1]}")
    parts.append(f"to:{LETTER[state.to_move] if state.to_move is not None else '-'}")
    if state.outcome is not None:
        parts.append(f"result:{state.outcome.result_text()}")
    parts.append(f"nmove:{state.nmove}")
    parts.append(f"ply:{state.plies}")
    if state.pending:
        parts.append(f"remove:{state.pending}")
    return " ".join(parts)


def read_position(game, text: str) -> MorrisState:
    """A state from ``W:a7,d7 B:a1 hands:5,5 to:W`` (``hands`` defaults to 0,0, ``to`` to W;
    ``nmove``, ``ply`` and ``remove`` to 0). The side to move may already have lost (blocked)."""
    state = MorrisState(game, 2)
    t = state.t
    fields: dict[str, str] = {}
    for token in str(text).split():
        key, sep, value = token.partition(":")
        key = key.lower()
        if not sep or key not in ("w", "b", "hands", "to", "nmove", "ply", "remove", "result"):
            raise NotationError(
                f"bad position field {token!r}: expected W:, B:, hands:, to:, nmove:, ply:, remove:, result:"
            )
        if key in fields:
            raise NotationError(f"position field {key!r} given twice")
        fields[key] = value
    bb = [0, 0]
    for p, key in ((0, "w"), (1, "b")):
        for name in filter(None, fields.get(key, "").lower().split(",")):
            i = t.index.get(name)
            if i is None:
                raise NotationError(f"{name} is not a point of this board")
            if (bb[0] | bb[1]) >> i & 1:
                raise NotationError(f"{name} holds two stones")
            bb[p] |= 1 << i
    try:
        hands = [int(x) for x in fields.get("hands", "0,0").split(",")]
        nmove, ply, pending = (int(fields.get(k, "0")) for k in ("nmove", "ply", "remove"))
    except ValueError as exc:
        raise NotationError(f"bad number in position: {exc}") from None
    if len(hands) != 2 or min(hands) < 0:
        raise NotationError("hands: expects two counts, e.g. hands:5,5")
    for p in (0, 1):
        if hands[p] + bb[p].bit_count() > state.rules.stones:
            raise NotationError(f"{COLOUR[p]} has more than {state.rules.stones} stones")
        if state.rules.goal == "line" and hands[p] + bb[p].bit_count() != state.rules.stones:
            # Nothing is ever removed in a game won by a line: every stone is on the board or in hand.
            raise NotationError(
                f"{COLOUR[p]} has {bb[p].bit_count()} on the board and {hands[p]} in hand, but in "
                f"{game.title} no stone is ever removed: the {state.rules.stones} a side are on the "
                f"board or in hand (the start is hands:{state.rules.stones},{state.rules.stones})"
            )
    if min(nmove, ply, pending) < 0 or pending > 2:
        raise NotationError("nmove, ply and remove must be >= 0 (remove <= 2)")
    to = fields.get("to", "w").lower()
    result = fields.get("result")
    if (to == "-") != (result is not None):
        raise NotationError("a finished position has to:- and a result: (1-0, 0-1 or 1/2-1/2), and only it")
    if to not in ("w", "b", "-"):
        raise NotationError(f"to: expects W or B, not {to!r}")
    state.bb = bb
    state.hand = hands
    state.nmove, state.plies, state.pending = nmove, ply, pending
    state.reps = {}
    if result is not None:
        winners = {"1-0": (0,), "0-1": (1,), "1/2-1/2": ()}.get(result)
        if winners is None:
            raise NotationError(f"result: expects 1-0, 0-1 or 1/2-1/2, not {result!r}")
        reason = f"the game was over in the position set up ({result})"
        state._end(Outcome.win(winners, 2, reason) if winners else Outcome.draw(2, reason))
        return state
    p = 0 if to == "w" else 1
    state._settle(1 - p, -1)  # the side to move may be blocked or reduced already
    if state.outcome is None:
        state._count_position()
    return state


def symmetric_keys(state) -> list[int]:
    """``state.key()`` of the position under each of the board's symmetries (its own first):
    both players' stone masks mapped point by point, hands and side to move unchanged."""
    t = state.t
    own = state.key()
    rest = own >> 48 << 48
    keys = [own]
    for perm in board_symmetries(t)[1:]:
        mapped = [0, 0]
        for side in (0, 1):
            bits = state.bb[side]
            while bits:
                low = bits & -bits
                mapped[side] |= 1 << perm[low.bit_length() - 1]
                bits ^= low
        keys.append(rest | mapped[0] | mapped[1] << 24)
    return keys


#: The position editor: White's and Black's stones are ``W:``/``B:`` lists, ``to:`` the side to
#: move, ``hands:`` the stones still to place.
EDITOR = PositionEditor(
    pieces=("W", "B"),
    mover_field="to:",
    movers=("W", "B"),
    hands_field="hands:",
    derived=("ply:", "nmove:", "result:"),
)
