"""The compiled twin of the Trax rules (Numba, ``qipan[fast]``): placement with forced plays,
the illegal-turn rule, loops and lines (both ``line_rule`` forms, ``simultaneous``), 8x8
limits and draws, move generation in the rules' order and random playouts; and, in the
second half, the ``trax`` agent's search on the same arrays (driven by ``kernel_search.py``).
One file, because Numba's disk cache notices changes to a function's own file only: a search
cached apart from the rules it calls could run stale rules.

The board is a window of ``WIDTH`` x ``WIDTH`` cells, ``cells[r * WIDTH + c]`` the tile
(0..5, ``board.py``) or ``EMPTY``; the rules' cell ``pos_of(row, col)`` is window cell
``(row + CENTRE) * WIDTH + col + CENTRE``, so the first tile (row 0, column 0) sits in the
middle and every game keeps the same window from move to move. The outer ring of the window
is never offered as a move (its neighbours would fall outside): ``fits`` says whether a
position leaves room enough (``MARGIN``) for the search; the rules engine covers the rest.

``bb`` holds the tile area and the stack of placed tiles: a turn pushes its tiles (free tile
first) on ``stk``; ``unmake`` pops them and restores the saved area."""

from __future__ import annotations

from typing import NamedTuple

from ...fast import njit, njit_typed, np, rand_below, seed_word
from .board import (
    BITS,
    COLOUR,
    LIMIT,
    LINE_SPAN,
    NS,
    NW,
    OTHER_END,
    RED,
    SYMBOL_TILES,
    SYMBOLS,
    TRACK,
    WHITE,
    WHITE_MASK,
    pos_of,
    row_col,
    tile_joining,
)

WIDTH = 128
NCELL = WIDTH * WIDTH
CENTRE = WIDTH // 2
EMPTY = -1
#: The search needs this many free rows and columns around the tile area (one per ply).
MARGIN = 24
#: ``bb``: the tile area (window rows and columns), the tile count, the stack top.
B_MINR, B_MAXR, B_MINC, B_MAXC, B_COUNT, B_SP = range(6)
#: ``par``: 8x8 limits, lines win, both-colour turns draw, the seed's ``span`` line rule.
P_LIMITED, P_LINES, P_DRAW_BOTH, P_SPAN = range(4)
#: A turn's effect on one colour (``wins_code``): nothing, a loop, a line, both (loop first
#: or line first: the rules name them in the order found).
NONE, LOOP, LINE, LOOP_LINE, LINE_LOOP = range(5)
#: Results of ``play`` (``hdr[H_RESULT]``).
ONGOING, WON, DRAW_BOTH, DRAW_FULL, DRAW_STUCK = range(5)
H_TO_MOVE, H_RESULT, H_MOVER, H_WHITE, H_RED, H_STAMP = range(6)

# Tile tables, flat: COL[t * 4 + d] the colour tile t shows on side d, OTHER[t * 4 + d] the
# other end of the track entering through d, TRK[t * 4 + c * 2 + k] the sides of colour c.
COL = np.array([COLOUR[t][d] for t in range(6) for d in range(4)], np.int64)
OTHER = np.array([OTHER_END[t][d] for t in range(6) for d in range(4)], np.int64)
TRK = np.array([TRACK[t][c][k] for t in range(6) for c in (WHITE, RED) for k in (0, 1)], np.int64)
NBITS = np.array(BITS, np.int64)
WMASK = np.array(WHITE_MASK, np.int64)
FORCED = np.array(
    [[tile_joining(c, m) if BITS[m] == 2 else -1 for m in range(16)] for c in (WHITE, RED)], np.int64
)


def _fit_table():
    """FIT[white * 16 + red, k]: the tile of symbol ``SYMBOLS[k]`` fitting a cell whose
    neighbours show white on ``white`` and red on ``red``, or -1 (``rules.fitting_tile``)."""
    out = np.full((256, 3), -1, np.int64)
    for white in range(16):
        for red in range(16):
            if white & red:
                continue
            for k, symbol in enumerate(SYMBOLS):
                for tile in SYMBOL_TILES[symbol]:
                    if WHITE_MASK[tile] & (white | red) == white:
                        out[white * 16 + red, k] = tile
                        break
    return out


FIT = _fit_table()
DELTA = np.array([-WIDTH, 1, WIDTH, -1], np.int64)


def window(pos: int) -> int:
    """The window cell of the rules' cell ``pos``."""
    r, c = row_col(pos)
    return (r + CENTRE) * WIDTH + c + CENTRE


def absolute(cell: int) -> int:
    """The rules' cell of window cell ``cell``."""
    return pos_of(cell // WIDTH - CENTRE, cell % WIDTH - CENTRE)


# -- one cell ------------------------------------------------------------------------------
@njit
def masks(cells, q):
    """Sides of the empty cell ``q`` whose neighbour shows white, and red, towards it."""
    white = 0
    red = 0
    for d in range(4):
        t = cells[q + DELTA[d]]
        if t >= 0:
            if COL[t * 4 + (d ^ 2)] == WHITE:
                white |= 1 << d
            else:
                red |= 1 << d
    return white, red


@njit
def has_neighbour(cells, q):
    return cells[q - WIDTH] >= 0 or cells[q + 1] >= 0 or cells[q + WIDTH] >= 0 or cells[q - 1] >= 0


@njit
def forces_nothing(cells, pos, tile):
    """``rules.forces_nothing``: no empty neighbour gets two same-coloured edges."""
    for d in range(4):
        q = pos + DELTA[d]
        if cells[q] >= 0:
            continue
        white, red = masks(cells, q)
        if COL[tile * 4 + d] == WHITE:
            white |= 1 << (d ^ 2)
        else:
            red |= 1 << (d ^ 2)
        if NBITS[white] >= 2 or NBITS[red] >= 2:
            return False
    return True


# -- a turn --------------------------------------------------------------------------------
@njit
def place(cells, bb, stk, todo, pos, tile):
    """Put the free tile and fill every forced cell (``Board.place``), the tiles pushed on
    ``stk`` above ``bb[B_SP]`` (not yet committed). Returns how many, or 0 for an illegal
    turn (the board then as it was)."""
    base = bb[B_SP]
    cells[pos] = tile
    stk[base] = pos
    n = 1
    top = 0
    for d in range(4):
        todo[top] = pos + DELTA[d]
        top += 1
    while top:
        top -= 1
        q = todo[top]
        if cells[q] >= 0:
            continue
        white, red = masks(cells, q)
        nw = NBITS[white]
        nr = NBITS[red]
        if nw < 2 and nr < 2:
            continue
        if nw >= 3 or nr >= 3:
            for k in range(n):
                cells[stk[base + k]] = EMPTY
            return 0
        forced = FORCED[0, white] if nw == 2 else FORCED[1, red]
        cells[q] = forced
        stk[base + n] = q
        n += 1
        for d in range(4):
            todo[top] = q + DELTA[d]
            top += 1
    return n


@njit
def rollback(cells, bb, stk, n):
    base = bb[B_SP]
    for k in range(n):
        cells[stk[base + k]] = EMPTY


@njit
def commit(bb, stk, n):
    """Keep the ``n`` tiles ``place`` pushed: grow the area by the free tile (forced tiles
    lie inside it, rules §2.3)."""
    p = stk[bb[B_SP]]
    r = p // WIDTH
    c = p % WIDTH
    if bb[B_COUNT] == 0:
        bb[B_MINR] = bb[B_MAXR] = r
        bb[B_MINC] = bb[B_MAXC] = c
    else:
        bb[B_MINR] = min(bb[B_MINR], r)
        bb[B_MAXR] = max(bb[B_MAXR], r)
        bb[B_MINC] = min(bb[B_MINC], c)
        bb[B_MAXC] = max(bb[B_MAXC], c)
    bb[B_COUNT] += n
    bb[B_SP] += n


@njit
def unmake(cells, bb, stk, start, saved):
    """Take back every tile pushed since ``start``; ``saved`` holds the area before."""
    for k in range(start, bb[B_SP]):
        cells[stk[k]] = EMPTY
    bb[B_COUNT] -= bb[B_SP] - start
    bb[B_SP] = start
    bb[B_MINR], bb[B_MAXR], bb[B_MINC], bb[B_MAXC] = saved[0], saved[1], saved[2], saved[3]


@njit
def save_area(bb, saved):
    saved[0], saved[1], saved[2], saved[3] = bb[B_MINR], bb[B_MAXR], bb[B_MINC], bb[B_MAXC]


# -- move generation -----------------------------------------------------------------------
@njit
def free_placements(cells, bb, par, out):
    """``rules.free_placements`` as codes ``cell * 8 + tile``, in the rules' order (cells
    top to bottom, left to right; symbols + / \\). Returns how many (at most ``len(out)``)."""
    cap = out.shape[0]
    if bb[B_COUNT] == 0:
        centre = CENTRE * WIDTH + CENTRE
        out[0] = centre * 8 + NS
        out[1] = centre * 8 + NW
        return 2
    limited = par[P_LIMITED]
    n = 0
    r0 = max(bb[B_MINR] - 1, 1)
    r1 = min(bb[B_MAXR] + 1, WIDTH - 2)
    c0 = max(bb[B_MINC] - 1, 1)
    c1 = min(bb[B_MAXC] + 1, WIDTH - 2)
    for r in range(r0, r1 + 1):
        for c in range(c0, c1 + 1):
            q = r * WIDTH + c
            if cells[q] >= 0 or not has_neighbour(cells, q):
                continue
            if limited:
                height = max(bb[B_MAXR], r) - min(bb[B_MINR], r) + 1
                width = max(bb[B_MAXC], c) - min(bb[B_MINC], c) + 1
                if height > LIMIT or width > LIMIT:
                    continue
            white, red = masks(cells, q)
            for k in range(3):
                t = FIT[white * 16 + red, k]
                if t >= 0 and n < cap:
                    out[n] = q * 8 + t
                    n += 1
    return n


@njit
def is_legal(cells, bb, stk, todo, code):
    """Is the whole turn of the free placement ``code`` legal?"""
    pos = code >> 3
    tile = code & 7
    if forces_nothing(cells, pos, tile):
        return True
    n = place(cells, bb, stk, todo, pos, tile)
    if n == 0:
        return False
    rollback(cells, bb, stk, n)
    return True


@njit
def legal_moves(cells, bb, par, stk, todo, out):
    """``rules.legal_placements``: the free placements whose whole turn is legal, in order."""
    n = free_placements(cells, bb, par, out)
    k = 0
    for i in range(n):
        if is_legal(cells, bb, stk, todo, out[i]):
            out[k] = out[i]
            k += 1
    return k


# -- tracks and wins -----------------------------------------------------------------------
@njit
def follow(cells, pos, side):
    """``Board.follow``: the end (cell, side) of the track leaving ``pos`` through ``side``,
    as ``cell * 4 + side``, or -1 if it comes back to ``pos`` (a loop)."""
    p = pos
    d = side
    while True:
        q = p + DELTA[d]
        t = cells[q]
        if t < 0:
            return p * 4 + d
        if q == pos:
            return -1
        d = OTHER[t * 4 + (d ^ 2)]
        p = q


@njit
def is_line(bb, par, end1, end2):
    """``Board.is_line`` for two track ends ``cell * 4 + side``."""
    p1, d1 = end1 >> 2, end1 & 3
    p2, d2 = end2 >> 2, end2 & 3
    if d1 > d2:
        p1, d1, p2, d2 = p2, d2, p1, d1
    r1, c1 = p1 // WIDTH, p1 % WIDTH
    r2, c2 = p2 // WIDTH, p2 % WIDTH
    if d1 == 1 and d2 == 3:
        if par[P_SPAN]:
            return c1 - c2 + 1 >= LINE_SPAN
        return bb[B_MAXC] - bb[B_MINC] + 1 >= LINE_SPAN and c1 == bb[B_MAXC] and c2 == bb[B_MINC]
    if d1 == 0 and d2 == 2:
        if par[P_SPAN]:
            return r2 - r1 + 1 >= LINE_SPAN
        return bb[B_MAXR] - bb[B_MINR] + 1 >= LINE_SPAN and r1 == bb[B_MINR] and r2 == bb[B_MAXR]
    return False


@njit
def wins_code(cells, bb, par, stk, start, n, colour, mark, stamp, early):
    """What the turn that pushed ``stk[start:start + n]`` completed for ``colour``
    (``Board.wins``, one colour): NONE, LOOP, LINE or both in the order found. ``mark`` and
    ``stamp`` (a fresh value) mark the tracks already traced; ``early``: stop at the first."""
    lines = par[P_LINES]
    found = NONE
    for k in range(start, start + n):
        mark[stk[k]] = stamp  # a new tile, not yet traced
    for k in range(start, start + n):
        p0 = stk[k]
        if mark[p0] != stamp:
            continue  # traced already, as part of another new tile's track
        mark[p0] = stamp + 1
        tile = cells[p0]
        a = TRK[tile * 4 + colour * 2]
        b = TRK[tile * 4 + colour * 2 + 1]
        p = p0
        d = a
        loop = False
        while True:  # follow(), marking the new tiles it passes
            q = p + DELTA[d]
            t = cells[q]
            if t < 0:
                break
            if q == p0:
                loop = True
                break
            if mark[q] == stamp:
                mark[q] = stamp + 1
            d = OTHER[t * 4 + (d ^ 2)]
            p = q
        if loop:
            if found == NONE:
                found = LOOP
            elif found == LINE:
                found = LINE_LOOP
            if early:
                return found
            continue
        if lines and found != LINE and found != LOOP_LINE and found != LINE_LOOP:
            end2 = follow(cells, p0, b)
            if end2 >= 0 and is_line(bb, par, p * 4 + d, end2):
                found = LINE if found == NONE else LOOP_LINE
                if early:
                    return found
    return found


@njit
def turn_result(cells, bb, par, stk, start, n, mover, mark, st, stamp_at):
    """``threats.turn_result``: 1 / -1 / 0 if the turn ends the game for ``mover`` (win,
    loss, draw), 2 if it goes on. ``st[stamp_at]`` supplies fresh marks."""
    st[stamp_at] += 2
    if wins_code(cells, bb, par, stk, start, n, mover, mark, st[stamp_at], True) != NONE:
        if par[P_DRAW_BOTH]:
            st[stamp_at] += 2
            if wins_code(cells, bb, par, stk, start, n, 1 - mover, mark, st[stamp_at], True) != NONE:
                return 0
        return 1
    st[stamp_at] += 2
    if wins_code(cells, bb, par, stk, start, n, 1 - mover, mark, st[stamp_at], True) != NONE:
        return -1
    return 2


# -- whole games ---------------------------------------------------------------------------
@njit
def has_legal_move(cells, bb, par, stk, todo, buf):
    """``TraxState.has_legal_move``: only a full-size 8x8 area can be stuck."""
    if not par[P_LIMITED] or bb[B_MAXC] - bb[B_MINC] + 1 < LIMIT or bb[B_MAXR] - bb[B_MINR] + 1 < LIMIT:
        return True
    n = free_placements(cells, bb, par, buf)
    for i in range(n):
        if is_legal(cells, bb, stk, todo, buf[i]):
            return True
    return False


@njit
def play(cells, bb, par, stk, todo, mark, hdr, buf, code):
    """Play the legal move ``code`` as ``TraxState`` does: forced plays, the win check, the
    8x8 draws; ``hdr`` gets the side to move and the result. Returns the tiles placed."""
    mover = hdr[H_TO_MOVE]
    start = bb[B_SP]
    n = place(cells, bb, stk, todo, code >> 3, code & 7)
    commit(bb, stk, n)
    hdr[H_STAMP] += 2
    white = wins_code(cells, bb, par, stk, start, n, WHITE, mark, hdr[H_STAMP], False)
    hdr[H_STAMP] += 2
    red = wins_code(cells, bb, par, stk, start, n, RED, mark, hdr[H_STAMP], False)
    hdr[H_MOVER], hdr[H_WHITE], hdr[H_RED] = mover, white, red
    mine = white if mover == WHITE else red
    theirs = red if mover == WHITE else white
    hdr[H_TO_MOVE] = -1
    if mine != NONE or theirs != NONE:
        hdr[H_RESULT] = DRAW_BOTH if mine != NONE and theirs != NONE and par[P_DRAW_BOTH] else WON
    elif par[P_LIMITED] and bb[B_COUNT] >= LIMIT * LIMIT:
        hdr[H_RESULT] = DRAW_FULL
    else:
        hdr[H_TO_MOVE] = 1 - mover
        if par[P_LIMITED] and not has_legal_move(cells, bb, par, stk, todo, buf):
            hdr[H_RESULT] = DRAW_STUCK
    bb[B_SP] = 0  # a played turn is never taken back: the stack starts again
    return n


@njit
def playouts(cells, bb, par, stk, todo, mark, hdr, buf, rng, games, cap):
    """``games`` uniformly random games from the position (restored after each), at most
    ``cap`` plies each. Returns (plies, white wins, red wins, draws, unfinished)."""
    stats = np.zeros(5, np.int64)
    cells0 = cells.copy()
    bb0 = bb.copy()
    hdr0 = hdr.copy()
    for _ in range(games):
        plies = 0
        while hdr[H_RESULT] == ONGOING and hdr[H_TO_MOVE] >= 0 and plies < cap:
            n = legal_moves(cells, bb, par, stk, todo, buf)
            play(cells, bb, par, stk, todo, mark, hdr, buf, buf[rand_below(rng, n)])
            plies += 1
        stats[0] += plies
        if hdr[H_RESULT] == WON:
            mover = hdr[H_MOVER]
            mine = hdr[H_WHITE] if mover == WHITE else hdr[H_RED]
            stats[1 + (mover if mine != NONE else 1 - mover)] += 1
        elif hdr[H_RESULT] != ONGOING:
            stats[3] += 1
        else:
            stats[4] += 1
        cells[:] = cells0
        bb[:] = bb0
        hdr[:] = hdr0
    return stats


# == the ``trax`` agent's search, compiled (driven by ``kernel_search.py``) ====================
# The same search as ``search.ThreatSearch`` (see there for what each part is for), on the
# arrays above. Nothing here reads a clock: the driver gives each call a node budget
# (``st[ST_BUDGET]``) from the rate it measured, and a call that spends it sets
# ``st[ST_ABORT]`` and unwinds without storing anything. Recursive functions carry explicit
# signatures (``_signed``): Numba caches them only so.
MAX_PLY = 80
MAX_MOVES = 768
MAX_TRACKS = 1024
TT_BITS, WIN_BITS, VCF_BITS = 18, 17, 16
ST_NODES, ST_BUDGET, ST_ABORT, ST_STAMP, ST_ENDS, ST_NEAR, ST_HINT = 0, 1, 2, 3, 4, 5, 6  # 6, 7
WIN = 1000.0
PROVEN = WIN - 500
INFINITY = 4 * WIN
EPSILON = 1e-7
EXACT, LOWER, UPPER = 0, 1, 2
REDUCE_FROM_DEPTH, FULL_MOVES, THREAT_GAP, VCF_DEPTH = 2, 8, 3, 3
#: ``tr`` columns: colour, the two ends (cell * 4 + side), gaps to a loop and to a line.
T_COLOUR, T_END1, T_END2, T_LOOP, T_LINE = range(5)
GAP_VALUE = np.array([0.0, 0.30, 0.12, 0.05, 0.02, 0.01], np.float64)
FAR = 99


class SearchArrays(NamedTuple):
    """The board and search arrays every search function takes (as ``W``), by name: Numba
    compiles a ``NamedTuple`` of arrays as it does a plain tuple."""

    cells: np.ndarray  # the board window
    bb: np.ndarray  # the tile area and the stack top
    par: np.ndarray  # the rules (``P_*``)
    stk: np.ndarray  # the tiles placed, turn by turn
    todo: np.ndarray  # the forced-play work list
    mark: np.ndarray  # ``wins_code``'s marks
    ends: np.ndarray  # ``open_tracks``' marks
    near_stamp: np.ndarray  # ``hot_cells``: which cells hold a value this time
    near_value: np.ndarray  # ``hot_cells``: the smallest gap at each cell
    st: np.ndarray  # counters and flags (``ST_*``)
    mv: np.ndarray  # the moves of each ply
    key: np.ndarray  # their ordering keys
    ub: np.ndarray  # the area saved by each ply's move
    killers: np.ndarray  # two killer moves per ply
    history: np.ndarray  # the history score by move code
    zobrist: np.ndarray  # the Zobrist keys by move code
    side_keys: np.ndarray  # the side to move's keys, then the threat search's depth keys
    tt_keys: np.ndarray  # the transposition table: keys
    tt_values: np.ndarray  # values
    tt_info: np.ndarray  # depth, flag, move
    win_keys: np.ndarray  # the immediate-win table: keys
    win_moves: np.ndarray  # the winning move (code) or -1
    vcf_keys: np.ndarray  # the threat-search table: keys
    vcf_moves: np.ndarray  # its result
    tracks: np.ndarray  # ``open_tracks``' rows (``T_*`` columns)
    root_values: np.ndarray  # the root moves' values


def workspace(limited: bool, lines: bool, draw_both: bool, span: bool, seed: int = 0x7A1C5) -> SearchArrays:
    """A new workspace for these rules (``seed`` for the Zobrist keys)."""
    rng = np.random.default_rng(seed)

    def keys(n):
        return rng.integers(1, 2**63, size=n, dtype=np.int64).astype(np.uint64)

    par = np.zeros(8, np.int64)
    par[P_LIMITED], par[P_LINES], par[P_DRAW_BOTH], par[P_SPAN] = limited, lines, draw_both, span
    st = np.zeros(16, np.int64)
    st[ST_HINT] = st[ST_HINT + 1] = -1
    return SearchArrays(
        cells=np.full(NCELL, EMPTY, np.int64),
        bb=np.zeros(8, np.int64),
        par=par,
        stk=np.zeros(NCELL + 8, np.int64),
        todo=np.zeros(4 * NCELL + 8, np.int64),
        mark=np.zeros(NCELL, np.int64),
        ends=np.zeros(4 * NCELL, np.int64),
        near_stamp=np.zeros(NCELL, np.int64),
        near_value=np.zeros(NCELL, np.int64),
        st=st,
        mv=np.zeros((MAX_PLY, MAX_MOVES), np.int64),
        key=np.zeros((MAX_PLY, MAX_MOVES), np.int64),
        ub=np.zeros((MAX_PLY, 4), np.int64),
        killers=np.full((MAX_PLY, 2), -1, np.int64),
        history=np.zeros(NCELL * 8, np.int64),
        zobrist=keys(NCELL * 8),
        side_keys=keys(2 + 16),
        tt_keys=np.zeros(1 << TT_BITS, np.uint64),
        tt_values=np.zeros(1 << TT_BITS, np.float64),
        tt_info=np.zeros((1 << TT_BITS, 3), np.int64),
        win_keys=np.zeros(1 << WIN_BITS, np.uint64),
        win_moves=np.zeros(1 << WIN_BITS, np.int64),
        vcf_keys=np.zeros(1 << VCF_BITS, np.uint64),
        vcf_moves=np.zeros(1 << VCF_BITS, np.int64),
        tracks=np.zeros((MAX_TRACKS, 5), np.int64),
        root_values=np.zeros(MAX_MOVES, np.float64),
    )


#: ``numba.njit`` with the signature named by its arguments (result first; "W" is the workspace).
_signed = njit_typed(lambda numba: {"W": numba.typeof(workspace(False, True, False, False))})


@njit
def _tick(st):
    st[ST_NODES] += 1
    if st[ST_NODES] > st[ST_BUDGET]:
        st[ST_ABORT] = 1


@njit
def _sort(mv, key, n):
    """Stable insertion sort of ``mv[:n]`` by ``key[:n]`` (few moves move: nearly sorted)."""
    for i in range(1, n):
        m, k = mv[i], key[i]
        j = i - 1
        while j >= 0 and key[j] > k:
            mv[j + 1], key[j + 1] = mv[j], key[j]
            j -= 1
        mv[j + 1], key[j + 1] = m, k


@njit
def make(W, code, ply, h):
    """Play the free placement ``code`` with its forced plays (area saved in ``ub[ply]``).
    Returns (tiles placed, 0 for an illegal turn; the new hash)."""
    cells, bb, stk, todo = W.cells, W.bb, W.stk, W.todo
    ub, zob = W.ub, W.zobrist
    n = place(cells, bb, stk, todo, code >> 3, code & 7)
    if n == 0:
        return 0, h
    save_area(bb, ub[ply])
    base = bb[B_SP]
    for k in range(base, base + n):
        p = stk[k]
        h ^= zob[p * 8 + cells[p]]
    commit(bb, stk, n)
    return n, h


@njit
def take_back(W, ply, n):
    unmake(W.cells, W.bb, W.stk, W.bb[B_SP] - n, W.ub[ply])


@njit
def _result(W, n, mover):
    """``turn_result`` of the turn just made (its ``n`` tiles on top of the stack)."""
    cells, bb, par, stk = W.cells, W.bb, W.par, W.stk
    return turn_result(cells, bb, par, stk, bb[B_SP] - n, n, mover, W.mark, W.st, ST_STAMP)


@njit
def _full(W):
    return W.par[P_LIMITED] and W.bb[B_COUNT] >= LIMIT * LIMIT


# -- tracks and the evaluation (``evaluation.open_tracks``, ``evaluate_without_win``) -------
@njit
def open_tracks(W):
    """Every track with two open ends into ``tr``; returns how many."""
    cells, bb, par, ends, st, tr = W.cells, W.bb, W.par, W.ends, W.st, W.tracks
    st[ST_ENDS] += 1
    stamp = st[ST_ENDS]
    lines = par[P_LINES]
    width = bb[B_MAXC] - bb[B_MINC] + 1
    height = bb[B_MAXR] - bb[B_MINR] + 1
    nt = 0
    for r in range(bb[B_MINR] - 1, bb[B_MAXR] + 2):
        for c in range(bb[B_MINC] - 1, bb[B_MAXC] + 2):
            q = r * WIDTH + c
            if cells[q] >= 0:
                continue
            for d in range(4):
                p = q - DELTA[d]
                t = cells[p]
                if t < 0:
                    continue
                e1 = p * 4 + d  # tile p leaves through side d into q
                if ends[e1] == stamp or nt >= MAX_TRACKS:
                    continue
                e2 = follow(cells, p, OTHER[t * 4 + d])
                ends[e1] = stamp
                ends[e2] = stamp
                far = (e2 >> 2) + DELTA[e2 & 3]
                loop = abs(q // WIDTH - far // WIDTH) + abs(q % WIDTH - far % WIDTH)
                line = FAR
                if lines:
                    a, b = e1, e2
                    if (a & 3) > (b & 3):
                        a, b = b, a
                    da, db = a & 3, b & 3
                    pa, pb = a >> 2, b >> 2
                    if da == 1 and db == 3:  # a leaves east, b west
                        line = (
                            (pb % WIDTH - bb[B_MINC]) + (bb[B_MAXC] - pa % WIDTH) + max(0, LINE_SPAN - width)
                        )
                    elif da == 0 and db == 2:  # a leaves north, b south
                        line = (
                            (pa // WIDTH - bb[B_MINR])
                            + (bb[B_MAXR] - pb // WIDTH)
                            + max(0, LINE_SPAN - height)
                        )
                tr[nt, T_COLOUR] = COL[t * 4 + d]
                tr[nt, T_END1] = e1
                tr[nt, T_END2] = e2
                tr[nt, T_LOOP] = loop
                tr[nt, T_LINE] = line
                nt += 1
    return nt


@njit
def _gap(tr, i):
    return min(tr[i, T_LOOP], tr[i, T_LINE])


@njit
def _is_l_threat(tr, i):
    """``Track.threat() == L_SHAPE``: ends facing diagonally adjacent cells."""
    if tr[i, T_LOOP] != 2 or tr[i, T_LINE] == 1:
        return False
    e1, e2 = tr[i, T_END1], tr[i, T_END2]
    diff = abs(((e1 >> 2) + DELTA[e1 & 3]) - ((e2 >> 2) + DELTA[e2 & 3]))
    return diff == WIDTH - 1 or diff == WIDTH + 1


@njit
def evaluate(W, mover):
    """``evaluation.evaluate_without_win``: in (-1, 1) for ``mover`` (to move, without an immediate win)."""
    tr = W.tracks
    nt = open_tracks(W)
    score = 0.0
    threats = 0
    for i in range(nt):
        gap = _gap(tr, i)
        v = GAP_VALUE[gap] if gap < 6 else 0.0
        if _is_l_threat(tr, i):
            v += 0.06
        if tr[i, T_COLOUR] == mover:
            score += 0.6 * v if gap == 1 else v
        else:
            score -= v
            if gap == 1:
                threats += 1
    score -= 0.8 if threats >= 2 else 0.25 * threats
    return np.tanh(score)


@njit
def hot_cells(W, nt, limit):
    """``evaluation.hot_cells`` into the near arrays: returns the stamp marking its cells."""
    tr, nst, nval, st = W.tracks, W.near_stamp, W.near_value, W.st
    st[ST_NEAR] += 1
    stamp = st[ST_NEAR]
    for i in range(nt):
        gap = _gap(tr, i)
        if gap > limit:
            continue
        for e in (tr[i, T_END1], tr[i, T_END2]):
            q = (e >> 2) + DELTA[e & 3]
            if nst[q] != stamp or nval[q] > gap:
                nst[q] = stamp
                nval[q] = gap
    return stamp


# -- immediate wins (``threats.winning_moves``) ------------------------------------------------
@njit
def _may_finish_line(bb, par, pos):
    r, c = pos // WIDTH, pos % WIDTH
    min_r, max_r = min(bb[B_MINR], r), max(bb[B_MAXR], r)
    min_c, max_c = min(bb[B_MINC], c), max(bb[B_MAXC], c)
    wide = max_c - min_c + 1 >= LINE_SPAN
    tall = max_r - min_r + 1 >= LINE_SPAN
    if par[P_SPAN]:
        return wide or tall
    return (wide and (c == min_c or c == max_c)) or (tall and (r == min_r or r == max_r))


@njit
def _wins_with(W, code, mover):
    """Does the free placement ``code`` win at once for ``mover``? The board left as it was."""
    cells, bb, par, stk, todo, st = W.cells, W.bb, W.par, W.stk, W.todo, W.st
    pos = code >> 3
    n = place(cells, bb, stk, todo, pos, code & 7)
    if n == 0:
        return False
    saved = (bb[B_MINR], bb[B_MAXR], bb[B_MINC], bb[B_MAXC])
    r, c = pos // WIDTH, pos % WIDTH
    bb[B_MINR], bb[B_MAXR] = min(saved[0], r), max(saved[1], r)
    bb[B_MINC], bb[B_MAXC] = min(saved[2], c), max(saved[3], c)
    base = bb[B_SP]
    result = turn_result(cells, bb, par, stk, base, n, mover, W.mark, st, ST_STAMP)
    bb[B_MINR], bb[B_MAXR], bb[B_MINC], bb[B_MAXC] = saved
    rollback(cells, bb, stk, n)
    return result == 1


@njit
def _is_free_placement(cells, bb, par, code):
    pos, tile = code >> 3, code & 7
    if cells[pos] >= 0 or not has_neighbour(cells, pos):
        return False
    for d in range(4):
        t = cells[pos + DELTA[d]]
        if t >= 0 and COL[t * 4 + (d ^ 2)] != COL[tile * 4 + d]:
            return False
    if par[P_LIMITED]:
        r, c = pos // WIDTH, pos % WIDTH
        if max(bb[B_MAXR], r) - min(bb[B_MINR], r) + 1 > LIMIT:
            return False
        if max(bb[B_MAXC], c) - min(bb[B_MINC], c) + 1 > LIMIT:
            return False
    return True


@njit
def winning_move(W, mover, hint, ply):
    """The first free placement (``hint`` first) that wins at once for ``mover``, or -1;
    ``mv[ply]`` is its scratch row."""
    cells, bb, par = W.cells, W.bb, W.par
    if hint >= 0 and _is_free_placement(cells, bb, par, hint) and _wins_with(W, hint, mover):
        return hint
    span = max(bb[B_MAXR] - bb[B_MINR], bb[B_MAXC] - bb[B_MINC]) + 2
    lines_near = par[P_LINES] and (par[P_SPAN] or span >= LINE_SPAN)
    row = W.mv[ply]
    n = free_placements(cells, bb, par, row)
    for i in range(n):
        code = row[i]
        if forces_nothing(cells, code >> 3, code & 7) and not (
            lines_near and _may_finish_line(bb, par, code >> 3)
        ):
            continue
        if _wins_with(W, code, mover):
            return code
    return -1


@njit
def win_move(W, h, mover, ply, hint):
    """``ThreatSearch._win_move``: ``winning_move`` cached by position, last win as hint."""
    st, side, wk, wm = W.st, W.side_keys, W.win_keys, W.win_moves
    key = h ^ side[mover]
    slot = np.int64(key & np.uint64(wk.shape[0] - 1))
    if wk[slot] == key:
        return wm[slot]
    found = winning_move(W, mover, hint if hint >= 0 else st[ST_HINT + mover], ply)
    if found >= 0:
        st[ST_HINT + mover] = found
    wk[slot] = key
    wm[slot] = found
    return found


# -- continuous threats (``ThreatSearch._vcf`` and ``_escapes``) -------------------------------
@njit
def threat_candidates(W, attacker, ply):
    """``ThreatSearch._threat_candidates`` into ``mv[ply]``, nearest first; returns how many."""
    cells, bb, par, nst, nval, st, tr = W.cells, W.bb, W.par, W.near_stamp, W.near_value, W.st, W.tracks
    row, key = W.mv[ply], W.key[ply]
    nt = open_tracks(W)
    st[ST_NEAR] += 1
    stamp = st[ST_NEAR]
    for i in range(nt):
        gap = _gap(tr, i)
        if tr[i, T_COLOUR] != attacker or gap > THREAT_GAP:
            continue
        for e in (tr[i, T_END1], tr[i, T_END2]):
            q = (e >> 2) + DELTA[e & 3]
            if nst[q] != stamp or nval[q] > 2 * gap:
                nst[q], nval[q] = stamp, 2 * gap
            for dd in range(4):
                x = q + DELTA[dd]
                if cells[x] < 0 and has_neighbour(cells, x) and (nst[x] != stamp or nval[x] > 2 * gap + 1):
                    nst[x], nval[x] = stamp, 2 * gap + 1
    n = free_placements(cells, bb, par, row)
    k = 0
    for i in range(n):
        q = row[i] >> 3
        if nst[q] == stamp:
            row[k] = row[i]
            key[k] = nval[q]
            k += 1
    _sort(row, key, k)
    return k


@_signed("i8", "W", "i8", "i8", "i8", "u8")
def vcf(W, attacker, depth, ply, h):
    """A move of ``attacker`` (to move) winning by continuous threats at most ``depth``
    attacker moves long, or -1 (also when the budget ran out: see ``st[ST_ABORT]``)."""
    cells, bb, par, st, side, vk, vm = W.cells, W.bb, W.par, W.st, W.side_keys, W.vcf_keys, W.vcf_moves
    key = h ^ side[attacker] ^ side[2 + depth]
    slot = np.int64(key & np.uint64(vk.shape[0] - 1))
    if vk[slot] == key:
        return vm[slot]
    defender = 1 - attacker
    found = -1
    n = threat_candidates(W, attacker, ply)
    for i in range(n):
        _tick(st)
        if st[ST_ABORT]:
            return -1
        move = W.mv[ply, i]
        placed, h2 = make(W, move, ply, h)
        if placed == 0:
            continue
        result = _result(W, placed, attacker)
        if result != 2:
            if result == 1:
                found = move
        elif not _full(W):
            threat = win_move(W, h2, attacker, ply + 1, -1)
            if threat >= 0:
                # Can the defender stop it, and the threats that may follow?
                escaped = False
                any_legal = False
                replies = free_placements(cells, bb, par, W.mv[ply + 1])
                for j in range(replies):
                    _tick(st)
                    if st[ST_ABORT]:
                        break
                    placed2, h3 = make(W, W.mv[ply + 1, j], ply + 1, h2)
                    if placed2 == 0:
                        continue
                    any_legal = True
                    answer = _result(W, placed2, defender)
                    if answer != 2:
                        take_back(W, ply + 1, placed2)
                        if answer >= 0:
                            escaped = True  # the defender wins (or draws) at once
                            break
                        continue
                    if _full(W):
                        escaped = True  # a full board: a draw
                    elif win_move(W, h3, attacker, ply + 2, threat) < 0:
                        if depth <= 1 or vcf(W, attacker, depth - 1, ply + 2, h3) < 0:
                            escaped = True
                    take_back(W, ply + 1, placed2)
                    if escaped or st[ST_ABORT]:
                        break
                if not any_legal:
                    escaped = True  # no legal reply: a draw (8x8)
                if not escaped and not st[ST_ABORT]:
                    found = move
        take_back(W, ply, placed)
        if st[ST_ABORT]:
            return -1
        if found >= 0:
            break
    vk[slot] = key
    vm[slot] = found
    return found


@njit
def vcf_after(W, code, attacker, h):
    """The opponent's continuous-threat win after our root move ``code`` (``_defend``): its
    first move, -1 for none, -2 for an illegal ``code``."""
    placed, h2 = make(W, code, 0, h)
    if placed == 0:
        return -2
    found = vcf(W, attacker, np.int64(VCF_DEPTH), np.int64(1), h2)
    take_back(W, 0, placed)
    return found


# -- the principal-variation search (``ThreatSearch._negamax``, ``_after``, ``_root``) -------
@njit
def _to_table(value, ply):
    if value >= PROVEN:
        return value + ply
    if value <= -PROVEN:
        return value - ply
    return value


@njit
def _from_table(value, ply):
    if value >= PROVEN:
        return value - ply
    if value <= -PROVEN:
        return value + ply
    return value


@njit
def _order(W, ply, table_move):
    """The free placements into ``mv[ply]``: the table's move, the killers, then by history
    and by the urgent track ends (``ThreatSearch._ordered``)."""
    cells, bb, par, nst, nval = W.cells, W.bb, W.par, W.near_stamp, W.near_value
    row, key, killers, hist = W.mv[ply], W.key[ply], W.killers, W.history
    n = free_placements(cells, bb, par, row)
    stamp = hot_cells(W, open_tracks(W), 3)
    for i in range(n):
        m = row[i]
        if m == table_move:
            key[i] = -1_000_000
        elif m == killers[ply, 0] or m == killers[ply, 1]:
            key[i] = -100_000
        else:
            q = m >> 3
            key[i] = -hist[m] * 8 + (nval[q] if nst[q] == stamp else 9)
    _sort(row, key, n)
    return n


@_signed("f8", "W", "i8", "i8", "i8", "f8", "f8", "u8", "i8")
def negamax(W, mover, depth, ply, alpha, beta, h, root):
    """Value for ``mover`` (to move). ``root`` > 0: the root, whose ``root`` moves are
    already in ``mv[0]`` in order; each one's value goes to ``rootv`` (exact for the best,
    bounds for the others) and nothing is cut or stored."""
    st, side, ttk, ttv, tti = W.st, W.side_keys, W.tt_keys, W.tt_values, W.tt_info
    killers, hist, rootv = W.killers, W.history, W.root_values
    _NOT_ROOT = np.int64(0)  # a typed zero: a literal one breaks the recursive signature
    if st[ST_ABORT]:
        return 0.0
    key = h ^ side[mover]
    slot = np.int64(key & np.uint64(ttk.shape[0] - 1))
    table_move = -1
    if root == 0 and ttk[slot] == key:
        table_move = tti[slot, 2]
        if tti[slot, 0] >= depth:
            value = _from_table(ttv[slot], ply)
            flag = tti[slot, 1]
            if flag == EXACT or (flag == LOWER and value >= beta) or (flag == UPPER and value <= alpha):
                return value
    if depth <= 0:
        if win_move(W, h, mover, ply, -1) >= 0:
            return WIN - ply - 1
        return evaluate(W, mover)
    if root == 0 and win_move(W, h, mover, ply, -1) >= 0:
        return WIN - ply - 1  # a win at once: nothing to search
    n = root if root > 0 else _order(W, ply, table_move)
    alpha0 = alpha
    best = -INFINITY
    best_move = -1
    tried = 0
    other = 1 - mover
    for i in range(n):
        move = W.mv[ply, i]
        placed, h2 = make(W, move, ply, h)
        if placed == 0:
            if root > 0:
                rootv[i] = -INFINITY
            continue
        _tick(st)
        result = _result(W, placed, mover)
        if result != 2:
            value = result * (WIN - ply - 1)
        elif _full(W):
            value = 0.0
        elif tried == 0:
            value = -negamax(W, other, depth - 1, ply + 1, -beta, -alpha, h2, _NOT_ROOT)
        else:
            value = 0.0
            searched = False
            if root == 0 and depth >= REDUCE_FROM_DEPTH and tried >= FULL_MOVES:
                value = -negamax(W, other, depth - 2, ply + 1, -alpha - EPSILON, -alpha, h2, _NOT_ROOT)
                searched = value <= alpha
            if not searched and not st[ST_ABORT]:
                value = -negamax(W, other, depth - 1, ply + 1, -alpha - EPSILON, -alpha, h2, _NOT_ROOT)
                if alpha < value < beta and not st[ST_ABORT]:
                    value = -negamax(W, other, depth - 1, ply + 1, -beta, -alpha, h2, _NOT_ROOT)
        take_back(W, ply, placed)
        if st[ST_ABORT]:
            return 0.0
        tried += 1
        if root > 0:
            rootv[i] = value
        if value > best:
            best, best_move = value, move
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    if killers[ply, 0] != move and killers[ply, 1] != move:
                        killers[ply, 1] = killers[ply, 0]
                        killers[ply, 0] = move
                    hist[move] += depth * depth
                    break
    if best_move < 0:
        return 0.0  # no legal move: a draw (8x8)
    if root == 0:
        flag = LOWER if best >= beta else UPPER if best <= alpha0 else EXACT
        ttk[slot] = key
        ttv[slot] = _to_table(best, ply)
        tti[slot, 0], tti[slot, 1], tti[slot, 2] = depth, flag, best_move
    return best


@njit
def root_order(W, moves, n):
    """``ThreatSearch._root_order``: the moves by the urgent track ends (99 elsewhere)."""
    nst, nval = W.near_stamp, W.near_value
    row, key = W.mv[0], W.key[0]
    stamp = hot_cells(W, open_tracks(W), 3)
    for i in range(n):
        row[i] = moves[i]
        q = moves[i] >> 3
        key[i] = nval[q] if nst[q] == stamp else FAR
    _sort(row, key, n)
    out = np.empty(n, np.int64)
    out[:] = row[:n]
    return out


# == the Python side ==========================================================================
class KernelState:
    """A position on the kernel's arrays (``TraxKernel.state``)."""

    __slots__ = ("cells", "bb", "hdr", "outcome")

    def __init__(self):
        self.cells = np.full(NCELL, EMPTY, np.int64)
        self.bb = np.zeros(8, np.int64)
        self.hdr = np.zeros(8, np.int64)
        #: The outcome of a position set up from a finished reference state.
        self.outcome = None


def load(cells, bb, board) -> None:
    """Put the rules ``Board``'s tiles on the window arrays (emptied first)."""
    cells[:] = EMPTY
    for p, t in board.cells.items():
        cells[window(p)] = t
    bb[:] = 0
    if board.cells:
        bb[B_MINR], bb[B_MAXR] = board.min_r + CENTRE, board.max_r + CENTRE
        bb[B_MINC], bb[B_MAXC] = board.min_c + CENTRE, board.max_c + CENTRE
    bb[B_COUNT] = len(board.cells)


def fits(board) -> bool:
    """Does the tile area lie ``MARGIN`` cells inside the window (room for the search)?"""
    low, high = MARGIN - CENTRE, WIDTH - 1 - MARGIN - CENTRE
    return not board.cells or (
        low <= board.min_r and board.max_r <= high and low <= board.min_c and board.max_c <= high
    )


def parameters(game):
    return game.limited, game.lines_win, game.simultaneous == "draw", game.line_rule == "span"


class TraxKernel:
    """The compiled twin of one Trax rule set (variant, ``simultaneous``, ``line_rule``)."""

    #: The generic agents search on the reference rules (the ``trax`` agent uses this kernel).
    searches: tuple[str, ...] = ()
    #: Its optional members (``qipan.fast.KernelOptions``): none.
    provides: frozenset[str] = frozenset()

    def __init__(self, game):
        self.game = game
        self.par = np.zeros(8, np.int64)
        limited, lines, draw_both, span = parameters(game)
        self.par[P_LIMITED], self.par[P_LINES], self.par[P_DRAW_BOTH], self.par[P_SPAN] = (
            limited,
            lines,
            draw_both,
            span,
        )
        self._stk = np.zeros(NCELL + 8, np.int64)
        self._todo = np.zeros(4 * NCELL + 8, np.int64)
        self._mark = np.zeros(NCELL, np.int64)
        self._buf = np.zeros(3 * NCELL, np.int64)

    def state(self, ref) -> KernelState:
        if not fits(ref.board) and ref.board.cells:
            raise ValueError("the tile area reaches the edge of the kernel's window")
        s = KernelState()
        load(s.cells, s.bb, ref.board)
        s.hdr[H_TO_MOVE] = -1 if ref.to_move is None else ref.to_move
        s.hdr[H_RESULT] = ONGOING if ref.outcome is None else WON
        s.outcome = ref.outcome
        return s

    def legal(self, s: KernelState) -> list[int]:
        if s.hdr[H_RESULT] != ONGOING:
            return []
        n = legal_moves(s.cells, s.bb, self.par, self._stk, self._todo, self._buf)
        return self._buf[:n].tolist()

    def play(self, s: KernelState, code: int) -> None:
        play(s.cells, s.bb, self.par, self._stk, self._todo, self._mark, s.hdr, self._buf, code)

    @staticmethod
    def code(move) -> int:
        pos, tile = move.data
        return window(pos) * 8 + tile

    @staticmethod
    def move(code: int) -> tuple[int, int]:
        """The rules' (cell, tile) of ``code``."""
        return absolute(code >> 3), code & 7

    @staticmethod
    def snapshot(s: KernelState) -> tuple:
        """Side to move and the tiles, rules' cells (what ``TraxState`` holds)."""
        filled = np.flatnonzero(s.cells >= 0)
        return int(s.hdr[H_TO_MOVE]), tuple((absolute(int(c)), int(s.cells[c])) for c in filled)

    def outcome(self, s: KernelState):
        from ...core.outcome import Outcome
        from .board import PLAYER_NAMES
        from .rules import outcome_of

        result = int(s.hdr[H_RESULT])
        if result == ONGOING:
            return None
        if s.outcome is not None:
            return s.outcome
        if result == DRAW_FULL:
            return Outcome.draw(2, "the 8x8 board is full with no winner")
        if result == DRAW_STUCK:
            return Outcome.draw(2, f"{PLAYER_NAMES[int(s.hdr[H_TO_MOVE])]} has no legal move")
        names = {
            NONE: [],
            LOOP: ["loop"],
            LINE: ["line"],
            LOOP_LINE: ["loop", "line"],
            LINE_LOOP: ["line", "loop"],
        }
        done = (names[int(s.hdr[H_WHITE])], names[int(s.hdr[H_RED])])
        return outcome_of(done, int(s.hdr[H_MOVER]), self.game.simultaneous)

    def playouts(self, ref, games: int, seed: int, cap: int = 2000) -> tuple[int, ...]:
        """(plies, White wins, Red wins, draws, unfinished) over ``games`` random games."""
        s = self.state(ref)
        rng = np.array([seed_word(seed)], np.uint64)
        stats = playouts(
            s.cells, s.bb, self.par, self._stk, self._todo, self._mark, s.hdr, self._buf, rng, games, cap
        )
        return tuple(int(x) for x in stats)

    def warm_up(self, ref) -> None:
        """Compile (or load from the cache) the rules and the agent's search by running them."""
        self.playouts(ref, 1, 1, 30)
        from .kernel_search import warm_up

        warm_up(self.game)


def kernel_for(game):
    """The kernel of ``game``'s rule set (one per option set), or None when kernels are off."""
    from ...fast import enabled

    if not enabled(game.family):
        return None
    key = parameters(game)
    kernel = _KERNELS.get(key)
    if kernel is None:
        kernel = _KERNELS[key] = TraxKernel(game)
    return kernel


_KERNELS: dict = {}
