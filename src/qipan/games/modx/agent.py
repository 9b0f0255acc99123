"""The ``modx`` agent: a shallow, selective search over MOD X knowledge.

For an X placement it tries the mover's most promising squares (``placement_gains``),
plays each with its joker relocations, lets the next player answer with their most
promising squares, and keeps the move whose worst answer leaves the best pattern-potential
evaluation (two plies, paranoid for 3–4 players, cut off alpha-beta style). Joker
relocations avoid handing points to the others (``relocation_penalties``) and are checked
by evaluation; an all-joker pattern wins at once and is always taken."""

from __future__ import annotations

from ...agents import clock
from ...agents.base import Agent
from ...core.move import Move
from .board import RELOCATE, SETUP
from .evaluation import WIN, evaluate_raw, placement_gains, relocation_penalties, setup_scores
from .rules import ModXState, placement_move


class ModXAgent(Agent):
    name = "modx"

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
        harm = relocation_penalties(work)
        ranked = sorted(work.legal_moves(), key=lambda m: (harm[m.data[1]], m.data[1]))
        best, best_value = ranked[0], -float("inf")
        for move in ranked[:candidates]:
            work.play_unchecked(move)
            value = evaluate_raw(work, me) - 0.2 * harm[move.data[1]]
            work.undo()
            if value > best_value:
                best, best_value = move, value
        return best

    def _finish_turn(self, work: ModXState) -> int:
        """Play the mover's joker relocations greedily; return how many were played."""
        played = 0
        while work.outcome is None and work.phase == RELOCATE:
            harm = relocation_penalties(work)
            move = min(work.legal_moves(), key=lambda m: (harm[m.data[1]], m.data[1]))
            work.play_unchecked(move)
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
        me = work.to_move
        deadline = self.deadline()
        gains = placement_gains(work)
        ranked = sorted(moves, key=lambda m: (-gains[m.data[1]], m.data[1]))
        best, best_value = ranked[0], -float("inf")
        self.searched = 0
        for move in ranked[: self.width]:
            count = self._play_turn(work, move)
            if work.outcome is not None or self.plies < 2:
                value = evaluate_raw(work, me)
            else:
                value = self._worst_answer(work, me, best_value)
            self._undo(work, count)
            self.searched += 1
            if value > best_value:
                best, best_value = move, value
            if best_value >= WIN / 2 or (deadline is not None and clock.now() >= deadline):
                break
        return best

    def _worst_answer(self, work: ModXState, me: int, floor: float) -> float:
        """The evaluation for ``me`` after the next player's best answers (their view: the
        quick gains; our view: the full evaluation). Stops early once below ``floor``."""
        gains = placement_gains(work)
        answers = sorted(gains, key=lambda s: (-gains[s], s))[: self.replies]
        worst = float("inf")
        for s in answers:
            move = placement_move(s, work.scored_by(work.to_move, s))
            count = self._play_turn(work, move)
            value = evaluate_raw(work, me)
            self._undo(work, count)
            worst = min(worst, value)
            if worst <= floor:
                break
        return worst
