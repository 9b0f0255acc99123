"""The searches of the MOD X agents, over the knowledge each agent names.

``SelectiveSearch``, the two-ply selective search (``classic.py``'s ``modx-classic``, and
``agent.py``'s ``modx`` with three or four players): for an X placement it tries the mover's
most promising squares (the agent's ``gains``), plays each with its joker relocations, lets
the next player answer with their most promising squares, and keeps the move whose worst
answer leaves the best evaluation (two plies, paranoid for 3–4 players, cut off alpha-beta
style). Joker relocations avoid handing points to the others (the agent's ``penalties``) and
are checked by evaluation; an all-joker pattern wins at once and is always taken.

``Deepening``, the ``modx`` agent's two-player search: iterative-deepening alpha-beta over
whole turns. A turn is the mover's X placement followed by its joker relocations, played
greedily (the least harmful square each, as above), so one ply of this search is one turn.
At every node only the most promising squares by the quick gains are searched (``WIDTHS``:
many at the root, fewer deeper), the one a transposition-table entry names first. Leaves
are the agent's evaluation from the mover's side; a finished game is worth ``WIN`` less the
turns it took, so a nearer win is preferred and a loss put off. Each deeper iteration starts
from the root moves in the order of the last one's values and may be cut off by the
deadline: the best move found so far at the deepest level stands (the first move tried is
the last iteration's best, so a move that beats it was searched deeper)."""

from __future__ import annotations

from collections.abc import Callable

from ...agents import clock
from ...agents.base import Agent
from ...core.errors import SearchTimeout
from ...core.move import Move
from .board import RELOCATE, SETUP
from .evaluation import WIN, setup_scores
from .rules import RELOCATE_MOVES, ModXState, placement_move


class SelectiveSearch(Agent):
    """The two-ply selective search; a subclass names its knowledge: ``gains(state)`` and
    ``penalties(state)`` (move ordering for placements and joker relocations) and
    ``evaluate(state, player)`` (the leaves)."""

    gains: Callable[[ModXState], dict[int, float]]
    penalties: Callable[[ModXState], dict[int, float]]
    evaluate: Callable[[ModXState, int], float]

    def __init__(self, time=None, iterations=None, depth=None, seed=None, width=None, replies: int = 8):
        super().__init__(time=time, iterations=iterations, depth=depth, seed=seed)
        #: Candidate placements searched at most (``iterations`` overrides; with only a time
        #: limit every candidate may be searched), and answers tried per candidate.
        self.width = iterations or width or (64 if time is not None else 24)
        self.replies = replies
        self.plies = 2 if depth is None else min(depth, 2)
        self.searched = 0

    def select(self, state: ModXState) -> Move:
        moves = state.legal_moves()
        if len(moves) == 1:
            return moves[0]
        if state.phase == SETUP:
            scores = setup_scores(state)
            best = max(scores.values())
            return self.rng.choice([m for m in moves if scores[m.data[1]] == best])
        work = state.copy()
        if state.phase == RELOCATE:
            return self._relocation(work, state.to_move)
        return self._placement(work, moves)

    # -- relocation ----------------------------------------------------------------------
    def _relocation(self, work: ModXState, me: int, candidates: int = 6) -> Move:
        harm = self.penalties(work)
        ranked = sorted((RELOCATE_MOVES[s] for s in harm), key=lambda m: (harm[m.data[1]], m.data[1]))
        best, best_value = ranked[0], -float("inf")
        for move in ranked[:candidates]:
            work.play_unchecked(move)
            value = self.evaluate(work, me) - 0.2 * harm[move.data[1]]
            work.undo()
            if value > best_value:
                best, best_value = move, value
        return best

    def _finish_turn(self, work: ModXState) -> int:
        """Play the mover's joker relocations greedily; return how many were played."""
        played = 0
        while work.outcome is None and work.phase == RELOCATE:
            harm = self.penalties(work)
            work.play_unchecked(RELOCATE_MOVES[min(harm, key=lambda s: (harm[s], s))])
            played += 1
        return played

    def _play_turn(self, work: ModXState, move: Move) -> int:
        work.play_unchecked(move)
        return 1 + self._finish_turn(work)

    @staticmethod
    def _undo(work: ModXState, count: int) -> None:
        for _ in range(count):
            work.undo()

    # -- placement -----------------------------------------------------------------------
    def _placement(self, work: ModXState, moves: list[Move]) -> Move:
        return self._candidates(work, moves, self.deadline())[0][2]

    def _candidates(
        self, work: ModXState, moves: list[Move], deadline: float | None
    ) -> list[tuple[float, int, Move]]:
        """(value, rank in the move ordering, move) of the candidates searched, best first
        (ties: the better ranked); the search stops at a win or at ``deadline``."""
        me = work.to_move
        gains = self.gains(work)
        ranked = sorted(moves, key=lambda m: (-gains[m.data[1]], m.data[1]))
        searched: list[tuple[float, int, Move]] = []
        best_value = -float("inf")
        self.searched = 0
        for order, move in enumerate(ranked[: self.width]):
            count = self._play_turn(work, move)
            if work.outcome is not None or self.plies < 2:
                value = self.evaluate(work, me)
            else:
                value = self._worst_answer(work, me, best_value)
            self._undo(work, count)
            self.searched += 1
            searched.append((value, order, move))
            best_value = max(best_value, value)
            if best_value >= WIN / 2 or (deadline is not None and clock.now() >= deadline):
                break
        searched.sort(key=lambda entry: (-entry[0], entry[1]))
        return searched

    def _worst_answer(self, work: ModXState, me: int, floor: float) -> float:
        """The evaluation for ``me`` after the next player's best answers (their view: the
        quick gains; our view: the full evaluation). Stops early once below ``floor``."""
        gains = self.gains(work)
        answers = sorted(gains, key=lambda s: (-gains[s], s))[: self.replies]
        worst = float("inf")
        for s in answers:
            move = placement_move(s, work.scored_by(work.to_move, s))
            count = self._play_turn(work, move)
            value = self.evaluate(work, me)
            self._undo(work, count)
            worst = min(worst, value)
            if worst <= floor:
                break
        return worst


# -- the two-player deepening search ------------------------------------------------------
#: Squares searched at a node, by its distance from the root (the last entry for all deeper).
WIDTHS = (16, 8, 6, 5, 4)
#: Turns searched at most without a depth limit.
MAX_DEPTH = 12
#: A transposition-table entry's bound: the value is exact, at least it, or at most it.
EXACT, LOWER, UPPER = 0, 1, 2
#: Nodes between two looks at the clock.
CLOCK_EVERY = 32


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
            except SearchTimeout:
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
            raise SearchTimeout
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


__all__ = ["Deepening", "SelectiveSearch"]
