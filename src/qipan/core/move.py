"""Moves are small immutable values compared by their canonical notation."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Move:
    """One action in a game.

    ``text`` is the canonical notation (``str(move)``) and is what makes two moves equal.
    ``path`` lists the UI click targets in order (e.g. ``("d2", "d3", "b4")``); they match
    the ``data-target`` attributes of the game's SVG.
    ``data`` is the engine's own payload, so that ``play(move)`` never parses text.
    """

    text: str
    path: tuple[str, ...] = ()
    data: Any = field(default=None, compare=False, hash=False)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Move({self.text!r})"
