"""The compiled twin of the Morris rules (Numba, ``qipan[fast]``): move generation, play,
outcome, random playouts and perft over int64 arrays, with the same semantics as the
reference rules (``MorrisState``) for every board and rule option, and ``MorrisKernel``, the
wrapper that converts states and moves both ways. The searches over these rules are in
``kernel_search.py``.

Layout of the arrays (all int64, ``RuleArrays``):

* ``pt[point]``: neighbours mask, number of lines through the point, the masks of the other
  two points of each line (up to 4), the 直棋 擔 ends of the side line whose middle it is,
  the 槓 middle and far end of the radial line it ends (0 when none).
* ``lines``: one mask per line.
* ``par``: the rule parameters (``_P_*`` indices).
* a state ``s``: a header (``_S_*`` indices) and, from ``HEADER`` on, the keys of the
  positions counted for the repetition rule since the last removal (no earlier position can
  recur: removals are irreversible).

A move is one int: ``(from + 1) | (to + 1) << 5 | removed << 10`` (from = -1 for a placement,
to = -1 for a bare full-board removal), the same triple as ``Geometry.move(f, to, removed)``."""

from __future__ import annotations

from dataclasses import fields
from typing import NamedTuple

from ...fast import njit, njit_signed, np, popcount, rand_below, seed_word


class RuleArrays(NamedTuple):
    """The arrays of one rule set (the module's docstring)."""

    pt: np.ndarray
    lines: np.ndarray
    par: np.ndarray


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


# -- the Python side: tables from the reference rules, states in and out -------------------------
class MorrisKernel:
    """The compiled twin of one rule set: builds its arrays from the board's ``Geometry`` and
    converts states and moves both ways (a kernel move is ``Geometry.move(f, to, removed)``)."""

    #: The searches this kernel runs for the generic agents (``mcts``, ``alphabeta``).
    searches = ("mcts", "alphabeta")
    #: Its optional members (``qipan.fast.KernelOptions``).
    provides = frozenset({"perft", "mcts", "uct", "alphabeta"})
    #: Room for positions counted after the state was made (the n-move rule bounds a game to
    #: 100 by default; a search that outgrows it scores the position by the evaluation).
    history = 4096

    def __init__(self, geometry):
        self.geometry = g = geometry
        rules = g.rules
        n = g.n
        pt = np.zeros((n, PT_WIDTH), np.int64)
        for i in range(n):
            pt[i, PT_NBR] = g.nbr[i]
            pairs, dan, gang = g.pairs[i], g.dan_at[i], g.gang_at[i]
            if max(len(pairs), len(dan), len(gang)) > PT_SLOTS:
                raise ValueError(f"point {g.names[i]} has more lines than the kernel's table holds")
            pt[i, PT_NPAIRS] = len(pairs)
            pt[i, PT_PAIRS : PT_PAIRS + len(pairs)] = pairs
            pt[i, PT_NDAN] = len(dan)
            pt[i, PT_DAN : PT_DAN + len(dan)] = dan
            pt[i, PT_NGANG] = len(gang)
            for j, (mid, other) in enumerate(gang):
                pt[i, PT_GANG_MID + j], pt[i, PT_GANG_OTHER + j] = mid, other
        self.pt = pt
        self.lines = np.array(g.lines, np.int64)
        fly_at = n if rules.move_anywhere else (-1 if rules.flying is None else rules.flying)
        par = np.zeros(15, np.int64)
        par[_P_N], par[_P_FULL], par[_P_FLY_AT] = n, g.full, fly_at
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
        par[_P_NLINES] = len(g.lines)
        par[_P_LINE_MOVING_ONLY] = getattr(rules, "line_moving_only", False)
        self.par = par
        self.arrays = RuleArrays(self.pt, self.lines, self.par)
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
        return self.geometry.move((code & 31) - 1, (code >> 5 & 31) - 1, code >> 10)

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

    # The searches (``kernel_search.py``, which imports this file).
    def mcts(self, ref, iterations=None, deadline=None, seed=0, exploration=1.4, playout_cap=400):
        """UCT inside the kernel (``mcts``): (the chosen Move, iterations done)."""
        from .kernel_search import mcts_move

        return mcts_move(self, ref, iterations, deadline, seed, exploration, playout_cap)

    def uct(self, ref, iterations=None, deadline=None, seed=0, exploration=1.4, playout_cap=400):
        """The tree of ``mcts`` (``Tree.root_children`` gives the visits), iterations done."""
        from .kernel_search import mcts

        return mcts(self, ref, iterations, deadline, seed, exploration, playout_cap)

    def alphabeta(self, ref, depth=None, deadline=None):
        """Alpha-beta inside the kernel (``alphabeta``): move, score, depth, nodes."""
        from .kernel_search import alphabeta

        return alphabeta(self, ref, depth, deadline)

    def warm_up(self, ref) -> None:
        """Compile (or load from the cache) the kernel's functions by running them once."""
        self.perft(ref, 2)
        self.playouts(ref, 1, 1, 50)
        self.mcts(ref, iterations=8)
        self.alphabeta(ref, depth=2)
        from .search import Searcher  # the morris agent's search (imported late: it imports this file)

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

    if not enabled(game.family) or not compiles(game.geometry.rules):
        return None
    geometry = game.geometry
    kernel = _KERNELS.get(geometry.rules)
    if kernel is None:
        kernel = _KERNELS[geometry.rules] = MorrisKernel(geometry)
    return kernel
