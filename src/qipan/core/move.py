"""Moves are small immutable values compared by their canonical notation."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True, eq=False)
class Move:
    """One action in a game.

    ``text`` is the canonical notation (``str(move)``) and is what makes two moves equal.
    ``path`` lists the UI click targets in order (e.g. ``("d2", "d3", "b4")``); they match
    the ``data-target`` attributes of the game's SVG.
    ``data`` is the engine's own payload, so that ``play(move)`` never parses text.

    Two moves are equal when their notation and payload are equal, so a stale move from
    another position with the same text but another meaning is not taken for a legal one.
    """

    text: str
    path: tuple[str, ...] = ()
    data: Any = field(default=None)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return self.text == other.text and (self.data is other.data or self.data == other.data)

    def __hash__(self) -> int:
        return hash(self.text)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Move({self.text!r})"
