"""One byte a position: the value for the side to move with the distance to the end.

``0`` is a draw; ``d + 1`` (1 .. 254) means the game ends after ``d`` plies of best play, won
by the side to move when ``d`` is odd and lost when ``d`` is even (``d = 0``: it has already
lost, e.g. it cannot move); ``255`` marks a position not solved yet. Distances beyond
:data:`MAX_DISTANCE` do not fit and make the solver stop with an error."""

from __future__ import annotations

DRAW = 0
UNKNOWN = 255
MAX_DISTANCE = 253


def encode(d: int) -> int:
    """The code of a position decided after ``d`` plies."""
    if not 0 <= d <= MAX_DISTANCE:
        raise ValueError(f"distance {d} does not fit in one byte")
    return d + 1


def is_win(code: int) -> bool:
    return code != UNKNOWN and code % 2 == 0 and code != DRAW


def is_loss(code: int) -> bool:
    return code != UNKNOWN and code % 2 == 1


def distance(code: int) -> int | None:
    """Plies to the end with best play, None for a draw or an unsolved position."""
    return code - 1 if code not in (DRAW, UNKNOWN) else None


def decode(code: int) -> tuple[str, int | None]:
    """``("win" | "draw" | "loss" | "unknown", plies or None)``."""
    if code == UNKNOWN:
        return "unknown", None
    if code == DRAW:
        return "draw", None
    return ("win" if is_win(code) else "loss"), code - 1
