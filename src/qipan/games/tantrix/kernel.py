"""The compiled twin of the Tantrix rules (Numba, ``qipan[fast]``): 2-4 players, doubles,
both setups, both tiebreaks and any colours; the turn machine (start-order draws, dealing,
steps 1/2/3 with the replacement draws, skips, deadlock, the end), legal placements in the
rules' order with R1, R2 and R3 exactly as ``rules.py`` applies them (the closure test is
``board.geometry_allows`` step by step), scores by best tracks (loops doubled), and the
``tantrix`` agent's random playouts (``playouts.playout``'s fast policy) in compiled code.
One file, because Numba's disk cache notices changes to a function's own file only.

The table is a window of ``WIDTH`` x ``WIDTH`` cells, cell (q, r) at index
``(q + CENTRE) * WIDTH + r + CENTRE``: q-major, so ascending indexes are the rules' (q, r)
order. ``oi[cell]`` is the placed turn ``tile * 6 + rotation`` (``EMPTY`` if none), ``cnt``
the number of occupied neighbours of every cell. ``h`` holds everything else (``H_*``): the
turn machine, the bag as a 56-bit mask (bit t - 1 for tile t), the sorted hands, the area
of the tiles and the outcome. ``par``: players, setup, tiebreak, each seat's colour.

Move codes: a draw of tile t is ``t``; a placement is
``PLACE + ((cell * 64 + tile) * 8 + rotation) * 2 + forced``."""

from __future__ import annotations

import math
import threading

from ...fast import njit, np, popcount, rand_below, seed_word
from .board import ALL_NUMBERS, DEAL, DIRECTIONS, ORDER, ORIENTED, PLAY

WIDTH = 128
NCELL = WIDTH * WIDTH
CENTRE = WIDTH // 2
EMPTY = -1
#: Room the closure test and the neighbours of spaces need beyond the tiles' area.
MARGIN = 4
PLACE = 64
#: ``to_move`` values besides seats (``core.CHANCE`` is -1).
CHANCE_K, NOBODY = -1, -2
#: Phases (``board.ORDER``, ``DEAL``, ``PLAY``) and results.
P_ORDER, P_DEAL, P_PLAY = range(3)
ONGOING, ALL_PLACED, DEADLOCK, GIVEN = range(4)
# -- the header ``h`` --
(H_PHASE, H_CURRENT, H_STEP, H_STARTER, H_TO_MOVE, H_RESULT, H_DEAD, H_BAG, H_NTILES) = range(9)
H_MINQ, H_MAXQ, H_MINR, H_MAXR = 9, 10, 11, 12
H_NORDER, H_ORDER = 13, 14  # 4 start-order draws
H_HANDN = 18  # 4 hand sizes
H_HAND = 22  # 4 hands of 6 (sorted), seat p at H_HAND + 6 * p
H_SCORE = 46  # 4 best-track values
H_SECOND = 50  # 4 second-best values
H_WINNERS = 54  # winners as a seat mask
H_SIZE = 56
# -- the parameters ``par`` --
R_PLAYERS, R_TOURNAMENT, R_SECOND_BEST, R_COLOUR = 0, 1, 2, 3  # 4 colours (0..3: R, Y, G, B)
R_SIZE = 8
#: Phase names of the rules by kernel phase.
PHASES = (ORDER, DEAL, PLAY)

COLOURS = "RYGB"
DELTA = np.array([dq * WIDTH + dr for dq, dr in DIRECTIONS], np.int64)
#: ORI[turn * 6 + d]: the colour (0..3) a tile turn shows on side d (turn = tile * 6 + rot).
ORI = np.zeros(57 * 36, np.int64)
#: CS[turn * 4 + colour]: the sides (bit d) where the turn shows that colour.
CS = np.zeros(57 * 24, np.int64)
#: EXIT[turn * 6 + d]: the other side of the link that leaves the turn by side d.
EXIT = np.zeros(57 * 36, np.int64)
for _t in ALL_NUMBERS:
    for _k, _o in enumerate(ORIENTED[_t]):
        _turn = _t * 6 + _k
        for _d in range(6):
            _c = COLOURS.index(_o[_d])
            ORI[_turn * 6 + _d] = _c
            CS[_turn * 4 + _c] |= 1 << _d
            EXIT[_turn * 6 + _d] = next(x for x in range(6) if x != _d and _o[x] == _o[_d])


def _fit_table():
    """FITR[pattern, tile]: the rotations (bit k) in which ``tile`` fits a space whose side d
    shows digit d of ``pattern`` in base 5 (0: no neighbour, 1 + colour otherwise)."""
    digits = np.array([[p // 5**d % 5 for d in range(6)] for p in range(5**6)], np.int64)
    turns = ORI.reshape(57 * 6, 6)
    out = np.zeros((5**6, 57), np.int64)
    for tile in ALL_NUMBERS:
        for k in range(6):
            turn = turns[tile * 6 + k]
            ok = ((digits == 0) | (digits - 1 == turn[None, :])).all(axis=1)
            out[ok, tile] |= 1 << k
    return out.ravel()


#: FITR[pattern * 57 + tile] (``_fit_table``), handed to the kernels in the scratch tuple:
#: Numba's disk cache refuses functions that read a large global array.
FITR = _fit_table()
NTILE = 57
POW5 = np.array([5**d for d in range(6)], np.int64)
POPCOUNT = np.array([bin(m).count("1") for m in range(64)], np.int64)
_VIRTUAL = -7  # board.geometry_allows' count of a virtually filled cell


def window(cell) -> int:
    return (cell[0] + CENTRE) * WIDTH + cell[1] + CENTRE


def absolute(index: int) -> tuple[int, int]:
    return (index // WIDTH - CENTRE, index % WIDTH - CENTRE)


# -- the table -----------------------------------------------------------------------------
@njit
def place(oi, cnt, h, cell, tile, rot):
    oi[cell] = tile * 6 + rot
    for d in range(6):
        cnt[cell + DELTA[d]] += 1
    q = cell // WIDTH
    r = cell % WIDTH
    if h[H_NTILES] == 0:
        h[H_MINQ] = h[H_MAXQ] = q
        h[H_MINR] = h[H_MAXR] = r
    else:
        h[H_MINQ] = min(h[H_MINQ], q)
        h[H_MAXQ] = max(h[H_MAXQ], q)
        h[H_MINR] = min(h[H_MINR], r)
        h[H_MAXR] = max(h[H_MAXR], r)
    h[H_NTILES] += 1


@njit
def unplace(oi, cnt, cell):
    """Take the tile off ``cell`` (the caller restores the header)."""
    oi[cell] = EMPTY
    for d in range(6):
        cnt[cell + DELTA[d]] -= 1


@njit
def spaces(oi, cnt, h, forced, out):
    """The cells the fills (``forced``: three or more neighbours) or the free placements
    (one or two) may use, in the rules' (q, r) order. Returns how many."""
    n = 0
    if h[H_NTILES] == 0:
        if not forced:
            out[0] = CENTRE * WIDTH + CENTRE
            n = 1
        return n
    for q in range(h[H_MINQ] - 1, h[H_MAXQ] + 2):
        for r in range(h[H_MINR] - 1, h[H_MAXR] + 2):
            c = q * WIDTH + r
            k = cnt[c]
            if oi[c] < 0 and k > 0 and (k >= 3) == forced:
                out[n] = c
                n += 1
    return n


@njit
def pattern(oi, cell):
    """The sides of the space ``cell`` as a ``FITR`` pattern."""
    p = 0
    for d in range(6):
        t = oi[cell + DELTA[d]]
        if t >= 0:
            p += (1 + ORI[t * 6 + (d + 3) % 6]) * POW5[d]
    return p


@njit
def geometry(oi, cnt, cell, flist, nf, fmark, extra, touched, fl):
    """``board.geometry_allows`` for a placement at ``cell``: ``flist[:nf]`` are the forced
    spaces of the table; ``fmark``, ``extra`` (zero on entry and on return), ``touched`` and
    ``fl`` are scratch."""
    nfor = 0
    for i in range(nf):
        c = flist[i]
        if c != cell:
            fl[nfor] = c
            nfor += 1
            fmark[c] = 1
    touching = False
    for i in range(nfor):
        for d in range(6):
            if fmark[fl[i] + DELTA[d]]:
                touching = True
    nt = 0
    extra[cell] = _VIRTUAL
    touched[nt] = cell
    nt += 1
    filled = cell
    ok = True
    while True:
        for d in range(6):
            nb = filled + DELTA[d]
            if oi[nb] >= 0:
                continue
            if extra[nb] == 0:
                touched[nt] = nb
                nt += 1
            k = extra[nb] + 1
            extra[nb] = k
            total = cnt[nb] + k
            if total >= 3:
                if total >= 4:
                    ok = False
                    break
                if not touching:
                    for d2 in range(6):
                        if fmark[nb + DELTA[d2]]:
                            touching = True
                if not fmark[nb]:
                    fmark[nb] = 1
                    fl[nfor] = nb
                    nfor += 1
        if not ok:
            break
        if nfor == 0:
            break
        if touching:
            ok = False
            break
        low = 0
        for i in range(1, nfor):
            if fl[i] < fl[low]:
                low = i
        filled = fl[low]
        fmark[filled] = 0
        nfor -= 1
        fl[low] = fl[nfor]
        if extra[filled] == 0:  # a forced space of the table: not touched yet
            touched[nt] = filled
            nt += 1
        extra[filled] = _VIRTUAL
    for i in range(nfor):
        fmark[fl[i]] = 0
    for i in range(nt):
        extra[touched[i]] = 0
    return ok


@njit
def doubled(oi, cnt, cell, dbl):
    """R1 (``rules._doubled_colours``): ``dbl[d]`` the colours (bits) already leading twice
    into the neighbour d that a placement at ``cell`` would make forced."""
    for d in range(6):
        dbl[d] = 0
        nb = cell + DELTA[d]
        if oi[nb] >= 0 or cnt[nb] + 1 < 3:
            continue
        seen = 0  # two bits of count per colour
        for d2 in range(6):
            t = oi[nb + DELTA[d2]]
            if t >= 0:
                c = ORI[t * 6 + (d2 + 3) % 6]
                if seen >> (2 * c) & 3 < 2:
                    seen += 1 << (2 * c)
        for c in range(4):
            if seen >> (2 * c) & 3 >= 2:
                dbl[d] |= 1 << c


@njit
def violates_r1(turn, dbl):
    for d in range(6):
        if dbl[d] >> ORI[turn * 6 + d] & 1:
            return True
    return False


# -- legal placements ----------------------------------------------------------------------
@njit
def placements(oi, cnt, h, seat, forced, out, sc, stop_at_first):
    """The legal fills (``forced``) or free placements of ``seat``'s hand as codes, in the
    rules' order (cells, then hand tiles ascending, then rotations). ``sc``: scratch
    (``Scratch``). With ``stop_at_first``, returns 1 at the first (``has_placement``)."""
    hn = h[H_HANDN + seat]
    if hn == 0:
        return 0
    flist, fmark, extra, touched, fl, cells, dbl, fitr = sc
    restricted = not (h[H_PHASE] == P_PLAY and h[H_BAG] == 0)
    ncells = spaces(oi, cnt, h, forced, cells)
    nf = spaces(oi, cnt, h, True, flist) if restricted else 0
    n = 0
    hand = H_HAND + 6 * seat
    for i in range(ncells):
        cell = cells[i]
        pat = pattern(oi, cell)
        any_fit = False
        for j in range(hn):
            if fitr[pat * NTILE + h[hand + j]]:
                any_fit = True
                break
        if not any_fit:
            continue
        if restricted:
            if not geometry(oi, cnt, cell, flist, nf, fmark, extra, touched, fl):
                continue
            doubled(oi, cnt, cell, dbl)
        for j in range(hn):
            t = h[hand + j]
            rots = fitr[pat * NTILE + t]
            for rot in range(6):
                if not rots >> rot & 1:
                    continue
                turn = t * 6 + rot
                if restricted and violates_r1(turn, dbl):
                    continue
                if stop_at_first:
                    return 1
                out[n] = PLACE + ((cell * 64 + t) * 8 + rot) * 2 + (1 if forced else 0)
                n += 1
    return n


@njit
def legal(oi, cnt, h, out, sc):
    """Every legal move as codes, in the rules' order."""
    if h[H_RESULT] != ONGOING:
        return 0
    if h[H_TO_MOVE] == CHANCE_K:
        n = 0
        for t in range(1, 57):
            if h[H_BAG] >> (t - 1) & 1:
                out[n] = t
                n += 1
        return n
    return placements(oi, cnt, h, h[H_CURRENT], h[H_STEP] != 2, out, sc, False)


# -- scores --------------------------------------------------------------------------------
@njit
def best_tracks(oi, h, colour, mark):
    """The best and second-best track values of ``colour`` (``board.best_tracks``);
    ``mark`` (zero on entry and on return) is scratch."""
    best = 0
    second = 0
    if h[H_NTILES] == 0:
        return best, second
    for q in range(h[H_MINQ], h[H_MAXQ] + 1):
        for r in range(h[H_MINR], h[H_MAXR] + 1):
            s = q * WIDTH + r
            t = oi[s]
            if t < 0 or mark[s] or CS[t * 4 + colour] == 0:
                continue
            mark[s] = 1
            m = CS[t * 4 + colour]
            a = 0
            while not m >> a & 1:
                a += 1
            length = 1
            loop = False
            for half in range(2):
                d = a if half == 0 else EXIT[t * 6 + a]
                cur = s
                while True:
                    nxt = cur + DELTA[d]
                    e = oi[nxt]
                    if e < 0:
                        break
                    if nxt == s:
                        loop = True
                        break
                    mark[nxt] = 1
                    length += 1
                    d = EXIT[e * 6 + (d + 3) % 6]
                    cur = nxt
                if loop:
                    break
            value = 2 * length if loop else length
            if value > best:
                second = best
                best = value
            elif value > second:
                second = value
    for q in range(h[H_MINQ], h[H_MAXQ] + 1):
        for r in range(h[H_MINR], h[H_MAXR] + 1):
            mark[q * WIDTH + r] = 0
    return best, second


@njit
def score(oi, h, par, mark):
    """Every seat's best (and second-best) track value into ``h``."""
    n = par[R_PLAYERS]
    for p in range(n):
        c = par[R_COLOUR + p]
        done = False
        for o in range(p):
            if par[R_COLOUR + o] == c:
                h[H_SCORE + p] = h[H_SCORE + o]
                h[H_SECOND + p] = h[H_SECOND + o]
                done = True
                break
        if not done:
            h[H_SCORE + p], h[H_SECOND + p] = best_tracks(oi, h, c, mark)


@njit
def finish(oi, h, par, mark):
    """``rules._finish`` and ``rank_players``: all tiles placed."""
    score(oi, h, par, mark)
    n = par[R_PLAYERS]
    top = 0
    for p in range(n):
        top = max(top, h[H_SCORE + p])
    winners = 0
    for p in range(n):
        if h[H_SCORE + p] == top:
            winners |= 1 << p
    if par[R_SECOND_BEST]:
        top2 = -1
        for p in range(n):
            if winners >> p & 1:
                top2 = max(top2, h[H_SECOND + p])
        for p in range(n):
            if winners >> p & 1 and h[H_SECOND + p] != top2:
                winners &= ~(1 << p)
    if winners == (1 << n) - 1:
        winners = 0
    h[H_WINNERS] = winners
    h[H_RESULT] = ALL_PLACED
    h[H_TO_MOVE] = NOBODY


# -- the turn machine ----------------------------------------------------------------------
@njit
def advance(oi, cnt, h, par, sc, mark):
    """``rules._advance``: settle who acts next in the play phase."""
    n = par[R_PLAYERS]
    buf = sc[5]  # unused: placements stop at the first and write no codes
    while True:
        p = h[H_CURRENT]
        if h[H_STEP] != 2:
            if placements(oi, cnt, h, p, True, buf, sc, True):
                h[H_TO_MOVE] = p
                return
            if h[H_STEP] == 1:
                h[H_STEP] = 2
                continue
            if h[H_BAG] == 0:
                empty = True
                for o in range(n):
                    if h[H_HANDN + o]:
                        empty = False
                if empty:
                    finish(oi, h, par, mark)
                    return
            nxt = (p + 1) % n
            while h[H_HANDN + nxt] == 0:
                nxt = (nxt + 1) % n
            h[H_CURRENT] = nxt
            h[H_STEP] = 1
            continue
        if h[H_HANDN + p] == 0:
            h[H_STEP] = 3
            continue
        if not placements(oi, cnt, h, p, False, buf, sc, True):
            score(oi, h, par, mark)
            h[H_WINNERS] = 0
            h[H_RESULT] = DEADLOCK
            h[H_DEAD] = p
            h[H_TO_MOVE] = NOBODY
            return
        h[H_TO_MOVE] = p
        return


@njit
def insort(h, seat, tile):
    base = H_HAND + 6 * seat
    k = h[H_HANDN + seat]
    while k > 0 and h[base + k - 1] > tile:
        h[base + k] = h[base + k - 1]
        k -= 1
    h[base + k] = tile
    h[H_HANDN + seat] += 1


@njit
def remove(h, seat, tile):
    base = H_HAND + 6 * seat
    k = h[H_HANDN + seat]
    i = 0
    while h[base + i] != tile:
        i += 1
    for j in range(i, k - 1):
        h[base + j] = h[base + j + 1]
    h[H_HANDN + seat] = k - 1


@njit
def setup_draw(oi, cnt, h, par, sc, mark, tile):
    """``rules._setup_draw``: a start-order draw or a deal."""
    n = par[R_PLAYERS]
    h[H_BAG] &= ~(np.int64(1) << (tile - 1))
    if h[H_PHASE] == P_ORDER:
        h[H_ORDER + h[H_NORDER]] = tile
        h[H_NORDER] += 1
        if not par[R_TOURNAMENT]:
            insort(h, h[H_CURRENT], tile)
        h[H_CURRENT] += 1
        if h[H_CURRENT] < n:
            return
        starter = 0
        for p in range(n):
            if h[H_ORDER + p] > h[H_ORDER + starter]:
                starter = p
        h[H_STARTER] = starter
        if par[R_TOURNAMENT]:
            for p in range(n):
                h[H_BAG] |= np.int64(1) << (h[H_ORDER + p] - 1)
        h[H_PHASE] = P_DEAL
        h[H_CURRENT] = starter
    else:
        insort(h, h[H_CURRENT], tile)
    for i in range(n):
        p = (h[H_STARTER] + i) % n
        if h[H_HANDN + p] < 6:
            h[H_CURRENT] = p
            return
    h[H_PHASE] = P_PLAY
    h[H_CURRENT] = h[H_STARTER]
    h[H_STEP] = 1
    advance(oi, cnt, h, par, sc, mark)


@njit
def play(oi, cnt, h, par, sc, mark, code):
    """``rules._apply`` of the move ``code`` (legal: not checked)."""
    if code < PLACE:
        if h[H_PHASE] != P_PLAY:
            setup_draw(oi, cnt, h, par, sc, mark, code)
            return
        h[H_BAG] &= ~(np.int64(1) << (code - 1))
        insort(h, h[H_CURRENT], code)
        advance(oi, cnt, h, par, sc, mark)
        return
    x = code - PLACE
    forced = x & 1
    x >>= 1
    rot = x & 7
    x >>= 3
    tile = x & 63
    cell = x >> 6
    place(oi, cnt, h, cell, tile, rot)
    remove(h, h[H_CURRENT], tile)
    if not forced:
        h[H_STEP] = 3
    if h[H_BAG]:
        h[H_TO_MOVE] = CHANCE_K
    else:
        advance(oi, cnt, h, par, sc, mark)


# -- playouts ------------------------------------------------------------------------------
@njit
def contacts(oi, code, colour):
    """``evaluation.own_contacts`` of a placement code."""
    x = (code - PLACE) >> 1
    rot = x & 7
    x >>= 3
    tile = x & 63
    cell = x >> 6
    occupied = 0
    for d in range(6):
        if oi[cell + DELTA[d]] >= 0:
            occupied |= 1 << d
    return POPCOUNT[CS[(tile * 6 + rot) * 4 + colour] & occupied]


@njit
def random_bits(rng):
    """A uniform float in [0, 1) from 53 random bits."""
    return (rand_below(rng, 1 << 26) * 134217728 + rand_below(rng, 1 << 27)) / 9007199254740992.0


@njit
def playout(oi, cnt, h, par, sc, mark, rng, order, norder, fpar, buf, stack, base):
    """``playouts.playout`` (fast policy) from the position in ``oi``/``cnt``/``h`` to the
    end: the placed cells are pushed on ``stack`` from ``base`` (the caller takes them back).
    ``order[:norder]``: the tiles in the order the bag gives them (``norder`` 0: random
    draws). ``fpar`` (``policy()``): BUILD_SHARE, MARGIN_SHARE, MARGIN_SCALE, atanh(1/2). Returns
    the number of tiles placed."""
    top = base
    build_share = fpar[0]
    while h[H_RESULT] == ONGOING:
        if h[H_TO_MOVE] == CHANCE_K:
            tile = 0
            if norder > 0:
                for i in range(norder):
                    if h[H_BAG] >> (order[i] - 1) & 1:
                        tile = order[i]
                        break
            else:
                m = h[H_BAG]
                k = rand_below(rng, popcount(m))
                t = 0
                while True:
                    if m >> t & 1:
                        if k == 0:
                            break
                        k -= 1
                    t += 1
                tile = t + 1
            play(oi, cnt, h, par, sc, mark, tile)
            continue
        n = legal(oi, cnt, h, buf, sc)
        if random_bits(rng) < build_share:
            n = most_contacts(oi, buf, n, par[R_COLOUR + h[H_TO_MOVE]])
        code = buf[rand_below(rng, n)]
        stack[top] = ((code - PLACE) >> 4) >> 6
        top += 1
        play(oi, cnt, h, par, sc, mark, code)
    return top - base


@njit
def result(h, par, player, fpar):
    """``playouts.playout_result`` of the finished game in ``h`` for ``player``."""
    n = par[R_PLAYERS]
    winners = h[H_WINNERS]
    if winners == 0:
        value = 0.5
    else:
        value = 1.0 if winners >> player & 1 else 0.0
    share = fpar[1]
    if share:
        rival = -1
        for p in range(n):
            if par[R_COLOUR + p] != par[R_COLOUR + player]:
                rival = max(rival, h[H_SCORE + p])
        margin = 0.5 + 0.5 * math.tanh((h[H_SCORE + player] - rival) / fpar[2] * fpar[3])
        value = (1.0 - share) * value + share * margin
    return value


@njit
def playout_round(oi, cnt, h, par, sc, mark, rng, order, norder, fpar, buf, stack, codes, player, out):
    """One playout after each move of ``codes`` (the same draw ``order`` for each), the
    results for ``player`` into ``out``; the position is left as it was."""
    saved = h.copy()
    for k in range(codes.shape[0]):
        code = codes[k]
        top = 0
        if code >= PLACE:
            stack[0] = ((code - PLACE) >> 4) >> 6
            top = 1
        play(oi, cnt, h, par, sc, mark, code)
        top += playout(oi, cnt, h, par, sc, mark, rng, order, norder, fpar, buf, stack, top)
        out[k] = result(h, par, player, fpar)
        for i in range(top - 1, -1, -1):
            unplace(oi, cnt, stack[i])
        h[:] = saved


@njit
def building(oi, cnt, h, par, buf, sc):
    """The legal placements with the most own-colour contacts (``playouts.building_moves``),
    in the rules' order, into ``buf``; returns how many."""
    return most_contacts(oi, buf, legal(oi, cnt, h, buf, sc), par[R_COLOUR + h[H_TO_MOVE]])


@njit
def most_contacts(oi, buf, n, colour):
    """Keep of the placements ``buf[:n]`` those that turn ``colour`` towards the most
    neighbours (``contacts``), in order, at the front of ``buf``; returns how many."""
    most = -1
    k = 0
    for i in range(n):
        c = contacts(oi, buf[i], colour)
        if c > most:
            most = c
            k = 0
        if c == most:
            buf[k] = buf[i]
            k += 1
    return k


# == the Python side ==========================================================================
class KernelState:
    """A position on the kernel's arrays (``TantrixKernel.state``); ``par`` its seats'
    parameters."""

    __slots__ = ("oi", "cnt", "h", "par", "outcome")

    def __init__(self, par):
        self.oi = np.full(NCELL, EMPTY, np.int64)
        self.cnt = np.zeros(NCELL, np.int64)
        self.h = np.zeros(H_SIZE, np.int64)
        self.par = par
        #: The outcome of a position set up from a finished reference state.
        self.outcome = None


def scratch() -> tuple:
    """The scratch arrays ``placements`` unpacks: forced spaces, closure marks, extra counts,
    touched cells, the closure's forced list, the spaces, R1's colours,
    and the fit table ``FITR`` (read only)."""
    return (
        np.zeros(NCELL, np.int64),
        np.zeros(NCELL, np.int64),
        np.zeros(NCELL, np.int64),
        np.zeros(NCELL, np.int64),
        np.zeros(NCELL, np.int64),
        np.zeros(NCELL, np.int64),
        np.zeros(6, np.int64),
        FITR,
    )


def holds(ref) -> bool:
    """Can the window hold ``ref``'s table and every tile still to come (each placement
    widens the area by at most one cell, the closure test looks ``MARGIN`` further)?"""
    if not ref.board:
        return True
    room = CENTRE - MARGIN - (len(ALL_NUMBERS) - len(ref.board))
    return all(abs(q) < room and abs(r) < room for q, r in ref.board)


class Work:
    """One thread's scratch arrays for the compiled functions (``TantrixKernel.work``)."""

    __slots__ = ("sc", "mark", "buf", "stack")

    def __init__(self):
        self.sc = scratch()
        self.mark = np.zeros(NCELL, np.int64)
        #: Moves of one position (at most a few hundred placements, 56 draws).
        self.buf = np.zeros(4096, np.int64)
        #: The cells a playout filled (56 tiles at most).
        self.stack = np.zeros(64, np.int64)


class TantrixKernel:
    """The compiled twin of one Tantrix rule set (setup, tiebreak, doubles, colours), for
    every number of players the game allows."""

    #: The generic agents search on the reference rules (the ``tantrix`` agent uses this kernel).
    searches: tuple[str, ...] = ()
    #: Its optional members (``qipan.fast.KernelOptions``).
    provides = frozenset({"moves_of", "snapshot_of"})

    def __init__(self, game):
        self.game = game
        self._pars: dict[int, np.ndarray] = {}
        # The compiled functions release the GIL and the server's bots think in threads:
        # every thread gets its own scratch arrays.
        self._local = threading.local()

    def work(self) -> Work:
        """This thread's scratch arrays (made at its first call)."""
        work = getattr(self._local, "work", None)
        if work is None:
            work = self._local.work = Work()
        return work

    def par(self, players: int) -> np.ndarray:
        """The parameters of a ``players``-seat game (colours by seat, setup, tiebreak)."""
        par = self._pars.get(players)
        if par is None:
            colours = self.game.colours_for(players)  # QipanError for a seat count it has not
            par = np.zeros(R_SIZE, np.int64)
            par[R_PLAYERS] = players
            par[R_TOURNAMENT] = self.game.options["setup"] == "tournament"
            par[R_SECOND_BEST] = self.game.options["tiebreak"] == "second_best"
            for p, c in enumerate(colours):
                par[R_COLOUR + p] = COLOURS.index(c)
            par = self._pars[players] = par
        return par

    def state(self, ref) -> KernelState:
        if not holds(ref):
            raise ValueError("the tiles lie too far from 0,0 for the kernel's window")
        s = KernelState(self.par(ref.num_players))
        h = s.h
        for (q, r), (tile, rot) in ref.board.items():
            place(s.oi, s.cnt, h, window((q, r)), tile, rot)
        h[H_PHASE] = PHASES.index(ref.phase)
        h[H_CURRENT], h[H_STEP], h[H_STARTER] = ref.current, ref.step, ref.starter
        h[H_TO_MOVE] = NOBODY if ref.to_move is None else ref.to_move
        h[H_BAG] = sum(1 << (t - 1) for t in ref.bag)
        h[H_NORDER] = len(ref.order_draws)
        for i, t in enumerate(ref.order_draws):
            h[H_ORDER + i] = t
        for p, hand in enumerate(ref.hands):
            if len(hand) > 6:
                raise ValueError(f"seat {p + 1} holds {len(hand)} tiles: a hand holds at most 6")
            h[H_HANDN + p] = len(hand)
            for i, t in enumerate(sorted(hand)):
                h[H_HAND + 6 * p + i] = t
        if ref.outcome is not None:
            h[H_RESULT] = GIVEN
            s.outcome = ref.outcome
        return s

    def legal(self, s: KernelState) -> list[int]:
        w = self.work()
        n = legal(s.oi, s.cnt, s.h, w.buf, w.sc)
        return w.buf[:n].tolist()

    def building(self, s: KernelState) -> list[int]:
        """The legal placements with the most own-colour contacts, in the rules' order."""
        w = self.work()
        n = building(s.oi, s.cnt, s.h, s.par, w.buf, w.sc)
        return w.buf[:n].tolist()

    def play(self, s: KernelState, code: int) -> None:
        w = self.work()
        play(s.oi, s.cnt, s.h, s.par, w.sc, w.mark, code)

    @staticmethod
    def code(move) -> int:
        if move.data[0] == "draw":
            return move.data[1]
        _, tile, cell, rot, forced = move.data
        return PLACE + ((window(cell) * 64 + tile) * 8 + rot) * 2 + int(forced)

    @staticmethod
    def move(code: int):
        """The rules' Move of ``code``; ValueError for a code that is no move."""
        from .notation import draw_move, placement_move

        if not isinstance(code, int) or code < 1:
            raise ValueError(f"{code!r} is not a Tantrix kernel move code")
        if code < PLACE:
            if code > 56:
                raise ValueError(f"draw code {code}: tiles are numbered 1-56")
            return draw_move(code)
        x = code - PLACE
        forced, rot, tile, cell = x & 1, x >> 1 & 7, x >> 4 & 63, x >> 10
        if not 1 <= tile <= 56 or rot > 5 or cell >= NCELL:
            raise ValueError(f"{code} is not a Tantrix kernel move code")
        return placement_move(tile, absolute(cell), rot, bool(forced))

    def moves_of(self, codes: list[int]) -> list:
        return [self.move(c) for c in codes]

    @staticmethod
    def snapshot(s: KernelState) -> tuple:
        """The table, hands, bag, start draws and turn (what ``snapshot_of`` gives)."""
        h = s.h
        cells = np.flatnonzero(s.oi >= 0)
        board = tuple(sorted((absolute(int(c)), divmod(int(s.oi[c]), 6)) for c in cells))
        hands = tuple(
            tuple(int(t) for t in h[H_HAND + 6 * p : H_HAND + 6 * p + h[H_HANDN + p]]) for p in range(4)
        )
        bag = tuple(t for t in range(1, 57) if int(h[H_BAG]) >> (t - 1) & 1)
        order = tuple(int(t) for t in h[H_ORDER : H_ORDER + h[H_NORDER]])
        turn = (PHASES[h[H_PHASE]], int(h[H_CURRENT]), int(h[H_STEP]), int(h[H_TO_MOVE]))
        return board, hands, bag, order, turn

    @staticmethod
    def snapshot_of(ref) -> tuple:
        board = tuple(sorted(ref.board.items()))
        hands = tuple(tuple(sorted(hd)) for hd in ref.hands) + ((),) * (4 - ref.num_players)
        turn = (ref.phase, ref.current, ref.step, -2 if ref.to_move is None else ref.to_move)
        return board, hands, tuple(sorted(ref.bag)), tuple(ref.order_draws), turn

    def outcome(self, s: KernelState):
        from ...core.outcome import Outcome
        from .rules import scored_cells

        result = int(s.h[H_RESULT])
        if result == ONGOING:
            return None
        if result == GIVEN:
            return s.outcome
        n = int(s.par[R_PLAYERS])
        colours = tuple(COLOURS[c] for c in s.par[R_COLOUR : R_COLOUR + n])
        scores = tuple(int(x) for x in s.h[H_SCORE : H_SCORE + n])
        edges = {
            absolute(int(c)): ORIENTED[int(s.oi[c]) // 6][int(s.oi[c]) % 6] for c in np.flatnonzero(s.oi >= 0)
        }
        cells = scored_cells(edges, colours, scores)
        floats = tuple(float(x) for x in scores)
        if result == DEADLOCK:
            reason = f"deadlock: player {int(s.h[H_DEAD]) + 1} has no legal placement"
            return Outcome((), floats, reason, cells)
        winners = tuple(p for p in range(n) if int(s.h[H_WINNERS]) >> p & 1)
        return Outcome(winners, floats, "all tiles are placed", cells)

    def playouts(self, s: KernelState, player: int, seed: int = 0) -> Playouts:
        """A decision's playouts from ``s`` (``Playouts``), the random numbers from ``seed``."""
        return Playouts(self, s, player, seed)

    def warm_up(self, ref) -> None:
        """Compile (or load from the cache) the rules and the playouts by running them."""
        s = self.state(ref)
        while s.h[H_PHASE] != P_PLAY:
            self.play(s, self.legal(s)[0])
        self.building(s)
        runs = self.playouts(s, 0)
        runs.round(self.legal(s)[:2], None, 1)
        runs.after(self.move(self.legal(s)[0]), list(ALL_NUMBERS))


def policy() -> np.ndarray:
    """The playout constants from ``playouts.py`` (their one definition), as ``fpar``."""
    from . import playouts as P

    return np.array([P.BUILD_SHARE, P.MARGIN_SHARE, P.MARGIN_SCALE, P._THREE_QUARTERS], np.float64)


class Playouts:
    """Random playouts (``playouts.playout``'s fast policy) after candidate moves of one
    position: ``round(codes, order, seed)`` plays each candidate out once on the same draw
    order and returns the results."""

    def __init__(self, kernel: TantrixKernel, s: KernelState, player: int, seed: int = 0):
        self.k, self.s, self.player = kernel, s, player
        self.fpar = policy()
        self.rng = np.array([seed_word(seed)], np.uint64)
        self._order, self._tiles = None, np.zeros(1, np.int64)  # ``order`` None: random draws
        self._codes = np.zeros(1, np.int64)
        self._out = np.zeros(1, np.float64)

    def seed(self, seed: int) -> None:
        self.rng[0] = seed_word(seed)

    def after(self, move, order) -> float:
        """One playout after the rules' ``move`` (``best_by_halving``'s ``runner``); the
        same ``order`` list for a whole round is converted once."""
        if order is not self._order:
            self._order = order
            self._tiles = np.array(order if order else [0], np.int64)
        self._codes[0] = self.k.code(move)
        self._run(self._codes, self._tiles, len(order) if order else 0, self._out)
        return float(self._out[0])

    def round(self, codes, order, seed: int | None = None) -> list[float]:
        """One playout after each move of ``codes``; ``order``: the bag's order (a list of
        tiles, each draw the first still in the bag) or None for random draws."""
        if seed is not None:
            self.seed(seed)
        out = np.zeros(len(codes), np.float64)
        tiles = np.array(order if order else [0], np.int64)
        self._run(np.array(codes, np.int64), tiles, len(order) if order else 0, out)
        return out.tolist()

    def _run(self, codes, tiles, norder: int, out) -> None:
        """``playout_round`` on this position with this thread's scratch arrays."""
        w, s = self.k.work(), self.s
        playout_round(
            s.oi,
            s.cnt,
            s.h,
            s.par,
            w.sc,
            w.mark,
            self.rng,
            tiles,
            norder,
            self.fpar,
            w.buf,
            w.stack,
            codes,
            self.player,
            out,
        )


def kernel_for(game):
    """The kernel of ``game``'s rule set, or None when kernels are off or the rules use the
    seed's forced spaces (``forced_space=consecutive``: every other option is covered)."""
    from ...fast import enabled

    if not enabled(game.family) or game.options.get("forced_space", "any_three") != "any_three":
        return None  # the seed's forced spaces: the reference rules only
    options = game.options
    key = (options["setup"], options["tiebreak"], bool(options["doubles"]), options["colours"].upper())
    kernel = _KERNELS.get(key)
    if kernel is None:
        kernel = _KERNELS[key] = TantrixKernel(game)
    return kernel


_KERNELS: dict = {}
