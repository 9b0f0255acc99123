"""One compiled UCT loop for every game kernel (``games/<name>/kernel.py``): the ``mcts``
agent's search (``mcts.py``) with its semantics: each node keeps every player's reward sum,
the player to move picks the child with the best UCB value for them, untried moves are
expanded last-first (the root's shuffled), a playout cut at ``cap`` plies (or none, for a
cap of 0) is scored by the game's evaluation, and the root's most visited move is played.

``uct_loop(game)`` compiles the loop over a game's kernel module, which provides these
functions (``G``: the game's arrays in one tuple, ``s``: a kernel state, ``code``: a move):

* ``uct_room(G, meta)``: whether the game's own arrays hold one more iteration;
* ``uct_reset(G, s, root)``: copy the root position into ``s``;
* ``uct_ongoing(s)``: whether the game in ``s`` goes on;
* ``uct_expand(G, s, nodes, stats, meta, code)``: append the node of ``s`` (reached by
  ``code``) with ``append_node`` and keep its untried moves; returns the node;
* ``uct_root_untried(G)``: the array whose first entries are the root's untried moves;
* ``uct_untried(G, s, nodes, node, k)``: the untried move ``k`` of ``node`` (at ``s``);
* ``uct_play(G, s, code)``, ``uct_playout(G, s, rng, cap)``: a move, a random playout;
* ``uct_rewards(G, s, out)``: each player's reward in [0, 1] into ``out``; the players.

They are small: declared with ``fast.njit_inline``, they are inlined into the loop, which
compiles as one function (their own compilation cost more than the loop's on a cold cache).

The tree: integer fields per node (rows of ``nodes``: ``N_*``, a game may add its own from
``N_GAME``), float fields (rows of ``stats``: visits, then each player's reward sum) and
``meta`` (``M_NODES``: nodes in use; a game may use further entries)."""

from __future__ import annotations

import math
from pathlib import Path

from ..fast import njit, njit_guarded, njit_inline, np, rand_below
from . import clock

N_MOVE, N_FIRST, N_LAST, N_NEXT, N_UNTRIED, N_TO_MOVE = range(6)
#: The first node field a game may use for itself.
N_GAME = 6
F_VISITS, F_TOTAL = 0, 1
M_NODES = 0


@njit_inline
def append_node(nodes, stats, meta, code, to_move, untried):
    """Append a node reached by ``code`` with ``untried`` moves to try; returns its index."""
    i = meta[M_NODES]
    meta[M_NODES] = i + 1
    nodes[i, N_MOVE] = code
    nodes[i, N_FIRST] = -1
    nodes[i, N_LAST] = -1
    nodes[i, N_NEXT] = -1
    nodes[i, N_UNTRIED] = untried
    nodes[i, N_TO_MOVE] = to_move
    stats[i, :] = 0.0
    return i


@njit_inline
def shuffle(a, n, rng):
    """Shuffle ``a[:n]`` in place (Fisher-Yates, the order of ``mcts``'s ``rng.shuffle``)."""
    for j in range(n - 1, 0, -1):
        k = rand_below(rng, j + 1)
        a[j], a[k] = a[k], a[j]


@njit
def best_move(nodes, stats, player):
    """The root move with the most visits (ties: the larger reward sum of ``player``, then
    the first expanded)."""
    best = -1
    child = nodes[0, N_FIRST]
    while child >= 0:
        if best < 0:
            best = child
        else:
            v, b = stats[child, F_VISITS], stats[best, F_VISITS]
            if v > b or (v == b and stats[child, F_TOTAL + player] > stats[best, F_TOTAL + player]):
                best = child
        child = nodes[child, N_NEXT]
    return nodes[best, N_MOVE]


def uct_loop(game, also=()):
    """The compiled UCT loop over the kernel module ``game`` (its ``uct_*`` functions):
    ``run(G, root, nodes, stats, meta, rng, iterations, exploration, cap)`` makes the root
    node when the tree is empty, then runs up to ``iterations`` iterations and stops early
    when the tree or the game's arrays may run out of room; returns the iterations done.

    The loop is compiled into one function with the game's code, so Numba's disk cache,
    which watches this file only, could load a loop built from an older kernel: the cache
    has its own files per game and is emptied when this file, the game's module, ``fast.py``
    or the files ``also`` (e.g. a ``board.py`` whose constants the kernel compiles in)
    change (``fast.njit_guarded``). Compiling it afresh in every process instead
    (``njit_uncached``) would cost each server start 3 CPU seconds for Pente's loop."""

    def run(G, root, nodes, stats, meta, rng, iterations, exploration, cap):
        if meta[M_NODES] == 0:  # a new tree: the root, its untried moves shuffled
            game.uct_expand(G, root, nodes, stats, meta, 0)
            shuffle(game.uct_root_untried(G), nodes[0, N_UNTRIED], rng)
        s = root.copy()
        path = np.empty(nodes.shape[0] + 1, np.int64)
        reward = np.zeros(stats.shape[1] - F_TOTAL, np.float64)
        done = 0
        while done < iterations:
            if meta[M_NODES] + 1 >= nodes.shape[0] or not game.uct_room(G, meta):
                break
            game.uct_reset(G, s, root)
            node = 0
            depth = 0
            path[0] = 0
            while game.uct_ongoing(s):  # selection and expansion
                if nodes[node, N_UNTRIED]:
                    nodes[node, N_UNTRIED] -= 1
                    code = game.uct_untried(G, s, nodes, node, nodes[node, N_UNTRIED])
                    game.uct_play(G, s, code)
                    child = game.uct_expand(G, s, nodes, stats, meta, code)
                    if nodes[node, N_LAST] < 0:
                        nodes[node, N_FIRST] = child
                    else:
                        nodes[nodes[node, N_LAST], N_NEXT] = child
                    nodes[node, N_LAST] = child
                    depth += 1
                    path[depth] = child
                    break
                player = nodes[node, N_TO_MOVE]
                log_n = math.log(stats[node, F_VISITS])
                best = -1
                best_value = -1.0
                child = nodes[node, N_FIRST]
                while child >= 0:
                    v = stats[child, F_VISITS]
                    value = stats[child, F_TOTAL + player] / v + exploration * math.sqrt(log_n / v)
                    if value > best_value:
                        best = child
                        best_value = value
                    child = nodes[child, N_NEXT]
                game.uct_play(G, s, nodes[best, N_MOVE])
                node = best
                depth += 1
                path[depth] = node
            if cap > 0:  # ``mcts``: a cap of 0 scores the new node by the evaluation at once
                game.uct_playout(G, s, rng, cap)
            players = game.uct_rewards(G, s, reward)
            for k in range(depth + 1):
                i = path[k]
                stats[i, F_VISITS] += 1.0
                for p in range(players):
                    stats[i, F_TOTAL + p] += reward[p]
            done += 1
        return done

    run.__qualname__ = f"uct_run.{game.__name__}"  # its own cache files (and digest) per game
    here = Path(__file__)
    sources = [here, Path(game.__file__), here.parent.parent / "fast.py", *map(Path, also)]
    return njit_guarded(run, sources)


class Tree:
    """The arrays of one search (``players`` reward sums per node), doubled when full."""

    def __init__(self, nodes: int, fields: int, players: int, meta: int = 1):
        self.nodes = np.empty((nodes, fields), np.int64)
        self.stats = np.empty((nodes, F_TOTAL + players), np.float64)
        self.meta = np.zeros(meta, np.int64)

    def full(self) -> bool:
        return self.meta[M_NODES] + 1 >= self.nodes.shape[0]

    def grow(self) -> None:
        self.nodes = np.concatenate([self.nodes, np.empty_like(self.nodes)])
        self.stats = np.concatenate([self.stats, np.empty_like(self.stats)])

    def root_children(self) -> list[tuple[int, int, list[float]]]:
        """(move, visits, reward sums) of the root's children, in the order expanded."""
        out = []
        child = int(self.nodes[0, N_FIRST]) if self.meta[M_NODES] else -1
        while child >= 0:
            visits = int(self.stats[child, F_VISITS])
            out.append((int(self.nodes[child, N_MOVE]), visits, self.stats[child, F_TOTAL:].tolist()))
            child = int(self.nodes[child, N_NEXT])
        return out


def search(run, tree, arrays, root, rng, iterations, deadline, exploration, cap, batch, most):
    """Drive ``run`` (``uct_loop``) in batches on ``tree`` until ``iterations`` are done or the
    agents' clock passes ``deadline`` (checked between batches: Numba reads no clock). A
    batch doubles up to ``most`` without a deadline; ``arrays()`` gives the game's ``G``
    for each batch and ``tree.grow()`` makes room when a batch stopped short. Returns the
    iterations done."""
    done = 0
    while iterations is None or done < iterations:
        todo = batch if iterations is None else min(batch, iterations - done)
        ran = run(arrays(), root, tree.nodes, tree.stats, tree.meta, rng, todo, exploration, cap)
        done += ran
        if ran < todo:
            tree.grow()
        if deadline is not None and clock.now() >= deadline:
            break
        batch = min(batch * 2, most) if deadline is None else batch
    if done == 0:  # a deadline already past: one iteration, so there is a move to return
        done = run(arrays(), root, tree.nodes, tree.stats, tree.meta, rng, 1, exploration, cap)
    return done
