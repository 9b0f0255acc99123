"""Iterative deepening for the ``morris`` agent over the compiled PVS (``kernel_search.pvs_root``):
aspiration windows around the last score, the best move first at each new depth, root moves
whose value is already known (from the perfect-play tables) given as fixed values, the
transposition table and history kept between the moves of a game, and the best move of an
iteration cut short by the clock when it already beat the previous one.

Numba code has no clock here (its disk cache and ``objmode`` do not mix), so each iteration
gets a node budget from the time left and the speed measured so far, like the reference
``alphabeta``; an iteration over budget is dropped."""

from __future__ import annotations

import math

from ...agents import clock
from ...fast import np
from .evaluation_kernel import W_STONE
from .kernel_search import (
    C_ABORT,
    C_BUDGET,
    C_CONTEMPT,
    C_NODES,
    C_ROOT,
    C_STYLE,
    PVS_MAX_PLY,
    QDEPTH,
    STYLE_2026,
    STYLE_TUNED,
    WIN,
    pvs_root,
    pvs_work,
)

INF = 1e18
#: Deepest iteration (the kernel's ply arrays hold the quiescence search beyond it).
MAX_DEPTH = PVS_MAX_PLY - QDEPTH - 4


class SearchResult:
    __slots__ = ("code", "score", "depth", "nodes")

    def __init__(self, code: int, score: float, depth: int, nodes: int):
        self.code, self.score, self.depth, self.nodes = code, score, depth, nodes


#: What a draw costs the side with more stones, per stone ahead beyond the first (evaluation
#: units, a stone is ``W_STONE``): two stones up, a repetition or the n-move rule's draw is
#: worth less than playing on in a slightly worse position; not so much that it plays on into
#: a lost one. One stone up it keeps the base contempt: in the screening matches against
#: ``morris-2026`` the agent that refused draws from one stone up lost more games it had led
#: than the reference did (benchmarks/results/morris.md). Two fifths of a stone since the
#: fitted evaluation (issue 38), which weighs mobility and blocked stones more against
#: material than the hand-set one did: at a quarter, two stones up in the drawn game against
#: the independent engine, it took the repetition again (45 against 48.8 for playing on).
PRESS_PER_STONE = W_STONE * 2 / 5


class Searcher:
    """The search state of one player in one game on one kernel. ``style``: the kernel's
    search style (``STYLE_TUNED`` for the ``morris`` agent, ``STYLE_2026`` for the fixed
    reference ``morris-2026``, whose contempt stays ``contempt``)."""

    def __init__(self, kernel, table_bits: int = 18, contempt: int = 20, style: int = STYLE_TUNED):
        self.kernel = kernel
        self.contempt = contempt
        self.style = style
        size = 1 << table_bits
        self.tt_keys = np.full(size, -1, np.int64)
        self.tt_ints = np.zeros((size, 3), np.int64)
        self.tt_vals = np.zeros(size, np.float64)
        self.history = np.zeros(1024, np.int64)
        # Nodes per second of the compiled search on the agents' clock, over this game's
        # larger iterations (a guess until 5 ms are measured): what node budgets are made of.
        self.searched_nodes = 0
        self.searched_time = 0.0
        self.rate = 1_000_000.0

    def search(
        self, state, codes, fixed=None, depth=None, deadline=None, nodes=None, window=30.0
    ) -> SearchResult:
        """Deepen over the root moves ``codes`` (tried in this order first) until ``depth``,
        the ``deadline`` on the agents' clock or about ``nodes`` nodes; ``fixed``: known
        values (NaN: search). The first iteration always completes, so there is a move."""
        k = self.kernel
        s = k.state(state)
        self.history //= 4  # the last move's counts still order, the new ones soon dominate
        work = pvs_work(self.tt_keys, self.tt_ints, self.tt_vals, self.history)
        counters = work.counters
        counters[C_ROOT], counters[C_CONTEMPT] = state.to_move, self.contempt_for(state)
        counters[C_STYLE] = self.style
        root = np.array(codes, np.int64)
        known = np.full(len(codes), math.nan) if fixed is None else np.array(fixed, np.float64)
        values = np.zeros(len(codes), np.float64)
        result = SearchResult(int(root[0]), 0.0, 0, 0)
        score = 0.0
        for d in range(1, min(depth or MAX_DEPTH, MAX_DEPTH) + 1):
            if deadline is not None and d > 1:
                left = deadline - clock.now()
                if left <= 0:
                    break
                counters[C_BUDGET] = counters[C_NODES] + max(256, int(self.rate * left))
            if nodes is not None and d > 1:
                if counters[C_NODES] >= nodes:
                    break
                counters[C_BUDGET] = min(counters[C_BUDGET] or nodes, nodes)
            alpha, beta = (
                (score - window, score + window) if d > 2 and abs(score) < WIN - 1000 else (-INF, INF)
            )
            before_nodes, before_time = int(counters[C_NODES]), clock.now()
            while True:
                best = pvs_root(k.arrays, work, s, root, known, d, alpha, beta, values)
                if counters[C_ABORT] or alpha < values[best] < beta:
                    break
                alpha, beta = -INF, INF  # outside the window: again with a full one
            done = int(counters[C_NODES]) - before_nodes
            if done >= 2000:  # smaller iterations time their call overhead (and loading the code)
                self.searched_nodes += done
                self.searched_time += clock.now() - before_time
                if self.searched_time > 0.005:
                    self.rate = self.searched_nodes / self.searched_time
            result.nodes = int(counters[C_NODES])
            if counters[C_ABORT]:
                # Out of time within the iteration: a move that beat the last iteration's
                # best (searched first) with an exact value is a better choice already.
                if best > 0 and alpha < values[best] < beta:
                    result.code, result.score = int(root[best]), float(values[best])
                break
            score = float(values[best])
            result.code, result.score, result.depth = int(root[best]), score, d
            order = [best] + [i for i in range(len(root)) if i != best]
            root, known, values = root[order], known[order], values[order]
            if abs(score) >= WIN - 1000:
                break
        return result

    def contempt_for(self, state) -> int:
        """What a draw costs the player to move: the base contempt, and in the tuned style
        ``PRESS_PER_STONE`` more for each stone (on the board or in hand) it is ahead beyond
        the first."""
        if self.style == STYLE_2026 or state.rules.goal != "mill":
            return self.contempt
        stones = [state.hand[p] + state.bb[p].bit_count() for p in (0, 1)]
        ahead = stones[state.to_move] - stones[1 - state.to_move]
        return self.contempt + int(PRESS_PER_STONE * max(0, ahead - 1))
