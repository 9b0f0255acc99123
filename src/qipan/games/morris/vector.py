"""Batched Morris (``qipan.rl.vector``): B games at once over the compiled kernel's arrays
(``kernel.py``), with the action indices and observation planes of ``actions.py``. The
loops over the batch run compiled; one row of ``S`` is one kernel state.

Compiled without Numba's disk cache on purpose: these functions call the kernel's, and the
cache only notices changes to a function's own file (see ``kernel.py``)."""

from __future__ import annotations

from ...core.errors import IllegalMove, QipanError
from ...fast import njit_uncached, np, rand_below, seed_word
from .kernel import (
    DRAW,
    HEADER,
    MAX_MOVES,
    ONGOING,
    OVERFLOW,
    S_BB0,
    S_HAND0,
    S_PENDING,
    S_RESULT,
    S_TO_MOVE,
    kernel_for,
    legal_moves,
    low_index,
    play,
)


@njit_uncached
def action_of(code, n, removals):
    """The ``actions.py`` index of a kernel move."""
    removed = code >> 10
    r = 0
    if removed:
        v = low_index(removed & -removed)
        rest = removed & (removed - 1)
        if rest:
            w = low_index(rest)
            r = 1 + n + w * (w - 1) // 2 + v
        else:
            r = 1 + v
    return ((code & 31) * (n + 1) + (code >> 5 & 31)) * removals + r


@njit_uncached
def masks(pt, lines, par, S, out, n, removals):
    buf = np.empty(MAX_MOVES, np.int64)
    out[:] = False
    for b in range(S.shape[0]):
        k = legal_moves(pt, lines, par, S[b], buf)
        for i in range(k):
            out[b, action_of(buf[i], n, removals)] = True


@njit_uncached
def step(pt, lines, par, S, actions, rewards, n, removals):
    """Play ``actions[b]`` in every unfinished game; returns the first game whose action is
    not legal (-1 if none): that game and the later ones are left unplayed."""
    buf = np.empty(MAX_MOVES, np.int64)
    rewards[:] = 0.0
    for b in range(S.shape[0]):
        s = S[b]
        if s[S_RESULT] != ONGOING:
            continue
        k = legal_moves(pt, lines, par, s, buf)
        code = -1
        for i in range(k):
            if action_of(buf[i], n, removals) == actions[b]:
                code = buf[i]
                break
        if code < 0:
            return b
        play(pt, par, s, code)
        r = s[S_RESULT]
        if r == 0 or r == 1:
            rewards[b, r] = 1.0
            rewards[b, 1 - r] = -1.0
    return -1


@njit_uncached
def observe(S, out, n, stones):
    """``actions.py``'s planes for the side to move of every game (the last mover's side
    once a game is over)."""
    out[:] = 0.0
    for b in range(S.shape[0]):
        s = S[b]
        c = s[S_TO_MOVE]
        if c < 0:
            c = 0
        for plane in range(2):
            bits = s[S_BB0 + (c if plane == 0 else 1 - c)]
            while bits:
                low = bits & -bits
                out[b, plane, low_index(low)] = 1.0
                bits ^= low
        for i in range(n):
            out[b, 2, i] = s[S_HAND0 + c] / stones
            out[b, 3, i] = s[S_HAND0 + 1 - c] / stones
            out[b, 4, i] = min(1.0, s[S_PENDING] / stones)
            out[b, 5, i] = 1.0 if s[S_RESULT] == ONGOING else 0.0


@njit_uncached
def random_steps(pt, lines, par, S, start, rng, steps):
    """``steps`` rounds of one uniformly random legal move in every game of the batch, a
    finished game starting again from ``start``: the benchmark's loop. Returns (moves made,
    stones removed: OpenSpiel counts each removal as an action of its own)."""
    buf = np.empty(MAX_MOVES, np.int64)
    made = 0
    removed = 0
    for _ in range(steps):
        for b in range(S.shape[0]):
            s = S[b]
            if s[S_RESULT] != ONGOING:
                s[:] = start
            k = legal_moves(pt, lines, par, s, buf)
            code = buf[rand_below(rng, k)]
            x = code >> 10
            while x:
                x &= x - 1
                removed += 1
            play(pt, par, s, code)
            made += 1
    return made, removed


class MorrisBatch:
    """B Morris games of one rule set, stepped together (``qipan.rl.vector.VectorEnv``)."""

    def __init__(self, game, batch: int):
        self.kernel = kernel_for(game)
        if self.kernel is None:
            raise QipanError("batched Morris needs the compiled kernel: pip install 'qipan[fast]' (Numba)")
        self.game, self.batch = game, batch
        self.space = game.actions()
        self.n, self.removals = self.space.points, self.space.removals
        self.S = np.zeros((batch, HEADER + self.kernel.history), np.int64)

    def init(self, seed: int = 0) -> None:
        for b in range(self.batch):
            self.S[b] = self.kernel.state(self.game.new(seed=seed + b))

    def legal_action_mask(self) -> np.ndarray:
        out = np.zeros((self.batch, self.space.size), np.bool_)
        k = self.kernel
        masks(k.pt, k.lines, k.par, self.S, out, self.n, self.removals)
        return out

    def step(self, actions) -> tuple[np.ndarray, np.ndarray]:
        """Rewards (B, 2) of this step and which games are over (B,)."""
        actions = np.asarray(actions, np.int64)
        if actions.shape != (self.batch,):
            raise QipanError(f"step wants {self.batch} actions, not an array of shape {actions.shape}")
        rewards = np.zeros((self.batch, 2), np.float32)
        k = self.kernel
        bad = step(k.pt, k.lines, k.par, self.S, actions, rewards, self.n, self.removals)
        if bad >= 0:
            raise IllegalMove(
                f"game {bad}: action {int(actions[bad])} is not a legal move (games {bad}.. unplayed)"
            )
        if (self.S[:, S_RESULT] == OVERFLOW).any():
            raise QipanError("a game outgrew the kernel's repetition history")
        return rewards, self.terminated()

    def terminated(self) -> np.ndarray:
        return self.S[:, S_RESULT] != ONGOING

    def current_player(self) -> np.ndarray:
        return np.where(self.terminated(), -1, self.S[:, S_TO_MOVE])

    def observe(self) -> np.ndarray:
        out = np.zeros((self.batch, *self.space.observation_shape(2)), np.float32)
        observe(self.S, out, self.n, self.game.rules.stones)
        return out

    def draws(self) -> np.ndarray:
        return self.S[:, S_RESULT] == DRAW

    def random_steps(self, steps: int, seed: int) -> tuple[int, int]:
        """``steps`` random moves in every game (finished games restart): (moves, removals)."""
        k = self.kernel
        start = k.state(self.game.new())
        rng = np.array([seed_word(seed)], np.uint64)
        made, removed = random_steps(k.pt, k.lines, k.par, self.S, start, rng, steps)
        return int(made), int(removed)
