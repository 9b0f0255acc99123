"""Batched Morris (``qipan.rl.vector``): B games at once over the compiled kernel's arrays
(``kernel.py``), with the action indices and observation planes of ``actions.py``. The
loops over the batch run compiled; one row of ``S`` is one kernel state.

Compiled without Numba's disk cache on purpose: these functions call the kernel's, and the
cache only notices changes to a function's own file (see ``kernel.py``)."""

from __future__ import annotations

from ...core.errors import QipanError
from ...fast import check_given, njit_uncached, np, pick_legal, rand_below, seed_word
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


@njit_uncached
def observe_all(S, out, n, stones):
    for b in range(S.shape[0]):
        observe_game(S[b], out[b], n, stones)


@njit_uncached
def refresh(pt, lines, par, s, b, n, removals, stones, buffers, pos):
    """Game ``b``'s legal moves and their action indices, packed from ``pos`` in the next side
    of ``buffers`` (see ``qipan.rl.vector``), after a move or a reset. Returns the
    next free position."""
    codes, acts, offsets, side = buffers
    nxt = 1 - side[0]
    k = legal_moves(pt, lines, par, s, codes[nxt, pos:])
    for i in range(pos, pos + k):
        acts[nxt, i] = action_of(codes[nxt, i], n, removals)
    offsets[nxt, b] = pos
    offsets[nxt, b + 1] = pos + k
    return pos + k


@njit_uncached
def refresh_all(pt, lines, par, S, n, removals, stones, buffers):
    pos = 0
    for b in range(S.shape[0]):
        pos = refresh(pt, lines, par, S[b], b, n, removals, stones, buffers, pos)
    buffers[3][0] = 1 - buffers[3][0]


@njit_uncached
def step_all(
    pt, lines, par, S, start, n, removals, stones, mode, given, logits, rng, autoreset, buffers, out
):
    """One move in every unfinished game, chosen as ``mode`` says (``fast.pick_legal``); a game
    that ends restarts from ``start`` with ``autoreset``. ``out`` = (rewards, ended, chosen).
    Returns the first game whose given action is not legal (-1 if none): then nothing was
    played."""
    codes, acts, offsets, side = buffers
    rewards, ended, chosen = out
    cur = side[0]
    bad = check_given(mode, given, acts[cur], offsets[cur])
    if bad >= 0:
        return bad
    pos = 0
    for b in range(S.shape[0]):
        rewards[b, :] = 0.0
        first = offsets[cur, b]
        k = offsets[cur, b + 1] - first
        s = S[b]
        ended[b] = k == 0
        chosen[b] = -1
        if k:
            i = first + pick_legal(mode, acts[cur, first:], k, given, logits, b, rng)
            chosen[b] = acts[cur, i]
            play(pt, par, s, codes[cur, i])
            r = s[S_RESULT]
            if r != ONGOING:
                ended[b] = True
                if r == 0 or r == 1:
                    rewards[b, r] = 1.0
                    rewards[b, 1 - r] = -1.0
                if autoreset and r != OVERFLOW:
                    s[:] = start
        pos = refresh(pt, lines, par, s, b, n, removals, stones, buffers, pos)
    side[0] = 1 - cur
    return -1


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

    def set_up(self, seed: int) -> None:
        """Game b from ``game.new(seed=seed + b)``."""
        for b in range(self.batch):
            self.S[b] = self.kernel.state(self.game.new(seed=seed + b))

    def refresh(self, buffers) -> None:
        k = self.kernel
        refresh_all(k.pt, k.lines, k.par, self.S, self.n, self.removals, self.stones, buffers)

    def step(self, mode, given, logits, rng, autoreset, buffers, out) -> int:
        k = self.kernel
        bad = step_all(
            k.pt, k.lines, k.par, self.S, self.start, self.n, self.removals, self.stones,
            mode, given, logits, rng, autoreset, buffers, out,
        )  # fmt: skip
        if (self.S[:, S_RESULT] == OVERFLOW).any():
            raise QipanError("a game outgrew the kernel's repetition history")
        return bad

    def observe(self, out) -> None:
        observe_all(self.S, out, self.n, self.stones)

    def over(self) -> np.ndarray:
        return self.S[:, S_RESULT] != ONGOING

    def to_move(self) -> np.ndarray:
        return np.where(self.over(), -1, self.S[:, S_TO_MOVE])

    def draws(self) -> np.ndarray:
        return self.S[:, S_RESULT] == DRAW

    def random_steps(self, steps: int, seed: int) -> tuple[int, int]:
        """``steps`` random moves in every game (finished games restart), no masks or planes:
        the benchmark's bare loop. Returns (moves, removals)."""
        k = self.kernel
        rng = np.array([seed_word(seed)], np.uint64)
        made, removed = random_steps(k.pt, k.lines, k.par, self.S, self.start, rng, steps)
        return int(made), int(removed)
