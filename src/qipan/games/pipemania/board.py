"""Pipe Mania as data: the sides, the pipe pieces (rules file §3.1: channels as pairs of
sides, glyphs and ids) and the constant moves (pass, hurry, the dispenser's draws).
Shared by the rules, the levels, the notation, the renderer and the planner.

Sides are N, E, S, W = 0, 1, 2, 3. A piece is a constant; cells refer to it."""

from __future__ import annotations

from dataclasses import dataclass

from ...core.move import Move

N, E, S, W = 0, 1, 2, 3
SIDE_NAMES = "NESW"
DR = (-1, 0, 1, 0)
DC = (0, 1, 0, -1)


def opposite(side: int) -> int:
    return (side + 2) % 4


@dataclass(frozen=True)
class Piece:
    """``channels`` are pairs of sides. ``kind`` is "pipe" (placeable), "start", "drain",
    "blocked", "fixed" (pre-placed pipe), "reservoir", "oneway" or "bonus". A one-way
    straight may only be entered through ``entry``."""

    id: str
    glyph: str
    channels: tuple[tuple[int, int], ...]
    kind: str = "pipe"
    entry: int | None = None

    @property
    def replaceable(self) -> bool:
        return self.kind == "pipe"

    def channel_at(self, side: int) -> int | None:
        """Index of the channel with an end on ``side`` (None if there is none)."""
        for i, (a, b) in enumerate(self.channels):
            if side in (a, b):
                return i
        return None

    def other_end(self, channel: int, side: int) -> int:
        a, b = self.channels[channel]
        return b if side == a else a


#: The seven pieces in the dispenser's order (rules file table).
PIPES = (
    Piece("H", "─", ((W, E),)),
    Piece("V", "│", ((N, S),)),
    Piece("WS", "╮", ((W, S),)),
    Piece("ES", "╭", ((E, S),)),
    Piece("NE", "╰", ((N, E),)),
    Piece("NW", "╯", ((N, W),)),
    Piece("X", "┼", ((W, E), (N, S))),
)
PIPE_IDS = tuple(p.id for p in PIPES)
BY_ID = {p.id: p for p in PIPES}
BLOCKED = Piece("#", "█", (), "blocked")

_ARROWS = "^>v<"


def start_piece(side: int) -> Piece:
    return Piece(f"S:{SIDE_NAMES[side]}", "S" + _ARROWS[side], ((side, side),), "start")


def drain_piece(side: int) -> Piece:
    return Piece(f"D:{SIDE_NAMES[side]}", "D" + _ARROWS[side], ((side, side),), "drain")


def special_piece(kind: str, pipe_id: str) -> Piece:
    """A pre-placed pipe: ``fixed`` (cannot be replaced), ``reservoir`` or ``bonus``."""
    base = BY_ID[pipe_id]
    prefix = {"fixed": "F", "reservoir": "R", "bonus": "B"}[kind]
    return Piece(f"{prefix}:{pipe_id}", base.glyph, base.channels, kind)


def oneway_piece(direction: int) -> Piece:
    """A one-way straight: the flow runs towards ``direction`` and enters from the opposite side."""
    entry = opposite(direction)
    channel = (entry, direction)
    return Piece(f"O:{SIDE_NAMES[direction]}", _ARROWS[direction], (channel,), "oneway", entry)


def pipe_for(entry: int, exit: int) -> str:
    """The id of the one-channel pipe joining two sides."""
    for p in PIPES[:6]:
        a, b = p.channels[0]
        if {a, b} == {entry, exit}:
            return p.id
    raise ValueError("no pipe joins a side with itself")


def parse_piece_token(token: str) -> Piece | None:
    """A layout token: ``.`` empty (None), ``#`` blocked, a pipe id (pre-placed fixed pipe),
    ``S:E`` start, ``D:W`` drain, ``R:H`` reservoir, ``B:X`` bonus, ``F:H`` fixed, ``O:E`` one-way."""
    if token == ".":
        return None
    if token == "#":
        return BLOCKED
    if token in BY_ID:
        return special_piece("fixed", token)
    if len(token) >= 3 and token[1] == ":":
        kind, arg = token[0], token[2:]
        side = SIDE_NAMES.find(arg) if len(arg) == 1 else -1
        if kind == "S" and side >= 0:
            return start_piece(side)
        if kind == "D" and side >= 0:
            return drain_piece(side)
        if kind == "O" and side >= 0:
            return oneway_piece(side)
        if kind in "RBF" and arg in BY_ID:
            return special_piece({"R": "reservoir", "B": "bonus", "F": "fixed"}[kind], arg)
    raise ValueError(f"{token!r} is not a layout cell")


# -- the constant moves ------------------------------------------------------------------
PASS = Move("-", ("pass",), ("pass",))
HURRY = Move("h", ("hurry",), ("hurry",))
#: The dispenser's draws, chance moves ``+<piece>``.
CHANCE_MOVES = {p: Move(f"+{p}", (), ("draw", p)) for p in PIPE_IDS}
