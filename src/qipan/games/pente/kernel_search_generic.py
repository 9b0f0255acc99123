"""The generic agents' searches over the Pente kernel (``kernel.py``'s rules,
``evaluation_kernel.py``'s evaluation): the UCT hooks of ``agents/uct_kernel.py`` for ``mcts``
(every player count: per-player reward sums, a playout cut short scored by the evaluation)
and the alpha-beta hooks of ``agents/ab_kernel.py`` for ``alphabeta`` (two players: the
reference evaluation's values, found faster with a Zobrist transposition table and killer
and history ordering), with their Python drivers (``mcts``, ``alphabeta``), which the
``PenteKernel`` wrapper calls. The ``pente`` agent's own search is ``kernel_search.py``; its
killer/history update and Zobrist hashing of the cells serve here too.

A file of its own rather than a part of ``kernel_search.py`` (as in Morris): that file is
1,300 lines of the ``pente`` agent's search already.

Every function here calls other files' compiled functions, and Numba's disk cache watches a
function's own file only: each is compiled with a cache emptied when one of ``SOURCES``
changes (``fast.njit_guarded``)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import NamedTuple

from ... import fast
from ...agents import ab_kernel, uct_kernel
from ...agents.ab_kernel import WIN
from ...agents.uct_kernel import M_NODES, N_GAME, Tree, append_node, best_move
from ...core.errors import OptionError
from ...fast import njit_guarded, njit_inline, np, seed_word
from . import board, evaluation_kernel, kernel, kernel_search
from .board import EMPTY, OFF
from .evaluation_kernel import _codes, evaluate, move_score, rewards
from .kernel import (
    DRAW,
    HEADER,
    ONGOING,
    P_NPOINTS,
    S_CAPS,
    S_PENDING,
    S_PLACED,
    S_PLAYERS,
    S_RESULT,
    S_TO_MOVE,
    RuleArrays,
    _playout,
    legal_moves,
    play,
    unplay,
)
from .kernel_search import cells_hash, note_cutoff, rehash

#: The files compiled into this file's functions.
SOURCES = (
    Path(__file__),
    Path(kernel.__file__),
    Path(evaluation_kernel.__file__),
    Path(kernel_search.__file__),
    Path(board.__file__),
    Path(fast.__file__),
)


def njit(fn):
    """``njit`` with the cache guarded by ``SOURCES`` (see the module's docstring)."""
    return njit_guarded(fn, SOURCES)


# -- UCT for ``mcts`` (every player count), run by ``agents/uct_kernel.py`` over the hooks below --
# A node's untried moves are the first ``N_UNTRIED`` of its legal moves, listed again when one
# is expanded (a 19x19 list per node would cost more memory than the tree); the root's stay in
# ``G.root_moves``.
class UctArrays(NamedTuple):
    """``G`` of the UCT hooks."""

    rules: RuleArrays
    ev: np.ndarray  # the evaluation's weights (a playout cut short is scored)
    root_moves: np.ndarray  # the root's untried moves (shuffled)
    buf: np.ndarray  # a move list
    undo: np.ndarray  # an undo record


@njit_inline
def uct_room(G, meta):
    return True  # the tree alone grows


@njit_inline
def uct_reset(G, s, root):
    s[:] = root


@njit_inline
def uct_ongoing(s):
    return s[S_RESULT] == ONGOING


@njit_inline
def uct_expand(G, s, nodes, stats, meta, code):
    R = G.rules
    listed = G.root_moves if meta[M_NODES] == 0 else G.buf
    n = legal_moves(R.points, R.inner, R.dirs8, R.par, s, listed)
    return append_node(nodes, stats, meta, code, s[S_TO_MOVE], n)


@njit_inline
def uct_root_untried(G):
    return G.root_moves


@njit_inline
def uct_untried(G, s, nodes, node, k):
    R = G.rules
    if node == 0:
        return G.root_moves[k]
    legal_moves(R.points, R.inner, R.dirs8, R.par, s, G.buf)
    return G.buf[k]


@njit_inline
def uct_play(G, s, code):
    R = G.rules
    play(R.points, R.lines, R.line_len, R.tria, R.dirs8, R.par, s, code, G.undo)


@njit_inline
def uct_playout(G, s, rng, cap):
    R = G.rules
    _playout(R.points, R.inner, R.lines, R.line_len, R.tria, R.dirs8, R.par, s, rng, G.buf, G.undo, cap)


@njit_inline
def uct_rewards(G, s, out):
    R = G.rules
    rewards(R.points, R.inner, R.dirs8, R.par, G.ev, s, out)
    return s[S_PLAYERS]


#: ``run(G, root, nodes, stats, meta, rng, iterations, exploration, cap)``: UCT iterations.
mcts_run = uct_kernel.uct_loop(sys.modules[__name__], also=SOURCES[1:])


# -- alpha-beta for ``alphabeta`` (two players), run by ``agents/ab_kernel.py`` over the hooks
# below: exact values of the generic agent's search (full width, the reference evaluation), found
# faster: a Zobrist transposition table (the reference state's ``zhash``, kept per ply as moves
# are played, plus the header fields of its ``key``), killer and history ordering.
#: Plies of the search's arrays (it deepens to two less).
MAX_PLY = 64
#: Header keys (``zh``): side to move + 1, pending + 1 (from 8), captures (from 16, 32 per
#: player), the opening ply + 1 (from 144: the ply while it is at most the players, else 0).
Z_PENDING, Z_CAPS, Z_OPENING, Z_SIZE = 8, 16, 144, 152


class AlphaBetaArrays(NamedTuple):
    """``G`` of the alpha-beta hooks."""

    rules: RuleArrays
    ev: np.ndarray  # the evaluation's weights
    offs2: np.ndarray  # offsets of the points within two of a point (ordering)
    zob: np.ndarray  # the reference Zobrist keys per cell and content
    zh: np.ndarray  # keys of the header fields (``Z_*``)
    hashes: np.ndarray  # the cells' hash per ply (the root's set before the search)
    undos: np.ndarray  # an undo record per ply
    mark: np.ndarray  # ordering scratch: the cells within two of a stone
    code: np.ndarray  # ordering scratch: move codes by what a cell holds


@njit
def position_key(zh, s, h):
    """The transposition key: ``h`` (the cells' Zobrist hash) and the header (``key()``)."""
    k = h ^ zh[s[S_TO_MOVE] + 1] ^ zh[Z_PENDING + s[S_PENDING] + 1]
    for q in range(s[S_PLAYERS]):
        k ^= zh[Z_CAPS + 32 * q + min(s[S_CAPS + q], 31)]
    placed = s[S_PLACED]
    return k ^ zh[Z_OPENING + (placed + 1 if placed <= s[S_PLAYERS] else 0)]


@njit
def _order(points, dirs8, par, ev, offs2, s, moves, scores, n, tt_move, killers, history, ply, mark, code):
    """Scores to try the moves best first: the table's move, killers, points within two of a
    stone by ``move_score`` (``evaluation.order_moves``) plus history, then the rest."""
    p = s[S_TO_MOVE]
    _codes(par, s[S_PLAYERS], p, code)
    mark[:] = 0
    for k in range(par[P_NPOINTS]):
        i = points[k]
        if s[HEADER + i] != EMPTY:
            for a in range(offs2.shape[0]):
                mark[i + offs2[a]] = 1
    for t in range(n):
        c = moves[t]
        i = c & 1023
        if c == tt_move:
            scores[t] = 1 << 60
        elif c == killers[ply, 0]:
            scores[t] = 1 << 58
        elif c == killers[ply, 1]:
            scores[t] = (1 << 58) - 1
        elif mark[i]:
            scores[t] = (1 << 40) + move_score(par, ev, dirs8, s, i, p, code) + history[i]
        else:
            scores[t] = history[i]


@njit_inline
def ab_over(G, s):
    return s[S_RESULT] != ONGOING


@njit_inline
def ab_final(G, s, ply, player):
    r = s[S_RESULT]
    if r == DRAW:
        return 0.0
    return WIN - ply if r >> player & 1 else -WIN + ply


@njit_inline
def ab_horizon(G, s):
    return False  # a state has room for every move


@njit_inline
def ab_evaluate(G, s, player):
    R = G.rules
    return evaluate(R.points, R.inner, R.dirs8, R.par, G.ev, s, player)


@njit_inline
def ab_key(G, s, ply):
    return position_key(G.zh, s, G.hashes[ply])


@njit_inline
def ab_slot(G, key, mask):
    return np.int64(key & np.uint64(mask))


@njit_inline
def ab_moves(G, s, ply, out):
    R = G.rules
    return legal_moves(R.points, R.inner, R.dirs8, R.par, s, out)


@njit_inline
def ab_order(G, W, s, ply, moves, scores, n, tt_move):
    R, killers, history = G.rules, W.killers, W.history
    _order(
        R.points,
        R.dirs8,
        R.par,
        G.ev,
        G.offs2,
        s,
        moves,
        scores,
        n,
        tt_move,
        killers,
        history,
        ply,
        G.mark,
        G.code,
    )


@njit_inline
def ab_play(G, s, ply, code):
    R, undo = G.rules, G.undos[ply]
    play(R.points, R.lines, R.line_len, R.tria, R.dirs8, R.par, s, code, undo)
    G.hashes[ply + 1] = rehash(G.zob, s, undo, G.hashes[ply])


@njit_inline
def ab_undo(G, s, ply):
    unplay(s, G.undos[ply])


@njit_inline
def ab_cutoff(G, W, ply, code, depth):
    note_cutoff(W.killers, W.history, ply, code, code & 1023, depth)


#: ``run(G, W, s, depth, player)``: one alpha-beta iteration (``ab_kernel.ab_loop``).
alphabeta_run = ab_kernel.ab_loop(sys.modules[__name__], also=SOURCES[1:])


def mcts(kernel, ref, iterations=None, deadline=None, seed=0, exploration=1.4, playout_cap=400):
    """UCT from the reference state ``ref`` on ``kernel`` (``PenteKernel.uct``): the tree
    (``uct_kernel.Tree``) and the iterations done. Stops at ``iterations`` or when the
    agents' clock passes ``deadline``."""
    root = kernel.state(ref)
    rng = np.array([seed_word(seed)], np.uint64)
    room = len(kernel.geom.points) * 8 + 8
    tree = Tree(min(iterations + 2, 1 << 15) if iterations else 2048, N_GAME, 4)
    game = UctArrays(
        kernel.arrays, kernel.ev, root_moves=np.empty(room, np.int64), buf=np.empty(room, np.int64),
        undo=np.empty(HEADER + 2 * 20, np.int64),
    )  # fmt: skip
    args = (mcts_run, tree, lambda: game, root, rng, iterations, deadline, exploration, playout_cap)
    return tree, uct_kernel.search(*args, 16, 1024)


def mcts_move(kernel, ref, iterations=None, deadline=None, seed=0, exploration=1.4, playout_cap=400):
    """``mcts``' move: the most visited root move, and the iterations done."""
    tree, done = mcts(kernel, ref, iterations, deadline, seed, exploration, playout_cap)
    return kernel.move(int(best_move(tree.nodes, tree.stats, ref.to_move))), done


def alphabeta(kernel, ref, depth=None, deadline=None, table_bits: int = 18) -> ab_kernel.Deepened:
    """Iterative deepening to ``depth`` (default 64) or until the agents' clock passes
    ``deadline`` (``ab_kernel.deepen``): the move of the deepest completed iteration, its
    score for the side to move, that depth and the nodes searched."""
    if ref.num_players != 2:
        raise OptionError("the alphabeta agent plays two-player games only; use mcts")
    s = kernel.state(ref)
    room = len(kernel.geom.points) * 8 + 8
    work = ab_kernel.workspace(MAX_PLY, room, table_bits, kernel.geom.size, np.uint64, 0, -1)
    # The points within two of a point (move ordering), the reference Zobrist keys (none for
    # an empty cell) and keys for the header fields.
    g = kernel.geom
    offs2 = np.array([r * g.width + c for r in range(-2, 3) for c in range(-2, 3) if r or c], np.int64)
    zob = np.zeros((g.size, 8), np.uint64)
    zob[:, 1:5] = np.array([row[1:5] for row in g.zobrist], np.uint64)
    zh = np.random.default_rng(0x5EED).integers(0, 2**63, Z_SIZE, np.int64).astype(np.uint64)
    arrays = AlphaBetaArrays(
        kernel.arrays, kernel.ev, offs2, zob, zh,
        hashes=np.zeros(MAX_PLY + 1, np.uint64),
        undos=np.empty((MAX_PLY, HEADER + 2 * 20), np.int64),
        mark=np.zeros(s.shape[0] - HEADER, np.int64),
        code=np.empty(OFF + 1, np.int64),
    )  # fmt: skip
    arrays.hashes[0] = cells_hash(kernel.points, zob, s)
    first = kernel.legal(s)[0]
    found = ab_kernel.deepen(
        alphabeta_run, arrays, work, s, int(s[S_TO_MOVE]), first, depth, deadline, 20_000.0
    )
    found.move = kernel.move(found.move)  # the reference Move
    return found
