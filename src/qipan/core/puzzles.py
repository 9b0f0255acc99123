"""Puzzles: a position from a real game where the side to move wins by force, with the whole
solution tree: the solver's winning move at each of its turns and every legal defence at
each of the defender's, down to the win. A game declares its puzzle finder (``Game.
puzzle_finder``, its own search proposing the winning moves); the tree is built and checked
here over the reference rules, so a puzzle never rests on a search's word alone."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .errors import QipanError
from .game import State


class PuzzleError(QipanError):
    """A solution tree the rules contradict (a move not legal, a defence missing, no win)."""


@dataclass(frozen=True)
class PuzzleFinder:
    """What a game declares for puzzles (``Game.puzzle_finder`` names one)."""

    #: ``forced_win(state, moves)``: the text of a move of the side to move that wins within
    #: ``moves`` of its own moves against every defence, as the game's search proves it; None.
    forced_win: Callable[[State, int], str | None]
    #: ``theme(outcome)``: how a win ends, one word ("loop", "line", "mill", "five", ...).
    theme: Callable[[object], str]


def solution_tree(state: State, moves: int, forced_win) -> dict | None:
    """The solution tree of a win within ``moves`` of the side to move's own moves, or None:
    ``{"move": text}`` for a move that wins at once, else ``{"move": text, "replies": {defence:
    subtree}}`` with every legal defence (None for a defence that completes the solver's win
    itself). ``state`` is left as it was."""
    solver = state.to_move
    if state.outcome is not None or state.is_chance or moves < 1:
        return None
    text = forced_win(state, moves)
    if text is None:
        return None
    move = state.play(text)
    try:
        if state.outcome is not None:
            return {"move": move.text} if tuple(state.outcome.winners) == (solver,) else None
        if moves == 1 or state.is_chance:
            return None
        replies = {}
        for reply in state.legal_moves():
            state.play(reply)
            try:
                if state.outcome is not None:
                    # A defence that completes the solver's win loses at once (None); one that
                    # draws or wins for the defender leaves no forced win.
                    if tuple(state.outcome.winners) != (solver,):
                        return None
                    replies[reply.text] = None
                    continue
                sub = solution_tree(state, moves - 1, forced_win)
            finally:
                state.undo()
            if sub is None:
                return None
            replies[reply.text] = sub
        return {"move": move.text, "replies": replies} if replies else None
    finally:
        state.undo()


def check_solution(state: State, tree: dict) -> int:
    """Check ``tree`` from ``state`` through the rules: every move of the solver legal, every
    legal defence answered, every line ending in the solver's win. Returns the solver's
    moves on the longest line; PuzzleError says where the tree is wrong. ``state`` is left as
    it was."""
    solver = state.to_move
    return _check(state, tree, solver, [])


def _check(state: State, tree: dict, solver: int, line: list[str]) -> int:
    where = " ".join(line) or "the start"
    if not isinstance(tree, dict) or not isinstance(tree.get("move"), str):
        raise PuzzleError(f"after {where}: a solver's node needs a move")
    if state.to_move != solver:
        raise PuzzleError(f"after {where}: it is not the solver's turn")
    try:
        move = state.play(tree["move"])
    except QipanError as exc:
        raise PuzzleError(f"after {where}: {tree['move']} is not legal: {exc}") from exc
    try:
        here = [*line, move.text]
        replies = tree.get("replies")
        if state.outcome is not None:
            if tuple(state.outcome.winners) != (solver,):
                raise PuzzleError(f"{' '.join(here)} does not win for the solver")
            if replies:
                raise PuzzleError(f"{' '.join(here)} ends the game, yet the tree goes on")
            return 1
        if not isinstance(replies, dict) or not replies:
            raise PuzzleError(f"{' '.join(here)} does not end the game and the tree has no defences")
        legal = {m.text for m in state.legal_moves()}
        if set(replies) != legal:
            missing = sorted(legal - set(replies))[:3]
            extra = sorted(set(replies) - legal)[:3]
            raise PuzzleError(
                f"after {' '.join(here)}: the defences are not the legal moves"
                f" (missing {', '.join(missing) or 'none'}; not legal {', '.join(extra) or 'none'})"
            )
        longest = 0
        for reply, sub in replies.items():
            state.play(reply)
            try:
                if state.outcome is not None:
                    if tuple(state.outcome.winners) != (solver,) or sub is not None:
                        raise PuzzleError(f"{' '.join([*here, reply])} ends the game, not as the tree says")
                    continue
                if sub is None:
                    raise PuzzleError(
                        f"{' '.join([*here, reply])} does not end the game: the tree needs a move"
                    )
                longest = max(longest, _check(state, sub, solver, [*here, reply]))
            finally:
                state.undo()
        return longest + 1
    finally:
        state.undo()


def main_line(tree: dict) -> list[str]:
    """The solver's moves and the first defence at each turn: the line a page shows first."""
    line = []
    while tree:
        line.append(tree["move"])
        replies = tree.get("replies") or {}
        if not replies:
            break
        reply, tree = next(((r, t) for r, t in replies.items() if t is not None), next(iter(replies.items())))
        line.append(reply)
    return line
