"""Independent checks of the retrograde tables with the engine's own rules (``rules.py``).

``check_sample`` draws positions from every segment and, for each:

* the Bellman check: the stored value and distance must follow from the stored values of the
  successors that the engine's ``legal_moves`` produce (an error in the compiled move
  generator, the index or the sweep shows up here);
* for a stored distance of at most ``search_depth`` plies, a plain search over the engine's
  moves (no table) must prove exactly that: a win within d plies but not within d - 2, or a
  loss within d plies that cannot be delayed beyond; a draw must have no forced result
  within ``search_depth`` plies."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ...core.errors import QipanError
from ...solve.codes import decode


@dataclass
class CheckReport:
    positions: int = 0
    searched: int = 0
    failures: list[str] = field(default_factory=list)


def wins_within(state, plies: int) -> bool:
    """The side to move can force a win within ``plies`` plies (engine rules only)."""
    if plies <= 0:
        return False
    mover = state.to_move
    for move in state.legal_moves():
        child = state.copy()
        child.play(move)
        if child.outcome is not None:
            if child.outcome.reward(mover) == 1:
                return True
            continue
        if loses_within(child, plies - 1):
            return True
    return False


def loses_within(state, plies: int) -> bool:
    """Every move of the side to move lets the other side force a win within ``plies``."""
    if state.outcome is not None:
        return state.outcome.reward(state.to_move if state.to_move is not None else 0) == 0
    if plies <= 0:
        return False
    mover = state.to_move
    for move in state.legal_moves():
        child = state.copy()
        child.play(move)
        if child.outcome is not None:
            if child.outcome.reward(mover) > 0:
                return False
            continue
        if not wins_within(child, plies - 1):
            return False
    return True


def check_position(tables, key, index, mover: int, search_depth: int) -> tuple[bool, list[str]]:
    space = tables.space
    state = space.state_at(key, index, mover)
    label = state.position()
    stored = decode(tables.db.probe(key, index))
    problems = []
    if not state.legal_moves():
        if stored != ("loss", 0):
            problems.append(f"{label}: blocked but stored {stored}")
        return False, problems
    best = tables.move_values(state)[0]
    if stored != (best.value, best.plies):
        problems.append(f"{label}: stored {stored}, successors say {(best.value, best.plies)}")
    kind, plies = stored
    searched = False
    if kind == "win" and plies <= search_depth:
        searched = True
        if not wins_within(state, plies) or wins_within(state, plies - 2):
            problems.append(f"{label}: search does not find the win in exactly {plies}")
    elif kind == "loss" and plies <= search_depth:
        searched = True
        if not loses_within(state, plies) or (plies >= 2 and loses_within(state, plies - 2)):
            problems.append(f"{label}: search does not find the loss in exactly {plies}")
    elif kind == "draw" and search_depth >= 1:
        searched = True
        if wins_within(state, search_depth) or loses_within(state, search_depth):
            problems.append(f"{label}: stored draw, but search finds a forced result")
    return searched, problems


def check_sample(tables, count: int, search_depth: int = 3, seed: int = 0, progress=None) -> CheckReport:
    """Check ``count`` positions drawn uniformly from the positions of the solved segments."""
    segments = [s for s in tables.space.segments() if tables.db.solved(s.key) and s.size]
    if not segments:
        raise QipanError("no solved segment to check")
    rng = random.Random(seed)
    weights = [s.size for s in segments]
    report = CheckReport()
    for n in range(count):
        segment = rng.choices(segments, weights)[0]
        searched, problems = check_position(
            tables, segment.key, rng.randrange(segment.size), rng.randrange(2), search_depth
        )
        report.positions += 1
        report.searched += searched
        report.failures.extend(problems)
        if progress and (n + 1) % 500 == 0:
            progress(n + 1, count)
    return report
