"""The MOD X agents: ``modx`` (the strongest) and ``modx-classic`` (the earlier agent, kept
unchanged as a fixed reference for matches).

``modx-classic`` is a shallow, selective search over MOD X knowledge. For an X placement it
tries the mover's most promising squares (``placement_gains``), plays each with its joker
relocations, lets the next player answer with their most promising squares, and keeps the
move whose worst answer leaves the best pattern-potential evaluation (two plies, paranoid
for 3–4 players, cut off alpha-beta style). Joker relocations avoid handing points to the
others (``relocation_penalties``) and are checked by evaluation; an all-joker pattern wins
at once and is always taken.

``modx`` is the same search with the move ordering of ``gains.py`` (the same values summed
pattern by pattern from the rules' incremental counts, about 2.5 times faster) and the
evaluation of ``outlook.py``: a quarter of the classic long-term pattern potential (which
valued unscored X pieces above points) and forks, squares that make two threats at once. ``caution`` below 1 values a candidate by that share
of its worst answer plus the rest of the mean of the answers tried (off by default: 0.7 gave
no measurable gain over 200 games). With ``deep=N`` (two players) it then searches the
N best of those moves again one turn deeper while its time lasts: after each answer of the
opponent, the mover's best follow-up among its most promising squares (off by default: with
``deep=8`` it scored 17.5 of 40 games against ``modx-classic`` at 0.1 s per move)."""

from __future__ import annotations

from ...agents import clock
from ...agents.base import Agent
from ...core.move import Move
from . import outlook
from .board import RELOCATE, SETUP
from .evaluation import WIN, evaluate_raw, placement_gains, relocation_penalties, setup_scores
from .gains import placement_gains as fast_placement_gains
from .gains import relocation_penalties as fast_relocation_penalties
from .rules import RELOCATE_MOVES, ModXState, placement_move


class ModXClassicAgent(Agent):
    name = "modx-classic"
    #: The move-ordering knowledge (``evaluation.py``; the ``modx`` agent's is ``gains.py``).
    gains = staticmethod(placement_gains)
    penalties = staticmethod(relocation_penalties)
    #: The evaluation at the leaves (``evaluation.py``; the ``modx`` agent's is ``outlook.py``).
    evaluate = staticmethod(evaluate_raw)

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
        me = work.to_move
        deadline = self.deadline()
        gains = self.gains(work)
        ranked = sorted(moves, key=lambda m: (-gains[m.data[1]], m.data[1]))
        best, best_value = ranked[0], -float("inf")
        self.searched = 0
        for move in ranked[: self.width]:
            count = self._play_turn(work, move)
            if work.outcome is not None or self.plies < 2:
                value = self.evaluate(work, me)
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


#: The ``modx`` agent's share of the worst answer in a candidate's value (the rest is the
#: mean of the answers tried). 0.7 scored 65 % of 50 screening games against
#: ``modx-classic`` but 50.2 % over 200 (benchmarks/results/modx.md): the worst alone.
CAUTION = 1.0


class ModXAgent(ModXClassicAgent):
    """``modx-classic``'s two plies on ``outlook``'s evaluation (the answers blended by
    ``caution``), then a third for the best ``deep`` moves (two players)."""

    name = "modx"
    gains = staticmethod(fast_placement_gains)
    penalties = staticmethod(fast_relocation_penalties)
    evaluate = staticmethod(outlook.evaluate_raw)

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
        gains = self.gains(work)
        ranked = sorted(moves, key=lambda m: (-gains[m.data[1]], m.data[1]))
        shallow: list[tuple[float, int, Move]] = []
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
            shallow.append((value, order, move))
            best_value = max(best_value, value)
            if best_value >= WIN / 2 or (deadline is not None and clock.now() >= deadline):
                break
        shallow.sort(key=lambda entry: (-entry[0], entry[1]))
        best = shallow[0][2]
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
