"""Batched Pente (``qipan.rl.vector``): B games at once over the compiled kernel's arrays
(``kernel.py``), with the action indices and observation planes of ``actions.py``. The
loops over the batch run compiled; one row of ``S`` is one kernel state.

Compiled without Numba's disk cache on purpose: these functions call the kernel's, and the
cache only notices changes to a function's own file (see ``games/morris/kernel.py``)."""

from __future__ import annotations

from ...core.errors import IllegalMove, QipanError
from ...fast import njit_uncached, np, seed_word
from .kernel import (
    CHOSEN,
    HEADER,
    ONGOING,
    S_CAPS,
    S_PLAYERS,
    S_RESULT,
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
def masks(points, inner, dirs8, par, S, out, point_of, choosing, buf):
    out[:] = False
    for b in range(S.shape[0]):
        k = legal_moves(points, inner, dirs8, par, S[b], buf)
        for i in range(k):
            out[b, action_of(buf[i], point_of, choosing)] = True


@njit_uncached
def step(
    points, inner, lines, line_len, tria, dirs8, par, S, actions, rewards, point_of, choosing, buf, undo
):
    """Play ``actions[b]`` in every unfinished game; the first game whose action is not legal
    (-1 if none): that game and the later ones are left unplayed."""
    rewards[:] = 0.0
    for b in range(S.shape[0]):
        s = S[b]
        if s[S_RESULT] != ONGOING:
            continue
        k = legal_moves(points, inner, dirs8, par, s, buf)
        code = -1
        for i in range(k):
            if action_of(buf[i], point_of, choosing) == actions[b]:
                code = buf[i]
                break
        if code < 0:
            return b
        play(points, lines, line_len, tria, dirs8, par, s, code, undo)
        r = s[S_RESULT]
        if r > 0:  # a bit mask of the winners; 0 is a draw
            for p in range(s[S_PLAYERS]):
                rewards[b, p] = 1.0 if r >> p & 1 else -1.0
    return -1


@njit_uncached
def observe(S, out, points, row_of, col_of):
    """``actions.py``'s planes for the side to move of every game (seat 0's once over)."""
    out[:] = 0.0
    for b in range(S.shape[0]):
        s = S[b]
        players = s[S_PLAYERS]
        p = s[S_TO_MOVE]
        if p < 0:
            p = 0
        for k in range(points.shape[0]):
            i = points[k]
            v = s[HEADER + i]
            if 0 < v <= players:
                out[b, (v - 1 - p) % players, row_of[i], col_of[i]] = 1.0
        for k in range(players):
            caps = min(1.0, s[S_CAPS + (p + k) % players] / 10)
            out[b, players + k, :, :] = caps
        if s[S_RESULT] == ONGOING:
            out[b, 2 * players, :, :] = 1.0


@njit_uncached
def random_steps(points, inner, lines, line_len, tria, dirs8, par, S, start, rng, steps, buf, undo):
    """``steps`` rounds of one uniformly random legal move in every game, a finished game
    starting again from ``start``: the benchmark's loop. Returns the moves made."""
    made = 0
    for _ in range(steps):
        for b in range(S.shape[0]):
            s = S[b]
            if s[S_RESULT] != ONGOING:
                s[:] = start
            code = _random_move(points, inner, dirs8, par, s, rng, buf)
            play(points, lines, line_len, tria, dirs8, par, s, code, undo)
            made += 1
    return made


class PenteBatch:
    """B Pente games of one option set, stepped together (``qipan.rl.vector.VectorEnv``)."""

    def __init__(self, game, batch: int, players: int | None = None):
        self.kernel = kernel_for(game)
        if self.kernel is None:
            raise QipanError("batched Pente needs the compiled kernel: pip install 'qipan[fast]' (Numba)")
        self.game, self.batch = game, batch
        self.players = players or game.players[0]
        self.space = game.actions()
        g = game.geom
        self.point_of = np.full(g.size, -1, np.int64)
        for k, i in enumerate(g.points):
            self.point_of[i] = k
        self.row_of = np.array(g.row, np.int64)
        self.col_of = np.array(g.col, np.int64)
        self.choosing = self.space.choosing
        self.S = np.zeros((batch, HEADER + g.size), np.int64)
        self.buf = np.empty(len(g.points) * 256 + 8, np.int64)
        self.undo = np.empty(HEADER + 2 * 20, np.int64)

    def init(self, seed: int = 0) -> None:
        for b in range(self.batch):
            self.S[b] = self.kernel.state(self.game.new(self.players, seed=seed + b))

    def legal_action_mask(self) -> np.ndarray:
        out = np.zeros((self.batch, self.space.size), np.bool_)
        k = self.kernel
        masks(k.points, k.inner, k.dirs8, k.par, self.S, out, self.point_of, self.choosing, self.buf)
        return out

    def step(self, actions) -> tuple[np.ndarray, np.ndarray]:
        """Rewards (B, players) of this step and which games are over (B,)."""
        actions = np.asarray(actions, np.int64)
        if actions.shape != (self.batch,):
            raise QipanError(f"step wants {self.batch} actions, not an array of shape {actions.shape}")
        rewards = np.zeros((self.batch, self.players), np.float32)
        k = self.kernel
        bad = step(
            k.points,
            k.inner,
            k.lines,
            k.line_len,
            k.tria,
            k.dirs8,
            k.par,
            self.S,
            actions,
            rewards,
            self.point_of,
            self.choosing,
            self.buf,
            self.undo,
        )
        if bad >= 0:
            raise IllegalMove(
                f"game {bad}: action {int(actions[bad])} is not a legal move (games {bad}.. unplayed)"
            )
        return rewards, self.terminated()

    def terminated(self) -> np.ndarray:
        return self.S[:, S_RESULT] != ONGOING

    def current_player(self) -> np.ndarray:
        return np.where(self.terminated(), -1, self.S[:, S_TO_MOVE])

    def observe(self) -> np.ndarray:
        out = np.zeros((self.batch, *self.space.observation_shape(self.players)), np.float32)
        k = self.kernel
        observe(self.S, out, k.points, self.row_of, self.col_of)
        return out

    def random_steps(self, steps: int, seed: int) -> int:
        """``steps`` random moves in every game (finished games restart): the benchmark."""
        k = self.kernel
        start = k.state(self.game.new(self.players))
        rng = np.array([seed_word(seed)], np.uint64)
        return int(
            random_steps(
                k.points,
                k.inner,
                k.lines,
                k.line_len,
                k.tria,
                k.dirs8,
                k.par,
                self.S,
                start,
                rng,
                steps,
                self.buf,
                self.undo,
            )
        )
