"""One compiled batched step for every game with a batched twin (``qipan.rl.vector``), the
way ``agents/uct_kernel.py`` is one UCT loop: ``vector_loops(game)`` compiles the loops over
a batch ``S`` (one kernel state a row) with a game module's hooks (``G``: the game's arrays
in one NamedTuple, ``s``: one game's kernel state, ``code``: a kernel move):

* ``vec_moves(G, s, codes, acts, pos)``: write the legal moves of ``s`` (kernel codes) and
  their action indices into ``codes`` and ``acts`` from ``pos``; return how many;
* ``vec_play(G, s, code)``: play the legal move ``code``;
* ``vec_ongoing(s)``: whether the game in ``s`` goes on;
* ``vec_rewards(G, s, reward)``: each player's reward for the finished ``s`` into ``reward``
  (zeros on entry: 1 a win, -1 a loss, 0 a draw);
* ``vec_restarts(G, s)``: whether a finished game may start again (Morris: not when it
  outgrew the kernel's history, which the caller reports);
* ``vec_observe(G, s, out)``: the observation planes of one game into ``out``;
* ``vec_random_move(G, s, rng)``: a uniformly random legal move of the unfinished ``s``;
  ``vec_extra_actions(G, code)``: the actions that move counts besides itself, OpenSpiel's
  way (a Morris removal is one more).

The hooks are small: declared with ``fast.njit_inline``, they are inlined into the loops
(and ``play_scored`` into a game's own loops that call it, as Pente's board-read step).
Each game's legal moves are packed in ``MoveLists`` (the module's docstring of
``qipan.rl.vector``); a step's results go to ``StepOut``."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from ..fast import check_given, njit_guarded, njit_inline, np, pick_legal


class MoveLists(NamedTuple):
    """Each game's legal moves, packed game after game (game b's at ``offsets[side, b]`` to
    ``offsets[side, b + 1]``). Two sides: a step reads one and writes the other, then they
    swap (``side[0]``: the one to read)."""

    codes: np.ndarray  # (2, B * width): kernel codes
    acts: np.ndarray  # (2, B * width): their action indices
    offsets: np.ndarray  # (2, B + 1)
    side: np.ndarray  # (1,)


class StepOut(NamedTuple):
    """What a step reports per game."""

    rewards: np.ndarray  # (B, players): 1 a win, -1 a loss, 0 otherwise and in play
    ended: np.ndarray  # (B,) bool: the game ended at this step (or is over)
    chosen: np.ndarray  # (B,) the action played, -1 none


class VectorLoops(NamedTuple):
    """The compiled loops of one game (``vector_loops``)."""

    refresh_all: object  # (G, S, lists): every game's legal moves into the next side
    step_all: object  # (G, S, start, mode, given, logits, rng, autoreset, lists, out) -> bad game
    play_scored: object  # (G, s, b, code, start, autoreset, out): one move, its end scored (inlined)
    observe_all: object  # (G, S, out): every game's planes
    random_steps: object  # (G, S, start, rng, steps) -> (moves, extra actions)


def vector_loops(game, also=()) -> VectorLoops:
    """The loops over the hooks of the module ``game`` (see the module's docstring). They
    compile with the game's code, so their disk cache has its own files per game and is
    emptied when this file, the game's module, ``fast.py`` or the files ``also`` (the game
    files whose compiled functions the hooks call) change (``fast.njit_guarded``)."""

    @njit_inline
    def play_scored(G, s, b, code, start, autoreset, out):
        """Play ``code`` in game ``b``; if that ends it, its rewards and ``ended``, and a
        restart from ``start`` with ``autoreset``."""
        game.vec_play(G, s, code)
        if not game.vec_ongoing(s):
            out.ended[b] = True
            game.vec_rewards(G, s, out.rewards[b])
            if autoreset and game.vec_restarts(G, s):
                s[:] = start

    @njit_inline
    def refresh(G, s, b, lists, pos):
        """Game ``b``'s legal moves packed from ``pos`` in the next side of ``lists``; the
        next free position."""
        nxt = 1 - lists.side[0]
        k = game.vec_moves(G, s, lists.codes[nxt], lists.acts[nxt], pos)
        lists.offsets[nxt, b] = pos
        lists.offsets[nxt, b + 1] = pos + k
        return pos + k

    def refresh_all(G, S, lists):
        pos = 0
        for b in range(S.shape[0]):
            pos = refresh(G, S[b], b, lists, pos)
        lists.side[0] = 1 - lists.side[0]

    def step_all(G, S, start, mode, given, logits, rng, autoreset, lists, out):
        """One move in every unfinished game, chosen as ``mode`` says (``fast.pick_legal``);
        a game that ends restarts from ``start`` with ``autoreset``. Returns the first game
        whose given action is not legal (-1 if none): then nothing was played."""
        codes, acts, offsets = lists.codes, lists.acts, lists.offsets
        cur = lists.side[0]
        bad = check_given(mode, given, acts[cur], offsets[cur])
        if bad >= 0:
            return bad
        pos = 0
        for b in range(S.shape[0]):
            out.rewards[b, :] = 0.0
            first = offsets[cur, b]
            k = offsets[cur, b + 1] - first
            s = S[b]
            out.ended[b] = k == 0
            out.chosen[b] = -1
            if k:
                i = first + pick_legal(mode, acts[cur, first:], k, given, logits, b, rng)
                out.chosen[b] = acts[cur, i]
                play_scored(G, s, b, codes[cur, i], start, autoreset, out)
            pos = refresh(G, s, b, lists, pos)
        lists.side[0] = 1 - cur
        return -1

    def observe_all(G, S, out):
        for b in range(S.shape[0]):
            game.vec_observe(G, S[b], out[b])

    def random_steps(G, S, start, rng, steps):
        """``steps`` rounds of one uniformly random legal move in every game, a finished game
        starting again from ``start``, no masks or planes: the benchmark's bare loop.
        Returns the moves made and the extra actions they count."""
        made = 0
        extra = 0
        for _ in range(steps):
            for b in range(S.shape[0]):
                s = S[b]
                if not game.vec_ongoing(s):
                    s[:] = start
                code = game.vec_random_move(G, s, rng)
                extra += game.vec_extra_actions(G, code)
                game.vec_play(G, s, code)
                made += 1
        return made, extra

    here = Path(__file__)
    sources = [here, Path(game.__file__), here.parent.parent / "fast.py", *map(Path, also)]
    compiled = {}
    for fn in (refresh_all, step_all, observe_all, random_steps):
        fn.__qualname__ = f"{fn.__name__}.{game.__name__}"  # its own cache files per game
        compiled[fn.__name__] = njit_guarded(fn, sources)
    return VectorLoops(play_scored=play_scored, **compiled)
