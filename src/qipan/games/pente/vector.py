"""Batched Pente (``qipan.rl.vector``): B games at once over the compiled kernel's arrays
(``kernel.py``), with the action indices and observation planes of ``actions.py``. The
loops over the batch run compiled; one row of ``S`` is one kernel state.

Where every empty point is one move (no ``max_pairs_per_move``: every preset), the legal
actions are read off the board when needed and never listed: the step draws a uniform action
by rejection over the points, as the kernel's playouts do, a logits draw makes one exponential
per legal point, and the mask is written from the board when read. With
``max_pairs_per_move`` the kernel lists each game's moves at each step (``qipan.rl.vector``'s
packed lists).

The listing loops are ``qipan.rl.vector_kernel``'s, over this file's ``vec_*`` hooks.
Compiled without Numba's disk cache on purpose: these functions call the kernel's, and the
cache only notices changes to a function's own file (see ``games/morris/kernel.py``)."""

from __future__ import annotations

import sys
from typing import NamedTuple

from ...core.errors import QipanError
from ...fast import (
    GIVEN,
    LOGITS,
    UNIFORM,
    draw_weighted,
    njit_inline,
    njit_uncached,
    np,
    rand_below,
    seed_word,
)
from ...rl.vector_kernel import vector_loops
from .kernel import (
    CHOSEN,
    EMPTY,
    HEADER,
    ONGOING,
    P_CENTRE,
    P_NPOINTS,
    P_TOURNAMENT,
    S_CAPS,
    S_PLACED,
    S_PLAYERS,
    S_RESULT,
    S_STONES,
    S_TO_MOVE,
    _random_move,
    kernel_for,
    legal_moves,
    play,
)


@njit_uncached
def action_of(code, point_of, choosing):
    """The ``actions.py`` index of a kernel move (``point_of[cell]`` = row · n + col)."""
    k = point_of[code & 1023]
    if not choosing:
        return k
    chosen = (code >> 10) & 255 if code & CHOSEN else 0
    return k * 256 + chosen


@njit_uncached
def observe_game(s, out, points, flat):
    """``actions.py``'s planes of one game for its side to move (seat 0's once over), into
    ``out`` (planes, n * n); ``flat[k]``: the k-th point's place in a plane. Every entry is
    written once, without a branch per point (no clearing first)."""
    players = s[S_PLAYERS]
    p = s[S_TO_MOVE]
    if p < 0:
        p = 0
    for q in range(players):  # plane q: the stones of the q-th seat from the mover
        seat = (p + q) % players + 1
        for k in range(points.shape[0]):
            out[q, flat[k]] = s[HEADER + points[k]] == seat
    for k in range(players):
        out[players + k] = min(1.0, s[S_CAPS + (p + k) % players] / 10)
    out[2 * players] = 1.0 if s[S_RESULT] == ONGOING else 0.0


# -- the hooks of ``qipan.rl.vector_kernel``'s loops (``max_pairs_per_move``: moves listed) -----
class VectorArrays(NamedTuple):
    """``G``: the rule arrays (``kernel.RuleArrays``'s) and the batch's own; each hook names
    the fields it reads (``qipan.rl.vector_kernel``)."""

    points: np.ndarray
    inner: np.ndarray
    lines: np.ndarray
    line_len: np.ndarray
    tria: np.ndarray
    dirs8: np.ndarray
    par: np.ndarray
    point_of: np.ndarray  # per cell: its point number (an action without a choice of pairs)
    choosing: bool  # ``max_pairs_per_move``: an action carries the pairs taken
    flat: np.ndarray  # the k-th point's place in a plane
    scratch: np.ndarray  # a move list
    undo: np.ndarray  # an undo record


@njit_inline
def vec_moves(s, codes, acts, pos, points, inner, dirs8, par, point_of, choosing, scratch):
    k = legal_moves(points, inner, dirs8, par, s, scratch)
    for i in range(k):
        codes[pos + i] = scratch[i]
        acts[pos + i] = action_of(scratch[i], point_of, choosing)
    return k


@njit_inline
def vec_play(s, code, points, lines, line_len, tria, dirs8, par, undo):
    play(points, lines, line_len, tria, dirs8, par, s, code, undo)


@njit_inline
def vec_ongoing(s):
    return s[S_RESULT] == ONGOING


@njit_inline
def vec_rewards(s, rewards, b):
    r = s[S_RESULT]
    if r > 0:  # a bit mask of the winners; 0 is a draw
        for p in range(s[S_PLAYERS]):
            rewards[b, p] = 1.0 if r >> p & 1 else -1.0


@njit_inline
def vec_restarts(s):
    return True


@njit_inline
def vec_observe(s, out, points, flat):
    observe_game(s, out, points, flat)


@njit_inline
def vec_random_move(s, rng, points, inner, dirs8, par, scratch):
    return _random_move(points, inner, dirs8, par, s, rng, scratch)


@njit_inline
def vec_extra_actions(code):
    return 0


LOOPS = vector_loops(sys.modules[__name__])
play_scored = LOOPS.play_scored  # a global, for ``step_points`` (compiled code calls it)


# -- every empty point one move: the legal actions read off the board -------------------------
#: ``open_points``: which empty points a game may take now.
NONE, CENTRE_ONLY, OUTSIDE_INNER, ANY_EMPTY = 0, 1, 2, 3


@njit_uncached
def open_points(par, s):
    """Which empty points game ``s`` may take (``legal_moves``' rules without its list)."""
    if s[S_RESULT] != ONGOING:
        return NONE
    if s[S_PLACED] == 0 and s[HEADER + par[P_CENTRE]] == EMPTY:
        return CENTRE_ONLY
    if par[P_TOURNAMENT] and s[S_PLACED] == s[S_PLAYERS]:
        return OUTSIDE_INNER
    return ANY_EMPTY


@njit_uncached
def takes(points, inner, s, which, j):
    """Whether action ``j`` (the j-th point) is legal, ``which`` from ``open_points``."""
    i = points[j]
    return s[HEADER + i] == EMPTY and not (which == OUTSIDE_INNER and inner[i])


@njit_uncached
def legal_points(points, inner, par, s, which, out):
    """The legal actions (point numbers) of ``s`` into ``out``; their count. Written without
    a branch per point (the empty points of a random game fool the branch predictor)."""
    restrict = 1 if which == OUTSIDE_INNER else 0
    k = 0
    for j in range(par[P_NPOINTS]):
        i = points[j]
        out[k] = j
        k += (s[HEADER + i] == EMPTY) * (1 - restrict * inner[i])
    return k


#: Below this sum of a game's legal ``exps`` the row's maximum hid the legal logits (they
#: underflowed): the game's weights are made again from its own legal maximum.
TINY = 1e-18


@njit_uncached
def draw_point(points, inner, par, s, which, centre, mode, logits, exps, b, rng, listed, weights):
    """Game ``b``'s action drawn as ``mode`` says: uniform, or from the softmax of ``logits``
    over the legal points, whose weights ``exps`` (``exp(logits - row maximum)``, made by
    NumPy's vectorised exp for the whole batch: most points are legal) holds; ``centre`` is
    the centre's action."""
    if which == CENTRE_ONLY:
        return centre
    n = par[P_NPOINTS]
    if mode == UNIFORM:
        if s[S_STONES] * 2 < n:  # at least half the points empty: few rejections
            while True:
                j = rand_below(rng, n)
                if takes(points, inner, s, which, j):
                    return j
        return listed[rand_below(rng, legal_points(points, inner, par, s, which, listed))]
    k = legal_points(points, inner, par, s, which, listed)
    total = 0.0
    for q in range(k):
        w = exps[b, listed[q]]
        weights[q] = w
        total += w
    if not total > TINY:  # (NaN too) the exact way: exponentials from the legal maximum
        top = logits[b, listed[0]]
        for q in range(1, k):
            top = max(top, logits[b, listed[q]])
        total = 0.0
        for q in range(k):
            w = np.exp(logits[b, listed[q]] - top)
            weights[q] = w
            total += w
    return listed[draw_weighted(weights, k, total, rng)]


@njit_uncached
def step_points(G, S, start, centre, mode, given, logits, exps, rng, autoreset, out, listed, weights):
    """The step for the option sets where every empty point is one move, without lists: as
    ``vector_kernel``'s ``step_all`` (``out``: its ``StepOut``), the action drawn from the
    board (``draw_point``)."""
    points, inner, par = G.points, G.inner, G.par
    rewards, ended, chosen = out.rewards, out.ended, out.chosen
    if mode == GIVEN:  # refused before anything is played (a finished game takes any)
        for b in range(S.shape[0]):
            which = open_points(par, S[b])
            a = given[b]
            if which == CENTRE_ONLY:
                if a != centre:
                    return b
            elif which != NONE and not (0 <= a < par[P_NPOINTS] and takes(points, inner, S[b], which, a)):
                return b
    for b in range(S.shape[0]):
        rewards[b, :] = 0.0
        s = S[b]
        chosen[b] = -1
        which = open_points(par, s)
        ended[b] = which == NONE
        if which == NONE:
            continue
        if mode == GIVEN:
            j = given[b]
        else:
            j = draw_point(points, inner, par, s, which, centre, mode, logits, exps, b, rng, listed, weights)
        chosen[b] = j
        play_scored(G, s, b, points[j], start, autoreset, rewards, ended)
    return -1


@njit_uncached
def mask_points(points, inner, par, S, centre, mask):
    """Each game's legal actions as booleans, from its board."""
    for b in range(S.shape[0]):
        s = S[b]
        which = open_points(par, s)
        if which == CENTRE_ONLY or which == NONE:
            mask[b, :] = False
            if which == CENTRE_ONLY:
                mask[b, centre] = True
            continue
        for j in range(par[P_NPOINTS]):
            mask[b, j] = takes(points, inner, s, which, j)


class PenteBatch:
    """B Pente games of one option set, stepped together (``qipan.rl.vector.VectorEnv``)."""

    def __init__(self, game, batch: int, players: int | None = None):
        self.kernel = kernel_for(game)
        if self.kernel is None:
            raise QipanError("batched Pente needs the compiled kernel: pip install 'qipan[fast]' (Numba)")
        self.game, self.batch = game, batch
        self.players = players or game.players[0]
        self.space = game.actions()
        #: Every empty point is one move: no lists kept (``VectorEnv`` asks ``write_mask``).
        self.lists_moves = self.space.choosing
        #: Room for one game's legal moves in the lists (the kernel's own playouts use as
        #: much), and their type (codes below 2**26: half the memory a batched step streams
        #: through).
        self.width = len(game.geom.points) * 8 + 8 if self.lists_moves else 0
        self.code_dtype = np.int32
        g = game.geom
        self.point_of = np.full(g.size, -1, np.int64)
        for k, i in enumerate(g.points):
            self.point_of[i] = k
        self.choosing = self.space.choosing
        self.flat = np.array([g.row[i] * g.n + g.col[i] for i in g.points], np.int64)
        self.S = np.zeros((batch, HEADER + g.size), np.int64)
        self.buf = np.empty(len(g.points) * 8 + 8, np.int64)
        self.weights = np.empty(len(g.points), np.float64)
        self.exps = np.empty((batch, self.space.size), np.float32) if not self.lists_moves else None
        self.no_exps = np.zeros((1, 1), np.float32)
        self.centre = self.point_of[self.kernel.par[P_CENTRE]]
        self.start = self.kernel.state(game.new(self.players))
        undo = np.empty(HEADER + 2 * 20, np.int64)
        rules = self.kernel.arrays._asdict()
        self.arrays = VectorArrays(
            **rules,
            point_of=self.point_of,
            choosing=self.choosing,
            flat=self.flat,
            scratch=self.buf,
            undo=undo,
        )

    def set_up(self, seed: int) -> None:
        """Game b from ``game.new(players, seed=seed + b)``."""
        for b in range(self.batch):
            self.S[b] = self.kernel.state(self.game.new(self.players, seed=seed + b))

    def refresh(self, lists) -> None:
        if self.lists_moves:
            LOOPS.refresh_all(self.arrays, self.S, lists)

    def step(self, mode, given, logits, rng, autoreset, lists, out) -> int:
        if self.lists_moves:
            return LOOPS.step_all(
                self.arrays, self.S, self.start, mode, given, logits, rng, autoreset, lists, out
            )
        exps = self.no_exps
        if mode == LOGITS:  # NumPy's exp runs in SIMD over the batch; the kernel's, one by one
            exps = self.exps
            np.subtract(logits, logits.max(axis=1, keepdims=True), out=exps)
            np.exp(exps, out=exps)
        return step_points(
            self.arrays, self.S, self.start, self.centre,
            mode, given, logits, exps, rng, autoreset, out, self.buf, self.weights,
        )  # fmt: skip

    def write_mask(self, mask) -> None:
        """The legal actions into ``mask`` from the boards (``lists_moves`` false)."""
        G = self.arrays
        mask_points(G.points, G.inner, G.par, self.S, self.centre, mask)

    def observe(self, out) -> None:
        LOOPS.observe_all(self.arrays, self.S, out.reshape(self.batch, out.shape[1], -1))

    def over(self) -> np.ndarray:
        return self.S[:, S_RESULT] != ONGOING

    def to_move(self) -> np.ndarray:
        return np.where(self.over(), -1, self.S[:, S_TO_MOVE])

    def random_steps(self, steps: int, seed: int) -> int:
        """``steps`` random moves in every game (finished games restart): the benchmark."""
        rng = np.array([seed_word(seed)], np.uint64)
        made, _ = LOOPS.random_steps(self.arrays, self.S, self.start, rng, steps)
        return int(made)
