"""The retrograde tables read from the kernel's states, and checked against the kernel's moves.

The tables (``tables.py``) generate their moves through the kernel (``kernel.legal_moves``,
which the kernel tests check against the reference rules). ``TableView`` flattens the table
files and their index (``qipan.solve.ranking``) into arrays that compiled code takes, so that
a kernel state can be looked up (``code_of``) and every position of a segment can be checked against the values of
the successors the *kernel* generates (``successor_code``, ``check_segment``).

Why a check of every position is a proof: if every stored value of a set of positions closed
under moves equals what its successors' stored values give (a win in d + 1 when some
successor is lost in d, taking the fastest; else a draw when one is drawn; else a loss in
d + 1 after the slowest successor's win in d; a position without moves is lost), then every
value is right. A stored win or loss is right by induction on its distance (its successors
are right and say so); a position won or lost in truth is stored so, by induction on the true
distance (a wrong value at the smallest distance would contradict the equation); what is left
is drawn in truth and stored as a draw. So ``check_segment`` over every segment of a closed
set verifies every value relative to the kernel's rules, independently of the retrograde
solver's sweeps that stored them."""

from __future__ import annotations

from pathlib import Path

from ... import fast
from ...core.errors import QipanError
from ...fast import HAVE_NUMBA, njit_guarded
from ...solve import codes, jit, ranking
from ...solve.codes import UNKNOWN
from ...solve.jit import np
from ...solve.ranking import apply_perm, binomials, expand, pair_index, popcount, rank_set, unrank_set
from . import kernel as K

#: ``successor_code``'s ``info``: moves, drawn successors (stored or by rule), successors the
#: mover wins (stored loss for the other side, or an immediate win), drawn successors in
#: another segment than the position's component (a removal), unknown successors.
I_MOVES, I_DRAWS, I_WINS, I_DRAWS_DOWN, I_UNKNOWN = range(5)
INFO = 5


def solvable(game):
    """The game with the tables' rules: repetition, the n-move rule and ply caps off."""
    from ... import load

    return load(game.id, **(dict(game.options) | {"repetition_count": None, "n_move": 0, "max_plies": None}))


class TableView:
    """The solved segments of ``tables`` (a ``PerfectTables``) as flat arrays.

    ``view`` is the tuple the compiled functions take: the segment numbers by (stones of the
    mover, of the other side, hands), the segments' offsets into ``codes`` (-1: not solved),
    their stone totals (board and hands: only a removal lowers it) and whether each may be
    used as an exact value (``verified``), then the index arrays."""

    def __init__(self, tables, verified=()):
        space = tables.space
        self.space = space
        self.tables = tables
        segments = space.segments()
        self.number = {s.key: i for i, s in enumerate(segments)}
        unknown = set(verified) - set(self.number)
        if unknown:
            raise QipanError(f"no segments {sorted(unknown)} in these tables")
        offsets = np.full(len(segments), -1, np.int64)
        totals = np.array([sum(s.key) for s in segments], np.int64)
        chunks, at = [], 0
        for i, s in enumerate(segments):
            if s.size and tables.db.solved(s.key):
                offsets[i] = at
                chunks.append(np.asarray(tables.db.values(s.key), dtype=np.uint8))
                at += s.size
        self.codes = np.concatenate(chunks) if chunks else np.zeros(1, np.uint8)
        self.verified = np.zeros(len(segments), np.int64)
        for key in verified:
            self.verified[self.number[key]] = 1
        ix = space.index
        stones = space.stones
        meta = np.array([space.n, stones], np.int64)
        self.view = (
            np.ascontiguousarray(space.seg_id.reshape(-1)),
            meta,
            offsets,
            totals,
            self.verified,
            self.codes,
            ix.C,
            ix.T,
            ix.canon_id,
            ix.canon_g,
            ix.rank_off,
            ix.reps,
            ix.rep_off,
        )

    @staticmethod
    def empty(game) -> tuple:
        """A ``view`` tuple that holds no table (every look-up misses), for searches without
        tables: the same array types, so the compiled code is the same."""
        n = game.geometry.n
        seg_id = np.full(1, -1, np.int64)
        meta = np.array([0, 0], np.int64)  # every stone count is out of range: no segment
        none = np.zeros(1, np.int64)
        return (
            seg_id, meta, none - 1, none, none, np.zeros(1, np.uint8), binomials(n),
            np.zeros((1, 3, 256), np.int64), none, none, none, none, none,
        )  # fmt: skip

    def with_verified(self, verified) -> TableView:
        """The same arrays with another set of segments usable as exact values."""
        other = object.__new__(TableView)
        other.__dict__.update(self.__dict__)
        other.verified = np.zeros_like(self.verified)
        for key in verified:
            other.verified[self.number[key]] = 1
        other.view = self.view[:4] + (other.verified,) + self.view[5:]
        return other


def check_symmetries(kernel, perms) -> None:
    """The index treats boards that a permutation in ``perms`` maps onto each other as one
    position; that is sound for the kernel's rules when each permutation keeps its
    neighbourhoods, its lines and (直棋) its 擔 and 槓 shapes. QipanError otherwise."""
    pt = kernel.pt
    n = pt.shape[0]

    def image(perm, mask):
        return sum(1 << perm[j] for j in range(n) if mask >> j & 1)

    def shapes(perm, i):
        row = pt[i]
        pairs = {image(perm, int(row[K.PT_PAIRS + j])) for j in range(row[K.PT_NPAIRS])}
        dan = {image(perm, int(row[K.PT_DAN + j])) for j in range(row[K.PT_NDAN])}
        gang = {
            (image(perm, int(row[K.PT_GANG_MID + j])), image(perm, int(row[K.PT_GANG_OTHER + j])))
            for j in range(row[K.PT_NGANG])
        }
        return image(perm, int(row[K.PT_NBR])), pairs, dan, gang

    identity = list(range(n))
    for perm in perms:
        for i in range(n):
            if shapes(perm, i) != shapes(identity, perm[i]):
                raise QipanError(f"symmetry {perm} does not keep the kernel's board at point {i}")


def segment_of(view, own, opp, hm, ho):
    """The segment number of (mover's stones, other's stones, hands), -1 if none."""
    seg_id, meta = view[0], view[1]
    n1 = meta[0] + 1
    s1 = meta[1] + 1
    a = popcount(own)
    b = popcount(opp)
    if a >= n1 or b >= n1 or hm >= s1 or ho >= s1:
        return -1
    return seg_id[((a * n1 + b) * s1 + hm) * s1 + ho]


def locate(view, s):
    """``segment << 34 | index << 1 | colour to move`` of the kernel state ``s`` (-1: not in
    the tables): a key shared by the boards the index identifies."""
    c = s[K.S_TO_MOVE]
    own = s[K.S_BB0 + c]
    opp = s[K.S_BB0 + 1 - c]
    seg = segment_of(view, own, opp, s[K.S_HAND0 + c], s[K.S_HAND0 + 1 - c])
    if seg < 0:
        return -1
    meta = view[1]
    idx = pair_index(own, opp, meta[0], view[6], view[7], view[8], view[9], view[10], view[11], view[12])
    return seg << 34 | idx << 1 | c


def board_key(view, s):
    """A key of the kernel state ``s`` shared by its images under the index's symmetries:
    the mover's stones mapped to their canonical form and the other side's to the least
    image among the permutations that do so, the hands and the colour to move. It relies on the permutations only (each checked
    by ``check_symmetries``), not on the ranking: a wrong index cannot merge two positions
    here. -1 when the mover's stone count is beyond the index."""
    c = s[K.S_TO_MOVE]
    own = s[K.S_BB0 + c]
    opp = s[K.S_BB0 + 1 - c]
    C, T, canon_g, rank_off = view[6], view[7], view[9], view[10]
    p = popcount(own)
    if p + 1 >= rank_off.shape[0] or rank_off[p + 1] == rank_off[p]:
        return -1
    x = apply_perm(T, canon_g[rank_off[p] + rank_set(own, C)], own)
    y = -1
    for g in range(T.shape[0]):  # every permutation taking own there: the least image of opp
        if apply_perm(T, g, own) == x:
            yg = apply_perm(T, g, opp)
            if y < 0 or yg < y:
                y = yg
    return x | y << 24 | s[K.S_HAND0 + c] << 48 | s[K.S_HAND0 + 1 - c] << 53 | c << 58 | 1 << 62


def code_at(view, loc):
    """The stored code at a ``locate`` key (255 when the segment is not solved)."""
    off = view[2][loc >> 34]
    if off < 0:
        return 255
    return np.int64(view[5][off + (loc >> 1 & ((1 << 33) - 1))])


def code_of(view, s):
    """The stored code of the kernel state ``s`` (255: not in the tables or not solved)."""
    loc = locate(view, s)
    if loc < 0:
        return 255
    return code_at(view, loc)


def successor_code(pt, lines, par, view, s, moves, child, info):
    """The code that the stored values of the kernel's successors of ``s`` give it (the
    Bellman equation with distances); ``info`` gets the counts (``I_*``). 255 when a
    successor is not in the tables."""
    n = K.legal_moves(pt, lines, par, s, moves)
    mover = s[K.S_TO_MOVE]
    here = s[K.S_HAND0] + s[K.S_HAND1] + popcount(s[K.S_BB0]) + popcount(s[K.S_BB1])
    for j in range(INFO):
        info[j] = 0
    info[I_MOVES] = n
    fastest = 1 << 30  # plies of the fastest win
    slowest = -1  # plies of the slowest loss
    for i in range(n):
        for j in range(K.HEADER):
            child[j] = s[j]
        K.play(pt, par, child, moves[i])
        r = child[K.S_RESULT]
        if r == mover:
            info[I_WINS] += 1
            fastest = 1 if 1 < fastest else fastest
            continue
        if r != K.ONGOING:
            info[I_DRAWS] += 1  # a draw by rule (the tables' rules have none in the endgames)
            continue
        c = code_of(view, child)
        if c == UNKNOWN:
            info[I_UNKNOWN] += 1
            continue
        if c == 0:
            info[I_DRAWS] += 1
            low = child[K.S_HAND0] + child[K.S_HAND1] + popcount(child[K.S_BB0]) + popcount(child[K.S_BB1])
            if low < here:
                info[I_DRAWS_DOWN] += 1
        elif c % 2 == 1:  # the other side lost in c - 1: a win in c
            info[I_WINS] += 1
            if c < fastest:
                fastest = c
        elif c > slowest:  # the other side wins in c - 1: a loss in c
            slowest = c
    if info[I_UNKNOWN]:
        return UNKNOWN
    if n == 0:
        return 1  # no move: lost
    if fastest < 1 << 30:
        return fastest + 1
    if info[I_DRAWS]:
        return 0
    return slowest + 1


def _set_position(view, s, key, i):
    """Write index ``i`` of segment ``key`` (a, b, hm, ho) into ``s``, White to move."""
    C, reps, rep_off = view[6], view[11], view[12]
    n = view[1][0]
    a, b, hm, ho = key
    nb = C[n - a, b]
    own = reps[rep_off[a] + i // nb]
    opp = expand(unrank_set(i % nb, b, C, n), ((1 << n) - 1) ^ own, n)
    for j in range(K.HEADER):
        s[j] = 0
    s[K.S_BB0] = own
    s[K.S_BB1] = opp
    s[K.S_HAND0] = hm
    s[K.S_HAND1] = ho
    s[K.S_TO_MOVE] = 0
    s[K.S_RESULT] = K.ONGOING


def check_segment(pt, lines, par, view, key, start, stop, bad, counts):
    """Compare the stored codes of indices ``start .. stop-1`` of segment ``key`` with
    ``successor_code``; the first mismatching indices go to ``bad`` (-1 after the last);
    ``counts`` gets (positions, mismatches, with an unknown successor). Returns mismatches."""
    a, b, hm, ho = key
    meta = view[1]
    n1 = meta[0] + 1
    s1 = meta[1] + 1
    seg = view[0][((a * n1 + b) * s1 + hm) * s1 + ho]
    off = view[2][seg]
    s = np.zeros(K.HEADER + 1, np.int64)
    child = np.zeros(K.HEADER + 1, np.int64)
    moves = np.zeros(K.MAX_MOVES, np.int64)
    info = np.zeros(INFO, np.int64)
    for j in range(bad.shape[0]):
        bad[j] = -1
    wrong = 0
    for i in range(start, stop):
        _set_position(view, s, key, i)
        got = successor_code(pt, lines, par, view, s, moves, child, info)
        counts[0] += 1
        if info[I_UNKNOWN]:
            counts[2] += 1
        if got != view[5][off + i]:
            if wrong < bad.shape[0]:
                bad[wrong] = i
            wrong += 1
    counts[1] += wrong
    return wrong


def set_position(view, s, key, i) -> None:
    _set_position(view, s, key, i)


#: The files compiled into this file's functions: their disk cache is emptied when one of
#: them changes (``fast.njit_guarded``), so a new process loads them instead of compiling.
SOURCES = (Path(__file__), *(Path(m.__file__) for m in (fast, K, codes, jit, ranking)))

if HAVE_NUMBA:
    segment_of = njit_guarded(segment_of, SOURCES)
    locate = njit_guarded(locate, SOURCES)
    board_key = njit_guarded(board_key, SOURCES)
    code_at = njit_guarded(code_at, SOURCES)
    code_of = njit_guarded(code_of, SOURCES)
    successor_code = njit_guarded(successor_code, SOURCES)
    _set_position = njit_guarded(_set_position, SOURCES)
    check_segment = njit_guarded(check_segment, SOURCES)


class SuccessorCheck:
    """``check_segment`` and ``successor_code`` for one ``TableView`` with the kernel of its
    game under the tables' rules."""

    def __init__(self, view: TableView):
        self.view = view
        self.kernel = K.MorrisKernel(solvable(view.tables.game).geometry)
        check_symmetries(self.kernel, view.space.symmetries)
        self._s = np.zeros(K.HEADER + 1, np.int64)
        self._child = np.zeros(K.HEADER + 1, np.int64)
        self._moves = np.zeros(K.MAX_MOVES, np.int64)
        self.info = np.zeros(INFO, np.int64)

    def segment(self, key, start: int = 0, stop: int | None = None, keep: int = 10):
        """(positions checked, mismatching indices (at most ``keep``), mismatches,
        positions with a successor outside the solved tables)."""
        size = self.view.space.index.size(key[0], key[1])
        stop = size if stop is None else stop
        if self.view.tables.db.solved(key) is False:
            raise QipanError(f"segment {key} is not solved")
        k = self.kernel
        bad = np.zeros(keep, np.int64)
        counts = np.zeros(3, np.int64)
        wrong = check_segment(
            k.pt, k.lines, k.par, self.view.view, tuple(int(x) for x in key), start, stop, bad, counts
        )
        return int(counts[0]), [int(x) for x in bad if x >= 0], int(wrong), int(counts[2])

    def position(self, key, index: int, mover: int = 0) -> tuple[int, int, list[int]]:
        """(stored code, the code the kernel's successors give, ``info``) of one position."""
        k = self.kernel
        set_position(self.view.view, self._s, tuple(int(x) for x in key), index)
        if mover:
            s = self._s
            s[K.S_BB0], s[K.S_BB1] = s[K.S_BB1], s[K.S_BB0]
            s[K.S_HAND0], s[K.S_HAND1] = s[K.S_HAND1], s[K.S_HAND0]
            s[K.S_TO_MOVE] = 1
        got = successor_code(
            k.pt, k.lines, k.par, self.view.view, self._s, self._moves, self._child, self.info
        )
        stored = int(self.view.tables.db.probe(key, index))
        return stored, int(got), [int(x) for x in self.info]
