"""The compiled twin of the Morris rules (Numba, ``qipan[fast]``): move generation, play,
outcome, random playouts and perft over int64 arrays, with the same semantics as the
reference rules (``MorrisState``) for every board and rule option; and search inside it:
``evaluation.py``'s evaluation, a UCT search with the semantics of the generic ``mcts`` agent
(per-player reward sums, untried moves expanded last-first with the root's shuffled, uniform
random playouts cut at ``playout_cap`` plies and scored by the evaluation, the most visited
root move) and an alpha-beta with the values of the generic ``alphabeta`` agent (the
evaluation at the horizon, a win ``WIN - ply``) searched as PVS with iterative deepening, a
transposition table on the exact position key, killer moves and a history table. Beside them,
the ``morris`` agent's own search (``pvs_root``, driven by ``search.py``): its evaluation
``strong_evaluate`` (mobility and blockades, reachable and running mills, placement
structure), PVS with a quiescence search of removals, late move reductions, single-reply
extensions and a contempt for draws; the reference functions stay as they are.

One file on purpose: Numba's on-disk cache is invalidated by a change of the function's own
file only, so compiled code that calls functions of another file could run stale versions.
The one exception is the UCT loop, shared with the other kernels: ``agents/uct_kernel.py``
compiles it over this file's ``uct_*`` functions with a cache emptied when this file changes.

Layout of the arrays (all int64):

* ``pt[point]``: neighbours mask, number of lines through the point, the masks of the other
  two points of each line (up to 4), the 直棋 擔 ends of the side line whose middle it is,
  the 槓 middle and far end of the radial line it ends (0 when none).
* ``lines``: one mask per line.
* ``par``: the rule parameters (``_P_*`` indices).
* a state ``s``: a header (``_S_*`` indices) and, from ``HEADER`` on, the keys of the
  positions counted for the repetition rule since the last removal (no earlier position can
  recur: removals are irreversible).

A move is one int: ``(from + 1) | (to + 1) << 5 | removed << 10`` (from = -1 for a placement,
to = -1 for a bare full-board removal), the same triple as ``Tables.move(f, to, removed)``."""

from __future__ import annotations

import math
import sys
from dataclasses import fields

from ...agents import clock, uct_kernel
from ...agents.uct_kernel import M_NODES, N_GAME, Tree, append_node, best_move
from ...fast import njit, njit_inline, njit_signed, np, popcount, rand_below, seed_word

# -- table and parameter layout --------------------------------------------------------------
PT_NBR, PT_NPAIRS, PT_PAIRS, PT_NDAN, PT_DAN, PT_NGANG, PT_GANG_MID, PT_GANG_OTHER = 0, 1, 2, 6, 7, 11, 12, 16
PT_WIDTH = 20
#: Lines through one point, 擔 lines centred on it, 槓 lines ending on it: at most this many.
PT_SLOTS = 4
(
    _P_N,
    _P_FULL,
    _P_FLY_AT,
    _P_TAKE,
    _P_PROTECTION,
    _P_REP,
    _P_NMOVE,
    _P_MAX_PLIES,
    _P_FULL_BOARD,
    _P_ZHIQI,
    _P_DAN_GANG_MOVING_ONLY,
    _P_LINE_GOAL,
    _P_PLACEMENT_ONLY,
    _P_NLINES,
    _P_LINE_MOVING_ONLY,
) = range(15)
PROTECTION = {"fallback": 0, "always_protected": 1, "no_mill_protection": 2}
FULL_BOARD = {"draw": 0, "white_loses": 1, "each_removes": 2}

# -- state header ----------------------------------------------------------------------------
S_BB0, S_BB1, S_HAND0, S_HAND1, S_TO_MOVE, S_NMOVE, S_PLIES, S_PENDING = range(8)
S_RESULT, S_REASON, S_HIST_BASE, S_HIST_LEN = 8, 9, 10, 11
HEADER = 12
#: ``s[S_RESULT]``: still playing, a win for White or Black, a draw; the history overflowed.
ONGOING, DRAW, OVERFLOW = -1, 2, -2
# Why the game ended (``s[S_REASON]``); ``rules.py`` words them (see ``outcome``).
(
    R_NONE,
    R_FEW_STONES,
    R_LINE,
    R_ALL_PLACED,
    R_FULL_DRAW,
    R_FULL_BLOCKED,
    R_BLOCKED,
    R_NMOVE,
    R_CAP,
    R_REPETITION,
) = range(10)
#: Room for the moves of one position (the largest, 12 stones take-2 flying, stays far below).
MAX_MOVES = 2048


# 2**i mod 37 is distinct for i < 36: the index of a single bit by one look-up.
_BIT_INDEX = np.zeros(37, np.int64) if np is not None else None
if np is not None:
    for _i in range(36):
        _BIT_INDEX[(1 << _i) % 37] = _i


@njit
def low_index(x):
    """Index of the lowest set bit of ``x`` (> 0, below 2**36)."""
    return _BIT_INDEX[(x & -x) % 37]


@njit
def closers(lines, nlines, own):
    """Points that complete a line on which ``own`` holds the two other points."""
    out = 0
    for i in range(nlines):
        x = lines[i] & ~own
        if x and not x & (x - 1):
            out |= x
    return out


@njit
def encode(f, to, removed):
    return (f + 1) | (to + 1) << 5 | removed << 10


@njit
def in_mills(lines, nlines, stones):
    """The stones of ``stones`` that stand on a complete line."""
    out = 0
    for i in range(nlines):
        m = lines[i]
        if stones & m == m:
            out |= m
    return out


@njit
def removable(lines, par, opp):
    """The enemy stones a removal may take (mill protection, rules file §1.3 item 5)."""
    protection = par[_P_PROTECTION]
    if protection == 2 or opp == 0:
        return opp
    mills = in_mills(lines, par[_P_NLINES], opp)
    if mills == 0:
        return opp
    free = opp & ~mills
    if free:
        return free
    return opp if protection == 0 else 0


@njit
def _emit_once(out, start, count, code):
    """Append ``code`` unless it is already among ``out[start:count]``; the new count."""
    for i in range(start, count):
        if out[i] == code:
            return count
    out[count] = code
    return count + 1


@njit
def _landing(pt, lines, par, f, to, own, opp, out, count):
    """Append the moves landing on ``to`` from ``f`` (-1: a placement): one per removal set
    the mover may choose, or the plain move when it removes nothing."""
    start = count
    own2 = (own & ~(1 << f) if f >= 0 else own) | 1 << to
    row = pt[to]
    mills = 0
    if par[_P_LINE_GOAL] == 0:
        for j in range(row[PT_NPAIRS]):
            pm = row[PT_PAIRS + j]
            if own2 & pm == pm:
                mills += 1
    if par[_P_ZHIQI]:
        if mills:
            first = removable(lines, par, opp)
            while first:
                low = first & -first
                out[count] = encode(f, to, low)
                count += 1
                first ^= low
        if not (par[_P_DAN_GANG_MOVING_ONLY] and f < 0):
            for j in range(row[PT_NDAN]):  # 擔: both ends of a line centred here
                ends = row[PT_DAN + j]
                if opp & ends == ends:
                    count = _emit_once(out, start, count, encode(f, to, ends))
            for j in range(row[PT_NGANG]):  # 槓: the enemy middle of a line ending here
                mid = row[PT_GANG_MID + j]
                if opp & mid and own2 & row[PT_GANG_OTHER + j]:
                    count = _emit_once(out, start, count, encode(f, to, mid))
    elif mills:
        first = removable(lines, par, opp)
        if par[_P_TAKE] == 1 or mills == 1:
            while first:
                low = first & -first
                out[count] = encode(f, to, low)
                count += 1
                first ^= low
        else:  # take 2: the second removal is chosen after the first
            rest1 = first
            while rest1:
                v = rest1 & -rest1
                rest1 ^= v
                rest = opp & ~v
                second = removable(lines, par, rest) if rest else 0
                if second == 0:
                    count = _emit_once(out, start, count, encode(f, to, v))
                while second:
                    w = second & -second
                    second ^= w
                    count = _emit_once(out, start, count, encode(f, to, v | w))
    if count == start:
        out[count] = encode(f, to, 0)
        count += 1
    return count


@njit
def legal_moves(pt, lines, par, s, out):
    """Write the legal moves of ``s`` into ``out``; return how many."""
    if s[S_RESULT] != ONGOING:
        return 0
    c = s[S_TO_MOVE]
    own = s[S_BB0 + c]
    opp = s[S_BB0 + 1 - c]
    empty = par[_P_FULL] ^ (own | opp)
    count = 0
    if s[S_PENDING]:
        r = removable(lines, par, opp)
        while r:
            low = r & -r
            out[count] = encode(-1, -1, low)
            count += 1
            r ^= low
        return count
    # Landings that may remove a stone go through ``_landing``; the others are plain moves.
    if par[_P_ZHIQI]:
        hot = empty
    elif par[_P_LINE_GOAL]:
        hot = 0
    else:
        hot = closers(lines, par[_P_NLINES], own) & empty
    if s[S_HAND0 + c]:
        e = empty
        while e:
            low = e & -e
            e ^= low
            if low & hot:
                count = _landing(pt, lines, par, -1, low_index(low), own, opp, out, count)
            else:
                out[count] = (low_index(low) + 1) << 5
                count += 1
        return count
    if par[_P_PLACEMENT_ONLY]:
        return 0
    flies = popcount(own) <= par[_P_FLY_AT]
    src = own
    while src:
        fb = src & -src
        src ^= fb
        f = low_index(fb)
        dst = empty if flies else pt[f, PT_NBR] & empty
        while dst:
            low = dst & -dst
            dst ^= low
            if low & hot:
                count = _landing(pt, lines, par, f, low_index(low), own, opp, out, count)
            else:
                out[count] = (f + 1) | (low_index(low) + 1) << 5
                count += 1
    return count


@njit
def position_key(s):
    """The reference ``MorrisState.key()`` of ``s``."""
    to = s[S_TO_MOVE] if s[S_TO_MOVE] >= 0 else 2
    return s[S_BB0] | s[S_BB1] << 24 | s[S_HAND0] << 48 | s[S_HAND1] << 53 | to << 58 | s[S_PENDING] << 60


@njit
def _end(s, result, reason):
    s[S_RESULT] = result
    s[S_REASON] = reason
    s[S_TO_MOVE] = -1


@njit
def _settle(pt, par, s, c, to, moved):
    """After player ``c``'s ply (``moved``: a stone slid or flew): who moves next, or how the
    game ended (``MorrisState._settle``)."""
    o = 1 - c
    if par[_P_LINE_GOAL]:
        if to >= 0 and (moved or not par[_P_LINE_MOVING_ONLY]):
            row = pt[to]
            mine = s[S_BB0 + c]
            for j in range(row[PT_NPAIRS]):
                pm = row[PT_PAIRS + j]
                if mine & pm == pm:
                    _end(s, c, R_LINE)
                    return
    elif s[S_HAND0 + o] + popcount(s[S_BB0 + o]) < 3:
        _end(s, c, R_FEW_STONES)
        return
    s[S_TO_MOVE] = o
    if s[S_PENDING]:
        return
    if s[S_HAND0 + o] == 0:
        own = s[S_BB0 + o]
        empty = par[_P_FULL] ^ (s[S_BB0] | s[S_BB1])
        if par[_P_PLACEMENT_ONLY]:
            if s[S_HAND0 + c] == 0:
                _end(s, DRAW, R_ALL_PLACED)
                return
        elif empty == 0:
            rule = par[_P_FULL_BOARD]
            if rule == 0:
                _end(s, DRAW, R_FULL_DRAW)
                return
            if rule == 2:
                s[S_PENDING] = 2
                return
            _end(s, c, R_FULL_BLOCKED)
            return
        elif popcount(own) > par[_P_FLY_AT]:  # slides only: blocked?
            reach = 0
            x = own
            while x:
                low = x & -x
                reach |= pt[low_index(low), PT_NBR]
                x ^= low
            if reach & empty == 0:
                _end(s, c, R_BLOCKED)
                return
    if par[_P_NMOVE] and s[S_NMOVE] >= par[_P_NMOVE]:
        _end(s, DRAW, R_NMOVE)
    elif par[_P_MAX_PLIES] and s[S_PLIES] >= par[_P_MAX_PLIES]:
        _end(s, DRAW, R_CAP)


@njit
def play(pt, par, s, code):
    """Play the legal move ``code`` on ``s`` (``MorrisState._apply``)."""
    f = (code & 31) - 1
    to = (code >> 5 & 31) - 1
    removed = code >> 10
    c = s[S_TO_MOVE]
    o = 1 - c
    if to >= 0:
        if f >= 0:
            s[S_BB0 + c] ^= 1 << f | 1 << to
            s[S_NMOVE] += 1
        else:
            s[S_BB0 + c] |= 1 << to
            s[S_HAND0 + c] -= 1
            s[S_NMOVE] = 0
    else:
        s[S_PENDING] -= 1
    if removed:
        s[S_BB0 + o] ^= removed
        s[S_NMOVE] = 0
        s[S_HIST_BASE] = s[S_HIST_LEN]  # no position before a removal can recur
    s[S_PLIES] += 1
    _settle(pt, par, s, c, to, f >= 0)
    threshold = par[_P_REP]
    if threshold and s[S_RESULT] == ONGOING and s[S_HAND0] == 0 and s[S_HAND1] == 0:
        key = position_key(s)
        seen = 1
        for i in range(HEADER + s[S_HIST_BASE], HEADER + s[S_HIST_LEN]):
            if s[i] == key:
                seen += 1
        n = s[S_HIST_LEN]
        if HEADER + n >= s.shape[0]:
            s[S_RESULT] = OVERFLOW  # the caller gives the game back to the reference rules
            return
        s[HEADER + n] = key
        s[S_HIST_LEN] = n + 1
        if seen >= threshold:
            _end(s, DRAW, R_REPETITION)


@njit
def playouts(pt, lines, par, s0, rng, games, cap):
    """``games`` random playouts from ``s0``; returns (plies, removals counted as OpenSpiel's
    extra actions, White wins, Black wins, draws, unfinished)."""
    buf = np.empty(MAX_MOVES, np.int64)
    s = s0.copy()
    stats = np.zeros(6, np.int64)
    for _ in range(games):
        s[:] = s0
        plies = 0
        while s[S_RESULT] == ONGOING and (cap == 0 or plies < cap):
            n = legal_moves(pt, lines, par, s, buf)
            code = buf[rand_below(rng, n)]
            if code >> 10:
                stats[1] += popcount(code >> 10)
            play(pt, par, s, code)
            plies += 1
        stats[0] += plies
        r = s[S_RESULT]
        if r == 0 or r == 1:
            stats[2 + r] += 1
        elif r == DRAW:
            stats[4] += 1
        else:
            stats[5] += 1
    return stats


@njit_signed("i8(i8[:, ::1], i8[::1], i8[::1], i8[::1], i8, i8[:, ::1], i8[:, ::1])")  # recursive
def _perft(pt, lines, par, s, depth, bufs, saved):
    buf = bufs[depth]
    n = legal_moves(pt, lines, par, s, buf)
    if depth == 1:
        return n
    total = 0
    keep = saved[depth]
    keep[:] = s[:HEADER]
    for i in range(n):
        play(pt, par, s, buf[i])
        total += _perft(pt, lines, par, s, depth - 1, bufs, saved)
        s[:HEADER] = keep  # the history above its length is never read again
    return total


@njit
def perft(pt, lines, par, s, depth):
    """Leaf count of the legal-move tree ``depth`` plies deep (``core.perft``)."""
    if depth <= 0:
        return 1
    bufs = np.empty((depth + 1, MAX_MOVES), np.int64)
    saved = np.empty((depth + 1, HEADER), np.int64)
    return _perft(pt, lines, par, s.copy(), depth, bufs, saved)


# -- evaluation (``evaluation.evaluate``) -----------------------------------------------------
# Numba code has no clock: the UCT tree lives in arrays that the Python side grows and keeps
# between batches of iterations, checking the time between batches; alpha-beta deepens from
# Python and gives each iteration a node budget from the time left and the measured speed.
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


# -- UCT, run by ``agents/uct_kernel.py`` over the hooks below ---------------------------------
# ``G``: the rule arrays, the pool of the nodes' untried moves (listed once, when a node is
# added; the root's first, shuffled) and a move list for the playouts. ``meta[M_POOL]``: pool
# entries in use; ``nodes[i, N_POOL]``: where node i's moves start.
N_POOL = N_GAME
N_INT = N_GAME + 1
M_POOL = M_NODES + 1


@njit_inline
def uct_room(G, meta):
    return meta[M_POOL] + MAX_MOVES < G[3].shape[0]


@njit_inline
def uct_reset(G, s, root):
    used = HEADER + root[S_HIST_LEN]  # the repetition history beyond it is not read
    s[:used] = root[:used]


@njit_inline
def uct_ongoing(s):
    return s[S_RESULT] == ONGOING


@njit_inline
def uct_expand(G, s, nodes, stats, meta, code):
    pt, lines, par, pool, buf = G
    start = meta[M_POOL]
    n = legal_moves(pt, lines, par, s, pool[start:])
    meta[M_POOL] = start + n
    i = append_node(nodes, stats, meta, code, s[S_TO_MOVE], n)
    nodes[i, N_POOL] = start
    return i


@njit_inline
def uct_root_untried(G):
    return G[3]


@njit_inline
def uct_untried(G, s, nodes, node, k):
    return G[3][nodes[node, N_POOL] + k]


@njit_inline
def uct_play(G, s, code):
    pt, lines, par, pool, buf = G
    play(pt, par, s, code)


@njit_inline
def uct_playout(G, s, rng, cap):
    pt, lines, par, pool, buf = G
    plies = 0
    while s[S_RESULT] == ONGOING and plies < cap:
        n = legal_moves(pt, lines, par, s, buf)
        play(pt, par, s, buf[rand_below(rng, n)])
        plies += 1


@njit_inline
def uct_rewards(G, s, out):
    pt, lines, par, pool, buf = G
    r = s[S_RESULT]
    if r == ONGOING or r == OVERFLOW:  # cut (or out of history room): the evaluation
        out[0] = (evaluate(pt, lines, par, s, 0) + 1.0) / 2.0
        out[1] = (evaluate(pt, lines, par, s, 1) + 1.0) / 2.0
    elif r == DRAW:
        out[0] = out[1] = 0.5
    else:
        out[r] = 1.0
        out[1 - r] = 0.0
    return 2


#: ``run(G, root, nodes, stats, meta, rng, iterations, exploration, cap)``: UCT iterations.
mcts_run = uct_kernel.uct_loop(sys.modules[__name__])


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

    def arrays() -> tuple:
        return kernel.pt, kernel.lines, kernel.par, tree.pool, buf

    args = (mcts_run, tree, arrays, root, rng, iterations, deadline, exploration, playout_cap)
    return tree, uct_kernel.search(*args, 64, 4096)


# -- alpha-beta ----------------------------------------------------------------------------------
WIN = 1_000_000.0
INF = 1e18
EXACT, LOWER, UPPER = 0, 1, 2
MAX_PLY = 66
# ``counters``: nodes searched, aborted (over budget), node budget (0: none).
C_NODES, C_ABORT, C_BUDGET = 0, 1, 2


@njit
def _tt_index(key, mask):
    return ((key * np.int64(-7046029254386353131)) >> np.int64(20)) & mask


@njit
def _note_cutoff(killers, history, ply, code, depth):
    """A quiet move (no removal) that cut off: a killer at this ply, and history credit."""
    if code >> 10 == 0:
        if killers[ply, 0] != code:
            killers[ply, 1] = killers[ply, 0]
            killers[ply, 0] = code
        history[code & 1023] += depth * depth


@njit
def _tt_store(tt_keys, tt_ints, tt_vals, idx, key, depth, best, alpha0, beta, best_move):
    """Store a searched node: its bound kind follows from where ``best`` fell in the window."""
    flag = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
    tt_keys[idx] = key
    tt_ints[idx, 0] = depth
    tt_ints[idx, 1] = flag
    tt_ints[idx, 2] = best_move
    tt_vals[idx] = best


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


@njit_signed(
    "f8(i8[:, ::1], i8[::1], i8[::1], i8[::1], i8, f8, f8, i8, i8, i8[::1], i8[:, ::1], f8[::1], "
    "i8[:, ::1], i8[::1], i8[:, ::1], i8[:, ::1], i8[:, ::1], i8[::1])"
)
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
    if counters[C_BUDGET] and counters[C_NODES] > counters[C_BUDGET]:
        counters[C_ABORT] = 1
    if counters[C_ABORT]:
        return 0.0
    r = s[S_RESULT]
    if r != ONGOING and r != OVERFLOW:
        if r == DRAW:
            return 0.0
        return WIN - ply if r == player else -WIN + ply
    if depth <= 0 or r == OVERFLOW:  # out of history room: score it as a horizon
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
            _note_cutoff(killers, history, ply, code, depth)
            break
    _tt_store(tt_keys, tt_ints, tt_vals, idx, key, depth, best, alpha0, beta, best_move)
    return best


@njit
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
    """Iterative deepening to ``depth`` (default 64) or until the agents' clock (``qipan.agents.clock.now``) passes
    ``deadline``; the move of the deepest completed iteration (score for the side to move)."""
    s = kernel.state(state)
    size = 1 << table_bits
    tt_keys = np.full(size, -1, np.int64)
    tt_ints = np.zeros((size, 3), np.int64)
    tt_vals = np.zeros(size, np.float64)
    killers = np.zeros((MAX_PLY, 2), np.int64)
    history = np.zeros(1024, np.int64)
    counters = np.zeros(3, np.int64)
    moves = kernel.legal(s)
    result = AlphaBetaResult(kernel.move(moves[0]), 0.0, 0, 0)
    started, spent = clock.now(), 1e-6
    for d in range(1, min(depth or 64, MAX_PLY - 2) + 1):
        if deadline is not None:
            left = deadline - clock.now()
            if left <= 0 and d > 1:
                break
            # Nodes per second so far (a guess of 200k/s before the first iteration) x the
            # time left; the first iteration always completes, so there is a move.
            rate = counters[C_NODES] / spent if counters[C_NODES] else 200_000.0
            counters[C_BUDGET] = counters[C_NODES] + max(64, int(rate * left)) if d > 1 else 0
        value, code, completed = alphabeta_depth(
            kernel.pt, kernel.lines, kernel.par, s, d, tt_keys, tt_ints, tt_vals, killers, history, counters
        )
        spent = max(clock.now() - started, 1e-6)
        result.nodes = int(counters[C_NODES])
        if not completed:
            break
        result.move, result.score, result.depth = kernel.move(int(code)), float(value), d
        if abs(value) >= WIN - 1000:
            break
    return result


# -- the ``morris`` agent's search (``search.py`` drives it) -----------------------------------------
# PVS with a capture quiescence search, late move reductions and single-reply extensions, on
# an evaluation (one stone = 100) that knows what decides games between engines: mobility and
# blockades, mills a stone can actually reach (open and running mills), double threats,
# placement structure (potential mills, junction points) and stones in hand. Kept apart from
# the reference ``evaluate`` and ``_search`` above, which the ``alphabeta`` agent keeps using.
PVS_MAX_PLY = 96
#: Plies of removals searched past the horizon.
QDEPTH = 4
W_STONE = 100.0
W_MILL = 12.0
W_OPEN_PLACING = 22.0  # a potential mill while placing or flying (two stones, third point empty)
W_DOUBLE_PLACING = 45.0  # a point that would close two mills at once
W_REACH = 40.0  # sliding: a mill point one of our stones (not on that line) can slide to
W_RUNNING = 85.0  # ... from a closed mill: it closes a mill every other move
W_DEAD = 6.0  # sliding: a potential mill no stone can reach
W_SLIDE = 9.0  # per free slide while sliding
W_BLOCKED = 16.0  # per stone without an empty neighbour while sliding
W_SLIDE_PLACING = 4.0  # the same, foreseen while placing
W_BLOCKED_PLACING = 9.0
W_JUNCTION = 5.0  # a stone on a point with four neighbours, while placing
RAMP_HAND = 4.0  # with fewer stones in hand the placing mobility weights move to the sliding ones
W_TEMPO = 55.0  # the side to move can close a mill now
W_FORK = 60.0  # the side not to move threatens two mills: one block is not enough
# Against a flying opponent (3 stones) one threat is blocked at once wherever it is, and two
# win: the fork counts far more, a single reachable mill far less.
W_FORK_FLYING = 150.0
FLYING_BLOCKS = 0.25
W_FREE_RUN = 60.0  # sliding: a closed mill that can open and close again, no enemy can fill the gap
W_OPENABLE = 10.0  # ... one whose gap an enemy stone next to it could fill


@njit
def _near_blockade(slides):
    """Sliding with this few moves left is close to a blockade (a loss)."""
    if slides == 0:
        return 140.0
    if slides == 1:
        return 60.0
    if slides == 2:
        return 25.0
    if slides == 3:
        return 8.0
    return 0.0


@njit
def _running_closed(pt, m, opp, empty, opp_flies):
    """A closed mill ``m`` as a mill that runs: a stone of it steps out onto an
    empty point off the line and back next move, closing it again. Worth ``W_FREE_RUN`` when
    no enemy stone stands next to the gap it leaves (nothing can fill it: a capture every
    other move), ``W_OPENABLE`` when one does, 0 when no stone of it can step out."""
    value = 0.0
    x = m
    while x:
        low = x & -x
        x ^= low
        nbr = pt[low_index(low), PT_NBR]
        if nbr & empty & ~m == 0:
            continue
        if opp_flies or nbr & opp:
            value = max(value, W_OPENABLE)
        else:
            return W_FREE_RUN
    return value


@njit
def side_terms(pt, lines, par, s, p, empty):
    """The evaluation terms of player ``p`` alone (``strong_evaluate`` subtracts the other's)."""
    own = s[S_BB0 + p]
    hand = s[S_HAND0 + p]
    on_board = popcount(own)
    flies = hand == 0 and on_board <= par[_P_FLY_AT]
    sliding = hand == 0 and not flies
    score = 0.0
    if par[_P_LINE_GOAL] == 0:
        score += W_STONE * (hand + on_board)
    nlines = par[_P_NLINES]
    opp = s[S_BB0 + 1 - p]
    opp_flies = s[S_HAND0 + 1 - p] == 0 and popcount(opp) <= par[_P_FLY_AT]
    mills = 0
    for i in range(nlines):
        m = lines[i]
        if own & m == m:
            mills |= m
            score += W_MILL
            if sliding:
                score += _running_closed(pt, m, opp, empty, opp_flies)
    once = 0
    twice = 0
    reach = 0
    for i in range(nlines):
        m = lines[i]
        x = m & ~own
        if x == 0 or x & (x - 1) or not x & empty:
            continue
        twice |= once & x
        once |= x
        if sliding:
            movers = pt[low_index(x), PT_NBR] & own & ~m
            if movers == 0:
                score += W_DEAD
            else:
                reach |= x
                threat = W_RUNNING if movers & mills else W_REACH
                score += threat * FLYING_BLOCKS if opp_flies else threat
    if not sliding:
        score += W_OPEN_PLACING * popcount(once) + W_DOUBLE_PLACING * popcount(twice)
        reach = once
    slides = 0
    blocked = 0
    junctions = 0
    x = own
    while x:
        low = x & -x
        x ^= low
        nbr = pt[low_index(low), PT_NBR]
        free = popcount(nbr & empty)
        slides += free
        if free == 0:
            blocked += 1
        if popcount(nbr) >= 4:
            junctions += 1
    if sliding:
        score += W_SLIDE * slides - W_BLOCKED * blocked - _near_blockade(slides)
    elif hand:
        # The last placements decide the blockades of the sliding phase: the mobility they
        # leave weighs more as the hand empties, up to the sliding weights.
        near = max(0.0, (RAMP_HAND - hand) / RAMP_HAND)
        w_slide = W_SLIDE_PLACING + near * (W_SLIDE - W_SLIDE_PLACING)
        w_blocked = W_BLOCKED_PLACING + near * (W_BLOCKED - W_BLOCKED_PLACING)
        score += w_slide * slides - w_blocked * blocked + W_JUNCTION * junctions
    if reach:
        if s[S_TO_MOVE] == p:
            score += W_TEMPO
        elif popcount(reach) >= 2:
            score += W_FORK_FLYING if opp_flies and sliding else W_FORK
    return score


@njit
def strong_evaluate(pt, lines, par, s, player):
    """The ``morris`` agent's static value of a position in play, for ``player``."""
    empty = par[_P_FULL] ^ (s[S_BB0] | s[S_BB1])
    value = side_terms(pt, lines, par, s, 0, empty) - side_terms(pt, lines, par, s, 1, empty)
    return value if player == 0 else -value


@njit
def _pvs_order(lines, par, s, moves, scores, n, tt_move, killers, history, ply):
    """Scores for trying moves best first: the table's move, removals, killers, moves onto
    the opponent's mill points, then the history table."""
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


@njit
def _pick(moves, sc, i, n):
    """Selection sort, one step: the best remaining move into place ``i``."""
    k = i
    for j in range(i + 1, n):
        if sc[j] > sc[k]:
            k = j
    moves[i], moves[k] = moves[k], moves[i]
    sc[i], sc[k] = sc[k], sc[i]
    return moves[i]


#: ``counters`` slots of the ``morris`` search beyond the reference's: the root player and
#: the contempt (what a draw costs the root player, in evaluation units).
C_ROOT, C_CONTEMPT = 3, 4
N_COUNTERS = 5


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


@njit_signed("f8(i8[:, ::1], i8[::1], i8[::1], i8[::1], f8, f8, i8, i8, i8, i8[:, ::1], i8[:, ::1], i8[::1])")
def _quiesce(pt, lines, par, s, alpha, beta, ply, qdepth, player, bufs, saved, counters):
    """Removals only past the horizon; the side to move may stand on the evaluation."""
    _count_node(counters)
    r = s[S_RESULT]
    if r != ONGOING and r != OVERFLOW:
        return _ended(s, ply, player, counters)
    stand = strong_evaluate(pt, lines, par, s, player)
    if qdepth <= 0 or r == OVERFLOW or stand >= beta or counters[C_ABORT]:
        return stand
    if stand > alpha:
        alpha = stand
    moves = bufs[ply]
    n = legal_moves(pt, lines, par, s, moves)
    keep = saved[ply]
    keep[:] = s[:HEADER]
    best = stand
    for i in range(n):
        code = moves[i]
        if code >> 10 == 0:
            continue
        play(pt, par, s, code)
        v = -_quiesce(
            pt, lines, par, s, -beta, -alpha, ply + 1, qdepth - 1, 1 - player, bufs, saved, counters
        )
        s[:HEADER] = keep
        if counters[C_ABORT]:
            return 0.0
        best = max(best, v)
        alpha = max(alpha, v)
        if alpha >= beta:
            break
    return best


@njit_signed(
    "f8(i8[:, ::1], i8[::1], i8[::1], i8[::1], i8, f8, f8, i8, i8, i8[::1], i8[:, ::1], f8[::1], "
    "i8[:, ::1], i8[::1], i8[:, ::1], i8[:, ::1], i8[:, ::1], i8[::1])"
)
def _pvs(
    pt, lines, par, s, depth, alpha, beta, ply, player,
    tt_keys, tt_ints, tt_vals, killers, history, bufs, scores, saved, counters,
):  # fmt: skip
    """Negamax value of ``s`` for ``player``, the side to move."""
    r = s[S_RESULT]
    if r != ONGOING and r != OVERFLOW:
        _count_node(counters)
        return _ended(s, ply, player, counters)
    if depth <= 0 or r == OVERFLOW or ply >= PVS_MAX_PLY - QDEPTH - 2:
        return _quiesce(pt, lines, par, s, alpha, beta, ply, QDEPTH, player, bufs, saved, counters)
    _count_node(counters)
    if counters[C_ABORT]:
        return 0.0
    key = position_key(s)
    idx = _tt_index(key, tt_keys.shape[0] - 1)
    tt_move = -1
    if tt_keys[idx] == key:
        tt_move = tt_ints[idx, 2]
        if tt_ints[idx, 0] >= depth and not _occurred(par, s):
            flag = tt_ints[idx, 1]
            value = tt_vals[idx]
            if flag == EXACT or (flag == LOWER and value >= beta) or (flag == UPPER and value <= alpha):
                return value
    moves = bufs[ply]
    n = legal_moves(pt, lines, par, s, moves)
    sc = scores[ply]
    _pvs_order(lines, par, s, moves, sc, n, tt_move, killers, history, ply)
    keep = saved[ply]
    keep[:] = s[:HEADER]
    # A single reply is searched a ply deeper: forced lines (blockades, mills) decide games.
    extend = 1 if n == 1 else 0
    alpha0 = alpha
    best = -INF
    best_move = moves[0]
    for i in range(n):
        code = _pick(moves, sc, i, n)
        play(pt, par, s, code)
        d = depth - 1 + extend
        if i == 0:
            v = -_pvs(
                pt, lines, par, s, d, -beta, -alpha, ply + 1, 1 - player,
                tt_keys, tt_ints, tt_vals, killers, history, bufs, scores, saved, counters,
            )  # fmt: skip
        else:
            # Late quiet moves are tried a ply shallower first (late move reduction).
            reduce = 1 if depth >= 3 and i >= 4 and code >> 10 == 0 else 0
            v = -_pvs(
                pt, lines, par, s, d - reduce, -alpha - 1.0, -alpha, ply + 1, 1 - player,
                tt_keys, tt_ints, tt_vals, killers, history, bufs, scores, saved, counters,
            )  # fmt: skip
            if v > alpha and (reduce or v < beta):
                s[:HEADER] = keep
                play(pt, par, s, code)
                v = -_pvs(
                    pt, lines, par, s, d, -beta, -alpha, ply + 1, 1 - player,
                    tt_keys, tt_ints, tt_vals, killers, history, bufs, scores, saved, counters,
                )  # fmt: skip
        s[:HEADER] = keep
        if counters[C_ABORT]:
            return 0.0
        if v > best:
            best = v
            best_move = code
        if v > alpha:
            alpha = v
        if alpha >= beta:
            _note_cutoff(killers, history, ply, code, depth)
            break
    _tt_store(tt_keys, tt_ints, tt_vals, idx, key, depth, best, alpha0, beta, best_move)
    return best


@njit
def pvs_root(
    pt, lines, par, s, root_moves, fixed, depth, alpha, beta,
    tt_keys, tt_ints, tt_vals, killers, history, counters, values,
):  # fmt: skip
    """One iteration at the root over ``root_moves`` in their order (``fixed[i]``: a known
    value of move ``i``, NaN to search it). Writes the moves' values (bounds for those that
    fail low) into ``values``; returns the index of the best move. Aborted (over the node
    budget, ``counters[C_ABORT]``): the best of the moves searched to the end, -1 if none."""
    bufs = np.empty((PVS_MAX_PLY, MAX_MOVES), np.int64)
    scores = np.empty((PVS_MAX_PLY, MAX_MOVES), np.int64)
    saved = np.empty((PVS_MAX_PLY, HEADER), np.int64)
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
            play(pt, par, work, code)
            lo = -beta if best < 0 else -alpha - 1.0
            v = -_pvs(
                pt, lines, par, work, depth - 1, lo, -alpha, 1, 1 - player,
                tt_keys, tt_ints, tt_vals, killers, history, bufs, scores, saved, counters,
            )  # fmt: skip
            if best >= 0 and alpha < v < beta:
                work[:HEADER] = keep
                play(pt, par, work, code)
                v = -_pvs(
                    pt, lines, par, work, depth - 1, -beta, -alpha, 1, 1 - player,
                    tt_keys, tt_ints, tt_vals, killers, history, bufs, scores, saved, counters,
                )  # fmt: skip
            work[:HEADER] = keep
            if counters[C_ABORT]:
                return best
        values[i] = v
        if v > best_value:
            best_value = v
            best = i
        alpha = max(alpha, v)
    return best


# -- the Python side: tables from the reference rules, states in and out -------------------------
class MorrisKernel:
    """The compiled twin of one rule set: builds its arrays from the reference ``Tables`` and
    converts states and moves both ways (a kernel move is ``Tables.move(f, to, removed)``)."""

    #: The searches this kernel runs for the generic agents (``mcts``, ``alphabeta``).
    searches = ("mcts", "alphabeta")
    #: Room for positions counted after the state was made (the n-move rule bounds a game to
    #: 100 by default; a search that outgrows it scores the position by the evaluation).
    history = 4096

    def __init__(self, tables):
        self.tables = tables
        rules = tables.rules
        n = tables.n
        pt = np.zeros((n, PT_WIDTH), np.int64)
        for i in range(n):
            pt[i, PT_NBR] = tables.nbr[i]
            pairs, dan, gang = tables.pairs[i], tables.dan_at[i], tables.gang_at[i]
            if max(len(pairs), len(dan), len(gang)) > PT_SLOTS:
                raise ValueError(f"point {tables.names[i]} has more lines than the kernel's table holds")
            pt[i, PT_NPAIRS] = len(pairs)
            pt[i, PT_PAIRS : PT_PAIRS + len(pairs)] = pairs
            pt[i, PT_NDAN] = len(dan)
            pt[i, PT_DAN : PT_DAN + len(dan)] = dan
            pt[i, PT_NGANG] = len(gang)
            for j, (mid, other) in enumerate(gang):
                pt[i, PT_GANG_MID + j], pt[i, PT_GANG_OTHER + j] = mid, other
        self.pt = pt
        self.lines = np.array(tables.lines, np.int64)
        fly_at = n if rules.move_anywhere else (-1 if rules.flying is None else rules.flying)
        par = np.zeros(15, np.int64)
        par[_P_N], par[_P_FULL], par[_P_FLY_AT] = n, tables.full, fly_at
        par[_P_TAKE] = rules.take_per_mill
        par[_P_PROTECTION] = PROTECTION[rules.protection]
        par[_P_REP] = rules.repetition_threshold or 0
        par[_P_NMOVE] = rules.n_move
        par[_P_MAX_PLIES] = rules.max_plies or 0
        par[_P_FULL_BOARD] = FULL_BOARD[rules.full_board]
        par[_P_ZHIQI] = rules.captures == "zhiqi"
        par[_P_DAN_GANG_MOVING_ONLY] = rules.dan_gang_moving_only
        par[_P_LINE_GOAL] = rules.goal == "line"
        par[_P_PLACEMENT_ONLY] = rules.placement_only
        par[_P_NLINES] = len(tables.lines)
        par[_P_LINE_MOVING_ONLY] = getattr(rules, "line_moving_only", False)
        self.par = par
        self.rules = rules
        self._buf = np.empty(MAX_MOVES, np.int64)

    # -- states ----------------------------------------------------------------------------
    def state(self, ref) -> np.ndarray:
        """The kernel state of the reference state ``ref`` (which is not changed)."""
        s = np.zeros(HEADER + self.history + len(ref.reps), np.int64)
        s[S_BB0], s[S_BB1] = ref.bb
        s[S_HAND0], s[S_HAND1] = ref.hand
        s[S_TO_MOVE] = -1 if ref.to_move is None else ref.to_move
        s[S_NMOVE], s[S_PLIES], s[S_PENDING] = ref.nmove, ref.plies, ref.pending
        s[S_RESULT] = ONGOING
        if ref.outcome is not None:
            s[S_RESULT] = ref.outcome.winners[0] if ref.outcome.winners else DRAW
        # Only positions with the same stones can recur: the others are left out.
        count0, count1 = ref.bb[0].bit_count(), ref.bb[1].bit_count()
        keys = [
            k
            for k, times in ref.reps.items()
            for _ in range(times)
            if (k & 0xFFFFFF).bit_count() == count0 and (k >> 24 & 0xFFFFFF).bit_count() == count1
        ]
        s[HEADER : HEADER + len(keys)] = keys
        s[S_HIST_LEN] = len(keys)
        return s

    def legal(self, s) -> list[int]:
        n = legal_moves(self.pt, self.lines, self.par, s, self._buf)
        return self._buf[:n].tolist()

    def play(self, s, code: int) -> None:
        play(self.pt, self.par, s, code)

    @staticmethod
    def snapshot(s) -> tuple[int, ...]:
        """The position fields of ``s`` (boards, hands, side to move, counters, result)."""
        return tuple(int(x) for x in s[: S_RESULT + 1])

    def move(self, code: int):
        """The reference Move object of a kernel move."""
        return self.tables.move((code & 31) - 1, (code >> 5 & 31) - 1, code >> 10)

    @staticmethod
    def code(move) -> int:
        f, to, removed = move.data[:3]
        return (f + 1) | (to + 1) << 5 | removed << 10

    def outcome(self, s):
        """The reference Outcome of a finished kernel state (None while it is playing)."""
        from ...core.outcome import Outcome
        from .board import COLOUR

        result, reason = int(s[S_RESULT]), int(s[S_REASON])
        if result == ONGOING:
            return None
        if result == OVERFLOW:
            raise ValueError("the kernel's repetition history overflowed")
        r = self.rules
        if result == DRAW:
            text = {
                R_ALL_PLACED: "all stones placed without a line",
                R_FULL_DRAW: "the board is full",
                R_NMOVE: f"{r.n_move} plies without a removal",
                R_CAP: f"the {r.max_plies}-ply cap",
                R_REPETITION: "repetition of the position",
            }[reason]
            return Outcome.draw(2, text)
        loser = COLOUR[1 - result]
        text = {
            R_FEW_STONES: f"{loser} has fewer than three stones",
            R_LINE: "three in a line",
            R_FULL_BLOCKED: f"the board is full: {loser} cannot move",
            R_BLOCKED: f"{loser} cannot move",
        }[reason]
        return Outcome.win((result,), 2, text)

    # -- bulk work -------------------------------------------------------------------------
    def perft(self, ref, depth: int) -> int:
        return int(perft(self.pt, self.lines, self.par, self.state(ref), depth))

    def playouts(self, ref, games: int, seed: int, cap: int = 0):
        """``games`` random playouts from ``ref``: plies, removals, White wins, Black wins,
        draws, unfinished (capped)."""
        rng = np.array([seed_word(seed)], np.uint64)
        stats = playouts(self.pt, self.lines, self.par, self.state(ref), rng, games, cap)
        return tuple(int(x) for x in stats)

    def mcts(self, ref, iterations=None, deadline=None, seed=0, exploration=1.4, playout_cap=400):
        """UCT inside the kernel (``mcts``): (the chosen Move, iterations done)."""
        tree, done = self.uct(ref, iterations, deadline, seed, exploration, playout_cap)
        return self.move(int(best_move(tree.nodes, tree.stats, ref.to_move))), done

    def uct(self, ref, iterations=None, deadline=None, seed=0, exploration=1.4, playout_cap=400):
        """The tree of ``mcts`` (``Tree.root_children`` gives the visits), iterations done."""
        return mcts(self, ref, iterations, deadline, seed, exploration, playout_cap)

    def alphabeta(self, ref, depth=None, deadline=None):
        """Alpha-beta inside the kernel (``alphabeta``): move, score, depth, nodes."""
        return alphabeta(self, ref, depth, deadline)

    def warm_up(self, ref) -> None:
        """Compile (or load from the cache) the kernel's functions by running them once."""
        self.perft(ref, 2)
        self.playouts(ref, 1, 1, 50)
        self.mcts(ref, iterations=8)
        self.alphabeta(ref, depth=2)
        from .search import Searcher  # the morris agent's search (search.py imports this file)

        Searcher(self, table_bits=10).search(ref, self.legal(self.state(ref)), depth=2)


_KERNELS: dict = {}


#: The MorrisRules fields the kernel implements. A field added later is left to the reference
#: rules (``compiles`` is false) unless it keeps its default value.
COVERED = frozenset(
    "board diagonals stones flying take_per_mill protection repetition_count n_move max_plies "
    "full_board captures dan_gang_moving_only dan_lines gang_lines goal line_moving_only "
    "placement_only move_anywhere first_player".split()
)


def compiles(rules) -> bool:
    """Whether the kernel implements these rules (every field of ``COVERED``)."""
    return all(f.name in COVERED or getattr(rules, f.name) == f.default for f in fields(rules))


def kernel_for(game):
    """The kernel of ``game``'s rule set (built once per rule set), or None when kernels are
    off (``qipan.fast.enabled()``): the reference rules serve then."""
    from ...fast import enabled

    if not enabled() or not compiles(game.tables.rules):
        return None
    tables = game.tables
    kernel = _KERNELS.get(tables.rules)
    if kernel is None:
        kernel = _KERNELS[tables.rules] = MorrisKernel(tables)
    return kernel
