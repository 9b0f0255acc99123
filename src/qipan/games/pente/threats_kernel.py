"""The compiled twin (Numba) of ``threats.py``'s threat-space search, over the kernel's states
and rules (``kernel.py``'s ``play``/``unplay``): the same candidates, threats, defences and
order, so the same answers (``tests/games/pente/test_threats.py`` on a sample,
``benchmarks/pente_threats.py --check`` on every mined position).

One recursive function, ``_search``, is both node kinds: with ``point < 0`` an attacker node
(is there a forced win within ``plies``?), else the threat on ``point`` (does it hold against
every defence?). A transposition table (Zobrist keys of the cells, the side to move, the
captures) keeps the fewest plies proved to win and the most proved not to win. A node budget
stops a call (``st[ST_ABORT]``); nothing is stored after that."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from ... import fast
from ...fast import njit_guarded, np
from . import board, kernel, threats
from .board import CAPTURE_TARGET, EMPTY, OFF
from .kernel import (
    HEADER,
    ONGOING,
    P_EXACT,
    P_NPOINTS,
    S_CAPS,
    S_MAYBE_LINE,
    S_RESULT,
    S_TO_MOVE,
    _has_line,
    _line_wins,
    capture_dirs,
    play,
    unplay,
)
from .threats import MAX_PLIES, SearchAborted

#: The files compiled into this file's functions (``threats.py`` for its constants).
SOURCES = (
    Path(__file__),
    Path(kernel.__file__),
    Path(board.__file__),
    Path(threats.__file__),
    Path(fast.__file__),
)


def njit(fn):
    """``njit`` with the disk cache emptied when one of ``SOURCES`` changes
    (``fast.njit_guarded``): Numba's own cache watches this file only."""
    return njit_guarded(fn, SOURCES)


#: Attacker levels a search can nest (``max_plies`` up to 2 * LEVELS - 3).
LEVELS = 16
MAX_POINTS = 400
ST_NODES, ST_BUDGET, ST_ABORT, ST_STAMP = 0, 1, 2, 3
NEVER = 1 << 20
TT_BITS = 18


class Workspace(NamedTuple):
    """The search's arrays (``T`` in every function), read by name."""

    zobrist: np.ndarray  # a key per cell and content
    header_keys: np.ndarray  # keys for the header fields
    tt_keys: np.ndarray  # the table's keys
    tt_plies: np.ndarray  # per entry: fewest plies won, most plies not won
    threats: np.ndarray  # the attacker's threats per level
    threat_wins: np.ndarray  # their winning-point counts
    defences: np.ndarray  # the defender's replies per level
    win_points: np.ndarray  # winning points per level
    mark: np.ndarray  # per cell: a stamp
    stats: np.ndarray  # ``ST_*``: nodes, budget, abort, stamp
    threat_undo: np.ndarray  # undo of the threat, per level
    reply_undo: np.ndarray  # undo of the reply, per level
    frames: np.ndarray  # the search's stack: a row a level (``F_*``)
    frame_keys: np.ndarray  # the stack's table keys


def _workspace(size: int) -> Workspace:
    rng = np.random.default_rng(0x7EA7)
    return Workspace(
        zobrist=rng.integers(0, 2**63, size=(size, 8), dtype=np.int64).astype(np.uint64),
        header_keys=rng.integers(0, 2**63, size=64, dtype=np.int64).astype(np.uint64),
        tt_keys=np.zeros(1 << TT_BITS, np.uint64),
        tt_plies=np.zeros((1 << TT_BITS, 2), np.int64),
        threats=np.zeros((LEVELS, MAX_POINTS), np.int64),
        threat_wins=np.zeros((LEVELS, MAX_POINTS), np.int64),
        defences=np.zeros((LEVELS, MAX_POINTS), np.int64),
        win_points=np.zeros((LEVELS, MAX_POINTS), np.int64),
        mark=np.zeros(size, np.int64),
        stats=np.zeros(8, np.int64),
        threat_undo=np.zeros((LEVELS, HEADER + 40), np.int64),
        reply_undo=np.zeros((LEVELS, HEADER + 40), np.int64),
        frames=np.zeros((LEVELS, 8), np.int64),
        frame_keys=np.zeros(LEVELS, np.uint64),
    )


# -- the pieces, as in threats.py ----------------------------------------------------------------
@njit
def _near(dirs8, s, i):
    for q in range(8):
        v = s[HEADER + i + dirs8[q]]
        if v != EMPTY and v != OFF:
            return True
    return False


@njit
def _pairs(dirs8, s, i, p):
    mask = capture_dirs(dirs8, s, i, p + 1)
    n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n


@njit
def immediate_wins(R, s, p, out):
    """``threats.immediate_wins``: the points where ``p``, moving now, wins at once, into
    ``out``; returns how many."""
    points, dirs8, par = R.points, R.dirs8, R.par
    everywhere = par[P_EXACT] and s[S_MAYBE_LINE] >> p & 1 and _has_line(points, par, dirs8, s, p + 1)
    caps = s[S_CAPS + p]
    c = 0
    for k in range(par[P_NPOINTS]):
        i = points[k]
        if s[HEADER + i] != EMPTY:
            continue
        if everywhere:
            out[c] = i
            c += 1
        elif _near(dirs8, s, i) and (
            _line_wins(par, dirs8, s, i, p + 1) or caps + 2 * _pairs(dirs8, s, i, p) >= CAPTURE_TARGET
        ):
            out[c] = i
            c += 1
    return c


@njit
def _enemy(c, me):
    return c != me and c != EMPTY and c != OFF


@njit
def candidates(R, T, s, p, out):
    """``threats.candidates``: the points where ``p`` might threaten to win, by index."""
    points, dirs8, par = R.points, R.dirs8, R.par
    mark, st = T.mark, T.stats
    st[ST_STAMP] += 1
    stamp = st[ST_STAMP]
    me = p + 1
    for k in range(par[P_NPOINTS]):
        i = points[k]
        if s[HEADER + i] != me:
            continue
        for q in range(4):
            d = dirs8[q]
            for start in range(-4, 1):
                own = 0
                empty = 0
                for t in range(5):
                    v = s[HEADER + i + (start + t) * d]
                    if v == me:
                        own += 1
                    elif v == EMPTY:
                        empty += 1
                if own == 3 and empty == 2:
                    for t in range(5):
                        j = i + (start + t) * d
                        if s[HEADER + j] == EMPTY:
                            mark[j] = stamp
    need = (CAPTURE_TARGET - s[S_CAPS + p] + 1) // 2
    for k in range(par[P_NPOINTS]):
        i = points[k]
        if s[HEADER + i] != EMPTY or mark[i] == stamp or not _near(dirs8, s, i):
            continue
        if capture_dirs(dirs8, s, i, me):
            mark[i] = stamp
            continue
        for q in range(8):
            d = dirs8[q]
            far = i + 3 * d
            if (
                _enemy(s[HEADER + i + d], me)
                and _enemy(s[HEADER + i + 2 * d], me)
                and s[HEADER + far] == EMPTY
                and _pairs(dirs8, s, far, p) + 1 >= need
            ):
                mark[i] = stamp
                break
    c = 0
    for k in range(par[P_NPOINTS]):
        i = points[k]
        if mark[i] == stamp and s[HEADER + i] == EMPTY:
            out[c] = i
            c += 1
    return c


@njit
def threats(R, T, s, level):
    """``threats.threats`` into ``T.threats[level]`` (points) and ``T.threat_wins[level]`` (their winning
    points' counts), most winning points first, then by point; returns how many."""
    points, lines, line_len, tria, dirs8, par = R.points, R.lines, R.line_len, R.tria, R.dirs8, R.par
    tmoves, tcounts, wins, undo = (
        T.threats[level],
        T.threat_wins[level],
        T.win_points[level],
        T.threat_undo[level],
    )
    p = s[S_TO_MOVE]
    cand = np.empty(MAX_POINTS, np.int64)
    n = candidates(R, T, s, p, cand)
    c = 0
    for k in range(n):
        play(points, lines, line_len, tria, dirs8, par, s, cand[k], undo)
        if s[S_RESULT] == ONGOING and immediate_wins(R, s, 1 - p, wins) == 0:
            nw = immediate_wins(R, s, p, wins)
            if nw:
                # insertion by (-count, point): candidates come by point already
                t = c
                while t > 0 and tcounts[t - 1] < nw:
                    tmoves[t] = tmoves[t - 1]
                    tcounts[t] = tcounts[t - 1]
                    t -= 1
                tmoves[t] = cand[k]
                tcounts[t] = nw
                c += 1
        unplay(s, undo)
    return c


@njit
def defences(R, T, s, wins, nwins, out):
    """``threats.defences``: the winning points ``wins`` and every capture of the side to
    move, by index, into ``out``; returns how many."""
    points, dirs8, par = R.points, R.dirs8, R.par
    mark, st = T.mark, T.stats
    st[ST_STAMP] += 1
    stamp = st[ST_STAMP]
    for t in range(nwins):
        mark[wins[t]] = stamp
    me = s[S_TO_MOVE] + 1
    c = 0
    for k in range(par[P_NPOINTS]):
        i = points[k]
        if s[HEADER + i] != EMPTY:
            continue
        if mark[i] == stamp or (_near(dirs8, s, i) and capture_dirs(dirs8, s, i, me)):
            out[c] = i
            c += 1
    return c


@njit
def _key(R, T, s):
    points, par = R.points, R.par
    zob, zh = T.zobrist, T.header_keys
    h = zh[s[S_TO_MOVE] + 1] ^ zh[8 + (s[S_MAYBE_LINE] & 15)]
    h ^= zh[24 + min(s[S_CAPS], 19)] ^ zh[44 + min(s[S_CAPS + 1], 19)]
    for k in range(par[P_NPOINTS]):
        i = points[k]
        v = s[HEADER + i]
        if v != EMPTY:
            h ^= zob[i, v]
    return h


#: ``frames`` columns: one row a level of the explicit stack.
F_PLIES, F_SLOT, F_WON, F_LOST, F_THREAT, F_THREATS, F_REPLY, F_REPLIES = range(8)
#: What ``_search``'s loop does next.
_ENTER, _NEXT_THREAT, _NEXT_REPLY, _RETURN = 0, 1, 2, 3


@njit
def _open_threat(R, T, s, level, point):
    """Play the threat on ``point`` at ``level`` (kept on ``T.threat_undo[level]``) and write the
    defender's replies to ``T.defences[level]``: their count, or -1 (won at once) / -2 (lost or
    drawn at once), both undone."""
    points, lines, line_len, tria, dirs8, par = R.points, R.lines, R.line_len, R.tria, R.dirs8, R.par
    undo, wins, replies = T.threat_undo[level], T.win_points[level], T.defences[level]
    p = s[S_TO_MOVE]
    play(points, lines, line_len, tria, dirs8, par, s, point, undo)
    if s[S_RESULT] != ONGOING:  # not a threat but an end: a win for the mover or not
        won = s[S_RESULT] > 0 and s[S_RESULT] >> p & 1 == 1
        unplay(s, undo)
        return -1 if won else -2
    nw = immediate_wins(R, s, p, wins)
    return defences(R, T, s, wins, nw, replies)


@njit
def _store(T, frame, h, result):
    """Keep in the table whether the node ``h`` (its stack row ``frame``) wins within its plies."""
    ttk, ttv = T.tt_keys, T.tt_plies
    slot, won, lost, plies = frame[F_SLOT], frame[F_WON], frame[F_LOST], frame[F_PLIES]
    if ttk[slot] != h:
        ttk[slot] = h
        won, lost = NEVER, -1
    if result:
        ttv[slot, 0] = min(won, plies)
        ttv[slot, 1] = lost
    else:
        ttv[slot, 0] = won
        ttv[slot, 1] = max(lost, plies)


@njit
def _search(R, T, s, plies, level, point):
    """With ``point < 0``: whether the side to move wins within ``plies`` (``wins_within``);
    else whether its threat on ``point`` wins within ``plies`` (``threat_holds``).

    A depth-first AND/OR search over an explicit stack (``T.frames``, a row a level; the keys
    in ``T.frame_keys``), not recursion: Numba's disk cache cannot load a self-recursive function
    (numba issue 6061: the loaded code calls an unresolved symbol and the process crashes)."""
    ttk, ttv, st, frames, keys = T.tt_keys, T.tt_plies, T.stats, T.frames, T.frame_keys
    base = level
    L = level
    result = False
    if point >= 0:  # the threat mode: the replies' loop of the threat at ``base``
        n = _open_threat(R, T, s, L, point)
        if n < 0:
            return n == -1
        frames[L, F_PLIES] = plies
        frames[L, F_REPLY] = 0
        frames[L, F_REPLIES] = n
        action = _NEXT_REPLY
    else:
        frames[L, F_PLIES] = plies
        action = _ENTER
    while True:
        if action == _ENTER:  # an attacker node: plies and level in ``frames[L]``
            action = _RETURN
            result = False
            st[ST_NODES] += 1
            if st[ST_NODES] > st[ST_BUDGET]:
                st[ST_ABORT] = 1
            if st[ST_ABORT] or s[S_RESULT] != ONGOING:
                continue
            if immediate_wins(R, s, s[S_TO_MOVE], T.win_points[L]):
                result = True
                continue
            left = frames[L, F_PLIES]
            if left < 3 or L + 1 >= LEVELS:
                continue
            h = _key(R, T, s)
            slot = np.int64(h & np.uint64((1 << TT_BITS) - 1))
            won, lost = NEVER, -1
            if ttk[slot] == h:
                won, lost = ttv[slot, 0], ttv[slot, 1]
                if won <= left:
                    result = True
                    continue
                if lost >= left:
                    continue
            keys[L] = h
            frames[L, F_SLOT] = slot
            frames[L, F_WON] = won
            frames[L, F_LOST] = lost
            frames[L, F_THREAT] = 0
            frames[L, F_THREATS] = threats(R, T, s, L)
            action = _NEXT_THREAT
        elif action == _NEXT_THREAT:  # the attacker's next threat, or the node's answer
            k = frames[L, F_THREAT]
            if k >= frames[L, F_THREATS]:
                result = False
                if not st[ST_ABORT]:
                    _store(T, frames[L], keys[L], False)
                action = _RETURN
                continue
            frames[L, F_THREAT] = k + 1
            n = _open_threat(R, T, s, L, T.threats[L, k])
            if n == -2:
                continue
            if n == -1:
                result = True
                _store(T, frames[L], keys[L], True)
                action = _RETURN
                continue
            frames[L, F_REPLY] = 0
            frames[L, F_REPLIES] = n
            action = _NEXT_REPLY
        elif action == _NEXT_REPLY:  # the defender's next reply to the threat at ``L``
            k = frames[L, F_REPLY]
            if k >= frames[L, F_REPLIES]:  # every reply answered: the threat holds
                unplay(s, T.threat_undo[L])
                if L == base and point >= 0:
                    return True
                _store(T, frames[L], keys[L], True)
                result = True
                action = _RETURN
                continue
            frames[L, F_REPLY] = k + 1
            play(R.points, R.lines, R.line_len, R.tria, R.dirs8, R.par, s, T.defences[L, k], T.reply_undo[L])
            if s[S_RESULT] != ONGOING:  # the reply ended the game: the threat fails
                result = False
                L += 1  # as if the attacker node below had answered (undone there)
                action = _RETURN
                continue
            frames[L + 1, F_PLIES] = frames[L, F_PLIES] - 2
            L += 1
            action = _ENTER
        else:  # _RETURN: the attacker node at ``L`` answered ``result``
            if L == base:
                return result
            L -= 1
            unplay(s, T.reply_undo[L])
            if result:
                action = _NEXT_REPLY
                continue
            unplay(s, T.threat_undo[L])  # a reply holds out: the threat fails
            if L == base and point >= 0:
                return False
            if st[ST_ABORT]:
                result = False
                action = _RETURN
                continue
            action = _NEXT_THREAT


# -- the Python side: the same methods as threats.ThreatSearch ----------------------------------
_WORK: dict = {}


class CompiledThreatSearch:
    """``threats.ThreatSearch`` on the kernel: ``shortest``, ``winning_moves``, ``line``."""

    def __init__(self, kernel, state, nodes: int | None = None):
        self.kernel = kernel
        self.R = kernel.arrays
        key = id(kernel)
        if key not in _WORK:
            _WORK[key] = _workspace(kernel.geom.size)
        self.T = T = _WORK[key]
        T.tt_keys[:] = 0  # a fresh table: results stay exact either way, this keeps timings honest
        self.s = kernel.state(state)
        self.limit = nodes
        self.nodes = 0

    def _call(self, s, plies: int, level: int, point: int) -> bool:
        st = self.T.stats
        st[ST_NODES] = 0
        st[ST_BUDGET] = (self.limit - self.nodes) if self.limit is not None else 1 << 62
        st[ST_ABORT] = 0
        result = bool(_search(self.R, self.T, s, plies, level, point))
        self.nodes += int(st[ST_NODES])
        if st[ST_ABORT]:
            raise SearchAborted(f"the threat search ran out of its {self.limit} nodes")
        return result

    def wins_within(self, plies: int, s=None) -> bool:
        return self._call(self.s if s is None else s, plies, 0, -1)

    def shortest(self, max_plies: int = MAX_PLIES, s=None) -> int | None:
        if max_plies > 2 * LEVELS - 3:
            raise ValueError(f"the compiled threat search looks at most {2 * LEVELS - 3} plies ahead")
        for plies in range(1, max_plies + 1, 2):
            if self.wins_within(plies, s):
                return plies
        return None

    def _wins(self, s) -> list[int]:
        out = np.empty(MAX_POINTS, np.int64)
        n = immediate_wins(self.R, s, int(s[S_TO_MOVE]), out)
        return out[:n].tolist()

    def _threats(self, s) -> list[int]:
        n = threats(self.R, self.T, s, 0)
        return self.T.threats[0, :n].tolist()

    def _defences(self, s) -> list[int]:
        wins = np.empty(MAX_POINTS, np.int64)
        out = np.empty(MAX_POINTS, np.int64)
        nw = immediate_wins(self.R, s, int(s[S_TO_MOVE]) ^ 1, wins)
        n = defences(self.R, self.T, s, wins, nw, out)
        return out[:n].tolist()

    def winning_moves(self, plies: int) -> list[int]:
        wins = self._wins(self.s)
        if wins or plies < 3:
            return wins
        return [i for i in self._threats(self.s) if self._call(self.s, plies, 0, i)]

    def _after(self, s, point: int):
        t = s.copy()
        self.kernel.play(t, point)
        return t

    def line(self, plies: int, s=None) -> list[int]:
        s = self.s if s is None else s
        wins = self._wins(s)
        if wins:
            return [wins[0]]
        plies = self.shortest(plies, s)
        point = next(i for i in self._threats(s) if self._call(s, plies, 0, i))
        after = self._after(s, point)
        longest, reply = -1, None
        for r in self._defences(after):
            n = self.shortest(plies - 2, self._after(after, r))
            if n > longest:
                longest, reply = n, r
        return [point, reply, *self.line(longest, self._after(after, reply))]


def warm_up(kernel, ref) -> None:
    """Compile (or load) the search at start, not on the first move."""
    if ref.num_players != 2:
        return
    start = ref.game.position("ply=6 next=2 1:K10,K12,K13 2:L11,L12,A1")
    CompiledThreatSearch(kernel, start).shortest(3)
