"""The ``modx`` agent's two-player search: iterative-deepening alpha-beta over whole turns.

A turn is the mover's X placement followed by its joker relocations, played greedily (the
least harmful square each, as in ``search.py``), so one ply of this search is one turn. At
every node only the most promising squares by the quick gains are searched (``WIDTHS``: many
at the root, fewer deeper), the one a transposition-table entry names first. Leaves are the
agent's evaluation from the mover's side; a finished game is worth ``WIN`` less the turns it
took, so a nearer win is preferred and a loss put off. Each deeper iteration starts from the
root moves in the order of the last one's values and may be cut off by the deadline: the
best move found so far at the deepest level stands (the first move tried is the last
iteration's best, so a move that beats it was searched deeper)."""

from __future__ import annotations

from collections.abc import Callable

from ...agents import clock
from ...core.move import Move
from .evaluation import WIN
from .rules import ModXState, placement_move

#: Squares searched at a node, by its distance from the root (the last entry for all deeper).
WIDTHS = (16, 8, 6, 5, 4)
#: Turns searched at most without a depth limit.
MAX_DEPTH = 12
#: A transposition-table entry's bound: the value is exact, at least it, or at most it.
EXACT, LOWER, UPPER = 0, 1, 2
#: Nodes between two looks at the clock.
CLOCK_EVERY = 32


class OutOfTime(Exception):
    """The deadline passed in the middle of an iteration."""


class Deepening:
    """One move's search. ``play_turn(work, move)`` plays a placement and the mover's joker
    relocations and returns how many moves that was; ``undo(work, count)`` takes them back."""

    def __init__(
        self,
        gains: Callable[[ModXState], dict[int, float]],
        evaluate: Callable[[ModXState, int], float],
        play_turn: Callable[[ModXState, Move], int],
        undo: Callable[[ModXState, int], None],
        deadline: float | None,
        max_depth: int = MAX_DEPTH,
        widths: tuple[int, ...] = WIDTHS,
    ):
        self.gains, self.evaluate = gains, evaluate
        self.play_turn, self.undo = play_turn, undo
        self.deadline = deadline
        self.max_depth = max_depth
        self.widths = widths
        self.table: dict = {}
        self.nodes = 0
        #: Turns searched by the last complete iteration, and the best move's value there.
        self.reached = 0
        self.value = 0.0

    def best_move(self, work: ModXState, moves: list[Move]) -> Move:
        me = work.to_move
        gains = self.gains(work)
        ranked = sorted(moves, key=lambda m: (-gains[m.data[1]], m.data[1]))[: self.widths[0]]
        best = ranked[0]
        values: dict[Move, float] = {}
        for depth in range(1, self.max_depth + 1):
            found, found_value = None, -float("inf")
            try:
                for move in ranked:
                    count = self.play_turn(work, move)
                    try:
                        value = -self._value(work, depth - 1, -float("inf"), -found_value, 1, 1 - me)
                    finally:
                        self.undo(work, count)
                    values[move] = value
                    if value > found_value:
                        found, found_value = move, value
            except OutOfTime:
                if found is not None:
                    best = found
                break
            best, self.reached, self.value = found, depth, found_value
            if abs(found_value) >= WIN / 2:
                break  # a forced result: deeper turns change nothing
            ranked.sort(key=lambda m: -values[m])  # stable: equal values keep the gains' order
        return best

    def _value(self, work: ModXState, depth: int, alpha: float, beta: float, ply: int, player: int) -> float:
        """Negamax value for ``player`` (to move, unless the game is over)."""
        if work.outcome is not None:
            value = self.evaluate(work, player)
            return value - ply if value > 0 else value + ply if value < 0 else value
        if depth == 0:
            return self.evaluate(work, player)
        self.nodes += 1
        if self.deadline is not None and self.nodes % CLOCK_EVERY == 0 and clock.now() >= self.deadline:
            raise OutOfTime
        key = work.key()
        entry = self.table.get(key)
        first = None
        if entry is not None:
            entry_depth, value, bound, first = entry
            if entry_depth >= depth and (
                bound == EXACT or (bound == LOWER and value >= beta) or (bound == UPPER and value <= alpha)
            ):
                return value
        gains = self.gains(work)
        squares = sorted(gains, key=lambda s: (-gains[s], s))[: self.widths[min(ply, len(self.widths) - 1)]]
        if first is not None and first in gains:
            squares = [first] + [s for s in squares if s != first]
        start, best, best_square = alpha, -float("inf"), squares[0]
        for s in squares:
            count = self.play_turn(work, placement_move(s, work.scored_by(player, s)))
            try:
                value = -self._value(work, depth - 1, -beta, -alpha, ply + 1, 1 - player)
            finally:
                self.undo(work, count)
            if value > best:
                best, best_square = value, s
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        bound = LOWER if best >= beta else UPPER if best <= start else EXACT
        self.table[key] = (depth, best, bound, best_square)
        return best


__all__ = ["Deepening", "OutOfTime"]
