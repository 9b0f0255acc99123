"""Morris puzzles: wins in N from perfect play. On the 3x3 boards the exhaustive solver
(``solver.py``, in memory) gives every move's value and distance; on the larger boards the
retrograde tables (``perfect.py``) do where they are built. ``core.puzzles`` builds the
whole solution tree over the rules and checks it."""

from __future__ import annotations

from ...core.errors import QipanError
from ...core.puzzles import PuzzleFinder
from .solver import WIN


def forced_win(state, moves: int) -> str | None:
    """The fastest winning move of the side to move if it wins within ``moves`` of its own
    moves with perfect play; None otherwise or where no perfect value is known."""
    most = 2 * moves - 1  # plies, counting the winning move
    if state.rules.board == "three":
        from .agent import MorrisSolverAgent

        try:
            scored = MorrisSolverAgent()._solution(state).move_values(state)
        except (KeyError, QipanError):
            return None
        wins = [(plies, move.text) for move, value, plies in scored if value == WIN and plies <= most]
        return min(wins)[1] if wins else None
    try:
        values = _endgame_values(state)
    except ImportError:  # the tables need qipan[solve]
        return None
    if values is None:
        return _proved_win(state, most)
    wins = [
        (v.plies, v.move.text) for v in values if v.value == "win" and v.plies is not None and v.plies <= most
    ]
    return min(wins)[1] if wins else None


#: Nodes the proof search may visit per move tried.
PROOF_NODES = 200_000


def _proved_win(state, most: int) -> str | None:
    """The fastest move after which the compiled proof search (``proof_search.py``: exact
    within its horizon, no tables) finds the opponent lost within ``most - 1`` plies."""
    from ...fast import HAVE_NUMBA

    if not HAVE_NUMBA:
        return None
    from .proof_search import ProofSearch

    key = ("proof", state.game.id, tuple(sorted(state.game.options.items())))
    search = _OPEN.get(key)
    if search is None:
        search = _OPEN[key] = ProofSearch(state.game, table_bits=18, nodes=PROOF_NODES)
    mover = state.to_move
    wins = []
    for move in state.legal_moves():
        child = state.copy()
        child.play(move)
        if child.outcome is not None:
            if tuple(child.outcome.winners) == (mover,):
                wins.append((1, move.text))
            continue
        if most < 3:
            continue
        search._fresh()  # a node budget for each move tried
        found = search.value_within(child, most - 1)
        if found is not None and found[0] == "loss" and found[1] is not None and found[1] + 1 <= most:
            wins.append((found[1] + 1, move.text))
    return min(wins)[1] if wins else None


#: Endgame tables tried on the larger boards: at most this many stones a side, fewest first.
ENDGAME_STONES = (3, 4)
_OPEN: dict = {}


def _endgame_values(state):
    """Every move's perfect value from the built endgame tables that hold ``state`` (None:
    none do). Tables are built by ``qipan solve morris`` (docs/solving.md), never here."""
    from .perfect import PerfectTables

    game = state.game
    for stones in ENDGAME_STONES:
        key = (game.id, tuple(sorted(game.options.items())), stones)
        if key not in _OPEN:
            try:
                _OPEN[key] = PerfectTables(game, max_stones=stones)
            except QipanError:  # no endgame tables for these rules
                _OPEN[key] = None
        tables = _OPEN[key]
        if tables is not None and tables.covers(state):
            try:
                return tables.move_values(state)
            except QipanError:
                return None
    return None


def theme(outcome) -> str:
    """How the game was won: a mill's line (the goal on some boards), captures down to two
    stones, or a blocked opponent."""
    reason = outcome.reason.lower()
    if "line" in reason:
        return "line"
    if "cannot move" in reason:
        return "blocked"
    return "mill"


FINDER = PuzzleFinder(forced_win, theme)
