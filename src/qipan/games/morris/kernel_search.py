"""The compiled searches over the Morris kernel (``kernel.py``'s rules, ``evaluation_kernel.py``'s
evaluations): the UCT hooks of ``agents/uct_kernel.py`` (the generic ``mcts`` agent: per-player
reward sums, untried moves expanded last-first with the root's shuffled, uniform random
playouts cut at ``playout_cap`` plies and scored by the evaluation, the most visited root
move); the alpha-beta hooks of ``agents/ab_kernel.py`` (the generic ``alphabeta`` agent's
values: the evaluation at the horizon, a win ``WIN - ply``; a transposition table on the exact
position key, killer moves and a history table); and the ``morris`` agent's own search
(``pvs_root``, driven by ``search.py``): PVS with a quiescence search of removals, late move
reductions, single-reply extensions and a contempt for draws, in two styles: the fixed
reference ``morris-2026`` on ``strong_evaluate``, the ``morris`` agent on ``tuned_evaluate``
with a contempt that grows with its material edge and the n-move rule's count weighed in,
and principal-variation nodes searched rather than cut by the transposition table.

Every function here calls ``kernel.py``'s compiled rules, and Numba's disk cache watches a
function's own file only: each is compiled with a cache emptied when one of ``SOURCES``
changes (``fast.njit_guarded``).

The rule arrays travel as ``kernel.RuleArrays`` (``R``); a search's arrays as a named
workspace: ``UCTArrays`` for UCT, ``ab_kernel.Workspace`` with ``ABArrays`` for alpha-beta,
``PVSWork`` for the ``morris`` agent's PVS."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import NamedTuple

from ... import fast
from ...agents import ab_kernel, uct_kernel
from ...agents.ab_kernel import (
    C_ABORT,
    C_BUDGET,
    C_NODES,
    EXACT,
    INF,
    LOWER,
    T_DEPTH,
    T_FLAG,
    T_MOVE,
    UPPER,
    WIN,
    pick,
    store,
)
from ...agents.uct_kernel import M_NODES, N_GAME, Tree, append_node, best_move
from ...fast import njit_guarded, njit_inline, njit_typed, np, popcount, rand_below, seed_word
from . import evaluation_kernel, kernel
from .evaluation_kernel import N_FEATURES, W_STONE, evaluate, strong_evaluate, tuned_evaluate
from .kernel import (
    _P_FULL,
    _P_NLINES,
    _P_NMOVE,
    _P_REP,
    DRAW,
    HEADER,
    MAX_MOVES,
    ONGOING,
    OVERFLOW,
    S_BB0,
    S_BB1,
    S_HAND0,
    S_HAND1,
    S_HIST_BASE,
    S_HIST_LEN,
    S_NMOVE,
    S_RESULT,
    S_TO_MOVE,
    RuleArrays,
    closers,
    legal_moves,
    play,
    position_key,
)

#: The files compiled into this file's functions.
SOURCES = (
    Path(__file__),
    Path(kernel.__file__),
    Path(evaluation_kernel.__file__),
    Path(ab_kernel.__file__),
    Path(fast.__file__),
)


def njit(fn):
    """``njit`` with the cache guarded by ``SOURCES`` (see the module's docstring)."""
    return njit_guarded(fn, SOURCES)


# Numba code has no clock: the UCT tree lives in arrays that the Python side grows and keeps
# between batches of iterations, checking the time between batches; alpha-beta deepens from
# Python and gives each iteration a node budget from the time left and the measured speed.

# -- UCT, run by ``agents/uct_kernel.py`` over the hooks below ---------------------------------
# ``meta[M_POOL]``: pool entries in use; ``nodes[i, N_POOL]``: where node i's moves start.
N_POOL = N_GAME
N_INT = N_GAME + 1
M_POOL = M_NODES + 1


class UCTArrays(NamedTuple):
    """UCT's ``G``: the rule arrays, the pool of the nodes' untried moves (listed once, when a
    node is added; the root's first, shuffled) and a move list for the playouts."""

    pt: np.ndarray
    lines: np.ndarray
    par: np.ndarray
    pool: np.ndarray
    buf: np.ndarray


@njit_inline
def uct_room(G, meta):
    return meta[M_POOL] + MAX_MOVES < G.pool.shape[0]


@njit_inline
def uct_reset(G, s, root):
    used = HEADER + root[S_HIST_LEN]  # the repetition history beyond it is not read
    s[:used] = root[:used]


@njit_inline
def uct_ongoing(s):
    return s[S_RESULT] == ONGOING


@njit_inline
def uct_expand(G, s, nodes, stats, meta, code):
    start = meta[M_POOL]
    n = legal_moves(G.pt, G.lines, G.par, s, G.pool[start:])
    meta[M_POOL] = start + n
    i = append_node(nodes, stats, meta, code, s[S_TO_MOVE], n)
    nodes[i, N_POOL] = start
    return i


@njit_inline
def uct_root_untried(G):
    return G.pool


@njit_inline
def uct_untried(G, s, nodes, node, k):
    return G.pool[nodes[node, N_POOL] + k]


@njit_inline
def uct_play(G, s, code):
    play(G.pt, G.par, s, code)


@njit_inline
def uct_playout(G, s, rng, cap):
    plies = 0
    while s[S_RESULT] == ONGOING and plies < cap:
        n = legal_moves(G.pt, G.lines, G.par, s, G.buf)
        play(G.pt, G.par, s, G.buf[rand_below(rng, n)])
        plies += 1


@njit_inline
def uct_rewards(G, s, out):
    r = s[S_RESULT]
    if r == ONGOING or r == OVERFLOW:  # cut (or out of history room): the evaluation
        out[0] = (evaluate(G.pt, G.lines, G.par, s, 0) + 1.0) / 2.0
        out[1] = (evaluate(G.pt, G.lines, G.par, s, 1) + 1.0) / 2.0
    elif r == DRAW:
        out[0] = out[1] = 0.5
    else:
        out[r] = 1.0
        out[1 - r] = 0.0
    return 2


#: ``run(G, root, nodes, stats, meta, rng, iterations, exploration, cap)``: UCT iterations.
mcts_run = uct_kernel.uct_loop(sys.modules[__name__], also=SOURCES[1:])


class PooledTree(Tree):
    """The arrays of one search with the pool of the nodes' untried moves, grown when a
    batch may not fit."""

    def __init__(self, nodes: int):
        super().__init__(nodes, N_INT, 2, meta=2)
        self.pool = np.empty(nodes * 32 + MAX_MOVES, np.int64)

    def grow(self) -> None:
        if self.full():
            super().grow()
        if self.meta[M_POOL] + MAX_MOVES >= self.pool.shape[0]:
            self.pool = np.concatenate([self.pool, np.empty_like(self.pool)])


def mcts(kernel, state, iterations=None, deadline=None, seed=0, exploration=1.4, playout_cap=400):
    """UCT from the reference ``state`` on ``kernel``: the tree and the iterations done.
    Stops at ``iterations`` or when the agents' clock (``qipan.agents.clock.now``) passes
    ``deadline``."""
    root = kernel.state(state)
    rng = np.array([seed_word(seed)], np.uint64)
    tree = PooledTree(min(iterations + 2, 1 << 16) if iterations else 4096)
    buf = np.empty(MAX_MOVES, np.int64)

    def arrays() -> UCTArrays:
        return UCTArrays(kernel.pt, kernel.lines, kernel.par, tree.pool, buf)

    args = (mcts_run, tree, arrays, root, rng, iterations, deadline, exploration, playout_cap)
    return tree, uct_kernel.search(*args, 64, 4096)


def mcts_move(kernel, state, iterations=None, deadline=None, seed=0, exploration=1.4, playout_cap=400):
    """``mcts``' move: the most visited root move, and the iterations done."""
    tree, done = mcts(kernel, state, iterations, deadline, seed, exploration, playout_cap)
    return kernel.move(int(best_move(tree.nodes, tree.stats, state.to_move))), done


# -- alpha-beta, run by ``agents/ab_kernel.py`` over the hooks below ----------------------------
#: Plies of the generic search's arrays (it deepens to two less).
MAX_PLY = 66


class ABArrays(NamedTuple):
    """Alpha-beta's ``G``: the rule arrays and each ply's state header before its move."""

    pt: np.ndarray
    lines: np.ndarray
    par: np.ndarray
    saved: np.ndarray


@njit
def tt_index(key, mask):
    """The table slot of a position key."""
    return ((key * np.int64(-7046029254386353131)) >> np.int64(20)) & mask


@njit
def note_cutoff(killers, history, ply, code, depth):
    """A quiet move (no removal) that cut off: a killer at this ply, and history credit."""
    if code >> 10 == 0:
        if killers[ply, 0] != code:
            killers[ply, 1] = killers[ply, 0]
            killers[ply, 0] = code
        history[code & 1023] += depth * depth


@njit
def order(lines, par, s, moves, scores, n, tt_move, killers, history, ply):
    """Scores for trying moves best first: the table's move, removals (more stones first),
    killers, moves onto the opponent's mill points, then the history table."""
    opp = s[S_BB0 + 1 - s[S_TO_MOVE]]
    empty = par[_P_FULL] ^ (s[S_BB0] | s[S_BB1])
    threats = closers(lines, par[_P_NLINES], opp) & empty
    for i in range(n):
        code = moves[i]
        to = (code >> 5 & 31) - 1
        if code == tt_move:
            score = 1 << 40
        elif code >> 10:
            score = (1 << 36) + popcount(code >> 10)
        elif code == killers[ply, 0]:
            score = 1 << 34
        elif code == killers[ply, 1]:
            score = (1 << 34) - 1
        elif to >= 0 and threats >> to & 1:
            score = 1 << 32
        else:
            score = history[code & 1023]
        scores[i] = score


@njit_inline
def ab_over(G, s):
    r = s[S_RESULT]
    return r != ONGOING and r != OVERFLOW


@njit_inline
def ab_final(G, s, ply, player):
    r = s[S_RESULT]
    if r == DRAW:
        return 0.0
    return WIN - ply if r == player else -WIN + ply


@njit_inline
def ab_horizon(G, s):
    return s[S_RESULT] == OVERFLOW  # out of history room: scored as at the horizon


@njit_inline
def ab_evaluate(G, s, player):
    return evaluate(G.pt, G.lines, G.par, s, player)


@njit_inline
def ab_key(G, s, ply):
    return position_key(s)


@njit_inline
def ab_slot(G, key, mask):
    return tt_index(key, mask)


@njit_inline
def ab_moves(G, s, ply, out):
    return legal_moves(G.pt, G.lines, G.par, s, out)


@njit_inline
def ab_order(G, W, s, ply, moves, scores, n, tt_move):
    order(G.lines, G.par, s, moves, scores, n, tt_move, W.killers, W.history, ply)


@njit_inline
def ab_play(G, s, ply, code):
    G.saved[ply, :] = s[:HEADER]
    play(G.pt, G.par, s, code)


@njit_inline
def ab_undo(G, s, ply):
    s[:HEADER] = G.saved[ply]  # the history above its length is never read again


@njit_inline
def ab_cutoff(G, W, ply, code, depth):
    note_cutoff(W.killers, W.history, ply, code, depth)


#: ``run(G, W, s, depth, player)``: one alpha-beta iteration (``ab_kernel.ab_loop``).
alphabeta_run = ab_kernel.ab_loop(sys.modules[__name__], also=SOURCES[1:])


def alphabeta(kernel, state, depth=None, deadline=None, table_bits: int = 18):
    """Iterative deepening to ``depth`` (default 64) or until the agents' clock passes
    ``deadline`` (``ab_kernel.deepen``): the move of the deepest completed iteration, its
    score for the side to move, that depth and the nodes searched."""
    s = kernel.state(state)
    arrays = ABArrays(kernel.pt, kernel.lines, kernel.par, np.empty((MAX_PLY, HEADER), np.int64))
    work = ab_kernel.workspace(MAX_PLY, MAX_MOVES, table_bits, 1024)
    first = kernel.legal(s)[0]
    found = ab_kernel.deepen(alphabeta_run, arrays, work, s, state.to_move, first, depth, deadline, 200_000.0)
    found.move = kernel.move(found.move)
    return found


# -- the ``morris`` agent's search (``search.py`` drives it) -----------------------------------------
# PVS with a capture quiescence search, late move reductions and single-reply extensions, on
# an evaluation (one stone = 100) that knows what decides games between engines: mobility and
# blockades, mills a stone can actually reach (open and running mills), double threats,
# placement structure (potential mills, junction points, groups that can be shut in) and
# stones in hand. Kept apart from the reference ``evaluate`` and the alpha-beta hooks above,
# which the ``alphabeta`` agent uses.
PVS_MAX_PLY = 96
#: Plies of removals searched past the horizon.
QDEPTH = 4


#: ``counters`` slots of the ``morris`` search beyond the reference's: the root player and
#: the contempt (what a draw costs the root player, in evaluation units).
C_ROOT, C_CONTEMPT = 3, 4
#: The search's style (0: the 2026 reference ``morris-2026``; 1: the ``morris`` agent's fitted
#: evaluation with the n-move rule weighed in).
C_STYLE = 5
N_COUNTERS = 6
STYLE_2026, STYLE_TUNED = 0, 1


@njit
def _static_value(pt, lines, par, s, player, counters, scratch):
    """The evaluation of the counters' style (``scratch``: room for the features); style 1
    draws it towards the draw's value as the n-move rule's count runs up (the side ahead
    presses before the draw comes), by at most ``DRAW_PULL``."""
    if counters[C_STYLE] == STYLE_2026:
        return strong_evaluate(pt, lines, par, s, player)
    value = tuned_evaluate(pt, lines, par, s, player, scratch)
    limit = par[_P_NMOVE]
    if limit and s[S_NMOVE] > limit // 2:
        contempt = float(counters[C_CONTEMPT])
        draw = -contempt if player == counters[C_ROOT] else contempt
        share = (s[S_NMOVE] - limit // 2) / (limit - limit // 2)
        value += min(DRAW_PULL, max(-DRAW_PULL, draw - value)) * min(1.0, share)
    return value


#: How far the n-move rule's count pulls the tuned style's evaluation towards the draw at
#: most: less than a stone, so a removal that resets the count is never worth a stone to the
#: side that suffers it (pulled all the way, two stones up at the count's end were worth less
#: than one stone up at its start: the side ahead gave a stone away).
DRAW_PULL = W_STONE / 2


@njit
def _ended(s, ply, player, counters):
    """A finished game's value for ``player``; a draw costs the root player the contempt, so
    against a weaker reference it plays on instead of repeating."""
    if s[S_RESULT] == DRAW:
        contempt = float(counters[C_CONTEMPT])
        return -contempt if player == counters[C_ROOT] else contempt
    return WIN - ply if s[S_RESULT] == player else -WIN + ply


@njit
def _occurred(par, s):
    """The position occurred before, as the repetition rule counts it. Its value then
    depends on the history (once more may be the draw), which the transposition table does
    not know: such a node is searched, so the draw is seen where it is (``play``)."""
    if par[_P_REP] == 0 or s[S_HAND0] or s[S_HAND1]:
        return False
    key = position_key(s)
    for i in range(HEADER + s[S_HIST_BASE], HEADER + s[S_HIST_LEN] - 1):  # the last is this one
        if s[i] == key:
            return True
    return False


@njit
def _count_node(counters):
    counters[C_NODES] += 1
    if counters[C_BUDGET] and counters[C_NODES] > counters[C_BUDGET]:
        counters[C_ABORT] = 1


class PVSWork(NamedTuple):
    """The arrays of one ``morris`` search: the transposition table (kept over a game's
    moves), killers, history, the moves, their scores and the state header of each ply, the
    counters (``C_*``) and room for the evaluation's features."""

    tt_keys: np.ndarray
    tt_ints: np.ndarray
    tt_vals: np.ndarray
    killers: np.ndarray
    history: np.ndarray
    moves: np.ndarray
    scores: np.ndarray
    saved: np.ndarray
    counters: np.ndarray
    features: np.ndarray


def pvs_work(tt_keys, tt_ints, tt_vals, history) -> PVSWork:
    """A workspace over a table and a history (``search.Searcher`` keeps them)."""
    return PVSWork(
        tt_keys,
        tt_ints,
        tt_vals,
        killers=np.zeros((PVS_MAX_PLY, 2), np.int64),
        history=history,
        moves=np.empty((PVS_MAX_PLY, MAX_MOVES), np.int64),
        scores=np.empty((PVS_MAX_PLY, MAX_MOVES), np.int64),
        saved=np.empty((PVS_MAX_PLY, HEADER), np.int64),
        counters=np.zeros(N_COUNTERS, np.int64),
        features=np.zeros(N_FEATURES, np.float64),
    )


def _types(numba) -> dict:
    one, two = np.zeros(1, np.int64), np.zeros((1, 1), np.int64)
    table = (one, two, np.zeros(1, np.float64), one)
    return {"R": numba.typeof(RuleArrays(two, one, one)), "W": numba.typeof(pvs_work(*table))}


#: The recursive searches, compiled for the rule arrays and the workspace (their cache is
#: guarded as the rest of this file's).
_signed = njit_typed(_types, sources=SOURCES[1:])


@_signed("f8", "R", "W", "a1", "f8", "f8", "i8", "i8", "i8")
def _quiesce(R, W, s, alpha, beta, ply, qdepth, player):
    """Removals only past the horizon; the side to move may stand on the evaluation."""
    counters = W.counters
    _count_node(counters)
    r = s[S_RESULT]
    if r != ONGOING and r != OVERFLOW:
        return _ended(s, ply, player, counters)
    stand = _static_value(R.pt, R.lines, R.par, s, player, counters, W.features)
    if qdepth <= 0 or r == OVERFLOW or stand >= beta or counters[C_ABORT]:
        return stand
    if stand > alpha:
        alpha = stand
    moves = W.moves[ply]
    n = legal_moves(R.pt, R.lines, R.par, s, moves)
    keep = W.saved[ply]
    keep[:] = s[:HEADER]
    best = stand
    for i in range(n):
        code = moves[i]
        if code >> 10 == 0:
            continue
        play(R.pt, R.par, s, code)
        v = -_quiesce(R, W, s, -beta, -alpha, ply + 1, qdepth - 1, 1 - player)
        s[:HEADER] = keep
        if counters[C_ABORT]:
            return 0.0
        best = max(best, v)
        alpha = max(alpha, v)
        if alpha >= beta:
            break
    return best


@_signed("f8", "R", "W", "a1", "i8", "f8", "f8", "i8", "i8")
def _pvs(R, W, s, depth, alpha, beta, ply, player):
    """Negamax value of ``s`` for ``player``, the side to move."""
    counters = W.counters
    r = s[S_RESULT]
    if r != ONGOING and r != OVERFLOW:
        _count_node(counters)
        return _ended(s, ply, player, counters)
    if depth <= 0 or r == OVERFLOW or ply >= PVS_MAX_PLY - QDEPTH - 2:
        return _quiesce(R, W, s, alpha, beta, ply, QDEPTH, player)
    _count_node(counters)
    if counters[C_ABORT]:
        return 0.0
    key = position_key(s)
    idx = tt_index(key, W.tt_keys.shape[0] - 1)
    tt_move = -1
    if W.tt_keys[idx] == key:
        tt_move = W.tt_ints[idx, T_MOVE]
        # In the tuned style a node of the principal variation (a full window) is searched
        # rather than cut by the table: its value is exact, not a bound grafted from another line.
        pv_node = beta - alpha > 1.0 and counters[C_STYLE] == STYLE_TUNED
        if W.tt_ints[idx, T_DEPTH] >= depth and not pv_node and not _occurred(R.par, s):
            flag = W.tt_ints[idx, T_FLAG]
            value = W.tt_vals[idx]
            if flag == EXACT or (flag == LOWER and value >= beta) or (flag == UPPER and value <= alpha):
                return value
    moves = W.moves[ply]
    n = legal_moves(R.pt, R.lines, R.par, s, moves)
    sc = W.scores[ply]
    order(R.lines, R.par, s, moves, sc, n, tt_move, W.killers, W.history, ply)
    keep = W.saved[ply]
    keep[:] = s[:HEADER]
    # A single reply is searched a ply deeper: forced lines (blockades, mills) decide games.
    extend = 1 if n == 1 else 0
    alpha0 = alpha
    best = -INF
    best_move = moves[0]
    for i in range(n):
        code = pick(moves, sc, i, n)
        play(R.pt, R.par, s, code)
        d = depth - 1 + extend
        if i == 0:
            v = -_pvs(R, W, s, d, -beta, -alpha, ply + 1, 1 - player)
        else:
            # Late quiet moves are tried a ply shallower first (late move reduction).
            reduce = 1 if depth >= 3 and i >= 4 and code >> 10 == 0 else 0
            v = -_pvs(R, W, s, d - reduce, -alpha - 1.0, -alpha, ply + 1, 1 - player)
            if reduce and v > alpha and counters[C_STYLE] == STYLE_TUNED:
                # The reduced move beat alpha: at full depth with the null window first.
                s[:HEADER] = keep
                play(R.pt, R.par, s, code)
                v = -_pvs(R, W, s, d, -alpha - 1.0, -alpha, ply + 1, 1 - player)
                reduce = 0
            if v > alpha and (reduce or v < beta):
                s[:HEADER] = keep
                play(R.pt, R.par, s, code)
                v = -_pvs(R, W, s, d, -beta, -alpha, ply + 1, 1 - player)
        s[:HEADER] = keep
        if counters[C_ABORT]:
            return 0.0
        if v > best:
            best = v
            best_move = code
        if v > alpha:
            alpha = v
        if alpha >= beta:
            note_cutoff(W.killers, W.history, ply, code, depth)
            break
    store(W.tt_keys, W.tt_ints, W.tt_vals, idx, key, depth, best, alpha0, beta, best_move)
    return best


@njit
def pvs_root(R, W, s, root_moves, fixed, depth, alpha, beta, values):
    """One iteration at the root over ``root_moves`` in their order (``fixed[i]``: a known
    value of move ``i``, NaN to search it). Writes the moves' values (bounds for those that
    fail low) into ``values``; returns the index of the best move. Aborted (over the node
    budget, ``W.counters[C_ABORT]``): the best of the moves searched to the end, -1 if none."""
    counters = W.counters
    work = s.copy()
    keep = s[:HEADER].copy()
    player = s[S_TO_MOVE]
    best = -1
    best_value = -INF
    for i in range(root_moves.shape[0]):
        code = root_moves[i]
        if not np.isnan(fixed[i]):
            v = fixed[i]
        else:
            play(R.pt, R.par, work, code)
            lo = -beta if best < 0 else -alpha - 1.0
            v = -_pvs(R, W, work, depth - 1, lo, -alpha, 1, 1 - player)
            if best >= 0 and alpha < v < beta:
                work[:HEADER] = keep
                play(R.pt, R.par, work, code)
                v = -_pvs(R, W, work, depth - 1, -beta, -alpha, 1, 1 - player)
            work[:HEADER] = keep
            if counters[C_ABORT]:
                return best
        values[i] = v
        if v > best_value:
            best_value = v
            best = i
        alpha = max(alpha, v)
    return best
