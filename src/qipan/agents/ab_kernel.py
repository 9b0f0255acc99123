"""One compiled alpha-beta for every two-player game kernel: the ``alphabeta`` agent's values
(the game's evaluation at the horizon, a win ``WIN - ply``, a loss ``-WIN + ply``, a draw 0)
found by a negamax with a transposition table, the game's move ordering (which may use the
killer moves and the history table kept here), and null windows after the first move (PVS).

``ab_loop(game)`` compiles the search over a game's kernel module, which provides these
functions (``G``: the game's arrays in one tuple, ``W``: the ``Workspace`` below, ``s``: a
kernel state, ``code``: a move, ``ply``: the distance from the root):

* ``ab_over(G, s)``: whether the game in ``s`` is finished; ``ab_final(G, s, ply, player)``
  then gives its value for ``player`` (``WIN - ply`` for a win, 0 for a draw);
* ``ab_horizon(G, s)``: whether ``s``, still in play, is scored by the evaluation before the
  depth runs out (a kernel whose state ran out of room);
* ``ab_evaluate(G, s, player)``: the evaluation of ``s`` for ``player``;
* ``ab_key(G, s, ply)``: the transposition key of ``s`` (of ``W.tt_keys``' dtype), and
  ``ab_slot(G, key, mask)`` its slot in a table of ``mask + 1`` entries;
* ``ab_moves(G, s, ply, out)``: write the legal moves into ``out``; return how many;
* ``ab_order(G, W, s, ply, moves, scores, n, tt_move)``: a score per move into ``scores``
  (higher first; ``tt_move`` is the table's move, -1 when none);
* ``ab_play(G, s, ply, code)`` and ``ab_undo(G, s, ply)``: play a move at ``ply`` and take
  it back (whatever undoing needs is the game's, e.g. a row per ply in ``G``);
* ``ab_cutoff(G, W, ply, code, depth)``: a move cut off at ``ply`` (killers, history).

They are small: declared with ``fast.njit_inline``, they are inlined into the search, which
compiles as one function. The search walks the tree with its own stack (one row per ply in
``W``), not by recursion: a recursive function needs an explicit signature to be cached
(``fast.njit_signed``), and the games' tuples have types of their own.

``Workspace`` holds the arrays of one search (``workspace`` makes them); the table, the
killers and the history last over the iterations of a deepening, the rows per ply are
scratch. A game's kernel then needs three lines: ``run = ab_loop(this_module)`` at import,
``workspace(...)`` and ``deepen(run, G, W, s, player, first_move, depth, deadline)`` per
search (``games/morris/kernel_search.py`` is an example).

Node for node it is the recursive negamax it replaced in the Morris kernel: the node is
counted first, then the budget, the end of the game, the horizon and the table are looked
at; moves are tried in the order of their scores (selection sort), the first with the full
window, the others with a null window and again with the full one when they land inside it.
One difference: once the node budget has run out, no move is searched again (the value is
dropped anyway)."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from ..fast import njit_guarded, njit_inline, np
from . import clock

WIN = 1_000_000.0
INF = 1e18
#: The kinds of bound a table entry holds.
EXACT, LOWER, UPPER = 0, 1, 2
#: ``W.counters``: nodes searched, aborted (over budget), node budget (0: none), the root's
#: best move.
C_NODES, C_ABORT, C_BUDGET, C_BEST = 0, 1, 2, 3
#: ``W.tt_ints`` columns: depth searched, bound kind, best move.
T_DEPTH, T_FLAG, T_MOVE = 0, 1, 2
#: ``W.frame`` columns (one row per ply): depth left, moves, the move being searched, table
#: slot, best move, whether the move's full-window search is under way.
F_DEPTH, F_N, F_I, F_SLOT, F_BEST_MOVE, F_FULL = range(6)
#: ``W.window`` columns: alpha, beta, alpha at entry, best value.
B_ALPHA, B_BETA, B_ALPHA0, B_BEST = range(4)


class Workspace(NamedTuple):
    """The arrays of one alpha-beta search."""

    tt_keys: np.ndarray  # the transposition table: keys, ...
    tt_ints: np.ndarray  # ... (depth, bound kind, move) ...
    tt_vals: np.ndarray  # ... and values
    killers: np.ndarray  # two killer moves per ply
    history: np.ndarray  # the game's history counts (``ab_cutoff`` indexes it)
    moves: np.ndarray  # the moves of each ply
    scores: np.ndarray  # their ordering scores
    frame: np.ndarray  # ``F_*`` per ply
    window: np.ndarray  # ``B_*`` per ply
    keys: np.ndarray  # the transposition key of each ply's node
    counters: np.ndarray  # ``C_*``


def workspace(
    max_ply: int, room: int, table_bits: int, history: int, key_dtype=np.int64, empty_key=-1, no_killer=0
) -> Workspace:
    """The arrays of a search ``max_ply`` plies deep with ``room`` moves per position at most,
    a table of ``2**table_bits`` entries keyed by ``key_dtype`` (``empty_key``: a free slot),
    ``history`` counts and killers starting as ``no_killer`` (a code no move has)."""
    size = 1 << table_bits
    return Workspace(
        tt_keys=np.full(size, empty_key, key_dtype),
        tt_ints=np.zeros((size, 3), np.int64),
        tt_vals=np.zeros(size, np.float64),
        killers=np.full((max_ply, 2), no_killer, np.int64),
        history=np.zeros(history, np.int64),
        moves=np.empty((max_ply, room), np.int64),
        scores=np.empty((max_ply, room), np.int64),
        frame=np.zeros((max_ply, 6), np.int64),
        window=np.zeros((max_ply, 4), np.float64),
        keys=np.zeros(max_ply, key_dtype),
        counters=np.zeros(4, np.int64),
    )


def ab_loop(game, also=()):
    """The compiled alpha-beta over the kernel module ``game`` (its ``ab_*`` functions):
    ``run(G, W, s, depth)`` searches ``s`` (a copy: ``s`` is not changed) ``depth`` plies
    deep; returns the value for the side to move, and ``W.counters[C_BEST]`` is its move
    (meaningless when ``W.counters[C_ABORT]`` says the node budget ran out). The cache is
    kept as ``uct_kernel.uct_loop``'s: per game, emptied when this file, the game's module,
    ``fast.py`` or the files ``also`` change."""

    def run(G, W, s0, depth, root_player):
        s = s0.copy()
        counters, frame, window = W.counters, W.frame, W.window
        ply = 0
        frame[0, F_DEPTH] = depth
        window[0, B_ALPHA] = -INF
        window[0, B_BETA] = INF
        entering = True
        value = 0.0
        while True:
            next_move = False
            if entering:  # a new node at ``ply``: a leaf gives ``value``, else its moves start
                entering = False
                player = root_player if ply % 2 == 0 else 1 - root_player
                d = frame[ply, F_DEPTH]
                alpha, beta = window[ply, B_ALPHA], window[ply, B_BETA]
                counters[C_NODES] += 1
                if counters[C_BUDGET] and counters[C_NODES] > counters[C_BUDGET]:
                    counters[C_ABORT] = 1
                if counters[C_ABORT]:
                    value = 0.0
                elif game.ab_over(G, s):
                    value = game.ab_final(G, s, ply, player)
                elif d <= 0 or game.ab_horizon(G, s):
                    value = game.ab_evaluate(G, s, player)
                else:
                    key = game.ab_key(G, s, ply)
                    idx = game.ab_slot(G, key, W.tt_keys.shape[0] - 1)
                    tt_move = -1
                    hit = False
                    if W.tt_keys[idx] == key:
                        tt_move = W.tt_ints[idx, T_MOVE]
                        if W.tt_ints[idx, T_DEPTH] >= d:
                            flag = W.tt_ints[idx, T_FLAG]
                            v = W.tt_vals[idx]
                            if (
                                flag == EXACT
                                or (flag == LOWER and v >= beta)
                                or (flag == UPPER and v <= alpha)
                            ):
                                hit = True
                                value = v
                                if ply == 0:
                                    counters[C_BEST] = tt_move
                    if not hit:
                        n = game.ab_moves(G, s, ply, W.moves[ply])
                        game.ab_order(G, W, s, ply, W.moves[ply], W.scores[ply], n, tt_move)
                        W.keys[ply] = key
                        frame[ply, F_N] = n
                        frame[ply, F_I] = -1
                        frame[ply, F_SLOT] = idx
                        frame[ply, F_BEST_MOVE] = W.moves[ply, 0]
                        window[ply, B_ALPHA0] = alpha
                        window[ply, B_BEST] = -INF
                        if n > 0:
                            next_move = True
                        else:
                            value = finish(W, ply)
            else:  # the value of ``ply + 1`` is in: the node at ``ply`` goes on
                v = -value
                alpha, beta = window[ply, B_ALPHA], window[ply, B_BETA]
                if not frame[ply, F_FULL] and not counters[C_ABORT] and alpha < v < beta:
                    # The null window failed high: the full window, from the same position.
                    frame[ply, F_FULL] = 1
                    window[ply + 1, B_ALPHA] = -beta
                    window[ply + 1, B_BETA] = -alpha
                    frame[ply + 1, F_DEPTH] = frame[ply, F_DEPTH] - 1
                    ply += 1
                    entering = True
                    continue
                game.ab_undo(G, s, ply)
                code = W.moves[ply, frame[ply, F_I]]
                if counters[C_ABORT]:
                    value = 0.0
                else:
                    if v > window[ply, B_BEST]:
                        window[ply, B_BEST] = v
                        frame[ply, F_BEST_MOVE] = code
                    if v > alpha:
                        alpha = v
                        window[ply, B_ALPHA] = v
                    if alpha >= beta:
                        game.ab_cutoff(G, W, ply, code, frame[ply, F_DEPTH])
                        value = finish(W, ply)
                    elif frame[ply, F_I] + 1 < frame[ply, F_N]:
                        next_move = True
                    else:
                        value = finish(W, ply)
            if next_move:  # the best-scored move left, searched at ``ply + 1``
                i = frame[ply, F_I] + 1
                frame[ply, F_I] = i
                code = pick(W.moves[ply], W.scores[ply], i, frame[ply, F_N])
                game.ab_play(G, s, ply, code)
                alpha, beta = window[ply, B_ALPHA], window[ply, B_BETA]
                # After the first move a null window first: does this one beat the best at all?
                frame[ply, F_FULL] = i == 0
                window[ply + 1, B_ALPHA] = -beta if i == 0 else -alpha - 1e-9
                window[ply + 1, B_BETA] = -alpha
                frame[ply + 1, F_DEPTH] = frame[ply, F_DEPTH] - 1
                ply += 1
                entering = True
                continue
            if ply == 0:
                return value
            ply -= 1

    run.__qualname__ = f"ab_run.{game.__name__}"  # its own cache files (and digest) per game
    here = Path(__file__)
    sources = [here, Path(game.__file__), here.parent.parent / "fast.py", *map(Path, also)]
    return njit_guarded(run, sources)


@njit_inline
def pick(moves, scores, i, n):
    """Selection sort, one step: the best-scored move of ``moves[i:n]`` into place ``i``
    (most nodes cut after a few moves: sorting them all would be wasted)."""
    k = i
    for j in range(i + 1, n):
        if scores[j] > scores[k]:
            k = j
    moves[i], moves[k] = moves[k], moves[i]
    scores[i], scores[k] = scores[k], scores[i]
    return moves[i]


@njit_inline
def store(tt_keys, tt_ints, tt_vals, idx, key, depth, best, alpha0, beta, move):
    """Store a searched node in slot ``idx``: its bound kind follows from where its value
    ``best`` fell in its window (``alpha0``: alpha when it was entered)."""
    tt_keys[idx] = key
    tt_ints[idx, T_DEPTH] = depth
    tt_ints[idx, T_FLAG] = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
    tt_ints[idx, T_MOVE] = move
    tt_vals[idx] = best


@njit_inline
def finish(W, ply):
    """Store the searched node at ``ply`` in the table and, at the root, its move; returns
    its value (the best of its moves)."""
    best = W.window[ply, B_BEST]
    move = W.frame[ply, F_BEST_MOVE]
    key, slot, depth = W.keys[ply], W.frame[ply, F_SLOT], W.frame[ply, F_DEPTH]
    store(
        W.tt_keys,
        W.tt_ints,
        W.tt_vals,
        slot,
        key,
        depth,
        best,
        W.window[ply, B_ALPHA0],
        W.window[ply, B_BETA],
        move,
    )
    if ply == 0:
        W.counters[C_BEST] = move
    return best


class Deepened:
    """What ``deepen`` found: the move (a kernel code), its score for the side to move, the
    depth of the deepest completed iteration and the nodes searched."""

    __slots__ = ("move", "score", "depth", "nodes")

    def __init__(self, move, score, depth, nodes):
        self.move, self.score, self.depth, self.nodes = move, score, depth, nodes


def deepen(run, G, W, s, player, first, depth=None, deadline=None, rate=200_000.0) -> Deepened:
    """Iterative deepening with ``run`` (``ab_loop``) from ``s`` (``player`` to move) to
    ``depth`` (default 64, at most the workspace's plies less two) or until the agents' clock
    passes ``deadline``: Numba reads no clock, so each iteration after the first gets a node
    budget from the time left and the speed so far (``rate``, nodes per second, before any is
    measured); an iteration over budget is dropped. ``first``: the move when none completes."""
    counters = W.counters
    found = Deepened(first, 0.0, 0, 0)
    started, spent = clock.now(), 1e-6
    for d in range(1, min(depth or 64, W.frame.shape[0] - 2) + 1):
        if deadline is not None:
            left = deadline - clock.now()
            if left <= 0 and d > 1:
                break
            speed = counters[C_NODES] / spent if counters[C_NODES] else rate
            counters[C_BUDGET] = counters[C_NODES] + max(64, int(speed * left)) if d > 1 else 0
        value = run(G, W, s, d, player)
        spent = max(clock.now() - started, 1e-6)
        found.nodes = int(counters[C_NODES])
        if counters[C_ABORT]:
            break
        found.move, found.score, found.depth = int(counters[C_BEST]), float(value), d
        if abs(value) >= WIN - 1000:
            break
    return found
