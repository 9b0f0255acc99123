"""A compiled proof search that checks the retrograde tables to the depth they claim.

It searches the moves of the engine's compiled twin (``kernel.py``, a move generator written
and tested apart from the tables' ``tables.py``) with alpha-beta, mate-distance bounds and a
transposition table. The value of a position at horizon ``d`` is exact within the horizon:
``MATE - k`` for a win in k plies (k <= d, the fastest), ``-(MATE - k)`` for a loss in k
(the slowest), 0 when neither side can force a result within d plies. So one search at the
claimed distance D proves a stored "win in D" (a win within D plies and none faster) or "loss
in D" (lost within D plies against every defence, and no sooner), and a stored draw must come
out 0 at every horizon searched.

What the tables may contribute (``TableView`` of ``kernel_tables.py``):

* **Move order** (``order=True``): a successor's stored value ranks the moves (fastest win,
  then draws, then the slowest loss); without tables, the transposition table's move and
  removals first. Alpha-beta's result does not depend on the order (only its cost), so a
  wrong table can slow the search down but not change what it proves.
* **Exact values below the root** (``layered=True``): a move into a segment with fewer stones
  than the root (a removal: 4-4 -> 3-4 -> 3-3) is scored by that segment's stored value, only
  if the segment is marked verified (every value checked, e.g. by ``check_segment`` and the
  forward sweep). Such a proof is a proof relative to those smaller tables. Without it
  (the default) no table value enters a result: the stronger, table-free check.

The searches use a narrow window around the claimed value (``prove(state, depth, claim)``):
a result inside it is exact, one outside it disproves the claim; a disagreement is searched
again with the full window to say what the search finds instead.

The transposition table keeps exact results and bounds of subtrees (node-relative
distances), keyed on the position and the horizon they were searched with; an entry searched
with a larger horizon serves a smaller one after *clamping*: a win or loss further away than
the horizon becomes 0. Clamping keeps the order of values, so bounds stay bounds. With a
table view the key is the position mapped by the symmetry that takes the mover's stones to
their canonical form (``board_key``), shared by the boards the board's symmetries identify
(``check_symmetries`` confirms each keeps the kernel's neighbourhoods, lines and capture
shapes); without, the exact position key. Entries are proofs about
positions, not about a root, so one table serves every position checked (layered entries
depend on the verified segments only, which do not change between roots of one run). A node
budget stops a search that grows too large: the position is then verified up to the last
horizon completed. A slot is a bucket of two entries, one kept for the deepest subtree
searched since the current root began (depth-preferred, older roots' entries give way), one
always replaced: in the long searches of a distance (every move of a flying side to a
horizon of 20 plies and more) the subtrees near the root survive the many near the horizon.

Repetition, the n-move rule and ply caps are off (the tables' rules); a position of the
tables always has a move (a move that blocks the opponent or leaves him two stones ends the
game at once)."""

from __future__ import annotations

from dataclasses import dataclass

from ...fast import HAVE_NUMBA, njit_uncached
from ...solve.codes import UNKNOWN
from ...solve.jit import np
from . import kernel as K
from .kernel_tables import TableView, board_key, check_symmetries, code_at, locate, popcount, solvable

MATE = 10_000
#: counters: nodes searched, 1 once the node budget ran out, the budget, the generation (one
#: per root searched: the transposition table's deep entries of older roots may be replaced).
NODES, ABORTED, BUDGET, GENERATION = 0, 1, 2, 3
#: flags: order moves by the tables, score verified smaller segments exactly, the root's
#: stone total (a segment below it may be exact), key the TT on the index.
F_ORDER, F_LAYERED, F_ROOT_TOTAL, F_CANONICAL = range(4)
#: Plies a search can go below the root (its state and move buffers).
MAX_PLY = 128
ROW = K.HEADER + 1  # repetition is off: no history is kept
#: A successor's note in ``notes``: an immediate win, a draw by rule, no table value; else
#: the stored code, plus EXACT_BIT when it may be used as the successor's value.
N_WIN_NOW, N_DRAW_NOW, N_NONE = -3, -4, -1
EXACT_BIT = 256
#: Move priorities: classes far apart, the transposition table's move first within a class.
P_WIN_NOW, P_WIN, P_DRAW, P_LOSS, P_TT = 4 << 20, 3 << 20, 2 << 20, 1 << 20, 512


def _from_node(v, ply):
    """A node-relative score (distance from the node) as seen from the root."""
    if v > 0:
        return v - ply
    if v < 0:
        return v + ply
    return v


def _to_node(v, ply):
    if v > 0:
        return v + ply
    if v < 0:
        return v - ply
    return v


def _clamp(v, depth):
    """A node-relative result searched with some horizon, as a result within ``depth``."""
    if v > 0 and MATE - v > depth:
        return 0
    if v < 0 and MATE + v > depth:
        return 0
    return v


def _total(s):
    return s[K.S_HAND0] + s[K.S_HAND1] + popcount(s[K.S_BB0]) + popcount(s[K.S_BB1])


def _notes(pt, par, view, flags, s, out, n, notes, prio, tt_move, child, depth):
    """Note each move's successor (``N_*`` or its stored code) and its priority. At the
    horizon (``depth`` 1) only immediate results count: no table is read."""
    mover = s[K.S_TO_MOVE]
    use_view = (flags[F_ORDER] or flags[F_LAYERED]) and depth > 1
    for i in range(n):
        code = out[i]
        for j in range(K.HEADER):
            child[j] = s[j]
        K.play(pt, par, child, code)
        r = child[K.S_RESULT]
        p = P_DRAW + (256 if code >> 10 else 0)
        note = N_NONE
        if r == mover:
            note = N_WIN_NOW
            p = P_WIN_NOW
        elif r != K.ONGOING:
            note = N_DRAW_NOW
            p = P_DRAW
        elif use_view:
            loc = locate(view, child)
            c = code_at(view, loc) if loc >= 0 else UNKNOWN
            if c != UNKNOWN:
                note = c
                if flags[F_LAYERED] and view[4][loc >> 34] and view[3][loc >> 34] < flags[F_ROOT_TOTAL]:
                    note += EXACT_BIT
                if flags[F_ORDER]:
                    if c == 0:
                        p = P_DRAW
                    elif c % 2 == 1:  # the successor is lost: fastest win first
                        p = P_WIN - c
                    else:  # the successor wins: slowest loss first
                        p = P_LOSS + c
        if code == tt_move:
            p += P_TT
        notes[i] = note
        prio[i] = p


def _search(pt, lines, par, view, flags, states, moves, notes, prio, ply, depth, alpha, beta, tt, counters):
    """The exact value of ``states[ply]`` within ``depth`` plies, as seen from the root (wins
    ``MATE - p`` at root ply p); alpha-beta window (alpha, beta)."""
    counters[NODES] += 1
    if counters[NODES] > counters[BUDGET]:
        counters[ABORTED] = 1
        return 0
    # A win needs at least one more ply, a loss two (a position always has a move).
    lo = -MATE + ply + 2
    hi = MATE - ply - 1
    if alpha < lo:
        alpha = lo
    if beta > hi:
        beta = hi
    if alpha >= beta:
        return alpha
    tt_key, tt_depth, tt_flag, tt_score, tt_move, tt_gen = tt
    s = states[ply]
    key = -1
    if flags[F_CANONICAL]:
        key = board_key(view, s)
    if key < 0:
        key = K.position_key(s)
    # A bucket of two entries: the first keeps the deepest search (of this root's generation),
    # the second the latest; so the few large subtrees near the root survive the many small
    # ones near the horizon.
    mask = tt_key.shape[0] - 2
    # Fold the high bits in first: the slot takes bits 20.. of the product, which depend on
    # the key's low 42 bits only (the colour to move and hands sit above them).
    slot = (((key ^ (key >> 31)) * -7046029254386353131) >> 20) & mask
    hit = slot if tt_key[slot] == key else slot + 1 if tt_key[slot + 1] == key else -1
    first = 0
    if hit >= 0:
        first = tt_move[hit]
        if tt_depth[hit] >= depth:
            v = _from_node(_clamp(tt_score[hit], depth), ply)
            flag = tt_flag[hit]
            if flag == 0 or (flag == 1 and v >= beta) or (flag == 2 and v <= alpha):
                return v
    out = moves[ply]
    note = notes[ply]
    pr = prio[ply]
    n = K.legal_moves(pt, lines, par, s, out)
    child = states[ply + 1]
    _notes(pt, par, view, flags, s, out, n, note, pr, first, child, depth)
    alpha0 = alpha
    best = -MATE
    best_move = 0
    for i in range(n):
        # The best remaining move by priority (selection: most nodes cut off early).
        top = i
        for j in range(i + 1, n):
            if pr[j] > pr[top]:
                top = j
        if top != i:
            out[i], out[top] = out[top], out[i]
            note[i], note[top] = note[top], note[i]
            pr[i], pr[top] = pr[top], pr[i]
        code = out[i]
        nt = note[i]
        if nt == N_WIN_NOW:
            score = MATE - ply - 1
        elif nt == N_DRAW_NOW or depth == 1:
            score = 0  # a draw by rule (the full board), or beyond the horizon
        elif nt >= EXACT_BIT:
            # A verified smaller table's value: the successor ends after c - 1 plies.
            c = nt - EXACT_BIT
            if c == 0 or c > depth:
                score = 0
            elif c % 2 == 1:
                score = MATE - ply - c
            else:
                score = -(MATE - ply - c)
        else:
            for j in range(K.HEADER):
                child[j] = s[j]
            K.play(pt, par, child, code)
            score = -_search(
                pt, lines, par, view, flags, states, moves, notes, prio, ply + 1, depth - 1, -beta, -alpha,
                tt, counters,
            )  # fmt: skip
            if counters[ABORTED]:
                return 0
        if score > best:
            best = score
            best_move = code
            if best > alpha:
                alpha = best
                if alpha >= beta:
                    break
    if not (tt_key[slot] == key or depth >= tt_depth[slot] or tt_gen[slot] != counters[GENERATION]):
        slot += 1
    tt_key[slot] = key
    tt_depth[slot] = depth
    tt_flag[slot] = 2 if best <= alpha0 else 1 if best >= beta else 0
    tt_score[slot] = _to_node(best, ply)
    tt_move[slot] = best_move
    tt_gen[slot] = counters[GENERATION]
    return best


if HAVE_NUMBA:
    _from_node = njit_uncached(_from_node)
    _to_node = njit_uncached(_to_node)
    _clamp = njit_uncached(_clamp)
    _total = njit_uncached(_total)
    _notes = njit_uncached(_notes)
    _search = njit_uncached(_search)


@dataclass
class Proof:
    """What the search proved about one position: ``value`` (win | loss | draw) and
    ``plies`` (None for a draw) at the deepest horizon completed, ``depth``; ``agrees``:
    with the claim searched for (always True without one); ``exact``: for a claimed win or
    loss, that its distance is exact too (no faster win, no earlier loss)."""

    value: str
    plies: int | None
    depth: int
    agrees: bool = True
    exact: bool = False


def _score(kind: str, plies: int | None, depth: int) -> int:
    """The root score of a claimed value as seen within ``depth`` plies."""
    if kind == "draw" or plies is None or plies > depth:
        return 0
    return MATE - plies if kind == "win" else -(MATE - plies)


def _value(v: int) -> tuple[str, int | None]:
    if v > 0:
        return "win", MATE - v
    if v < 0:
        return "loss", MATE + v
    return "draw", None


class ProofSearch:
    """``ProofSearch(game).prove(state, depth)`` -> the exact value within ``depth`` plies.
    ``game`` is played with repetition, the n-move rule and caps off. ``nodes`` is the budget
    of one ``prove`` call; one transposition table of ``2**table_bits`` entries serves every
    call. ``view`` (a ``TableView``) lets the tables order the moves (``order``) and, with
    ``layered``, score moves into verified segments below the root exactly."""

    def __init__(
        self,
        game,
        table_bits: int = 22,
        nodes: int = 2_000_000,
        view: TableView | None = None,
        order: bool = True,
        layered: bool = False,
    ):
        self.game = solvable(game)
        self.kernel = K.MorrisKernel(self.game.geometry)
        if layered and view is None:
            raise ValueError("layered proofs need the tables (a TableView)")
        if view is not None:
            check_symmetries(self.kernel, view.space.symmetries)
            self.view = view.view
        else:
            self.view = TableView.empty(self.game)
        self.flags = np.zeros(4, np.int64)
        self.flags[F_ORDER] = bool(order and view is not None)
        self.flags[F_LAYERED] = bool(layered)
        self.flags[F_CANONICAL] = view is not None
        size = 1 << table_bits
        # key, horizon, bound flag, score, move, generation (32 bytes an entry)
        self.tt = tuple(
            np.zeros(size, t) for t in (np.int64, np.int32, np.int32, np.int32, np.int64, np.int32)
        )
        self.tt[0][:] = -1
        self.states = np.zeros((MAX_PLY + 1, ROW), np.int64)
        self.moves = np.zeros((MAX_PLY, K.MAX_MOVES), np.int64)
        self.notes = np.zeros((MAX_PLY, K.MAX_MOVES), np.int64)
        self.prio = np.zeros((MAX_PLY, K.MAX_MOVES), np.int64)
        self.counters = np.zeros(4, np.int64)
        self.budget = nodes
        self.nodes = 0  # searched over every call

    def _run(self, state, depth: int, alpha: int, beta: int) -> int | None:
        if depth > MAX_PLY:
            raise ValueError(f"at most {MAX_PLY} plies")
        self.states[0, :] = self.kernel.state(state)[:ROW]
        self.flags[F_ROOT_TOTAL] = int(_total(self.states[0]))
        k = self.kernel
        self.counters[ABORTED] = 0
        v = _search(
            k.pt, k.lines, k.par, self.view, self.flags, self.states, self.moves, self.notes, self.prio,
            0, depth, alpha, beta, self.tt, self.counters,
        )  # fmt: skip
        return None if self.counters[ABORTED] else int(v)

    def value_within(self, state, depth: int) -> tuple[str, int | None] | None:
        """(win | loss, plies) or ("draw", None) for no forced result within ``depth``;
        None when the budget ran out (the budget is shared by the calls of one ``prove``)."""
        v = self._run(state, depth, -MATE, MATE)
        return None if v is None else _value(v)

    def prove(
        self, state, depth: int, claim: tuple[str, int | None] | None = None, result_known: bool = False
    ) -> Proof:
        """The value within ``depth`` plies, within the node budget.

        Without ``claim``: iterative deepening with the full window, the result at the
        deepest horizon completed; a result found at horizon h must stay at every larger one
        (else AssertionError).

        With ``claim`` = (win | loss, D) and ``depth`` = D: two null-window searches, each
        with the budget: the *result* at horizon D (a win within D plies; lost within D
        against every defence) and then the *distance* at horizon D - 2 (no forced win
        within D - 2 plies, so none faster than D; no loss within D - 2 against the best
        defence). ``depth`` is D once the result is proved (else 0), ``exact`` once the
        distance is too; ``result_known``: the result was proved by an earlier call (with a
        smaller budget), only the distance is searched. With ``claim`` = ("draw", None):
        iterative deepening with the window
        (-1, 1) (no forced result for either side) up to ``depth`` or the budget; ``depth``
        is the last horizon proved. A search that disproves the claim stops, and the full
        window then says what it finds instead (``agrees`` False)."""
        self.counters[GENERATION] += 1
        try:
            if claim is None:
                return self._deepen(state, depth)
            if claim[0] == "draw":
                return self._draw(state, depth)
            return self._decisive(state, claim[0], claim[1], result_known)
        finally:
            self.nodes += int(self.counters[NODES])

    def _fresh(self) -> None:
        self.nodes += int(self.counters[NODES])
        self.counters[NODES] = 0
        self.counters[BUDGET] = self.budget

    def _refuted(self, state, depth: int, bound: int) -> Proof:
        """The claim failed at ``depth`` (``bound`` is the null-window result): the full
        window's value, or the bound when that runs out of budget."""
        self._fresh()
        exact = self._run(state, depth, -MATE, MATE)
        kind, plies = _value(bound if exact is None else exact)
        return Proof(kind, plies, depth, agrees=False)

    def _deepen(self, state, depth: int) -> Proof:
        self.counters[NODES] = 0
        self.counters[BUDGET] = self.budget
        last = Proof("draw", None, 0)
        for d in range(1, depth + 1):
            got = self.value_within(state, d)
            if got is None:
                break
            if last.value != "draw" and got != (last.value, last.plies):
                raise AssertionError(f"horizon {d} found {got} after {last}")
            last = Proof(got[0], got[1], d)
        return last

    def _draw(self, state, depth: int) -> Proof:
        self.counters[NODES] = 0
        self.counters[BUDGET] = self.budget
        last = Proof("draw", None, 0)
        for d in range(1, depth + 1):
            v = self._run(state, d, -1, 1)
            if v is None:
                break
            if v != 0:
                return self._refuted(state, d, v)
            last = Proof("draw", None, d)
        return last

    def _decisive(self, state, kind: str, plies: int, result_known: bool = False) -> Proof:
        v = _score(kind, plies, plies)
        # The result first: at least v for a win (within D), at most v for a loss.
        window = (v - 1, v) if kind == "win" else (v, v + 1)
        self.counters[NODES] = 0
        self.counters[BUDGET] = self.budget
        if not result_known:
            got = self._run(state, plies, *window)
            if got is None:
                return Proof("draw", None, 0)
            if (got < v) if kind == "win" else (got > v):
                return self._refuted(state, plies, got)
            self._fresh()
        # Then the distance: no win within D - 2 plies (at most 0), no loss within D - 2 (at
        # least 0). The same proof as "at most v" at horizon D, one ply shallower: at D the
        # search still visits the nodes of ply D - 1 that the mate bound then cuts.
        if plies <= 2:
            return Proof(kind, plies, plies, exact=True)  # a win needs a ply, a loss two
        got = self._run(state, plies - 2, *((0, 1) if kind == "win" else (-1, 0)))
        if got is None:
            return Proof(kind, plies, plies)
        if (got > 0) if kind == "win" else (got < 0):
            return self._refuted(state, plies, got)
        return Proof(kind, plies, plies, exact=True)
