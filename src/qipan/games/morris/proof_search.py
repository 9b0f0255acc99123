"""A compiled proof search that checks the retrograde tables to the depth they claim.

It reads no table: it searches the moves of the engine's compiled twin (``kernel.py``, a
move generator written and tested apart from the tables' ``tables.py``) with alpha-beta,
mate-distance bounds and a transposition table. The value of a position at horizon ``d`` is
exact within the horizon: ``MATE - k`` for a win in k plies (k <= d, the fastest), ``-(MATE -
k)`` for a loss in k (the slowest), 0 when neither side can force a result within d plies. So
one search at the claimed distance D proves a stored "win in D" (a win within D plies and none
faster) or "loss in D" (lost within D plies against every defence, and no sooner), and a
stored draw must come out 0 at every horizon searched.

The table keeps exact results of subtrees (node-relative distances), keyed on the position
and the horizon they were searched with; an entry searched with a larger horizon serves a
smaller one after *clamping*: a win or loss further away than the horizon becomes 0 (a
winning line that ends later still avoids every loss within the horizon). Clamping keeps the
order of values, so bounds stay bounds. Entries are proofs about positions, not about a
root, so one table serves every position checked. A node budget stops a search that grows
too large: the position is then verified up to the last horizon completed.

Repetition, the n-move rule and ply caps are off (the tables' rules); a position of the
tables always has a move (a move that blocks the opponent or leaves him two stones ends the
game at once)."""

from __future__ import annotations

from dataclasses import dataclass

from ...fast import HAVE_NUMBA
from ...solve.jit import np
from . import kernel as K

MATE = 10_000
EXACT, LOWER, UPPER = 0, 1, 2
#: counters: nodes searched, 1 once the node budget ran out.
NODES, ABORTED = 0, 1
#: Plies a search can go below the root (its state and move buffers).
MAX_PLY = 128
ROW = K.HEADER + 1  # repetition is off: no history is kept
_SIGNATURE = (
    "i8(i8[:, ::1], i8[::1], i8[::1], i8[:, ::1], i8[:, ::1], i8, i8, i8, i8,"
    " i8[::1], i8[::1], i8[::1], i8[::1], i8[::1], i8[::1])"
)


def _compiled(fn):
    # Not cached on disk: it calls kernel.py's functions, and the cache notices changes to a
    # function's own file only. Recursive, so typed eagerly.
    if not HAVE_NUMBA:
        return fn
    import numba

    return numba.njit(_SIGNATURE, cache=False, nogil=True)(fn)


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


def _search(
    pt,
    lines,
    par,
    states,
    moves,
    ply,
    depth,
    alpha,
    beta,
    tt_key,
    tt_depth,
    tt_flag,
    tt_score,
    tt_move,
    counters,
):
    """The exact value of ``states[ply]`` within ``depth`` plies, as seen from the root (wins
    ``MATE - p`` at root ply p); alpha-beta window (alpha, beta)."""
    counters[0] += 1
    if counters[0] > counters[2]:
        counters[1] = 1
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
    s = states[ply]
    key = K.position_key(s)
    mask = tt_key.shape[0] - 1
    slot = ((key * -7046029254386353131) >> 20) & mask
    first = 0
    if tt_key[slot] == key:
        first = tt_move[slot]
        if tt_depth[slot] >= depth:
            v = _from_node(_clamp(tt_score[slot], depth), ply)
            flag = tt_flag[slot]
            if flag == 0 or (flag == 1 and v >= beta) or (flag == 2 and v <= alpha):
                return v
    out = moves[ply]
    n = K.legal_moves(pt, lines, par, s, out)
    # Order: the table's move, then removals, then the rest.
    front = 0
    if first:
        for i in range(n):
            if out[i] == first:
                out[i], out[0] = out[0], first
                front = 1
                break
    for i in range(front, n):
        if out[i] >> 10:
            out[i], out[front] = out[front], out[i]
            front += 1
    mover = s[K.S_TO_MOVE]
    child = states[ply + 1]
    alpha0 = alpha
    best = -MATE
    best_move = 0
    for i in range(n):
        code = out[i]
        for j in range(K.HEADER):
            child[j] = s[j]
        K.play(pt, par, child, code)
        result = child[K.S_RESULT]
        if result == mover:
            score = MATE - ply - 1
        elif result != K.ONGOING or depth == 1:
            score = 0  # a draw by rule (the full board), or beyond the horizon
        else:
            score = -_search(
                pt, lines, par, states, moves, ply + 1, depth - 1, -beta, -alpha,
                tt_key, tt_depth, tt_flag, tt_score, tt_move, counters,
            )  # fmt: skip
            if counters[1]:
                return 0
        if score > best:
            best = score
            best_move = code
            if best > alpha:
                alpha = best
                if alpha >= beta:
                    break
    tt_key[slot] = key
    tt_depth[slot] = depth
    tt_flag[slot] = 2 if best <= alpha0 else 1 if best >= beta else 0
    tt_score[slot] = _to_node(best, ply)
    tt_move[slot] = best_move
    return best


if HAVE_NUMBA:
    from ...fast import njit_uncached

    _from_node = njit_uncached(_from_node)
    _to_node = njit_uncached(_to_node)
    _clamp = njit_uncached(_clamp)
_search = _compiled(_search)


@dataclass
class Proof:
    """What the search proved about one position: ``value`` (win | loss | draw) and
    ``plies`` (None for a draw) at the deepest horizon completed, ``depth``."""

    value: str
    plies: int | None
    depth: int


class ProofSearch:
    """``ProofSearch(game).prove(state, depth)`` -> the exact value within ``depth`` plies.
    ``game`` is played with repetition, the n-move rule and caps off. ``nodes`` is the budget
    of one ``prove`` call; one transposition table of ``2**table_bits`` entries serves every
    call."""

    def __init__(self, game, table_bits: int = 22, nodes: int = 2_000_000):
        from ... import load

        self.game = load(
            game.id, **(dict(game.options) | {"repetition_count": None, "n_move": 0, "max_plies": None})
        )
        self.kernel = K.MorrisKernel(self.game.tables)
        size = 1 << table_bits
        self.tt = [np.zeros(size, np.int64) for _ in range(5)]
        self.tt[0][:] = -1
        self.states = np.zeros((MAX_PLY + 1, ROW), np.int64)
        self.moves = np.zeros((MAX_PLY, K.MAX_MOVES), np.int64)
        self.counters = np.zeros(3, np.int64)
        self.budget = nodes
        self.nodes = 0  # searched over every call

    def _root(self, state) -> None:
        self.states[0, :] = self.kernel.state(state)[:ROW]

    def value_within(self, state, depth: int) -> tuple[str, int | None] | None:
        """(win | loss, plies) or ("draw", None) for no forced result within ``depth``;
        None when the budget ran out (the budget is shared by the calls of one ``prove``)."""
        if depth > MAX_PLY:
            raise ValueError(f"at most {MAX_PLY} plies")
        self._root(state)
        k = self.kernel
        self.counters[1] = 0
        v = _search(
            k.pt, k.lines, k.par, self.states, self.moves, 0, depth, -MATE, MATE, *self.tt, self.counters
        )
        if self.counters[1]:
            return None
        if v > 0:
            return "win", MATE - v
        if v < 0:
            return "loss", MATE + v
        return "draw", None

    def prove(self, state, depth: int) -> Proof:
        """Iterative deepening to ``depth`` within the node budget: the result at the deepest
        horizon completed. Every shallower horizon must agree (a result found at horizon h
        stays at every larger one): a disagreement raises."""
        self.counters[0] = 0
        self.counters[2] = self.budget
        last = Proof("draw", None, 0)
        for d in range(1, depth + 1):
            got = self.value_within(state, d)
            if got is None:
                break
            if last.value != "draw" and (got[0], got[1]) != (last.value, last.plies):
                raise AssertionError(f"horizon {d} found {got} after {last}")
            last = Proof(got[0], got[1], d)
        self.nodes += int(self.counters[0])
        return last
