"""Which Morris rule sets the retrograde tables (``tables.py``) cover. Kept apart from the
tables themselves so that the game and the agent registry can ask without NumPy."""

from __future__ import annotations

POINTS = {"nine": 24, "twelve": 24, "six": 16, "three": 9}


def supported(rules) -> str | None:
    """Why these rules cannot be tabled at all, or None."""
    if rules.line_moving_only:
        return "line_moving_only is not in the tables"
    return None


def fills_up(rules, max_stones: int | None) -> bool:
    """Whether a tabled position could have every point taken (the full-board rules are not
    in the tables): the whole game when both sides' stones cover the board, or endgames that
    large."""
    stones = rules.stones if max_stones is None else max_stones
    return rules.goal == "mill" and 2 * stones >= POINTS[rules.board]


def whole_game_tabled(rules) -> bool:
    """The tables cover the game from its start (the 3x3 and 16-point boards)."""
    return supported(rules) is None and rules.board in ("three", "six") and not fills_up(rules, None)
