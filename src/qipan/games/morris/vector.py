"""Batched Morris (``qipan.rl.vector``): B games at once over the compiled kernel's arrays
(``kernel.py``), with the action indices and observation planes of ``actions.py``. The
loops over the batch run compiled; one row of ``S`` is one kernel state.

The loops are ``qipan.rl.vector_kernel``'s, over this file's ``vec_*`` hooks. Compiled
without Numba's disk cache on purpose: these functions call the kernel's, and the cache only
notices changes to a function's own file (see ``kernel.py``)."""

from __future__ import annotations

import sys
from typing import NamedTuple

from ...core.errors import QipanError
from ...fast import njit_inline, njit_uncached, np, popcount, rand_below, seed_word
from ...rl.vector_kernel import vector_loops
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
def observe_game(s, out, n, stones):
    """``actions.py``'s planes of one game for its side to move (the last mover's side once
    it is over) into ``out`` (6, n)."""
    out[:] = 0.0
    c = s[S_TO_MOVE]
    if c < 0:
        c = 0
    for plane in range(2):
        bits = s[S_BB0 + (c if plane == 0 else 1 - c)]
        while bits:
            low = bits & -bits
            out[plane, low_index(low)] = 1.0
            bits ^= low
    for i in range(n):
        out[2, i] = s[S_HAND0 + c] / stones
        out[3, i] = s[S_HAND0 + 1 - c] / stones
        out[4, i] = min(1.0, s[S_PENDING] / stones)
        out[5, i] = 1.0 if s[S_RESULT] == ONGOING else 0.0


# -- the hooks of ``qipan.rl.vector_kernel``'s loops ---------------------------------------------
class VectorArrays(NamedTuple):
    """``G``: the rule arrays (``kernel.RuleArrays``'s) and the action space's sizes; each
    hook names the fields it reads (``qipan.rl.vector_kernel``)."""

    pt: np.ndarray
    lines: np.ndarray
    par: np.ndarray
    n: int  # points
    removals: int  # removal choices per move (``actions.py``)
    stones: int  # stones per player (the planes' scale)
    buf: np.ndarray  # a move list (``random_steps``)


@njit_inline
def vec_moves(s, codes, acts, pos, pt, lines, par, n, removals):
    k = legal_moves(pt, lines, par, s, codes[pos:])
    for i in range(pos, pos + k):
        acts[i] = action_of(codes[i], n, removals)
    return k


@njit_inline
def vec_play(s, code, pt, par):
    play(pt, par, s, code)


@njit_inline
def vec_ongoing(s):
    return s[S_RESULT] == ONGOING


@njit_inline
def vec_rewards(s, rewards, b):
    r = s[S_RESULT]
    if r == 0 or r == 1:
        rewards[b, r] = 1.0
        rewards[b, 1 - r] = -1.0


@njit_inline
def vec_restarts(s):
    return s[S_RESULT] != OVERFLOW  # the caller reports an overflow


@njit_inline
def vec_observe(s, out, n, stones):
    observe_game(s, out, n, stones)


@njit_inline
def vec_random_move(s, rng, pt, lines, par, buf):
    k = legal_moves(pt, lines, par, s, buf)
    return buf[rand_below(rng, k)]


@njit_inline
def vec_extra_actions(code):
    return popcount(code >> 10)  # OpenSpiel counts each removal as an action of its own


LOOPS = vector_loops(sys.modules[__name__])


class MorrisBatch:
    """B Morris games of one rule set, stepped together (``qipan.rl.vector.VectorEnv``)."""

    players = 2
    #: The kernel keeps each game's legal moves listed (``qipan.rl.vector``).
    lists_moves = True
    #: Room for one game's legal moves.
    width = MAX_MOVES

    def __init__(self, game, batch: int):
        self.kernel = kernel_for(game)
        if self.kernel is None:
            raise QipanError("batched Morris needs the compiled kernel: pip install 'qipan[fast]' (Numba)")
        self.game, self.batch = game, batch
        self.space = game.actions()
        self.n, self.removals = self.space.points, self.space.removals
        self.stones = game.rules.stones
        self.S = np.zeros((batch, HEADER + self.kernel.history), np.int64)
        self.start = self.kernel.state(game.new())
        buf = np.empty(MAX_MOVES, np.int64)
        rules = self.kernel.arrays._asdict()
        self.arrays = VectorArrays(**rules, n=self.n, removals=self.removals, stones=self.stones, buf=buf)

    def set_up(self, seed: int) -> None:
        """Game b from ``game.new(seed=seed + b)``."""
        for b in range(self.batch):
            self.S[b] = self.kernel.state(self.game.new(seed=seed + b))

    def refresh(self, lists) -> None:
        LOOPS.refresh_all(self.arrays, self.S, lists)

    def step(self, mode, given, logits, rng, autoreset, lists, out) -> int:
        bad = LOOPS.step_all(self.arrays, self.S, self.start, mode, given, logits, rng, autoreset, lists, out)
        if (self.S[:, S_RESULT] == OVERFLOW).any():
            raise QipanError("a game outgrew the kernel's repetition history")
        return bad

    def observe(self, out) -> None:
        LOOPS.observe_all(self.arrays, self.S, out)

    def over(self) -> np.ndarray:
        return self.S[:, S_RESULT] != ONGOING

    def to_move(self) -> np.ndarray:
        return np.where(self.over(), -1, self.S[:, S_TO_MOVE])

    def draws(self) -> np.ndarray:
        return self.S[:, S_RESULT] == DRAW

    def random_steps(self, steps: int, seed: int) -> tuple[int, int]:
        """``steps`` random moves in every game (finished games restart), no masks or planes:
        the benchmark's bare loop. Returns (moves, removals)."""
        rng = np.array([seed_word(seed)], np.uint64)
        made, removed = LOOPS.random_steps(self.arrays, self.S, self.start, rng, steps)
        return int(made), int(removed)
