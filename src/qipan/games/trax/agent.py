"""The ``trax`` agent: the threat-aware principal-variation search of ``search.py`` within
the time, node or depth limit (1 s per move when none is given). The agent it replaced is
``classic.py`` (``trax-classic``), kept as the fixed reference."""

from __future__ import annotations

from ...agents import clock
from ...agents.base import Agent
from ...core.move import Move
from .rules import TraxState
from .search import WIN, Memory, ThreatSearch

DEFAULT_TIME = 1.0
#: Deepest iteration tried when only time or nodes limit the search.
MAX_DEPTH = 64


class TraxAgent(Agent):
    name = "trax"

    def select(self, state: TraxState) -> Move:
        if not state.board.cells:
            return self.rng.choice(state.legal_moves())
        rules = (state.game.variant, state.game.simultaneous, state.game.line_rule)
        if getattr(self, "_rules", None) != rules:
            self._rules, self._memory = rules, Memory()
        search = ThreatSearch(state, self.rng, self._deadline(), self.iterations, self._memory)
        pos, tile = search.best(self.depth or MAX_DEPTH)
        self.last_search = search
        return state.move_for(pos, tile)

    def _deadline(self) -> float | None:
        if self.time is None and self.depth is None and self.iterations is None:
            return clock.now() + DEFAULT_TIME
        return self.deadline()


__all__ = ["WIN", "TraxAgent"]
