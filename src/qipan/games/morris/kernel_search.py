"""Search inside the compiled Morris kernel: the evaluation of ``evaluation.py``; a UCT
search with the semantics of the generic ``mcts`` agent (per-player reward sums, untried
moves expanded last-first with the root's shuffled, uniform random playouts cut at
``playout_cap`` plies and scored by the evaluation, the most visited root move); and an
alpha-beta with the values of the generic ``alphabeta`` agent (the evaluation at the horizon,
a win ``WIN - ply``), searched as PVS with iterative deepening, a transposition table on the
exact position key, killer moves and a history table.

The UCT tree lives in arrays that the Python side grows and keeps between batches of
iterations, so a time limit is checked between batches; alpha-beta reads the clock every
1,024 nodes (a Numba ``objmode`` block)."""

from __future__ import annotations

import math
import time

from ...fast import HAVE_NUMBA, njit, np
from .kernel import (
    _P_FLY_AT,
    _P_FULL,
    _P_LINE_GOAL,
    _P_NLINES,
    HEADER,
    MAX_MOVES,
    ONGOING,
    PT_NBR,
    S_BB0,
    S_BB1,
    S_HAND0,
    S_HAND1,
    S_HIST_LEN,
    S_RESULT,
    S_TO_MOVE,
    closers,
    in_mills,
    legal_moves,
    play,
    popcount,
    position_key,
    rand_below,
    seed_word,
)


# -- evaluation (``evaluation.evaluate``) -----------------------------------------------------
@njit
def _closers(lines, nlines, own, empty):
    once = 0
    twice = 0
    for i in range(nlines):
        x = lines[i] & ~own
        if x and not x & (x - 1) and x & empty:
            twice |= once & x
            once |= x
    return once, twice


@njit
def _mobility(pt, par, s, player, empty):
    own = s[S_BB0 + player]
    if s[S_HAND0 + player] or popcount(own) <= par[_P_FLY_AT]:
        return 0.0
    slides = 0
    blocked = 0
    x = own
    while x:
        low = x & -x
        x ^= low
        i = 0
        while not (low >> i) & 1:
            i += 1
        free = pt[i, PT_NBR] & empty
        slides += popcount(free)
        if free == 0:
            blocked += 1
    return 0.05 * slides - 0.1 * blocked


@njit
def evaluate(pt, lines, par, s, player):
    """Heuristic value in [-1, 1] of a position still in play, for ``player``."""
    white = s[S_BB0]
    black = s[S_BB1]
    nlines = par[_P_NLINES]
    empty = par[_P_FULL] ^ (white | black)
    score = 0.0
    if par[_P_LINE_GOAL] == 0:
        score += (s[S_HAND0] + popcount(white)) - (s[S_HAND1] + popcount(black))
        score += (
            0.25 * (popcount(in_mills(lines, nlines, white)) - popcount(in_mills(lines, nlines, black))) / 3
        )
    w_once, w_twice = _closers(lines, nlines, white, empty)
    b_once, b_twice = _closers(lines, nlines, black, empty)
    score += 0.3 * (popcount(w_once) - popcount(b_once)) + 0.5 * (popcount(w_twice) - popcount(b_twice))
    score += _mobility(pt, par, s, 0, empty) - _mobility(pt, par, s, 1, empty)
    if s[S_TO_MOVE] == 0 and w_once:
        score += 0.3
    elif s[S_TO_MOVE] == 1 and b_once:
        score -= 0.3
    value = math.tanh(score / 4)
    return value if player == 0 else -value


# -- UCT ---------------------------------------------------------------------------------------
# Integer node fields (rows of ``nodes``) and float fields (rows of ``stats``).
N_MOVE, N_FIRST, N_LAST, N_NEXT, N_POOL, N_UNTRIED, N_TO_MOVE = range(7)
N_INT = 7
F_VISITS, F_TOTAL0, F_TOTAL1 = range(3)
# ``meta``: nodes in use, pool entries in use.
M_NODES, M_POOL = 0, 1


@njit
def _new_node(pt, lines, par, s, nodes, stats, pool, meta, code, shuffle, rng):
    """Append a node for position ``s`` (reached by ``code``) with its moves untried."""
    i = meta[M_NODES]
    meta[M_NODES] = i + 1
    start = meta[M_POOL]
    n = legal_moves(pt, lines, par, s, pool[start:])
    if shuffle:  # the root's untried moves are shuffled (``mcts``: rng.shuffle)
        for j in range(n - 1, 0, -1):
            k = rand_below(rng, j + 1)
            pool[start + j], pool[start + k] = pool[start + k], pool[start + j]
    meta[M_POOL] = start + n
    nodes[i, N_MOVE] = code
    nodes[i, N_FIRST] = -1
    nodes[i, N_LAST] = -1
    nodes[i, N_NEXT] = -1
    nodes[i, N_POOL] = start
    nodes[i, N_UNTRIED] = n
    nodes[i, N_TO_MOVE] = s[S_TO_MOVE]
    stats[i, F_VISITS] = 0.0
    stats[i, F_TOTAL0] = 0.0
    stats[i, F_TOTAL1] = 0.0
    return i


@njit
def mcts_init(pt, lines, par, root, nodes, stats, pool, meta, rng):
    meta[M_NODES] = 0
    meta[M_POOL] = 0
    _new_node(pt, lines, par, root, nodes, stats, pool, meta, 0, True, rng)


@njit
def mcts_run(pt, lines, par, root, nodes, stats, pool, meta, rng, iterations, exploration, cap):
    """Run up to ``iterations`` iterations; stop early when the arrays may run out of room.
    Returns the iterations done."""
    s = root.copy()
    buf = np.empty(MAX_MOVES, np.int64)
    path = np.empty(nodes.shape[0] + 1, np.int64)
    used = HEADER + root[S_HIST_LEN]
    done = 0
    while done < iterations:
        if meta[M_NODES] + 1 >= nodes.shape[0] or meta[M_POOL] + MAX_MOVES >= pool.shape[0]:
            break
        s[:used] = root[:used]
        node = 0
        depth = 0
        path[0] = 0
        while s[S_RESULT] == ONGOING:  # selection and expansion
            if nodes[node, N_UNTRIED]:
                nodes[node, N_UNTRIED] -= 1
                code = pool[nodes[node, N_POOL] + nodes[node, N_UNTRIED]]
                play(pt, par, s, code)
                child = _new_node(pt, lines, par, s, nodes, stats, pool, meta, code, False, rng)
                if nodes[node, N_LAST] < 0:
                    nodes[node, N_FIRST] = child
                else:
                    nodes[nodes[node, N_LAST], N_NEXT] = child
                nodes[node, N_LAST] = child
                depth += 1
                path[depth] = child
                break
            player = nodes[node, N_TO_MOVE]
            log_n = math.log(stats[node, F_VISITS])
            best = -1
            best_value = -1.0
            child = nodes[node, N_FIRST]
            while child >= 0:
                v = stats[child, F_VISITS]
                value = stats[child, F_TOTAL0 + player] / v + exploration * math.sqrt(log_n / v)
                if value > best_value:
                    best = child
                    best_value = value
                child = nodes[child, N_NEXT]
            play(pt, par, s, nodes[best, N_MOVE])
            node = best
            depth += 1
            path[depth] = node
        plies = 0  # playout
        while s[S_RESULT] == ONGOING and plies < cap:
            n = legal_moves(pt, lines, par, s, buf)
            play(pt, par, s, buf[rand_below(rng, n)])
            plies += 1
        r = s[S_RESULT]
        if r == ONGOING:
            r0 = (evaluate(pt, lines, par, s, 0) + 1.0) / 2.0
            r1 = (evaluate(pt, lines, par, s, 1) + 1.0) / 2.0
        elif r == 0:
            r0, r1 = 1.0, 0.0
        elif r == 1:
            r0, r1 = 0.0, 1.0
        else:
            r0, r1 = 0.5, 0.5
        for k in range(depth + 1):
            i = path[k]
            stats[i, F_VISITS] += 1.0
            stats[i, F_TOTAL0] += r0
            stats[i, F_TOTAL1] += r1
        done += 1
    return done


@njit
def mcts_best(nodes, stats, player):
    """The root move with the most visits (ties: the larger reward sum, then the first)."""
    best = -1
    child = nodes[0, N_FIRST]
    while child >= 0:
        if best < 0:
            best = child
        else:
            v, b = stats[child, F_VISITS], stats[best, F_VISITS]
            if v > b or (v == b and stats[child, F_TOTAL0 + player] > stats[best, F_TOTAL0 + player]):
                best = child
        child = nodes[child, N_NEXT]
    return nodes[best, N_MOVE]


class Tree:
    """The arrays of one search, grown when a batch may not fit."""

    def __init__(self, nodes: int = 4096):
        self.nodes = np.empty((nodes, N_INT), np.int64)
        self.stats = np.empty((nodes, 3), np.float64)
        self.pool = np.empty(nodes * 32 + MAX_MOVES, np.int64)
        self.meta = np.zeros(2, np.int64)

    def grow(self) -> None:
        if self.meta[M_NODES] + 1 >= self.nodes.shape[0]:
            self.nodes = np.concatenate([self.nodes, np.empty_like(self.nodes)])
            self.stats = np.concatenate([self.stats, np.empty_like(self.stats)])
        if self.meta[M_POOL] + MAX_MOVES >= self.pool.shape[0]:
            self.pool = np.concatenate([self.pool, np.empty_like(self.pool)])


def mcts(kernel, state, iterations=None, deadline=None, seed=0, exploration=1.4, playout_cap=400):
    """UCT from the reference ``state`` on ``kernel``: returns (the chosen Move, iterations).
    Stops at ``iterations`` or when ``time.perf_counter()`` passes ``deadline``."""
    root = kernel.state(state)
    rng = np.array([seed_word(seed)], np.uint64)
    tree = Tree(min(iterations + 2, 1 << 16) if iterations else 4096)
    args = (kernel.pt, kernel.lines, kernel.par, root)
    mcts_init(*args, tree.nodes, tree.stats, tree.pool, tree.meta, rng)
    done = 0
    batch = 64
    while iterations is None or done < iterations:
        todo = batch if iterations is None else min(batch, iterations - done)
        ran = mcts_run(
            *args, tree.nodes, tree.stats, tree.pool, tree.meta, rng, todo, exploration, playout_cap
        )
        done += ran
        if ran < todo:
            tree.grow()
        if deadline is not None and time.perf_counter() >= deadline:
            break
        batch = min(batch * 2, 4096) if deadline is None else batch
    if done == 0:  # a deadline already past: one iteration, so there is a move to return
        done = mcts_run(*args, tree.nodes, tree.stats, tree.pool, tree.meta, rng, 1, exploration, playout_cap)
    return kernel.move(int(mcts_best(tree.nodes, tree.stats, state.to_move))), done


# -- alpha-beta ----------------------------------------------------------------------------------
WIN = 1_000_000.0
INF = 1e18
EXACT, LOWER, UPPER = 0, 1, 2
MAX_PLY = 66
# ``counters``: nodes searched, aborted (the deadline passed), deadline in perf_counter seconds
# times 1e6 (0: none).
C_NODES, C_ABORT, C_DEADLINE = 0, 1, 2

if HAVE_NUMBA:
    import numba
    from numba import objmode

    def _njit_gil(fn):
        """Compile ``fn`` holding the GIL: the clock's ``objmode`` block needs it (``njit``
        releases it, and objmode inside a nogil function crashes)."""
        return numba.njit(cache=True)(fn)

    @_njit_gil
    def _now_us():
        with objmode(t="int64"):
            t = int(time.perf_counter() * 1e6)
        return t

else:  # never compiled nor called without Numba; the reference agents play then

    def _njit_gil(fn):
        return fn

    def _now_us():
        return int(time.perf_counter() * 1e6)


@njit
def _tt_index(key, mask):
    return ((key * np.int64(-7046029254386353131)) >> np.int64(20)) & mask


@njit
def _order(pt, lines, par, s, moves, scores, n, tt_move, killers, history, ply):
    """Scores for trying the moves best first: the table's move, removals (more stones
    first), killers, blocks of the opponent's mill points, then the history table."""
    c = s[S_TO_MOVE]
    opp = s[S_BB0 + 1 - c]
    empty = par[_P_FULL] ^ (s[S_BB0] | s[S_BB1])
    threats = closers(lines, par[_P_NLINES], opp) & empty
    for i in range(n):
        code = moves[i]
        removed = code >> 10
        to = (code >> 5 & 31) - 1
        if code == tt_move:
            score = 1 << 40
        elif removed:
            score = (1 << 36) + popcount(removed)
        elif code == killers[ply, 0]:
            score = 1 << 34
        elif code == killers[ply, 1]:
            score = (1 << 34) - 1
        elif to >= 0 and threats >> to & 1:
            score = 1 << 32
        else:
            score = history[code & 1023]
        scores[i] = score


@_njit_gil
def _search(
    pt,
    lines,
    par,
    s,
    depth,
    alpha,
    beta,
    ply,
    player,
    tt_keys,
    tt_ints,
    tt_vals,
    killers,
    history,
    bufs,
    scores,
    saved,
    counters,
):
    """Negamax value of ``s`` for ``player`` (the side to move here, or the side that would
    have moved in a finished game)."""
    counters[C_NODES] += 1
    if counters[C_DEADLINE] and counters[C_NODES] & 1023 == 0 and _now_us() > counters[C_DEADLINE]:
        counters[C_ABORT] = 1
    if counters[C_ABORT]:
        return 0.0
    r = s[S_RESULT]
    if r != ONGOING:
        if r == 2:
            return 0.0
        return WIN - ply if r == player else -WIN + ply
    if depth <= 0:
        return evaluate(pt, lines, par, s, player)
    key = position_key(s)
    mask = tt_keys.shape[0] - 1
    idx = _tt_index(key, mask)
    tt_move = -1
    if tt_keys[idx] == key:
        tt_move = tt_ints[idx, 2]
        if tt_ints[idx, 0] >= depth:
            flag = tt_ints[idx, 1]
            value = tt_vals[idx]
            if flag == EXACT or (flag == LOWER and value >= beta) or (flag == UPPER and value <= alpha):
                return value
    moves = bufs[ply]
    n = legal_moves(pt, lines, par, s, moves)
    sc = scores[ply]
    _order(pt, lines, par, s, moves, sc, n, tt_move, killers, history, ply)
    keep = saved[ply]
    keep[:] = s[:HEADER]
    alpha0 = alpha
    best = -INF
    best_move = moves[0]
    for i in range(n):
        k = i  # selection sort, one step per move: most nodes cut after a few moves
        for j in range(i + 1, n):
            if sc[j] > sc[k]:
                k = j
        moves[i], moves[k] = moves[k], moves[i]
        sc[i], sc[k] = sc[k], sc[i]
        code = moves[i]
        play(pt, par, s, code)
        if i == 0:
            v = -_search(
                pt,
                lines,
                par,
                s,
                depth - 1,
                -beta,
                -alpha,
                ply + 1,
                1 - player,
                tt_keys,
                tt_ints,
                tt_vals,
                killers,
                history,
                bufs,
                scores,
                saved,
                counters,
            )
        else:  # a null window first: does this move beat the best so far at all?
            v = -_search(
                pt,
                lines,
                par,
                s,
                depth - 1,
                -alpha - 1e-9,
                -alpha,
                ply + 1,
                1 - player,
                tt_keys,
                tt_ints,
                tt_vals,
                killers,
                history,
                bufs,
                scores,
                saved,
                counters,
            )
            if alpha < v < beta:
                s[:HEADER] = keep
                play(pt, par, s, code)
                v = -_search(
                    pt,
                    lines,
                    par,
                    s,
                    depth - 1,
                    -beta,
                    -alpha,
                    ply + 1,
                    1 - player,
                    tt_keys,
                    tt_ints,
                    tt_vals,
                    killers,
                    history,
                    bufs,
                    scores,
                    saved,
                    counters,
                )
        s[:HEADER] = keep
        if counters[C_ABORT]:
            return 0.0
        if v > best:
            best = v
            best_move = code
        if v > alpha:
            alpha = v
        if alpha >= beta:
            if code >> 10 == 0:
                if killers[ply, 0] != code:
                    killers[ply, 1] = killers[ply, 0]
                    killers[ply, 0] = code
                history[code & 1023] += depth * depth
            break
    flag = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
    tt_keys[idx] = key
    tt_ints[idx, 0] = depth
    tt_ints[idx, 1] = flag
    tt_ints[idx, 2] = best_move
    tt_vals[idx] = best
    return best


@_njit_gil
def alphabeta_depth(pt, lines, par, s, depth, tt_keys, tt_ints, tt_vals, killers, history, counters):
    """One iteration of the deepening: (value for the side to move, best move, completed)."""
    bufs = np.empty((MAX_PLY, MAX_MOVES), np.int64)
    scores = np.empty((MAX_PLY, MAX_MOVES), np.int64)
    saved = np.empty((MAX_PLY, HEADER), np.int64)
    work = s.copy()
    player = s[S_TO_MOVE]
    value = _search(
        pt,
        lines,
        par,
        work,
        depth,
        -INF,
        INF,
        0,
        player,
        tt_keys,
        tt_ints,
        tt_vals,
        killers,
        history,
        bufs,
        scores,
        saved,
        counters,
    )
    if counters[C_ABORT]:
        return 0.0, 0, False
    idx = _tt_index(position_key(s), tt_keys.shape[0] - 1)
    return value, tt_ints[idx, 2], True


class AlphaBetaResult:
    __slots__ = ("move", "score", "depth", "nodes")

    def __init__(self, move, score, depth, nodes):
        self.move, self.score, self.depth, self.nodes = move, score, depth, nodes


def alphabeta(kernel, state, depth=None, deadline=None, table_bits: int = 18) -> AlphaBetaResult:
    """Iterative deepening to ``depth`` (default 64) or until ``time.perf_counter()`` passes
    ``deadline``; the move of the deepest completed iteration (score for the side to move)."""
    s = kernel.state(state)
    size = 1 << table_bits
    tt_keys = np.full(size, -1, np.int64)
    tt_ints = np.zeros((size, 3), np.int64)
    tt_vals = np.zeros(size, np.float64)
    killers = np.zeros((MAX_PLY, 2), np.int64)
    history = np.zeros(1024, np.int64)
    counters = np.zeros(3, np.int64)
    if deadline is not None:
        counters[C_DEADLINE] = max(1, int(deadline * 1e6))
    moves = kernel.legal(s)
    result = AlphaBetaResult(kernel.move(moves[0]), 0.0, 0, 0)
    for d in range(1, min(depth or 64, MAX_PLY - 2) + 1):
        value, code, completed = alphabeta_depth(
            kernel.pt, kernel.lines, kernel.par, s, d, tt_keys, tt_ints, tt_vals, killers, history, counters
        )
        result.nodes = int(counters[C_NODES])
        if not completed:
            break
        result.move, result.score, result.depth = kernel.move(int(code)), float(value), d
        if abs(value) >= WIN - 1000:
            break
    return result
