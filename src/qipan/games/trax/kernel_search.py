"""The ``trax`` agent's search in the compiled kernel (``kernel.py``, ``qipan[fast]``).

``CompiledSearch`` is ``search.ThreatSearch`` with every step that walks the tree done by the
kernel: the legal root moves, the immediate wins, the continuous-threat search, the root
order and each full-width iteration. ``ThreatSearch.best`` drives them unchanged (the same
phases, shares of the time and checks), so the two searches choose alike and differ in
speed. The kernel reads no clock: each call gets a node budget from the deadline and the
node rate the previous calls measured (``Workspace.rate``), and one that spends it raises
``SearchTimeout`` here, as the Python search does at its deadline."""

from __future__ import annotations

from ...agents import clock
from ...core.errors import SearchTimeout
from . import kernel as K
from .rules import TraxState
from .search import Memory, ThreatSearch

#: Node rate assumed before the first measurement (nodes per CPU second; measured ~10x more).
FIRST_RATE = 20_000.0
#: A call shorter than this (CPU seconds) does not update the rate.
MIN_MEASURED = 0.003
_NO_LIMIT = 1 << 62


class Workspace:
    """The kernel's arrays for one rule set, kept from move to move like ``search.Memory``:
    the window is fixed for the whole game, so the tables stay true."""

    def __init__(self, game):
        self.rules = K.parameters(game)
        self.W = K.workspace(*self.rules)
        self.rate = FIRST_RATE


class CompiledSearch(ThreatSearch):
    def __init__(self, state: TraxState, rng, deadline, node_limit, work: Workspace):
        super().__init__(state, rng, deadline, node_limit, Memory())
        self.work = work
        W = work.W
        cells, bb, st, killers = W.cells, W.bb, W.st, W.killers
        K.load(cells, bb, state.board)
        st[K.ST_NODES] = 0
        st[K.ST_HINT] = st[K.ST_HINT + 1] = -1  # the last wins, per search (``last_win``)
        killers[:] = -1
        zob = W.zobrist
        h = 0
        for c in (cells >= 0).nonzero()[0]:
            h ^= int(zob[c * 8 + cells[c]])
        self.key = K.np.uint64(h)

    @staticmethod
    def fits(state: TraxState) -> bool:
        return K.fits(state.board)

    # -- moves between the rules and the kernel ------------------------------------------------
    @staticmethod
    def _code(move) -> int:
        return K.window(move[0]) * 8 + move[1]

    @staticmethod
    def _move(code: int) -> tuple[int, int]:
        return K.absolute(code >> 3), code & 7

    def _call(self, fn, *args):
        """``fn(W, *args)`` within the node budget left; SearchTimeout if it ran out."""
        W = self.work.W
        st = W.st
        limit = _NO_LIMIT
        if self.deadline is not None:
            limit = self.nodes + int(max(0.0, self.deadline - clock.now()) * self.work.rate)
        if self.node_limit is not None and not self.first_iteration:
            limit = min(limit, self.node_limit)
        st[K.ST_BUDGET] = limit
        st[K.ST_ABORT] = 0
        began, nodes = clock.now(), int(st[K.ST_NODES])
        result = fn(W, *args)
        spent, done = clock.now() - began, int(st[K.ST_NODES]) - nodes
        if spent > MIN_MEASURED and done > 0:
            self.work.rate = 0.5 * self.work.rate + 0.5 * done / spent
        self.nodes = int(st[K.ST_NODES])
        if st[K.ST_ABORT]:
            raise SearchTimeout
        return result

    # -- the steps of ``ThreatSearch.best`` ----------------------------------------------------
    def _legal(self):
        W = self.work.W
        out = K.np.zeros(3 * K.NCELL, K.np.int64)
        n = K.legal_moves(W.cells, W.bb, W.par, W.stk, W.todo, out)
        return [self._move(int(c)) for c in out[:n]]

    def _immediate_win(self):
        code = K.winning_move(self.work.W, self.mover, -1, 0)
        return None if code < 0 else self._move(int(code))

    def _vcf(self, attacker, depth, ply):
        code = self._call(K.vcf, attacker, depth, ply, self.key)
        return None if code < 0 else self._move(int(code))

    def _threat_after(self, move, attacker):
        from .search import _ILLEGAL

        code = self._call(K.vcf_after, self._code(move), attacker, self.key)
        if code == -2:
            return _ILLEGAL
        return None if code < 0 else self._move(int(code))

    def _root_order(self, moves):
        codes = K.np.array([self._code(m) for m in moves], K.np.int64)
        return [self._move(int(c)) for c in K.root_order(self.work.W, codes, len(codes))]

    def _root(self, order, depth):
        W = self.work.W
        n = len(order)
        W.mv[0, :n] = [self._code(m) for m in order]
        self._call(K.negamax, self.mover, depth, 0, -K.INFINITY, K.INFINITY, self.key, n)
        values = W.root_values
        return {m: float(values[i]) for i, m in enumerate(order) if values[i] > -K.INFINITY}


def warm_up(game) -> None:
    """Compile (or load from the cache) the search by running it on a small position."""
    import random

    state = game.new()
    for text in ("@0/", "@1+", "B0\\"):
        state.play(text)
    CompiledSearch(state, random.Random(0), None, None, Workspace(game)).best(2)


__all__ = ["CompiledSearch", "Workspace", "warm_up"]
