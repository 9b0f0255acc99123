"""Recorded decisions of the frozen reference agents (``<family>-classic``): each must still
choose, on each stored position with its stored seed and budget, the move it chose when
recorded, whatever the live agents and the shared code around them become."""

from __future__ import annotations

from collections.abc import Callable


def assert_decides_as_recorded(rows: list[dict], position: Callable, agent: Callable) -> None:
    """``position(row)`` is the row's state and ``agent(row)`` the agent that chose
    ``row["move"]`` there."""
    for row in rows:
        assert agent(row).choose(position(row)).text == row["move"], row["position"]
