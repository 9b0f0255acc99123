"""The ``modx`` agent. With two players: the iterative-deepening alpha-beta search over whole
turns of ``search.py`` (``Deepening``), as deep as its time allows. With three or four: the
two-ply selective search of ``search.py`` (shared with the frozen ``modx-classic``, ``classic.py``),
paranoid, its answers blended by ``caution``. Both use the move ordering of
``evaluation_gains.py`` (the classic values summed pattern by pattern from the rules'
incremental counts, about 2.5 times faster) and the evaluation of
``evaluation_outlook.py``: a quarter of the classic long-term pattern potential (which valued
unscored X pieces above points) and forks, squares that make two threats at once.

Measured at 0.2 CPU s a move (benchmarks/results/modx.md): the deepening search scores about
80 % against the two-ply search it replaced for two players."""

from __future__ import annotations

from ...core.move import Move
from . import evaluation_gains, evaluation_outlook
from .rules import ModXState, placement_move
from .search import MAX_DEPTH, WIDTHS, Deepening, SelectiveSearch

#: The share of the worst answer in a candidate's value with 3-4 players (the rest is the mean
#: of the answers tried). 0.7 scored 65 % of 50 screening games against ``modx-classic`` but
#: 50.2 % over 200 (benchmarks/results/modx.md): the worst alone.
CAUTION = 1.0
#: Turns the two-player search looks ahead without a time limit or a depth.
UNTIMED_DEPTH = 3


class ModXAgent(SelectiveSearch):
    """Two players: ``Deepening``; three or four: the shared two plies, answers blended by
    ``caution``."""

    name = "modx"
    # A fiftieth of a 0.2 s level leaves the search two turns deep, level 3's horizon; set by
    # lapses into level 3's move its levels were measured rising (benchmarks/results/levels.md).
    levels_by_lapses = True
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
        caution: float = CAUTION,
    ):
        super().__init__(
            time=time, iterations=iterations, depth=depth, seed=seed, width=width, replies=replies
        )
        #: A candidate's value from its answers (3-4 players): this share of the worst one,
        #: the rest of their mean (1: the worst alone, as ``modx-classic``).
        self.caution = caution
        #: Two players: the root's candidates, and the turns looked ahead at most.
        self.root_width = iterations or width or WIDTHS[0]
        self.max_depth = depth or (MAX_DEPTH if time is not None else UNTIMED_DEPTH)
        #: Turns searched to the end for the last two-player move.
        self.reached = 0

    def _placement(self, work: ModXState, moves: list[Move]) -> Move:
        if work.num_players != 2:
            return super()._placement(work, moves)
        search = Deepening(
            self.gains,
            self.evaluate,
            self._play_turn,
            self._undo,
            self.deadline(),
            self.max_depth,
            (self.root_width, *WIDTHS[1:]),
        )
        move = search.best_move(work, moves)
        self.reached, self.searched = search.reached, search.nodes
        return move

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


__all__ = ["ModXAgent"]
