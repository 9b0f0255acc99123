"""Morris as an indexed position space for retrograde analysis (``qipan.solve``).

A position is seen from the side to move: its stones ``M`` and the other side's ``O`` on the
board, and both hands. Segments are keyed ``(|M|, |O|, hand of the mover, hand of the
other)``; inside a segment the index is the symmetry-reduced rank of the pair (M, O)
(:class:`qipan.solve.ranking.SetPairIndex`) under the board's automorphisms (16 on the 6MM,
9MM and 12MM boards, 8 on the 3x3 board), found from the board data.

A placement always leads to a segment with one stone fewer in hand, a removal to one with a
stone fewer on the board; only slides and flies lead back and forth between ``(a, b)`` and
``(b, a)``, which therefore form one component. So the components form a DAG whose sources
are the smallest endgames and whose sink is the start.

The moves are the Morris kernel's (``kernel.legal_moves``, the compiled twin of the rules
that the kernel tests check against the reference rules): each position's successors are its
moves ranked into their segments. A removal of two stones (擔, or two mills closed at once
with ``take_per_mill=2``) leads two stones down: the DAG has those edges too.
The n-move rule and ply caps are ignored and repetition is a draw (the game-theoretic value,
as in ``solver.py``)."""

from __future__ import annotations

from dataclasses import asdict
from functools import cache
from pathlib import Path

from ... import fast
from ...core.errors import QipanError
from ...fast import njit_guarded, np
from ...solve import ranking
from ...solve.ranking import SetPairIndex, expand, pair_index, popcount, unrank_set
from ...solve.space import Expansion, Segment
from ...solve.symmetry import automorphisms
from . import kernel
from .kernel import HEADER, MAX_MOVES, ONGOING, PT_NPAIRS, PT_PAIRS, S_BB0, S_BB1, S_HAND0, S_HAND1, S_RESULT
from .table_rules import fills_up, supported

__all__ = ["MorrisSpace", "supported"]

#: The files compiled into the move generation (``_expand`` calls the kernel and the ranking).
_SOURCES = (Path(__file__), Path(kernel.__file__), Path(ranking.__file__), Path(fast.__file__))


def njit(fn):
    """``njit`` with a cache emptied when a file of ``_SOURCES`` changes (``fast.njit_guarded``)."""
    return njit_guarded(fn, _SOURCES)


def _capture_shapes(t) -> set:
    """直棋's 擔 (landing point, both ends) and 槓 (landing end, middle, other end) as sets of
    point indices."""
    out = set()
    for i in range(t.n):
        for ends in t.dan_at[i]:
            out.add(("dan", i, ends))
        for mid, other in t.gang_at[i]:
            out.add(("gang", i, mid, other))
    return out


def _maps_onto(perm, shapes: set) -> bool:
    def image(mask: int) -> int:
        return sum(1 << perm[j] for j in range(len(perm)) if mask >> j & 1)

    return {(s[0], perm[s[1]], *(image(m) for m in s[2:])) for s in shapes} == shapes


class MorrisSpace:
    """The position space of one Morris rule set.

    ``max_stones``: None for the whole game from the start (placement included); an int k
    for the moving/flying endgames only, every segment with 3..k stones a side on the board
    and none in hand (3..k for the mill goal)."""

    def __init__(self, game, max_stones: int | None = None):
        rules = game.rules
        why = supported(rules)
        if why:
            raise QipanError(f"{game.id}: {why}")
        if max_stones is not None and not 3 <= max_stones <= rules.stones:
            raise QipanError(f"max_stones must be between 3 and {rules.stones}, not {max_stones}")
        if fills_up(rules, max_stones):
            raise QipanError(f"{game.id}: a board that can fill up is not in the tables (use fewer stones)")
        self.game = game
        self.rules = rules
        self.max_stones = max_stones
        t = game.geometry
        board = t.board
        self.names = t.names
        n = self.n = t.n
        index = t.index
        edges = [(index[a], index[b]) for a, b in board.edges]
        lines = [tuple(index[p] for p in line) for line in board.lines]
        # 直棋's 擔 and 槓 work on some lines only (sides, radials): a symmetry must keep them.
        shapes = _capture_shapes(t) if rules.captures == "zhiqi" else set()
        self.symmetries = [p for p in automorphisms(n, edges, lines) if _maps_onto(p, shapes)]
        self.index = SetPairIndex(n, self.symmetries, max_size=max_stones or rules.stones)
        self.rule_arrays = kernel.MorrisKernel(t).arrays  # the kernel's moves (needs no Numba)
        self.two_down = rules.captures == "zhiqi" or rules.take_per_mill == 2  # a ply can remove two stones
        self.line_goal = rules.goal == "line"
        self.stones = rules.stones
        self._segments = self._enumerate()
        self._number = {s.key: i for i, s in enumerate(self._segments)}
        self._largest = max((s.size for s in self._segments), default=0)
        S = self.stones
        self.seg_id = np.full((n + 1, n + 1, S + 1, S + 1), -1, dtype=np.int64)
        for i, s in enumerate(self._segments):
            self.seg_id[s.key] = i

    def __reduce__(self):
        # Sent to Ray workers as what rebuilds it (once per worker process), not as its arrays.
        return _space_for, (self.game.id, tuple(sorted(self.game.options.items())), self.max_stones)

    # -- the segments and their DAG ----------------------------------------------------------
    def start_key(self) -> tuple:
        return (0, 0, self.stones, self.stones)

    def _children(self, key: tuple) -> set[tuple]:
        a, b, hm, ho = key
        out = set()
        taken = (1, 2) if self.two_down else (1,)
        if hm:
            if a + b >= self.n:
                return out
            out.add((b, a + 1, ho, hm - 1))
            for k in taken:
                if not self.line_goal and a + 1 >= 3 and b - k >= 0 and b - k + ho >= 3:
                    out.add((b - k, a + 1, ho, hm - 1))
        elif not self.rules.placement_only:
            out.add((b, a, 0, 0))
            for k in taken:
                if not self.line_goal and a >= 3 and b - k >= 3:
                    out.add((b - k, a, 0, 0))
        return out

    def _enumerate(self) -> list[Segment]:
        top = self.stones if self.max_stones is None else self.max_stones
        lo = top if self.line_goal else 3  # without removals only full hands reach the moving phase
        keys = {(a, b, 0, 0) for a in range(lo, top + 1) for b in range(lo, top + 1) if a + b <= self.n}
        if self.rules.placement_only:
            keys = set()
        if self.max_stones is None:
            todo = [self.start_key()]
            while todo:
                key = todo.pop()
                if key in keys:
                    continue
                keys.add(key)
                todo.extend(self._children(key))
        # The moving-phase closure of what is listed (a removal from a listed segment).
        todo = list(keys)
        while todo:
            for child in self._children(todo.pop()):
                if child not in keys:
                    keys.add(child)
                    todo.append(child)
        return [Segment(k, "s{}-{}-h{}-{}".format(*k), self.index.size(k[0], k[1])) for k in sorted(keys)]

    def segments(self) -> list[Segment]:
        return self._segments

    def components(self) -> list[tuple[tuple, ...]]:
        out, seen = [], set()
        for s in self._segments:
            if s.key in seen:
                continue
            a, b, hm, ho = s.key
            mate = (b, a, 0, 0)
            if (
                hm == 0
                and ho == 0
                and mate != s.key
                and mate in self._number
                and not self.rules.placement_only
            ):
                out.append((s.key, mate))
                seen.add(mate)
            else:
                out.append((s.key,))
            seen.add(s.key)
        return out

    def dependencies(self, key: tuple) -> set[tuple]:
        return self._children(key)

    def describe(self) -> dict:
        return {
            "game": self.game.id,
            "rules": asdict(self.rules) | {"repetition_count": None, "n_move": 0, "max_plies": None},
            "points": list(self.names),
            "symmetries": len(self.symmetries),
            "max_stones": self.max_stones,
            "index": "mover-set orbit id * C(n-p, q) + colex rank of the other set (qipan.solve.ranking)",
        }

    # -- moves ------------------------------------------------------------------------------
    def expand(self, key: tuple) -> Expansion:
        a, b, hm, ho = key
        size = self.index.size(a, b)
        start = np.zeros(size + 1, dtype=np.int64)
        term = np.zeros(size, dtype=np.int8)
        empty64 = np.zeros(0, dtype=np.int64)
        args = self._kernel_args()
        total = _expand(a, b, hm, ho, False, start, empty64, empty64, term, *args)
        # Segment numbers and indices fit 32 bits unless a segment has 2**31 positions.
        dseg = np.empty(total, dtype=np.int32)
        didx = np.empty(total, dtype=np.int32 if self._largest < 2**31 else np.int64)
        status = _expand(a, b, hm, ho, True, start, dseg, didx, term, *args)
        if status < 0:
            raise QipanError(f"a move from segment {key} leads outside the space (max_stones too small?)")
        return Expansion(start, dseg, didx, term)

    def _kernel_args(self):
        ix = self.index
        return (
            self.n,
            self.rule_arrays,
            self.line_goal,
            self.rules.placement_only,
            self.seg_id,
            (ix.C, ix.T, ix.canon_id, ix.canon_g, ix.rank_off, ix.reps, ix.rep_off),
        )

    # -- states <-> (segment, index) -------------------------------------------------------
    def locate(self, state) -> tuple[tuple, int]:
        """The segment key and index of a state (the side to move's view)."""
        if state.outcome is not None or state.to_move is None:
            raise QipanError("the game is over: the tables hold positions with a side to move")
        if state.pending:
            raise QipanError("full-board removals are not in the tables")
        c = state.to_move
        own, opp = state.bb[c], state.bb[1 - c]
        key = (own.bit_count(), opp.bit_count(), state.hand[c], state.hand[1 - c])
        if key not in self._number:
            raise QipanError(f"no table for {key[0]} against {key[1]} stones with hands {key[2]},{key[3]}")
        return key, self.index.index(own, opp)

    def board_of(self, key: tuple, i: int) -> tuple[int, int]:
        """(mover's stones, other's stones) as bitmasks at index ``i`` of segment ``key``."""
        return self.index.position(key[0], key[1], i)

    def state_at(self, key: tuple, i: int, mover: int = 0):
        """A game state for index ``i`` of segment ``key`` with ``mover`` to move."""
        own, opp = self.board_of(key, i)
        state = self.game.new()
        state.bb = [0, 0]
        state.bb[mover], state.bb[1 - mover] = own, opp
        state.hand = [0, 0]
        state.hand[mover], state.hand[1 - mover] = key[2], key[3]
        state.to_move = mover
        state._moves = None
        state.reps = {}
        return state

    def weights(self, key: tuple) -> np.ndarray:
        return self.index.weights(key[0], key[1])


@cache
def _space_for(game_id: str, options: tuple, max_stones: int | None) -> MorrisSpace:
    from ... import load

    return MorrisSpace(load(game_id, **dict(options)), max_stones)


@njit
def _emit(fill, ptr, dseg, didx, seg, x, y, n, ix):
    if fill:
        dseg[ptr] = seg
        if seg >= 0:
            C, T, canon_id, canon_g, rank_off, reps, rep_off = ix
            didx[ptr] = pair_index(x, y, n, C, T, canon_id, canon_g, rank_off, reps, rep_off)
        else:
            didx[ptr] = 0
    return ptr + 1


@njit
def _take(fill, ptr, dseg, didx, r, o, m2, a2, b, ho, hm2, seg_id, n, ix):
    """Emit the successor in which the stones ``r`` of the other side are removed."""
    k = popcount(r)
    if b - k + ho < 3:  # fewer than three stones left: the mover has won
        return _emit(fill, ptr, dseg, didx, -2, 0, 0, n, ix)
    seg = seg_id[b - k, a2, ho, hm2]
    if seg < 0:
        return -(1 << 40)
    return _emit(fill, ptr, dseg, didx, seg, o ^ r, m2, n, ix)


@njit
def _expand(a, b, hm, ho, fill, start, dseg, didx, term, n, R, line_goal, placement_only, seg_id, ix):
    """Successors of every position of segment (a, b, hm, ho) by the kernel's moves; returns
    the number of moves (negative: a successor segment is missing). ``fill``: write them,
    else only count."""
    C, reps, rep_off = ix[0], ix[5], ix[6]
    full = (1 << n) - 1
    nb = C[n - a, b]
    count = (rep_off[a + 1] - rep_off[a]) * nb
    s = np.zeros(HEADER, np.int64)  # the mover is player 0; no history is read for moves
    s[S_HAND0], s[S_HAND1], s[S_RESULT] = hm, ho, ONGOING
    moves = np.empty(MAX_MOVES, np.int64)
    ptr = 0
    for node in range(count):
        m = reps[rep_off[a] + node // nb]
        o = expand(unrank_set(node % nb, b, C, n), full ^ m, n)
        start[node] = ptr
        s[S_BB0], s[S_BB1] = m, o
        k = kernel.legal_moves(R.pt, R.lines, R.par, s, moves)
        if k == 0:
            # No move: every stone placed without a line (a draw), or blocked (a loss).
            term[node] = 2 if placement_only and hm == 0 else 1
            continue
        for i in range(k):
            code = moves[i]
            f, to, removed = (code & 31) - 1, (code >> 5 & 31) - 1, code >> 10
            m2 = (m ^ 1 << f if f >= 0 else m) | 1 << to
            hm2 = hm - 1 if f < 0 else hm
            a2 = popcount(m2)
            if line_goal and _makes_line(R.pt, m2, to):
                ptr = _emit(fill, ptr, dseg, didx, -2, 0, 0, n, ix)
            elif removed:
                ptr = _take(fill, ptr, dseg, didx, removed, o, m2, a2, b, ho, hm2, seg_id, n, ix)
            else:
                seg = seg_id[b, a2, ho, hm2]
                ptr = _emit(fill, ptr, dseg, didx, seg, o, m2, n, ix) if seg >= 0 else -(1 << 40)
            if ptr < 0:
                return ptr
    start[count] = ptr
    return ptr


@njit
def _makes_line(pt, m2, to):
    """The stone landed on ``to`` completes a line of ``m2`` (the line goal's win)."""
    for j in range(pt[to, PT_NPAIRS]):
        pm = pt[to, PT_PAIRS + j]
        if m2 & pm == pm:
            return True
    return False
