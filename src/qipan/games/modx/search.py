"""The two-ply selective search both MOD X agents run (``agent.py``'s ``modx`` and
``classic.py``'s ``modx-classic``), over the knowledge each names.

For an X placement it tries the mover's most promising squares (the agent's ``gains``),
plays each with its joker relocations, lets the next player answer with their most
promising squares, and keeps the move whose worst answer leaves the best evaluation (two
plies, paranoid for 3–4 players, cut off alpha-beta style). Joker relocations avoid handing
points to the others (the agent's ``penalties``) and are checked by evaluation; an all-joker
pattern wins at once and is always taken."""

from __future__ import annotations

from collections.abc import Callable

from ...agents import clock
from ...agents.base import Agent
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


__all__ = ["SelectiveSearch"]
