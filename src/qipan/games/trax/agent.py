"""The ``trax`` agent: the threat-aware principal-variation search of ``search.py`` within
the time, node or depth limit (1 s per move when none is given), run in the compiled kernel
(``kernel_search.py``) when ``qipan[fast]`` is installed, else in Python. The agent it
replaced is ``classic.py`` (``trax-classic``), kept as the fixed reference."""

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
        search = self._search(state)
        pos, tile = search.best(self.depth or MAX_DEPTH)
        self.last_search = search
        return state.move_for(pos, tile)

    def _search(self, state: TraxState) -> ThreatSearch:
        """The compiled search when the kernel is on and the tile area fits its window, else
        the Python one; each keeps its tables for the agent's next move under the same rules."""
        game = state.game
        rules = (game.variant, game.simultaneous, game.line_rule)
        if getattr(self, "_rules", None) != rules:
            self._rules, self._memory, self._work = rules, Memory(), None
        if game.kernel() is not None:
            from .kernel_search import CompiledSearch, Workspace

            if CompiledSearch.fits(state):
                if self._work is None:
                    self._work = Workspace(game)
                return CompiledSearch(state, self.rng, self._deadline(), self.iterations, self._work)
        return ThreatSearch(state, self.rng, self._deadline(), self.iterations, self._memory)

    def _deadline(self) -> float | None:
        if self.time is None and self.depth is None and self.iterations is None:
            return clock.now() + DEFAULT_TIME
        return self.deadline()


__all__ = ["WIN", "TraxAgent"]
