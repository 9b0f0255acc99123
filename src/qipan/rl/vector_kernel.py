"""One compiled batched step for every game with a batched twin (``qipan.rl.vector``), the
way ``agents/uct_kernel.py`` is one UCT loop: ``vector_loops(game)`` compiles the loops over
a batch ``S`` (one kernel state a row) with a game module's hooks. The module declares
``VectorArrays``, the NamedTuple of its arrays (``G``), and these hooks, each taking the
arguments shown and then, by name, the fields of ``VectorArrays`` it reads (``s``: one game's
kernel state, ``code``: a kernel move):

* ``vec_moves(s, codes, acts, pos, ...)``: write the legal moves of ``s`` (kernel codes) and
  their action indices into ``codes`` and ``acts`` from ``pos``; return how many;
* ``vec_play(s, code, ...)``: play the legal move ``code``;
* ``vec_ongoing(s, ...)``: whether the game in ``s`` goes on;
* ``vec_rewards(s, rewards, b, ...)``: each player's reward for the finished ``s`` into row
  ``b`` of ``rewards`` (zeros on entry: 1 a win, -1 a loss, 0 a draw);
* ``vec_restarts(s, ...)``: whether a finished game may start again (Morris: not when it
  outgrew the kernel's history, which the caller reports);
* ``vec_observe(s, out, ...)``: the observation planes of one game into ``out``;
* ``vec_random_move(s, rng, ...)``: a uniformly random legal move of the unfinished ``s``;
* ``vec_extra_actions(code, ...)``: the actions that move counts besides itself, OpenSpiel's
  way (a Morris removal is one more).

Why the fields by name rather than ``G`` itself, as the UCT hooks take it: taking an array
out of a tuple counts a reference (an atomic add, and its undoing), and per game and step
that cost the Morris step a fifth of its speed. So each loop takes ``G``'s arrays out once,
at its start, and passes each hook the ones it names: the loops are written once below, as
text, and made per game with the hooks' parameter lists filled in. The hooks are small:
declared with ``fast.njit_inline``, they are inlined into the loops. ``play_scored``, for a
game's own loops (Pente's board-read step), takes the fields out of ``G`` at each call and is
called, not inlined (inlined, its arrays are counted at each call: Pente's step measured a
sixth slower; the small hooks measured faster inlined than called).
Each game's legal moves are packed in ``MoveLists``; a step's results go to
``StepOut``. The loops call other files' kernels, so they are compiled in each process
(``fast.njit_uncached``), as the games' batched functions always were."""

from __future__ import annotations

import inspect
import re
import textwrap
from typing import NamedTuple

from ..fast import check_given, njit_uncached, np, pick_legal


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
    play_scored: object  # (G, s, b, code, start, autoreset, rewards, ended)
    observe_all: object  # (G, S, out): every game's planes
    random_steps: object  # (G, S, start, rng, steps) -> (moves, extra actions)


#: What a game's step does after choosing ``code`` for game ``b`` (``s``): play it, and if that
#: ends the game, its rewards, ``ended`` and, with ``autoreset``, a restart from ``start``.
_PLAY = """
@vec_play(s, code)
if not @vec_ongoing(s):
    ended[b] = True
    @vec_rewards(s, rewards, b)
    if autoreset and @vec_restarts(s):
        s[:] = start
"""

_LOOPS = """
def play_scored(G, s, b, code, start, autoreset, rewards, ended):
    PLAY

def refresh_all(G, S, lists):
    FIELDS
    nxt = 1 - lists.side[0]
    codes, acts, offsets = lists.codes[nxt], lists.acts[nxt], lists.offsets
    pos = 0
    for b in range(S.shape[0]):
        k = @vec_moves(S[b], codes, acts, pos)
        offsets[nxt, b] = pos
        offsets[nxt, b + 1] = pos + k
        pos += k
    lists.side[0] = nxt

def step_all(G, S, start, mode, given, logits, rng, autoreset, lists, out):
    FIELDS
    rewards, ended, chosen, offsets = out.rewards, out.ended, out.chosen, lists.offsets
    cur = lists.side[0]
    nxt = 1 - cur
    bad = check_given(mode, given, lists.acts[cur], offsets[cur])
    if bad >= 0:
        return bad
    codes, acts = lists.codes[cur], lists.acts[cur]
    next_codes, next_acts = lists.codes[nxt], lists.acts[nxt]
    pos = 0
    for b in range(S.shape[0]):
        rewards[b, :] = 0.0
        first = offsets[cur, b]
        k = offsets[cur, b + 1] - first
        s = S[b]
        ended[b] = k == 0
        chosen[b] = -1
        if k:
            i = first + pick_legal(mode, acts[first:], k, given, logits, b, rng)
            chosen[b] = acts[i]
            code = codes[i]
            PLAY
        listed = @vec_moves(s, next_codes, next_acts, pos)
        offsets[nxt, b] = pos
        offsets[nxt, b + 1] = pos + listed
        pos += listed
    lists.side[0] = nxt
    return -1

def observe_all(G, S, out):
    FIELDS
    for b in range(S.shape[0]):
        @vec_observe(S[b], out[b])

def random_steps(G, S, start, rng, steps):
    FIELDS
    made = 0
    extra = 0
    for _ in range(steps):
        for b in range(S.shape[0]):
            s = S[b]
            if not @vec_ongoing(s):
                s[:] = start
            code = @vec_random_move(s, rng)
            extra += @vec_extra_actions(code)
            @vec_play(s, code)
            made += 1
    return made, extra
"""


def vector_loops(game) -> VectorLoops:
    """The loops over the hooks of the module ``game`` (see the module's docstring):
    ``refresh_all(G, S, lists)`` lists every game's moves into the next side of ``lists``;
    ``step_all(G, S, start, mode, given, logits, rng, autoreset, lists, out)`` makes one move
    in every unfinished game, chosen as ``mode`` says (``fast.pick_legal``), and returns the
    first game whose given action is not legal (-1 if none: then nothing was played);
    ``observe_all(G, S, out)``; ``random_steps(G, S, start, rng, steps)``, the benchmark's bare
    loop: (moves made, extra actions); and ``play_scored``."""
    fields = game.VectorArrays._fields
    clashes = sorted(set(fields) & set(re.findall(r"\w+", _LOOPS + _PLAY)))
    if clashes:  # a field taken out into a local of the same name as one of the loops'
        raise TypeError(f"{game.__name__}.VectorArrays has fields the loops use as names: {clashes}")

    def hooks_filled(text: str, via: str) -> str:
        """``@vec_x(args)`` as the call of the hook with the fields it names after ``args``
        (``via``: how the fields are reached, ``G.`` or, taken out already, nothing)."""

        def call(match) -> str:
            name, args = match.group(1), match.group(2)
            given = len([a for a in args.split(",") if a.strip()])
            params = list(inspect.signature(getattr(game, name).py_func).parameters)
            named = params[given:]
            unknown = [p for p in named if p not in fields]
            if unknown:
                raise TypeError(f"{game.__name__}.{name} names {unknown}, which VectorArrays lacks")
            return f"game.{name}({', '.join([args, *(via + p for p in named)])})"

        return re.sub(r"@(vec_\w+)\(([^()]*(?:\([^()]*\)[^()]*)*)\)", call, text)

    def indented(block: str, line: str) -> str:
        """``block`` at the indentation of ``line`` (the placeholder's)."""
        pad = line[: len(line) - len(line.lstrip())]
        return textwrap.indent(block.strip(), pad)

    lines = []
    for line in _LOOPS.splitlines():
        if line.strip() == "PLAY":
            lines.append(indented(_PLAY, line))
        elif line.strip() == "FIELDS":
            lines.append(indented("\n".join(f"{f} = G.{f}" for f in fields), line))
        else:
            lines.append(line)
    source = "\n".join(lines)
    play_scored, rest = source.split("\ndef refresh_all", 1)
    source = hooks_filled(play_scored, "G.") + "\ndef refresh_all" + hooks_filled(rest, "")
    namespace = {"game": game, "check_given": check_given, "pick_legal": pick_legal, "np": np}
    exec(compile(source, f"<qipan.rl.vector_kernel: {game.__name__}>", "exec"), namespace)
    compiled = {name: njit_uncached(namespace[name]) for name in VectorLoops._fields if name != "play_scored"}
    return VectorLoops(play_scored=njit_uncached(namespace["play_scored"]), **compiled)
