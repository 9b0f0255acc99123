"""The retrograde kernel: values with distances for one component, given its move graph.

Input, for the N positions of a component: successor lists in CSR form (``start``), each
successor either internal (``dest[e] >= 0``, a position of the same component) or external
(``dest[e] < 0``, its value already known: ``ext[e]``, a code of :mod:`qipan.solve.codes`),
and ``terminal`` (1: the side to move has lost, 2: a draw, no successors).

:func:`retrograde` sweeps backwards by distance, layer by layer: the positions lost after
``d`` plies make their predecessors won after ``d + 1``; a predecessor all of whose moves
lead to won positions is lost after one more ply than its longest such move (external
successors may push that later, so such positions wait in a schedule). What is never decided
is a draw (repetition). :func:`sweep` computes the same values forwards, one layer per pass
over all positions with NumPy, as an independent check of the kernel."""

from __future__ import annotations

from ..core.errors import QipanError
from .codes import MAX_DISTANCE, UNKNOWN
from .jit import njit, np

NO_DIST = 1 << 30


@njit
def _retrograde(start, dest, ext, terminal, out, pred):
    n = start.shape[0] - 1
    cnt = np.zeros(n, dtype=np.int64)  # internal successors not yet known to be won
    ext_win = np.full(n, NO_DIST, dtype=np.int64)  # fastest win through an external successor
    ext_long = np.full(n, -1, dtype=np.int64)  # slowest external won successor, + 1
    ext_draw = np.zeros(n, dtype=np.bool_)
    npred = np.zeros(n + 1, dtype=np.int64)
    for v in range(n):
        for e in range(start[v], start[v + 1]):
            w = dest[e]
            if w >= 0:
                cnt[v] += 1
                npred[w + 1] += 1
            else:
                c = ext[e]
                if c == 255:
                    return -2  # an external successor without a value: solved out of order
                if c == 0:
                    ext_draw[v] = True
                elif (c - 1) % 2 == 0:
                    if c < ext_win[v]:
                        ext_win[v] = c  # lost after c - 1 plies: won after c
                elif c > ext_long[v]:
                    ext_long[v] = c
    for v in range(n):
        npred[v + 1] += npred[v]
    fill = npred[:n].copy()
    for v in range(n):
        for e in range(start[v], start[v + 1]):
            w = dest[e]
            if w >= 0:
                pred[fill[w]] = v
                fill[w] += 1

    sched = np.full(n, NO_DIST, dtype=np.int64)
    nsched = np.zeros(MAX_DISTANCE + 3, dtype=np.int64)
    cur = np.empty(n, dtype=np.int64)
    nxt = np.empty(n, dtype=np.int64)
    ncur = 0
    for v in range(n):
        out[v] = 255
        if terminal[v] == 1:
            out[v] = 1
            cur[ncur] = v
            ncur += 1
        elif terminal[v] == 2:
            out[v] = 0
        elif ext_win[v] < NO_DIST:
            if ext_win[v] > MAX_DISTANCE:
                return -1
            sched[v] = ext_win[v]
            nsched[ext_win[v]] += 1
        elif cnt[v] == 0:
            if ext_draw[v]:
                out[v] = 0
            else:
                if ext_long[v] > MAX_DISTANCE:
                    return -1
                sched[v] = ext_long[v]
                nsched[ext_long[v]] += 1
    deepest = 0
    for d in range(MAX_DISTANCE + 1):
        if nsched[d]:
            for v in range(n):
                if sched[v] == d and out[v] == 255:
                    out[v] = d + 1
                    cur[ncur] = v
                    ncur += 1
        if ncur == 0:
            pending = False
            for k in range(d + 1, MAX_DISTANCE + 1):
                if nsched[k]:
                    pending = True
            if not pending:
                break
            continue
        deepest = d
        nnxt = 0
        for i in range(ncur):
            v = cur[i]
            for j in range(npred[v], npred[v + 1]):
                u = pred[j]
                if out[u] != 255:
                    continue
                if d % 2 == 0:  # v is lost: u wins after d + 1 plies
                    if d + 1 > MAX_DISTANCE:
                        return -1
                    out[u] = d + 2
                    nxt[nnxt] = u
                    nnxt += 1
                else:  # v is won: u may have run out of moves that do not lose
                    cnt[u] -= 1
                    if cnt[u] == 0 and not ext_draw[u] and ext_win[u] == NO_DIST:
                        length = max(d + 1, ext_long[u])
                        if length > MAX_DISTANCE:
                            return -1
                        if length == d + 1:
                            out[u] = d + 2
                            nxt[nnxt] = u
                            nnxt += 1
                        else:
                            sched[u] = length
                            nsched[length] += 1
        cur, nxt = nxt, cur
        ncur = nnxt
    for v in range(n):
        if out[v] == 255:
            out[v] = 0  # never decided: both sides can avoid losing forever (repetition)
    return deepest


def retrograde(start: np.ndarray, dest: np.ndarray, ext: np.ndarray, terminal: np.ndarray) -> np.ndarray:
    """The code of every position of the component (uint8). ``dest`` may be int32 (half
    the memory of the predecessor lists) when the component has fewer than 2**31 positions."""
    out = np.empty(len(start) - 1, dtype=np.uint8)
    if dest.dtype not in (np.int32, np.int64):
        dest = dest.astype(np.int64)
    pred = np.empty(int(np.count_nonzero(dest >= 0)), dtype=dest.dtype)
    status = _retrograde(
        start.astype(np.int64, copy=False),
        dest,
        ext.astype(np.uint8, copy=False),
        terminal.astype(np.int8, copy=False),
        out,
        pred,
    )
    if status == -1:
        raise QipanError(f"a distance exceeds {MAX_DISTANCE} plies: it does not fit in one byte")
    if status == -2:
        raise QipanError("a successor lies in a sub-database that is not solved yet")
    return out


def sweep(start: np.ndarray, dest: np.ndarray, ext: np.ndarray, terminal: np.ndarray) -> np.ndarray:
    """The same codes as :func:`retrograde`, computed forwards: pass ``d`` decides the positions
    ending after exactly ``d`` plies from the codes of the previous passes (vectorised)."""
    n = len(start) - 1
    counts = np.diff(start)
    owner = np.repeat(np.arange(n), counts)
    internal = dest >= 0
    out = np.full(n, UNKNOWN, dtype=np.uint8)
    out[terminal == 1] = 1
    out[terminal == 2] = 0
    open_ = out == UNKNOWN
    for d in range(1, MAX_DISTANCE + 1):
        child = ext.astype(np.int64).copy()
        child[internal] = out[dest[internal]]
        decided = child != UNKNOWN
        lost = decided & (child % 2 == 1)  # successor lost: the mover wins
        won = decided & (child % 2 == 0) & (child != 0)
        # Win after d plies: some successor lost after d - 1 plies.
        win_now = np.zeros(n, dtype=bool)
        np.logical_or.at(win_now, owner[lost & (child == d)], True)
        # Loss after d plies: every successor won, the slowest after d - 1 plies.
        n_won = np.bincount(owner[won], minlength=n)
        longest = np.zeros(n, dtype=np.int64)
        np.maximum.at(longest, owner[won], child[won])
        loss_now = (n_won == counts) & (counts > 0) & (longest == d)
        new_win = open_ & win_now & (d % 2 == 1)
        new_loss = open_ & loss_now & (d % 2 == 0)
        known = np.concatenate([ext[ext != UNKNOWN], out[out != UNKNOWN]])
        if d > int(known.max(initial=0)):
            break  # a decision at pass d needs a successor coded d: none is left
        out[new_win | new_loss] = d + 1
        open_ &= ~(new_win | new_loss)
    out[out == UNKNOWN] = 0
    return out
