"""The ``modx`` agent: the two-ply selective search of ``search.py`` (shared with the frozen
``modx-classic``, ``classic.py``) with the move ordering of ``evaluation_gains.py`` (the
classic values summed pattern by pattern from the rules' incremental counts, about 2.5
times faster) and the evaluation of ``evaluation_outlook.py``: a quarter of the classic
long-term pattern potential (which valued unscored X pieces above points) and forks,
squares that make two threats at once. ``caution`` below 1 values a candidate by that share
of its worst answer plus the rest of the mean of the answers tried (off by default: 0.7 gave
no measurable gain over 200 games). With ``deep=N`` (two players) it then searches the
N best of those moves again one turn deeper while its time lasts: after each answer of the
opponent, the mover's best follow-up among its most promising squares (off by default: with
``deep=8`` it scored 17.5 of 40 games against ``modx-classic`` at 0.1 s per move)."""

from __future__ import annotations

from ...agents import clock
from ...core.move import Move
from . import evaluation_gains, evaluation_outlook
from .evaluation import WIN
from .rules import ModXState, placement_move
from .search import SelectiveSearch

#: The ``modx`` agent's share of the worst answer in a candidate's value (the rest is the
#: mean of the answers tried). 0.7 scored 65 % of 50 screening games against
#: ``modx-classic`` but 50.2 % over 200 (benchmarks/results/modx.md): the worst alone.
CAUTION = 1.0


class ModXAgent(SelectiveSearch):
    """The shared two plies on ``evaluation_outlook``'s evaluation (the answers blended by
    ``caution``), then a third for the best ``deep`` moves (two players)."""

    name = "modx"
    # Its two plies end within a small part of a level's second: a shorter share plays the
    # same moves, so the levels set its strength by lapses.
    gains_little_from_time = True
    gains = staticmethod(evaluation_gains.placement_gains)
    penalties = staticmethod(evaluation_gains.relocation_penalties)
    evaluate = staticmethod(evaluation_outlook.evaluate_raw)

    def __init__(
        self,
        time=None,
        iterations=None,
        depth=None,
        seed=None,
        width=None,
        replies: int = 8,
        deep: int = 0,
        follow_ups: int = 4,
        caution: float = CAUTION,
    ):
        super().__init__(
            time=time, iterations=iterations, depth=depth, seed=seed, width=width, replies=replies
        )
        #: A candidate's value from its answers: this share of the worst one, the rest of
        #: their mean (1: the worst alone, as ``modx-classic``).
        self.caution = caution
        #: Moves searched again three plies deep, and the mover's follow-ups tried per answer.
        self.deep = deep if depth is None or depth >= 3 else 0
        self.follow_ups = follow_ups
        self.deepened = 0

    def _placement(self, work: ModXState, moves: list[Move]) -> Move:
        me = work.to_move
        deadline = self.deadline()
        shallow = self._candidates(work, moves, deadline)
        best_value, _order, best = shallow[0]
        self.deepened = 0
        if best_value >= WIN / 2 or work.num_players != 2 or not self.deep:
            return best
        # The third ply, best shallow moves first; a move is compared only once searched to
        # the end, so running out of time keeps the deepest complete answer.
        deep_best, deep_value = None, -float("inf")
        for _value, _order, move in shallow[: self.deep]:
            if deadline is not None and clock.now() >= deadline and deep_best is not None:
                break
            count = self._play_turn(work, move)
            if work.outcome is not None:
                value = self.evaluate(work, me)
            else:
                value = self._worst_answer_deep(work, me, deep_value)
            self._undo(work, count)
            self.deepened += 1
            if value > deep_value:
                deep_best, deep_value = move, value
        return deep_best if deep_best is not None else best

    def _worst_answer(self, work: ModXState, me: int, floor: float) -> float:
        if self.caution >= 1.0:
            return super()._worst_answer(work, me, floor)
        gains = self.gains(work)
        values = []
        for s in sorted(gains, key=lambda s: (-gains[s], s))[: self.replies]:
            count = self._play_turn(work, placement_move(s, work.scored_by(work.to_move, s)))
            values.append(self.evaluate(work, me))
            self._undo(work, count)
        return self.caution * min(values) + (1.0 - self.caution) * sum(values) / len(values)

    def _worst_answer_deep(self, work: ModXState, me: int, floor: float) -> float:
        """As ``_worst_answer``, each answer followed by the mover's best follow-up."""
        gains = self.gains(work)
        answers = sorted(gains, key=lambda s: (-gains[s], s))[: self.replies]
        worst = float("inf")
        for s in answers:
            count = self._play_turn(work, placement_move(s, work.scored_by(work.to_move, s)))
            if work.outcome is not None:
                value = self.evaluate(work, me)
            else:
                value = self._best_follow_up(work, me)
            self._undo(work, count)
            worst = min(worst, value)
            if worst <= floor:
                break
        return worst

    def _best_follow_up(self, work: ModXState, me: int) -> float:
        gains = self.gains(work)
        best = -float("inf")
        for s in sorted(gains, key=lambda s: (-gains[s], s))[: self.follow_ups]:
            count = self._play_turn(work, placement_move(s, work.scored_by(me, s)))
            best = max(best, self.evaluate(work, me))
            self._undo(work, count)
        return best


__all__ = ["ModXAgent"]
