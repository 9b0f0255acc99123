"""The engine protocol's queries about the current game (docs/engine-protocol.md): what a
client asks instead of keeping the rules itself. Each function turns a state into the
answer lines; ``EngineLoop`` writes them."""

from __future__ import annotations

from ..core.game import State
from .engine_protocol import join_moves


def legal_lines(state: State) -> list[str]:
    """``legal m1; m2; …``: the legal moves in the game's notation (chance moves at a chance
    node; ``legal`` alone once the game is over)."""
    return [f"legal {join_moves(state.legal_moves())}".rstrip()]


def tomove_lines(state: State) -> list[str]:
    """``tomove <seat>`` (0-based), ``tomove chance`` or ``tomove none`` once over."""
    if state.outcome is not None:
        return ["tomove none"]
    if state.is_chance:
        return ["tomove chance"]
    return [f"tomove {state.to_move}"]


def _number(x: float) -> str:
    return f"{x:g}"


def result_lines(state: State) -> list[str]:
    """``result ongoing``, or ``result over winners <w,…|-> scores <s,…> reason <text>``."""
    outcome = state.outcome
    if outcome is None:
        return ["result ongoing"]
    winners = ",".join(map(str, outcome.winners)) or "-"
    scores = ",".join(map(_number, outcome.scores))
    return [f"result over winners {winners} scores {scores} reason {outcome.reason}"]


def position_lines(state: State) -> list[str]:
    """The position in the game's text form (``game.position`` reads it back), one
    ``position <line>`` per line of it, then ``positionok``."""
    return [f"position {line}".rstrip() for line in state.position().splitlines()] + ["positionok"]
