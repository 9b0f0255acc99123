"""Trax puzzles: a forced win by loop or line, proposed by the threat search (``search.py``):
a tile that wins at once, or a chain of threats each leaving a win whatever the defender
plays. ``core.puzzles`` builds the whole solution tree over the rules and checks it."""

from __future__ import annotations

import random

from ...core.errors import SearchTimeout
from ...core.puzzles import PuzzleFinder
from .search import Memory, ThreatSearch

#: Positions the threat search may visit per call (a puzzle is a short forced win).
NODE_LIMIT = 20_000


def forced_win(state, moves: int) -> str | None:
    """A move of the side to move that wins within ``moves`` of its own moves against every
    defence, as the threat search proves it; None where it finds none within its budget."""
    search = ThreatSearch(state, random.Random(0), node_limit=NODE_LIMIT, memory=Memory())
    found = search._immediate_win()
    if found is None and moves > 1:
        try:
            # A chain of d threats, each leaving an immediate win, wins within d + 1 moves.
            found = search._vcf(search.mover, moves - 1, 0)
        except SearchTimeout:
            found = None
    return None if found is None else state.move_for(*found).text


def theme(outcome) -> str:
    """ "loop" or "line": what the winning tile completed (the rules' outcome reason)."""
    reason = outcome.reason.lower()
    return "loop" if "loop" in reason else "line"


FINDER = PuzzleFinder(forced_win, theme)
