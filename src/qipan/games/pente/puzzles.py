"""Pente puzzles: a forced win by continuous threats (captures included), proposed by the
threat-space search (``threats.py``, or its compiled twin when the kernels are on): a move
that wins at once, or a threat every defence of which leaves a shorter forced win.
``core.puzzles`` builds the whole solution tree over the rules (every legal defence) and
checks it, so a puzzle never rests on the search's word alone."""

from __future__ import annotations

from ...core.puzzles import PuzzleFinder
from .threats import SearchAborted, immediate_wins, supports
from .threats import forced_win as threat_win

#: Attacker nodes the threat search may visit per call (a puzzle is a short forced win).
NODE_LIMIT = 200_000


def forced_win(state, moves: int) -> str | None:
    """A move of the side to move that wins within ``moves`` of its own moves against every
    defence, as the threat search proves it (the shortest such win); None where it finds
    none within its budget or the rules are outside the search (four players, double tria)."""
    if state.num_players != 2 or not supports(state.game) or moves < 1:
        return None
    # Most calls come from a solution tree's defences that do not defend: a win at once,
    # found without the search's set-up (half the time of a tree, on the reference rules).
    wins = immediate_wins(state, state.to_move) if state.outcome is None else []
    if wins:
        return state.geom.name[wins[0]]
    if moves == 1:
        return None
    try:
        found = threat_win(state, max_plies=2 * moves - 1, nodes=NODE_LIMIT)
    except SearchAborted:
        return None
    return None if found is None else found.move


def theme(outcome) -> str:
    """ "five" (a line, exactly five under ``exact_five``) or "captures" (ten stones taken)."""
    return "captures" if "captured" in outcome.reason else "five"


FINDER = PuzzleFinder(forced_win, theme)
