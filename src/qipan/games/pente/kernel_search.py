"""Compiled Pente search (Numba) over the kernel's states (``kernel.py``): the rules are the
kernel's own ``play``/``unplay``, so captures, five, exact five, double tria, the tournament
rule and four players are exact everywhere in the search.

* **Shapes**: a table over the 8 points around a point along one line (4 each side, each
  empty / own / other / off the board) says what placing there makes: a five, a four (how
  many points then complete five: 2 is an open four), an open three, and a window value.
* **Evaluation**: every line window of ``win_length`` points holding one colour only, by how
  many stones it holds (the side to move's count more), captured stones (worth more near
  10), pairs a capture threatens (``_ X X O``), and the side to move's threats.
* **Threat-space search**: VCF (fours and capture-win threats, every defence tried: the
  points that complete the attacker's five or capture win, the defender's captures) and VCT
  (also open threes, when the attacker moving again has a VCF; the defender's replies near
  the stones are all tried). A capture that breaks a four or wins by pairs is a threat or a
  defence like any other move: the kernel plays it.
* **Alpha-beta**: PVS, iterative deepening from Python, a Zobrist transposition table,
  killer and history ordering, forced replies only when the opponent threatens to win
  (a single forced reply extends the search), candidates near the stones best first.
* **Four players**: a paranoid search (the side and its partner against the rest).
* **Proof**: ``prove`` is a separate exhaustive AND/OR search that checks a claimed win in
  ``plies``: every legal reply of the defender is tried, except where the attacker already
  threatens to win at once (then only the replies that could stop it, which is exact).

Nothing here reads a clock: the Python side gives each call a node budget (``st[ST_BUDGET]``)
from the rate it measured, and the call stops when it is spent (``st[ST_ABORT]``).
Numba's disk cache notices changes to this file only, while the kernel's functions (and
``board.py``'s constants) are compiled into these: the cache is emptied when one of
``SOURCES`` changes (``fast.njit_guarded``). Recursive functions carry explicit signatures (``_signed``)."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from ... import fast
from ...fast import njit_guarded, njit_typed, np
from ...fast import popcount as _popcount
from . import board, kernel
from .board import CAPTURE_TARGET, EMPTY, OFF, PAD
from .kernel import (
    CHOSEN,
    HEADER,
    ONGOING,
    P_CENTRE,
    P_MAX_PAIRS,
    P_N,
    P_NPOINTS,
    P_TOURNAMENT,
    P_WIN_LENGTH,
    S_CAPS,
    S_PENDING,
    S_PLACED,
    S_PLAYERS,
    S_RESULT,
    S_TO_MOVE,
    RuleArrays,
    _choices,
    _line_wins,
    _partner,
    capture_dirs,
    legal_moves,
    play,
    unplay,
)

WIN = 1_000_000
MAX_PLY = 96
MAX_MOVES = 400
#: ``st``: search statistics and controls shared by every call.
ST_NODES, ST_BUDGET, ST_ABORT, ST_STAMP, ST_BEST, ST_DEPTH = 0, 1, 2, 3, 4, 5
#: Shape table columns.
T_VAL, T_FOURS, T_THREE = 0, 1, 2
FIVE = 99
#: Window value by own stones after placing (0..5), for move ordering.
_ATTACK = (0, 1, 6, 30, 150, 1000)
#: Window value by stones in it, for the evaluation: the side to move and the other side.
_W_MOVER = (0, 2, 14, 90, 500, 0)
_W_OTHER = (0, 2, 10, 55, 260, 0)
#: Worth of a player's captured stones (index = stones captured, 0..10).
_CAP_VALUE = (0, 0, 120, 120, 280, 280, 500, 500, 900, 900, WIN)
TT_EXACT, TT_LOWER, TT_UPPER = 1, 2, 3
#: ``W.tuning``: what an agent may set per searcher (``tuning``). The evaluation's window
#: values (mover, other side: 6 each), captured stones' worth (11), the pair terms (own pair
#: exposed, enemy pair exposed: base, per own captured pair, per further pair), and how many
#: plies past the horizon the forced replies to a threat to win are searched.
TU_MOVER, TU_OTHER, TU_CAPS, TU_PAIRS, TU_QUIESCE, TU_SIZE = 0, 6, 12, 23, 27, 28
_PAIRS = (150, 300, 120, 80)


def tuning(mover=_W_MOVER, other=_W_OTHER, caps=_CAP_VALUE, pairs=_PAIRS, quiesce: int = 0) -> np.ndarray:
    """``W.tuning`` (the defaults: the search every other agent uses)."""
    out = np.array([*mover, *other, *caps, *pairs, quiesce], np.int64)
    if out.shape[0] != TU_SIZE:
        raise ValueError(
            f"tuning needs 6, 6, 11 and 4 weights, got {len(mover)}, {len(other)}, {len(caps)}, {len(pairs)}"
        )
    return out


#: ``_try_threat``: the threat won at once / is not worth following (either way undone).
THREAT_WON, THREAT_VOID = -2, -1


#: The files compiled into this file's functions.
SOURCES = (Path(__file__), Path(kernel.__file__), Path(board.__file__), Path(fast.__file__))


def njit(fn):
    """``njit`` with the cache guarded by ``SOURCES`` (see the module's docstring)."""
    return njit_guarded(fn, SOURCES)


class Workspace(NamedTuple):
    """The search's arrays (``W`` in every function), read by name."""

    shapes: np.ndarray  # the shape table (``build_table``)
    zobrist: np.ndarray  # a key per cell and content
    header_keys: np.ndarray  # keys for the header fields (side to move, captures...)
    offsets: np.ndarray  # the points within 2 of a point, and whether within 1
    mark: np.ndarray  # per cell: stamp, index in the candidate list
    stats: np.ndarray  # ``ST_*``: nodes, budget, abort...
    moves: np.ndarray  # moves to search per ply
    move_values: np.ndarray  # their ordering values
    candidates: np.ndarray  # candidates per ply
    near1: np.ndarray  # per candidate: within 1 of a stone
    win_points: np.ndarray  # the opponents' winning points per ply, -1 ended
    undo: np.ndarray  # undo record per ply
    tt_keys: np.ndarray  # transposition table keys
    tt_entries: np.ndarray  # its value, depth, flag, move
    killers: np.ndarray  # two per ply
    history: np.ndarray  # per point
    shape: np.ndarray  # scratch for ``_shape``
    tuning: np.ndarray  # ``TU_*``: evaluation weights and the horizon's extension


def _workspace(size: int, width: int, tt_bits: int, table, seed: int, tune=None) -> Workspace:
    rng = np.random.default_rng(seed)
    zob = rng.integers(0, 2**63, size=(size, 8), dtype=np.int64).astype(np.uint64)
    zob[:, EMPTY] = 0
    return Workspace(
        shapes=table,
        zobrist=zob,
        header_keys=rng.integers(0, 2**63, size=96, dtype=np.int64).astype(np.uint64),
        offsets=_offsets(width),
        mark=np.zeros((size, 2), np.int64),
        stats=np.zeros(8, np.int64),
        moves=np.zeros((MAX_PLY, MAX_MOVES), np.int64),
        move_values=np.zeros((MAX_PLY, MAX_MOVES), np.int64),
        candidates=np.zeros((MAX_PLY, MAX_MOVES), np.int64),
        near1=np.zeros((MAX_PLY, MAX_MOVES), np.int64),
        win_points=np.zeros((MAX_PLY, 64), np.int64),
        undo=np.zeros((MAX_PLY, HEADER + 40), np.int64),
        tt_keys=np.zeros(1 << tt_bits, np.uint64),
        tt_entries=np.zeros((1 << tt_bits, 4), np.int64),
        killers=np.full((MAX_PLY, 2), -1, np.int64),
        history=np.zeros(size, np.int64),
        shape=np.zeros(8, np.int64),
        tuning=tuning() if tune is None else tune,
    )


def _offsets(width: int):
    rows = []
    for dr in range(-2, 3):
        for dc in range(-2, 3):
            if dr or dc:
                rows.append((dr * width + dc, 1 if max(abs(dr), abs(dc)) == 1 else 0))
    return np.array(rows, np.int64)


def _tiny_rules() -> RuleArrays:
    """Rule arrays of the right types (for signatures)."""
    one, two = np.zeros(1, np.int64), np.zeros((1, 1), np.int64)
    return RuleArrays(points=one, inner=one, lines=two, line_len=one, tria=two, dirs8=one, par=one)


#: ``numba.njit`` with the signature named by its arguments (result first; "R" and "W" stand
#: for ``RuleArrays`` and ``Workspace``), cached: recursive functions need it (``qipan.fast``).
_signed = njit_typed(
    lambda numba: {
        "R": numba.typeof(_tiny_rules()),
        "W": numba.typeof(_workspace(4, 4, 2, np.zeros((2, 3), np.int64), 0)),
    },
    sources=SOURCES[1:],
)


# -- shapes ----------------------------------------------------------------------------------
@njit
def _run9(cells):
    n = 1
    k = 5
    while k < 9 and cells[k] == 1:
        n += 1
        k += 1
    k = 3
    while k >= 0 and cells[k] == 1:
        n += 1
        k -= 1
    return n


@njit
def _wins9(cells, need, exact):
    n = _run9(cells)
    return n == need or (n > need and not exact)


@njit
def _completions(cells, need, exact):
    """Empty points among the 9 whose filling makes a winning run through the centre."""
    n = 0
    for e in range(9):
        if cells[e] == 0:
            cells[e] = 1
            if _wins9(cells, need, exact):
                n += 1
            cells[e] = 0
    return n


@njit
def build_table(need, exact):
    """Shapes by key: 2 bits per neighbour (-4..-1, +1..+4 along a line), 0 empty, 1 own,
    2 another stone, 3 off the board; the centre is the point being placed."""
    attack = np.array(_ATTACK, np.int64)
    tab = np.zeros((65536, 3), np.int64)
    cells = np.zeros(9, np.int64)
    for key in range(65536):
        for k in range(8):
            cells[k if k < 4 else k + 1] = (key >> (2 * k)) & 3
        cells[4] = 1
        val = 0
        for start in range(5 - need, 5):
            if start < 0 or start + need > 9:
                continue
            own = 0
            ok = True
            for t in range(start, start + need):
                if cells[t] >= 2:
                    ok = False
                    break
                if cells[t] == 1:
                    own += 1
            if ok:
                val += attack[min(own, 5)]
        tab[key, T_VAL] = val
        if _wins9(cells, need, exact):
            tab[key, T_FOURS] = FIVE
            continue
        fours = _completions(cells, need, exact)
        tab[key, T_FOURS] = fours
        if fours == 0:
            for e in range(9):
                if cells[e] == 0:
                    cells[e] = 1
                    if _completions(cells, need, exact) >= 2:
                        tab[key, T_THREE] = 1
                    cells[e] = 0
    return tab


@njit
def _key(s, i, d, c):
    key = 0
    for k in range(8):
        off = k - 4 if k < 4 else k - 3
        v = s[HEADER + i + off * d]
        if v == EMPTY:
            code = 0
        elif v == c:
            code = 1
        elif v == OFF:
            code = 3
        else:
            code = 2
        key |= code << (2 * k)
    return key


@njit
def _friend(par, players, p, q):
    return q == p or q == _partner(par, players, p)


@njit
def _team_caps(par, s, p):
    partner = _partner(par, s[S_PLAYERS], p)
    return s[S_CAPS + p] + (s[S_CAPS + partner] if partner >= 0 else 0)


# -- candidates, wins and move values --------------------------------------------------------
@njit
def _candidates(points, inner, dirs8, par, s, offs, mark, st, out, near1):
    """Empty points within 2 (king steps) of a stone, ``near1`` marking those within 1;
    the centre on an empty board; points the tournament rule forbids left out. ``mark``
    holds (stamp, list index) per cell."""
    count = 0
    centre = par[P_CENTRE]
    if s[S_PLACED] == 0 and s[HEADER + centre] == EMPTY:
        out[0] = centre
        near1[0] = 1
        return 1
    st[ST_STAMP] += 1
    stamp = st[ST_STAMP]
    restrict = par[P_TOURNAMENT] and s[S_PLACED] == s[S_PLAYERS]
    for k in range(par[P_NPOINTS]):
        i = points[k]
        v = s[HEADER + i]
        if v == EMPTY or v == OFF:
            continue
        for q in range(offs.shape[0]):
            j = i + offs[q, 0]
            if s[HEADER + j] != EMPTY or (restrict and inner[j]):
                continue
            if mark[j, 0] != stamp:
                mark[j, 0] = stamp
                mark[j, 1] = count
                out[count] = j
                near1[count] = offs[q, 1]
                count += 1
            elif offs[q, 1]:
                near1[mark[j, 1]] = 1
    if count == 0:  # e.g. the tournament rule's second stone: any legal point
        buf = np.empty(par[P_NPOINTS] * 8 + 8, np.int64)
        n = legal_moves(points, inner, dirs8, par, s, buf)
        for t in range(n):
            j = buf[t] & 1023
            if mark[j, 0] != stamp and count < out.shape[0]:
                mark[j, 0] = stamp
                mark[j, 1] = count
                out[count] = j
                near1[count] = 0
                count += 1
    return count


@njit
def _captured(par, s, dirs8, i, p):
    """Stones ``p`` would capture (as counted) by placing on ``i``."""
    mask = capture_dirs(dirs8, s, i, p + 1)
    if not mask:
        return 0
    n = 2 * _popcount(mask)
    m = par[P_MAX_PAIRS]
    if m and n > 2 * m:
        n = 2 * m
    return n


@njit
def _wins_at(par, dirs8, s, i, p):
    """Whether ``p`` placing on empty ``i`` wins at once (its line or its captures)."""
    if _line_wins(par, dirs8, s, i, p + 1):
        return True
    caps = _team_caps(par, s, p)
    if caps + 2 >= CAPTURE_TARGET:
        return caps + _captured(par, s, dirs8, i, p) >= CAPTURE_TARGET
    return False


@njit
def _win_points(par, dirs8, s, p, cand, near1, n, out):
    """The candidate points (within 1 of a stone: every winning point is) where ``p`` wins."""
    c = 0
    for t in range(n):
        if near1[t] and _wins_at(par, dirs8, s, cand[t], p) and c < out.shape[0]:
            out[c] = cand[t]
            c += 1
    return c


@njit
def _code(par, dirs8, s, i, me):
    """The move placing on ``i``: with ``max_pairs_per_move`` a choice of pairs when needed."""
    if par[P_MAX_PAIRS] == 0:
        return i
    tmp = np.empty(64, np.int64)
    _choices(par, dirs8, s, i, me, tmp, 0)
    return tmp[0]


@njit
def _shape(tab, dirs8, s, i, c, out):
    """Shapes of placing colour ``c`` on ``i``: out = (value, five, fours, open fours, threes)."""
    val = five = fours = open_fours = threes = 0
    for q in range(4):
        k = _key(s, i, dirs8[q], c)
        val += tab[k, T_VAL]
        f = tab[k, T_FOURS]
        if f == FIVE:
            five = 1
        elif f >= 2:
            open_fours += 1
        elif f == 1:
            fours += 1
        threes += tab[k, T_THREE]
    out[0], out[1], out[2], out[3], out[4] = val, five, fours, open_fours, threes


@njit
def _threat_bonus(five, fours, open_fours, threes):
    if five:
        return 1 << 30
    if open_fours or fours >= 2:
        return 200_000
    if fours and threes:
        return 80_000
    if threes >= 2:
        return 40_000
    if fours:
        return 3_000
    if threes:
        return 2_000
    return 0


@njit
def _move_value(par, tab, dirs8, s, i, p, sh):
    """How good placing ``p`` on ``i`` looks: own shapes, the enemies' shapes it blocks,
    captures, own pairs it saves or exposes."""
    players = s[S_PLAYERS]
    me = p + 1
    _shape(tab, dirs8, s, i, me, sh)
    score = sh[0] + _threat_bonus(sh[1], sh[2], sh[3], sh[4])
    best_def = 0
    for q in range(players):
        if _friend(par, players, p, q):
            continue
        _shape(tab, dirs8, s, i, q + 1, sh)
        d = sh[0] * 4 // 5 + _threat_bonus(sh[1], sh[2], sh[3], sh[4]) // 2
        if d > best_def:
            best_def = d
        pairs = _popcount(capture_dirs(dirs8, s, i, q + 1))
        if pairs:  # our pairs the enemy could take here: placing here saves them
            score += pairs * (1500 + 400 * s[S_CAPS + q])
    score += best_def
    taken = _captured(par, s, dirs8, i, p)
    if taken:
        caps = _team_caps(par, s, p)
        score += taken * (900 + 350 * caps)
        if caps + taken >= CAPTURE_TARGET:
            score += 1 << 30
    for k in range(8):  # a new pair of ours that an enemy could take at once
        d = dirs8[k]
        a = s[HEADER + i + d]
        if a == me:
            b = s[HEADER + i + 2 * d]
            back = s[HEADER + i - d]
            if (b == EMPTY and EMPTY < back < OFF and not _friend(par, players, p, back - 1)) or (
                back == EMPTY and EMPTY < b < OFF and not _friend(par, players, p, b - 1)
            ):
                score -= 1200
    return score


# -- evaluation ------------------------------------------------------------------------------
@njit
def evaluate(lines, line_len, par, tu, s, p):
    """Static value for ``p`` (the side to move) in search units (a win is ``WIN``), by the
    weights in ``tu`` (``W.tuning``)."""
    need = par[P_WIN_LENGTH]
    players = s[S_PLAYERS]
    hist = np.zeros((5, 6), np.int64)
    exposed = np.zeros(5, np.int64)
    counts = np.zeros(8, np.int64)
    for li in range(lines.shape[0]):
        length = line_len[li]
        for t in range(8):
            counts[t] = 0
        for t in range(length):
            counts[s[HEADER + lines[li, t]]] += 1
            if t >= need:
                counts[s[HEADER + lines[li, t - need]]] -= 1
            if t >= need - 1:
                stones = need - counts[EMPTY]
                if stones > 0:
                    for c in range(1, players + 1):
                        if counts[c] == stones:
                            hist[c, stones] += 1
                            break
        for t in range(length - 3):
            b = s[HEADER + lines[li, t + 1]]
            if b == EMPTY or s[HEADER + lines[li, t + 2]] != b:
                continue
            a = s[HEADER + lines[li, t]]
            d = s[HEADER + lines[li, t + 3]]
            if (a == EMPTY and d != EMPTY and d != b) or (d == EMPTY and a != EMPTY and a != b):
                exposed[b] += 1
    value = 0
    for q in range(players):
        c = q + 1
        v = 0
        for k in range(1, 5):
            v += hist[c, k] * (tu[TU_MOVER + k] if q == p else tu[TU_OTHER + k])
        caps = min(s[S_CAPS + q], 10)
        v += tu[TU_CAPS + caps]
        if _friend(par, players, p, q):
            value += v
        else:
            value -= v
    # pairs a capture threatens: the side to move takes one now, the other threatens ours
    caps_p = min(_team_caps(par, s, p), 9)
    for q in range(players):
        if exposed[q + 1] == 0:
            continue
        if _friend(par, players, p, q):
            value -= exposed[q + 1] * tu[TU_PAIRS]
        else:
            value += tu[TU_PAIRS + 1] + tu[TU_PAIRS + 2] * caps_p + (exposed[q + 1] - 1) * tu[TU_PAIRS + 3]
    return value


# -- alpha-beta ------------------------------------------------------------------------------
@njit
def _header_hash(zh, s):
    h = zh[s[S_TO_MOVE] + 1] ^ zh[8 + s[S_PENDING] + 1]
    for q in range(s[S_PLAYERS]):
        h ^= zh[16 + 16 * q + min(s[S_CAPS + q], 15)]
    return h


@njit
def cells_hash(points, zob, s):
    """The Zobrist hash of ``s``'s cells (``zob[cell, content]``; a table whose empty column
    is 0 gives the reference state's ``zhash``, as the generic ``alphabeta`` uses)."""
    h = np.uint64(0)
    for k in range(points.shape[0]):
        i = points[k]
        h ^= zob[i, s[HEADER + i]]
    return h


@njit
def rehash(zob, s, undo, h):
    """``h`` updated for the cells the move recorded in ``undo`` changed."""
    for k in range(undo[HEADER - 1]):
        j = undo[HEADER + 2 * k]
        h ^= zob[j, undo[HEADER + 2 * k + 1]] ^ zob[j, s[HEADER + j]]
    return h


@njit
def note_cutoff(killers, history, ply, code, point, depth):
    """A move that cut off at ``ply``: the first killer there (the old first one second), and
    history credit for its point (the generic ``alphabeta``'s hooks use it too)."""
    if killers[ply, 0] != code:
        killers[ply, 1] = killers[ply, 0]
        killers[ply, 0] = code
    history[point] += depth * depth


@njit
def _terminal_value(s, p, ply):
    r = s[S_RESULT]
    if r == 0:
        return 0
    if r >> p & 1:
        return WIN - ply
    return -(WIN - ply)


@njit
def _sort(moves, scores, n):
    for a in range(1, n):  # insertion sort, best first (lists are short)
        m, v = moves[a], scores[a]
        b = a - 1
        while b >= 0 and scores[b] < v:
            moves[b + 1], scores[b + 1] = moves[b], scores[b]
            b -= 1
        moves[b + 1], scores[b + 1] = m, v


@njit
def _order(R, W, s, ply, p, width, tt_move, forced_only, nf):
    """Fill ``mv[ply]`` with the moves to search, best first; returns their count."""
    dirs8, par = R.dirs8, R.par
    tab, mv, msc, cand, wbuf = W.shapes, W.moves, W.move_values, W.candidates, W.win_points
    killers, hist, sh = W.killers, W.history, W.shape
    n = nf
    moves = mv[ply]
    scores = msc[ply]
    c = cand[ply]
    count = 0
    if forced_only:
        # the opponent wins next unless we block one of its points or capture: those only
        for t in range(n):
            j = c[t]
            is_block = False
            for u in range(wbuf.shape[1]):
                if wbuf[ply, u] < 0:
                    break
                if wbuf[ply, u] == j:
                    is_block = True
                    break
            if is_block or capture_dirs(dirs8, s, j, p + 1):
                moves[count] = j
                scores[count] = _move_value(par, tab, dirs8, s, j, p, sh)
                count += 1
    else:
        for t in range(n):
            j = c[t]
            moves[count] = j
            scores[count] = _move_value(par, tab, dirs8, s, j, p, sh) + hist[j]
            count += 1
    for t in range(count):
        j = moves[t]
        if j == tt_move:
            scores[t] += 1 << 40
        elif j == killers[ply, 0]:
            scores[t] += 1 << 20
        elif j == killers[ply, 1]:
            scores[t] += 1 << 19
    _sort(moves, scores, count)
    if not forced_only and count > width:
        count = width
    return count


@njit
def _node_setup(R, W, s, ply, p):
    """Candidates of the node at ``ply``; returns (count, a winning point of ``p`` or -1,
    number of the opponents' winning points, written to ``wbuf[ply]`` ending with -1)."""
    points, inner, dirs8, par = R.points, R.inner, R.dirs8, R.par
    offs, mark, st, cand, near1, wbuf = W.offsets, W.mark, W.stats, W.candidates, W.near1, W.win_points
    n = _candidates(points, inner, dirs8, par, s, offs, mark, st, cand[ply], near1[ply])
    win = -1
    for t in range(n):
        if near1[ply, t] and _wins_at(par, dirs8, s, cand[ply, t], p):
            win = cand[ply, t]
            break
    threats = 0
    if win < 0:
        players = s[S_PLAYERS]
        for t in range(n):
            if not near1[ply, t]:
                continue
            j = cand[ply, t]
            for q in range(players):
                if not _friend(par, players, p, q) and _wins_at(par, dirs8, s, j, q):
                    if threats < wbuf.shape[1] - 1:
                        wbuf[ply, threats] = j
                        threats += 1
                    break
    wbuf[ply, threats] = -1
    return n, win, threats


@_signed("i8", "R", "W", "a1", "u8", "i8", "i8", "i8", "i8", "i8")
def alphabeta(R, W, s, h, depth, alpha, beta, ply, width):
    """Negamax PVS value of ``s`` for the side to move (two players)."""
    points, lines, line_len, tria, dirs8, par = R.points, R.lines, R.line_len, R.tria, R.dirs8, R.par
    tab, zob, zh, st, mv, cand = W.shapes, W.zobrist, W.header_keys, W.stats, W.moves, W.candidates
    undo, ttk, tti, killers, hist, sh = W.undo, W.tt_keys, W.tt_entries, W.killers, W.history, W.shape
    st[ST_NODES] += 1
    if st[ST_NODES] > st[ST_BUDGET]:
        st[ST_ABORT] = 1
        return 0
    p = s[S_TO_MOVE]
    n, win, threats = _node_setup(R, W, s, ply, p)
    if win >= 0:
        return WIN - ply - 1
    if n == 0:
        return 0
    if ply >= MAX_PLY - 2:
        return evaluate(lines, line_len, par, W.tuning, s, p)
    key = h ^ _header_hash(zh, s)
    slot = np.int64(key & np.uint64(ttk.shape[0] - 1))
    tt_move = -1
    if ttk[slot] == key:
        tt_move = tti[slot, 3]
        if tti[slot, 1] >= depth:
            v = tti[slot, 0]
            f = tti[slot, 2]
            if f == TT_EXACT or (f == TT_LOWER and v >= beta) or (f == TT_UPPER and v <= alpha):
                return v
    # past the horizon only the forced replies to a threat to win, ``TU_QUIESCE`` plies deep
    if depth <= 0 and not (threats > 0 and depth > -W.tuning[TU_QUIESCE]):
        v = evaluate(lines, line_len, par, W.tuning, s, p)
        if threats >= 2:
            v -= 3000  # two points to stop: only captures can save this
        elif threats == 0:
            # the side to move can make an open four or a double threat
            for t in range(n):
                _shape(tab, dirs8, s, cand[ply, t], p + 1, sh)
                if sh[3] or sh[2] >= 2 or (sh[2] and sh[4]):
                    v += 2500
                    break
        return v
    count = _order(R, W, s, ply, p, width, tt_move, threats > 0, n)
    if count == 0:
        # no block and no capture helps: every move loses at once
        return -(WIN - ply - 2)
    new_depth = depth - 1
    if threats > 0 and count == 1:
        new_depth = depth  # a single forced reply: look further for free
    best = -2 * WIN
    best_move = mv[ply, 0]
    a0 = alpha
    u = undo[ply]
    for t in range(count):
        j = mv[ply, t]
        play(points, lines, line_len, tria, dirs8, par, s, _code(par, dirs8, s, j, p + 1), u)
        h2 = rehash(zob, s, u, h)
        if s[S_RESULT] != ONGOING:
            v = _terminal_value(s, p, ply + 1)
        elif t == 0:
            v = -alphabeta(R, W, s, h2, new_depth, -beta, -alpha, ply + 1, width)
        else:
            v = -alphabeta(R, W, s, h2, new_depth, -alpha - 1, -alpha, ply + 1, width)
            if alpha < v < beta and not st[ST_ABORT]:
                v = -alphabeta(R, W, s, h2, new_depth, -beta, -alpha, ply + 1, width)
        unplay(s, u)
        if st[ST_ABORT]:
            return 0
        if v > best:
            best = v
            best_move = j
        if v > alpha:
            alpha = v
        if alpha >= beta:
            note_cutoff(killers, hist, ply, j, j, depth)
            break
    flag = TT_EXACT
    if best <= a0:
        flag = TT_UPPER
    elif best >= beta:
        flag = TT_LOWER
    ttk[slot] = key
    tti[slot, 0], tti[slot, 1], tti[slot, 2], tti[slot, 3] = best, depth, flag, best_move
    return best


@njit
def search_root(R, W, s, h, depth, width, root_moves, nroot, values):
    """One iteration at the root over ``root_moves`` (in order); ``values`` receives each
    move's value (-2*WIN if not searched). Returns the best index, -1 if aborted at once."""
    points, lines, line_len, tria, dirs8, par = R.points, R.lines, R.line_len, R.tria, R.dirs8, R.par
    zob, st, undo = W.zobrist, W.stats, W.undo
    p = s[S_TO_MOVE]
    alpha = -2 * WIN
    beta = 2 * WIN
    best = -1
    u = undo[0]
    for t in range(nroot):
        values[t] = -2 * WIN
    for t in range(nroot):
        j = root_moves[t]
        play(points, lines, line_len, tria, dirs8, par, s, _code(par, dirs8, s, j, p + 1), u)
        h2 = rehash(zob, s, u, h)
        if s[S_RESULT] != ONGOING:
            v = _terminal_value(s, p, 1)
        elif best < 0:
            v = -alphabeta(R, W, s, h2, depth - 1, -beta, -alpha, 1, width)
        else:
            v = -alphabeta(R, W, s, h2, depth - 1, -alpha - 1, -alpha, 1, width)
            if v > alpha and not st[ST_ABORT]:
                v = -alphabeta(R, W, s, h2, depth - 1, -beta, -alpha, 1, width)
        unplay(s, u)
        if st[ST_ABORT]:
            break
        values[t] = v
        if best < 0 or v > alpha:
            alpha = v
            best = t
    return best


@njit
def root_moves(R, W, s, out_moves, out_scores):
    """The root's candidates, best first, with their ordering values; a winning move alone
    when there is one, only forced replies when the opponent threatens to win."""
    mv, msc, cand = W.moves, W.move_values, W.candidates
    p = s[S_TO_MOVE]
    n, win, threats = _node_setup(R, W, s, 0, p)
    if win >= 0:
        out_moves[0] = win
        out_scores[0] = 1 << 40
        return 1
    count = _order(R, W, s, 0, p, MAX_MOVES, -1, threats > 0, n)
    if count == 0:  # lost whatever we do: any move
        count = min(n, 1)
        mv[0, 0] = cand[0, 0]
        msc[0, 0] = 0
    for t in range(count):
        out_moves[t] = mv[0, t]
        out_scores[t] = msc[0, t]
    return count


# -- threat-space search (two players) -------------------------------------------------------
@njit
def _defences(R, W, s, ply, d, wins, nwins, out):
    """The defender ``d``'s replies that can stop an immediate win of the attacker: the
    winning points and every capture of ``d`` near the stones (no other move changes them)."""
    points, inner, dirs8, par = R.points, R.inner, R.dirs8, R.par
    offs, mark, st, cand, near1 = W.offsets, W.mark, W.stats, W.candidates, W.near1
    n = _candidates(points, inner, dirs8, par, s, offs, mark, st, cand[ply], near1[ply])
    count = 0
    for t in range(nwins):
        out[count] = wins[t]
        count += 1
    for t in range(n):
        j = cand[ply, t]
        if near1[ply, t] and capture_dirs(dirs8, s, j, d + 1):
            dup = False
            for u in range(nwins):
                if wins[u] == j:
                    dup = True
                    break
            if not dup:
                out[count] = j
                count += 1
    return count


@njit
def _any_win(R, W, s, ply, p):
    points, inner, dirs8, par = R.points, R.inner, R.dirs8, R.par
    offs, mark, st, cand, near1 = W.offsets, W.mark, W.stats, W.candidates, W.near1
    n = _candidates(points, inner, dirs8, par, s, offs, mark, st, cand[ply], near1[ply])
    for t in range(n):
        if near1[ply, t] and _wins_at(par, dirs8, s, cand[ply, t], p):
            return True
    return False


@njit
def _threat_moves(R, W, s, ply, p, threes):
    """Attacking moves of ``p`` into ``mv[ply]``, best first: fours, capture-win threats and
    captures (and open threes with ``threes``)."""
    points, inner, dirs8, par = R.points, R.inner, R.dirs8, R.par
    tab, offs, mark, st, mv, msc = W.shapes, W.offsets, W.mark, W.stats, W.moves, W.move_values
    cand, near1, sh = W.candidates, W.near1, W.shape
    n = _candidates(points, inner, dirs8, par, s, offs, mark, st, cand[ply], near1[ply])
    caps = _team_caps(par, s, p)
    count = 0
    for t in range(n):
        j = cand[ply, t]
        _shape(tab, dirs8, s, j, p + 1, sh)
        ok = sh[1] or sh[2] or sh[3] or (threes and sh[4])
        if not ok and capture_dirs(dirs8, s, j, p + 1):
            ok = True
        if not ok and caps + 2 >= CAPTURE_TARGET:
            for k in range(8):  # X O O _ : the next capture would win
                dd = dirs8[k]
                a = s[HEADER + j + dd]
                if a != EMPTY and a != OFF and a != p + 1:
                    b = s[HEADER + j + 2 * dd]
                    if b != EMPTY and b != OFF and b != p + 1 and s[HEADER + j + 3 * dd] == EMPTY:
                        ok = True
                        break
        if ok:
            mv[ply, count] = j
            msc[ply, count] = _move_value(par, tab, dirs8, s, j, p, sh)
            count += 1
    _sort(mv[ply], msc[ply], count)
    return count


@njit
def _try_threat(R, W, s, p, ply, j):
    """Play ``p``'s attacking move ``j`` at ``ply`` (the opening steps of ``vcf`` and ``vct``):
    ``THREAT_WON`` (undone) when it wins at once, ``THREAT_VOID`` (undone) when it ends the
    game otherwise or lets the defender win at once, else ``p``'s winning points after it,
    counted into ``wbuf[ply + 1]`` (the move stays played, on ``undo[ply]``)."""
    points, inner, lines, line_len, tria = R.points, R.inner, R.lines, R.line_len, R.tria
    dirs8, par = R.dirs8, R.par
    offs, mark, st, cand, near1, wbuf = W.offsets, W.mark, W.stats, W.candidates, W.near1, W.win_points
    undo = W.undo
    u = undo[ply]
    play(points, lines, line_len, tria, dirs8, par, s, _code(par, dirs8, s, j, p + 1), u)
    if s[S_RESULT] != ONGOING:
        won = s[S_RESULT] >> p & 1
        unplay(s, u)
        return THREAT_WON if won else THREAT_VOID
    if _any_win(R, W, s, ply + 1, 1 - p):
        unplay(s, u)
        return THREAT_VOID
    n = _candidates(points, inner, dirs8, par, s, offs, mark, st, cand[ply + 1], near1[ply + 1])
    return _win_points(par, dirs8, s, p, cand[ply + 1], near1[ply + 1], n, wbuf[ply + 1])


@_signed("i8", "R", "W", "a1", "i8", "i8", "i8")
def vcf(R, W, s, p, depth, ply):
    """A first move of a forced win of ``p`` (to move) by continuous threats to win at once,
    at most ``depth`` of them; -1 if none is found."""
    points, lines, line_len, tria, dirs8, par = R.points, R.lines, R.line_len, R.tria, R.dirs8, R.par
    st, mv, wbuf, undo = W.stats, W.moves, W.win_points, W.undo
    st[ST_NODES] += 1
    if st[ST_NODES] > st[ST_BUDGET]:
        st[ST_ABORT] = 1
        return -1
    if depth <= 0 or ply >= MAX_PLY - 4:
        return -1
    d = 1 - p
    count = _threat_moves(R, W, s, ply, p, False)
    u = undo[ply]
    u2 = undo[ply + 1]
    wins = wbuf[ply + 1]
    replies = mv[ply + 2]
    for t in range(count):
        j = mv[ply, t]
        nwins = _try_threat(R, W, s, p, ply, j)
        if nwins == THREAT_WON:
            return j
        if nwins == THREAT_VOID:
            continue
        if nwins == 0:
            unplay(s, u)
            continue
        nrep = _defences(R, W, s, ply + 1, d, wins, nwins, replies)
        held = True
        for r in range(nrep):
            a = replies[r]
            play(points, lines, line_len, tria, dirs8, par, s, _code(par, dirs8, s, a, d + 1), u2)
            if s[S_RESULT] != ONGOING:
                ok = s[S_RESULT] >> p & 1
            elif _any_win(R, W, s, ply + 3, p):
                ok = True
            else:
                ok = vcf(R, W, s, p, depth - 1, ply + 3) >= 0
            unplay(s, u2)
            if not ok or st[ST_ABORT]:
                held = False
                break
        unplay(s, u)
        if st[ST_ABORT]:
            return -1
        if held:
            return j
    return -1


@_signed("i8", "R", "W", "a1", "i8", "i8", "i8", "i8")
def vct(R, W, s, p, depth, vcf_depth, ply):
    """A first move of a forced win of ``p`` by threats (fours and open threes, ``depth``
    of them, then a VCF of ``vcf_depth``); -1 if none is found. Against a three every
    defender reply near the stones is tried."""
    points, inner, lines, line_len, tria = R.points, R.inner, R.lines, R.line_len, R.tria
    dirs8, par = R.dirs8, R.par
    offs, mark, st, mv, cand, near1 = W.offsets, W.mark, W.stats, W.moves, W.candidates, W.near1
    wbuf, undo = W.win_points, W.undo
    st[ST_NODES] += 1
    if st[ST_NODES] > st[ST_BUDGET]:
        st[ST_ABORT] = 1
        return -1
    if ply >= MAX_PLY - 8:
        return -1
    found = vcf(R, W, s, p, vcf_depth, ply)
    if found >= 0 or depth <= 0 or st[ST_ABORT]:
        return found
    d = 1 - p
    count = _threat_moves(R, W, s, ply, p, True)
    u = undo[ply]
    u2 = undo[ply + 1]
    wins = wbuf[ply + 1]
    replies = mv[ply + 2]
    for t in range(count):
        j = mv[ply, t]
        nwins = _try_threat(R, W, s, p, ply, j)
        if nwins == THREAT_WON:
            return j
        if nwins == THREAT_VOID:
            continue
        if nwins > 0:
            nrep = _defences(R, W, s, ply + 1, d, wins, nwins, replies)
        else:
            # a quiet threat: it counts only if p, moving again, would have a VCF
            s[S_TO_MOVE] = p
            threat = vcf(R, W, s, p, vcf_depth, ply + 1)
            s[S_TO_MOVE] = d
            if threat < 0 or st[ST_ABORT]:
                unplay(s, u)
                if st[ST_ABORT]:
                    return -1
                continue
            n = _candidates(points, inner, dirs8, par, s, offs, mark, st, cand[ply + 1], near1[ply + 1])
            nrep = n
            for r in range(n):
                replies[r] = cand[ply + 1, r]
        held = True
        for r in range(nrep):
            a = replies[r]
            play(points, lines, line_len, tria, dirs8, par, s, _code(par, dirs8, s, a, d + 1), u2)
            if s[S_RESULT] != ONGOING:
                ok = s[S_RESULT] >> p & 1
            elif _any_win(R, W, s, ply + 3, p):
                ok = True
            else:
                ok = vct(R, W, s, p, depth - 1, vcf_depth, ply + 3) >= 0
            unplay(s, u2)
            if not ok or st[ST_ABORT]:
                held = False
                break
        unplay(s, u)
        if st[ST_ABORT]:
            return -1
        if held:
            return j
    return -1


@njit
def safe_against_vcf(R, W, s, moves, n, vcf_depth, out):
    """``out[k] = 1`` when after ``moves[k]`` the opponent has no VCF (0 if it has one, -1 if
    the budget ran out first). Returns how many were checked."""
    points, lines, line_len, tria, dirs8, par = R.points, R.lines, R.line_len, R.tria, R.dirs8, R.par
    st, undo = W.stats, W.undo
    p = s[S_TO_MOVE]
    u = undo[0]
    done = 0
    for k in range(n):
        out[k] = -1
    for k in range(n):
        play(points, lines, line_len, tria, dirs8, par, s, _code(par, dirs8, s, moves[k], p + 1), u)
        if s[S_RESULT] != ONGOING:
            ok = 1 if s[S_RESULT] >> p & 1 else 0
        else:
            ok = 1 if vcf(R, W, s, 1 - p, vcf_depth, 1) < 0 else 0
        unplay(s, u)
        if st[ST_ABORT]:
            break
        out[k] = ok
        done += 1
    return done


# -- four players: paranoid ------------------------------------------------------------------
@_signed("i8", "R", "W", "a1", "i8", "i8", "i8", "i8", "i8", "i8")
def paranoid(R, W, s, root, depth, alpha, beta, ply, width):
    """Value for ``root``'s side: it and its partner maximise, every other player minimises."""
    points, lines, line_len, tria, dirs8, par = R.points, R.lines, R.line_len, R.tria, R.dirs8, R.par
    st, mv, undo = W.stats, W.moves, W.undo
    st[ST_NODES] += 1
    if st[ST_NODES] > st[ST_BUDGET]:
        st[ST_ABORT] = 1
        return 0
    players = s[S_PLAYERS]
    p = s[S_TO_MOVE]
    maximise = _friend(par, players, root, p)
    n, win, threats = _node_setup(R, W, s, ply, p)
    if win >= 0:
        return WIN - ply - 1 if maximise else -(WIN - ply - 1)
    if n == 0:
        return 0
    if depth <= 0 or ply >= MAX_PLY - 2:
        v = evaluate(lines, line_len, par, W.tuning, s, p)
        return v if maximise else -v
    count = _order(R, W, s, ply, p, width, -1, threats > 0, n)
    if count == 0:
        count = _order(R, W, s, ply, p, width, -1, False, n)
    best = -2 * WIN if maximise else 2 * WIN
    u = undo[ply]
    for t in range(count):
        j = mv[ply, t]
        play(points, lines, line_len, tria, dirs8, par, s, _code(par, dirs8, s, j, p + 1), u)
        if s[S_RESULT] != ONGOING:
            r = s[S_RESULT]
            if r == 0:
                v = 0
            elif r >> root & 1:
                v = WIN - ply
            else:
                v = -(WIN - ply)
        else:
            v = paranoid(R, W, s, root, depth - 1, alpha, beta, ply + 1, width)
        unplay(s, u)
        if st[ST_ABORT]:
            return 0
        if maximise:
            if v > best:
                best = v
                if ply == 0:
                    st[ST_BEST] = j
            alpha = max(alpha, v)
        else:
            best = min(best, v)
            beta = min(beta, v)
        if alpha >= beta:
            break
    return best


# -- exhaustive proof (checks the tactical positions) ----------------------------------------
@njit
def _all_points(points, inner, dirs8, par, s, out):
    """Every legal placement (one code per point: the first choice of pairs)."""
    buf = np.empty(par[P_NPOINTS] * 8 + 8, np.int64)
    n = legal_moves(points, inner, dirs8, par, s, buf)
    count = 0
    last = -1
    for k in range(n):
        i = buf[k] & 1023
        if i != last:
            out[count] = buf[k]
            count += 1
            last = i
    return count


@njit
def _exact_wins(R, s, p, out, undo):
    """Every point where ``p`` wins at once, by the rules' own tests on the placed point: a
    line through it (``kernel._line_wins``) or captures reaching 10. Only points next to a
    stone can win (a line needs an own neighbour, a capture an enemy one)."""
    points, dirs8, par = R.points, R.dirs8, R.par
    c = 0
    caps = s[S_CAPS + p]
    for k in range(par[P_NPOINTS]):
        i = points[k]
        if s[HEADER + i] != EMPTY:
            continue
        near = False
        for q in range(8):
            v = s[HEADER + i + dirs8[q]]
            if v != EMPTY and v != OFF:
                near = True
                break
        if not near:
            continue
        if _line_wins(par, dirs8, s, i, p + 1) or caps + _captured(par, s, dirs8, i, p) >= CAPTURE_TARGET:
            out[c] = i
            c += 1
    return c


@_signed("b", "R", "a1", "i8", "i8", "a2", "a1")
def prove(R, s, attacker, plies, undos, counter):
    """Whether ``attacker`` wins within ``plies`` plies against every defence, by exhaustive
    AND/OR search on the kernel's rules (no shapes, no evaluation). At a defender node where
    the attacker already threatens to win at once only the replies that could stop it are
    tried: the winning points themselves, the defender's captures and the defender's own
    wins (any other stone leaves every winning point of the attacker as it is)."""
    points, inner, lines, line_len, tria = R.points, R.inner, R.lines, R.line_len, R.tria
    dirs8, par = R.dirs8, R.par
    counter[0] += 1
    if counter[0] > counter[1]:
        counter[2] = 1  # out of nodes: the answer False means "not proved"
        return False
    if s[S_RESULT] != ONGOING:
        return bool(s[S_RESULT] >> attacker & 1)
    if plies <= 0:
        return False
    ply_index = plies
    u = undos[ply_index]
    p = s[S_TO_MOVE]
    moves = np.empty(par[P_NPOINTS] + 1, np.int64)
    n = _all_points(points, inner, dirs8, par, s, moves)
    if p == attacker:
        wins = np.empty(par[P_NPOINTS] + 1, np.int64)
        if _exact_wins(R, s, p, wins, u) > 0:
            return True
        if plies < 3:
            return False
        order = np.empty(n, np.int64)
        weight = np.empty(n, np.int64)
        me = p + 1
        for k in range(n):  # plain counts: the most own stones in a clean window, then neighbours
            i = moves[k] & 1023
            most = 0
            near = 0
            for q in range(4):
                d = dirs8[q]
                for start in range(-4, 1):
                    own = 0
                    clean = True
                    for t in range(start, start + 5):
                        c = s[HEADER + i + t * d] if t != 0 else me
                        if c == me:
                            own += 1
                        elif c != EMPTY:
                            clean = False
                            break
                    if clean and own > most:
                        most = own
            for q in range(8):
                for step in range(1, 3):
                    c = s[HEADER + i + step * dirs8[q]]
                    if c != EMPTY and c != OFF:
                        near += 3 - step
            order[k] = moves[k]
            weight[k] = 100 * most + near if near else 0
        _sort(order, weight, n)
        for k in range(n):
            if weight[k] == 0:
                break
            play(points, lines, line_len, tria, dirs8, par, s, order[k], u)
            ok = prove(R, s, attacker, plies - 1, undos, counter)
            unplay(s, u)
            if ok:
                return True
        return False
    # the defender: the attacker's immediate wins (as if it moved now) narrow the replies
    if plies < 2:
        return False
    s[S_TO_MOVE] = attacker
    wins = np.empty(par[P_NPOINTS] + 1, np.int64)
    nwins = _exact_wins(R, s, attacker, wins, u)
    s[S_TO_MOVE] = p
    for k in range(n):
        code = moves[k]
        i = code & 1023
        if nwins > 0:
            relevant = capture_dirs(dirs8, s, i, p + 1) != 0 or _line_wins(par, dirs8, s, i, p + 1)
            for t in range(nwins):
                if wins[t] & 1023 == i:
                    relevant = True
            if not relevant:
                continue
        play(points, lines, line_len, tria, dirs8, par, s, code, u)
        ok = prove(R, s, attacker, plies - 1, undos, counter)
        unplay(s, u)
        if not ok:
            return False
    if nwins > 0 and n > 0:
        # one irrelevant reply stands for all of them: the attacker must still win at once
        for k in range(n):
            code = moves[k]
            i = code & 1023
            relevant = capture_dirs(dirs8, s, i, p + 1) != 0 or _line_wins(par, dirs8, s, i, p + 1)
            for t in range(nwins):
                if wins[t] & 1023 == i:
                    relevant = True
            if not relevant:
                play(points, lines, line_len, tria, dirs8, par, s, code, u)
                ok = s[S_RESULT] == ONGOING and _exact_wins(R, s, attacker, wins, undos[0]) > 0
                unplay(s, u)
                if not ok:
                    return False
                break
    return True


# -- the Python side -------------------------------------------------------------------------
_TABLES: dict = {}


class Searcher:
    """The search arrays of one kernel (one game's options): shape table, Zobrist keys,
    transposition table, killers, history and the per-ply buffers."""

    def __init__(self, kernel, tt_bits: int = 18, seed: int = 0x5EED, tune=None):
        self.kernel = k = kernel
        par = k.par
        key = (int(par[P_WIN_LENGTH]), bool(kernel.game.exact))
        if key not in _TABLES:
            _TABLES[key] = build_table(*key)
        self.W = _workspace(k.geom.size, int(par[P_N]) + PAD, tt_bits, _TABLES[key], seed, tune)
        self.zob = self.W.zobrist
        self.R = k.arrays
        self.st = self.W.stats

    def new_search(self) -> None:
        """Forget the killers and age the history (the transposition table stays)."""
        self.W.killers[:] = -1
        self.W.history[:] //= 4

    def budget(self, nodes: int) -> None:
        self.st[ST_NODES] = 0
        self.st[ST_BUDGET] = max(int(nodes), 1)
        self.st[ST_ABORT] = 0

    @property
    def nodes(self) -> int:
        return int(self.st[ST_NODES])

    @property
    def aborted(self) -> bool:
        return bool(self.st[ST_ABORT])

    def hash(self, s) -> np.uint64:
        return cells_hash(self.kernel.points, self.zob, s)

    def root_moves(self, s) -> tuple[list[int], list[int]]:
        moves = np.zeros(MAX_MOVES, np.int64)
        scores = np.zeros(MAX_MOVES, np.int64)
        n = root_moves(self.R, self.W, s, moves, scores)
        return moves[:n].tolist(), scores[:n].tolist()

    def iterate(self, s, depth: int, width: int, moves: list[int]) -> tuple[int, list[int]]:
        arr = np.array(moves, np.int64)
        values = np.zeros(len(moves), np.int64)
        best = search_root(self.R, self.W, s, self.hash(s), depth, width, arr, len(moves), values)
        return int(best), values.tolist()

    def vcf(self, s, depth: int) -> int:
        return int(vcf(self.R, self.W, s, int(s[S_TO_MOVE]), depth, 0))

    def vct(self, s, depth: int, vcf_depth: int) -> int:
        return int(vct(self.R, self.W, s, int(s[S_TO_MOVE]), depth, vcf_depth, 0))

    def safe(self, s, moves: list[int], vcf_depth: int) -> list[int]:
        arr = np.array(moves, np.int64)
        out = np.zeros(len(moves), np.int64)
        safe_against_vcf(self.R, self.W, s, arr, len(moves), vcf_depth, out)
        return out.tolist()

    def paranoid(self, s, depth: int, width: int) -> tuple[int, int]:
        self.st[ST_BEST] = -1
        v = paranoid(self.R, self.W, s, int(s[S_TO_MOVE]), depth, -2 * WIN, 2 * WIN, 0, width)
        return int(v), int(self.st[ST_BEST])

    def evaluate(self, s) -> int:
        k = self.kernel
        return int(evaluate(k.lines, k.line_len, k.par, self.W.tuning, s, int(s[S_TO_MOVE])))

    def prove(self, s, plies: int, attacker: int | None = None, nodes: int = 10**9) -> bool | None:
        """Exhaustive check: does ``attacker`` (default: the side to move) win within
        ``plies`` plies against every defence? None when ``nodes`` ran out first."""
        undos = np.zeros((plies + 2, HEADER + 40), np.int64)
        counter = np.array([0, nodes, 0], np.int64)
        who = int(s[S_TO_MOVE]) if attacker is None else attacker
        ok = prove(self.R, s.copy(), who, plies, undos, counter)
        self.proof_nodes = int(counter[0])
        return None if counter[2] else bool(ok)


def warm_up(kernel, ref) -> None:
    """Compile (or load from the disk cache) every search function on a tiny budget, so a
    server pays it at start (``PenteKernel.warm_up``), not on the first move."""
    searcher = searcher_for(kernel)
    start = ref.game.new().play_many(["K10", "L11"]) if ref.num_players == 2 else ref
    s = kernel.state(start)
    searcher.budget(500)
    moves, _ = searcher.root_moves(s)
    if ref.num_players == 2:
        searcher.iterate(s, 2, 4, moves[:4])
        searcher.vcf(s, 2)
        searcher.vct(s, 1, 2)
        searcher.safe(s, moves[:2], 2)
        searcher.prove(s, 1, nodes=100)
    else:
        searcher.paranoid(s, 1, 2)
    searcher.new_search()


def searcher_for(kernel, tune=None) -> Searcher:
    """The kernel's searcher with the weights ``tune`` (``tuning()``); without them the
    default one, which every agent that names none shares (its transposition table too)."""
    if tune is None:
        found = getattr(kernel, "_searcher", None)
        if found is None:
            found = kernel._searcher = Searcher(kernel)
        return found
    tuned = kernel.__dict__.setdefault("_tuned_searchers", {})
    key = tune.tobytes()
    if key not in tuned:
        tuned[key] = Searcher(kernel, tune=tune)
    return tuned[key]


__all__ = ["CHOSEN", "WIN", "Searcher", "searcher_for"]
