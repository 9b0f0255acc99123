"""Batched simulation at the kernel's speed, Pgx style: B games of one preset stepped at once
in compiled code, for games whose action space declares a batched twin
(``ActionSpace.batched``: the Morris family and Pente):

    env = qipan.rl.vector.VectorEnv("nine-mens-morris", batch=1024)
    obs, mask = env.reset(seed=0)
    step = env.step(policy="uniform")       # actions drawn inside the kernel
    step = env.step(logits=logits)          # (B, actions) logits: softmax over the legal ones
    step = env.step(actions)                # (B,) action indices
    step.observation, step.action_mask, step.rewards, step.terminated, step.actions

Indices and planes are those of the game's ``actions.py``. The arrays are preallocated and
written in place by compiled loops (no Python per game): a step's arrays are the
environment's own and change at the next step (copy what you keep). The kernel keeps each
game's legal actions itself (Morris: listed at each step; Pente: read off the board, every
empty point being one move), so the observation planes and the (B, actions) mask are
written when first asked for after a step: a loop that lets the kernel choose and never
looks pays for neither (the Morris mask is 1,024 x 15,625). A game that ends
restarts at once (``autoreset=True``, the default): the step that ends it reports its
rewards and ``terminated`` and already shows the new game's observation and mask.
Without autoreset a finished game stays over (mask empty) until ``reset``."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..core.errors import IllegalMove, QipanError
from ..core.refs import load_ref
from ..core.registry import load
from ..fast import GIVEN, LOGITS, UNIFORM, njit, seed_word
from .vector_kernel import MoveLists, StepOut


@njit
def mark_mask(mask, acts, offsets, clear, old_acts, old_offsets):
    """Bring ``mask`` to the packed legal actions: unset the ``old`` ones first (only those
    entries: a Morris row has 15,625), or every entry with ``clear``."""
    if clear:
        mask[:] = False
    else:
        for b in range(mask.shape[0]):
            for i in range(old_offsets[b], old_offsets[b + 1]):
                mask[b, old_acts[i]] = False
    for b in range(mask.shape[0]):
        for i in range(offsets[b], offsets[b + 1]):
            mask[b, acts[i]] = True


class Step(NamedTuple):
    env: VectorEnv
    rewards: np.ndarray  # (B, players) float32: 1 a win, -1 a loss, 0 otherwise and in play
    terminated: np.ndarray  # (B,) bool: the game ended at this step (or is over, without autoreset)
    actions: np.ndarray  # (B,) int64: the action each game played (-1: none, it was over)

    @property
    def observation(self) -> np.ndarray:
        """(B, *planes) float32 for each game's side to move (written when first asked for)."""
        return self.env.observe()

    @property
    def action_mask(self) -> np.ndarray:
        """(B, actions) bool: the legal actions now (written when first asked for)."""
        return self.env.legal_action_mask()


def as_array(x, dtype) -> np.ndarray:
    """A NumPy array of ``x`` (NumPy, a list, or anything with ``__dlpack__``: PyTorch, JAX,
    CuPy on the CPU), without a copy where the type already fits."""
    if not isinstance(x, np.ndarray) and hasattr(x, "__dlpack__"):
        x = np.from_dlpack(x)
    return np.ascontiguousarray(x, dtype=dtype)


class VectorEnv:
    def __init__(self, name: str, batch: int = 1024, autoreset: bool = True, **options):
        if batch < 1:
            raise QipanError(f"batch must be at least 1, not {batch}")
        self.game = load(name, **options)
        space = self.game.actions()
        if space is None or space.batched is None:
            raise QipanError(f"{self.game.title} has no batched simulation")
        self.impl = load_ref(space.batched)(self.game, batch)
        self.batch, self.space, self.autoreset = batch, space, autoreset
        self.players = self.impl.players
        shape = space.observation_shape(self.players)
        # Each game's legal moves (kernel codes) and their action indices, packed one game after
        # the other: small enough to stay in the cache (``vector_kernel.MoveLists``).
        self.lists = MoveLists(
            codes=np.zeros((2, batch * self.impl.width), getattr(self.impl, "code_dtype", np.int64)),
            acts=np.zeros((2, batch * self.impl.width), np.int32),
            offsets=np.zeros((2, batch + 1), np.int64),
            side=np.zeros(1, np.int64),
        )
        self.chosen = np.full(batch, -1, np.int64)
        self.mask = np.zeros((batch, space.size), np.bool_)
        self.obs = np.zeros((batch, *shape), np.float32)
        self.rewards = np.zeros((batch, self.players), np.float32)
        self.ended = np.zeros(batch, np.bool_)
        self.rng = np.array([seed_word(0)], np.uint64)
        self._no_actions = np.zeros(batch, np.int64)
        self._no_logits = np.zeros((1, 1), np.float32)

    def reset(self, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
        """B new games (game b set up with seed ``seed + b``; the kernel's draws seeded with
        ``seed``): (observation, action mask)."""
        self.impl.set_up(seed)
        self.lists.offsets[:] = 0
        self.rng[0] = seed_word(seed)
        self.impl.refresh(self.lists)
        self.steps, self.mask_at, self.obs_at = 0, None, None
        return self.observe(), self.legal_action_mask()

    def step(self, actions=None, *, policy: str | None = None, logits=None) -> Step:
        """One move in every game: ``actions`` (B,) given, ``policy="uniform"`` (uniform among
        the legal actions, drawn in the kernel), or ``logits`` (B, actions): drawn from their
        softmax over the legal actions, in the kernel. Any illegal given action refuses the
        whole step (IllegalMove, nothing played)."""
        if (actions is not None) + (policy is not None) + (logits is not None) != 1:
            raise QipanError("step wants one of: actions, policy='uniform', logits")
        given, scores = self._no_actions, self._no_logits
        if policy is not None:
            if policy != "uniform":
                raise QipanError(f"policy={policy!r}: the kernel draws 'uniform' (or pass logits)")
            mode = UNIFORM
        elif logits is not None:
            mode, scores = LOGITS, as_array(logits, np.float32)
            if scores.shape != (self.batch, self.space.size):
                raise QipanError(f"logits of shape {scores.shape}: expected {(self.batch, self.space.size)}")
        else:
            mode, given = GIVEN, as_array(actions, np.int64)
            if given.shape != (self.batch,):
                raise QipanError(f"step wants {self.batch} actions, not an array of shape {given.shape}")
        out = StepOut(self.rewards, self.ended, self.chosen)
        bad = self.impl.step(mode, given, scores, self.rng, self.autoreset, self.lists, out)
        if bad >= 0:
            raise IllegalMove(
                f"game {bad}: action {int(given[bad])} is not a legal move (nothing was played)"
            )
        self.steps += 1
        return Step(self, self.rewards, self.ended, self.chosen)

    # -- the current games ---------------------------------------------------------------
    def observe(self) -> np.ndarray:
        """(B, *planes) float32 for each game's side to move (the environment's own array)."""
        if self.obs_at != self.steps:
            self.impl.observe(self.obs)
            self.obs_at = self.steps
        return self.obs

    def legal_action_mask(self) -> np.ndarray:
        """(B, actions) bool (the environment's own array). Written when asked for, from the
        legal actions the kernel keeps: a loop that lets the kernel choose (``policy``,
        ``logits``) never pays for the 1,024 x 15,625 Morris mask."""
        if self.mask_at != self.steps and not self.impl.lists_moves:
            self.impl.write_mask(self.mask)  # read off the boards (Pente)
            self.mask_at = self.steps
        elif self.mask_at != self.steps:
            lists = self.lists
            side = int(lists.side[0])
            fresh = self.mask_at is None or self.mask_at != self.steps - 1
            old = 1 - side  # the previous step's side, intact until the next step
            mark_mask(
                self.mask, lists.acts[side], lists.offsets[side], fresh, lists.acts[old], lists.offsets[old]
            )
            self.mask_at = self.steps
        return self.mask

    def current_player(self) -> np.ndarray:
        """(B,) the seat to move, -1 for a finished game."""
        return self.impl.to_move()

    def terminated(self) -> np.ndarray:
        """(B,) which games are over (only without autoreset: the others restart at once)."""
        return self.impl.over()


def check_against_reference(preset: str, batch: int, seed: int, plies: int, **options) -> int:
    """Step ``batch`` seeded random games of ``preset`` with given actions (no autoreset) and
    the reference rules side by side for up to ``plies`` plies, comparing at every ply each
    game's mask, observation, reward and end. Returns the plies compared; raises
    AssertionError at the first difference, naming the game and the ply."""
    import random

    env = VectorEnv(preset, batch=batch, autoreset=False, **options)
    obs, mask = env.reset(seed=seed)
    game = load(preset, **options)
    space = game.actions()
    refs = [game.new(env.players, seed=seed + b) for b in range(batch)]
    rng = random.Random(seed)
    compared = 0
    for ply in range(plies):
        actions = np.zeros(batch, np.int64)
        for b, ref in enumerate(refs):
            where = f"{preset} {options} seed {seed} game {b} ply {ply}"
            assert env.terminated()[b] == ref.is_over, f"{where}: ends differ"
            if ref.is_over:
                assert not mask[b].any(), f"{where}: a finished game has legal actions"
                continue
            legal = space.legal_actions(ref)
            assert np.flatnonzero(mask[b]).tolist() == legal, f"{where}: masks differ"
            expected = np.asarray(space.observe(ref, ref.to_move), np.float32)
            assert np.allclose(obs[b].ravel(), expected), f"{where}: observations differ"
            actions[b] = rng.choice(legal)
            compared += 1
        if all(r.is_over for r in refs):
            break
        step = env.step(actions)
        obs, mask = step.observation, step.action_mask
        for b, ref in enumerate(refs):
            where = f"{preset} {options} seed {seed} game {b} ply {ply}"
            if ref.is_over:
                assert step.actions[b] == -1 and not step.rewards[b].any(), f"{where}: a finished game moved"
                continue
            ref.play(space.move(ref, int(actions[b])))
            expected = [0.0] * ref.num_players
            if ref.outcome is not None and ref.outcome.winners:
                expected = [2 * ref.outcome.reward(p) - 1 for p in range(ref.num_players)]
            assert step.rewards[b].tolist() == expected, f"{where}: rewards differ"
            assert step.terminated[b] == ref.is_over, f"{where}: ends differ"
    return compared


def gym_vector_env(name: str, num_envs: int = 1024, **options):
    """``VectorEnv`` as a Gymnasium ``VectorEnv`` (``qipan.rl.vector.GymVectorEnv``)."""
    return GymVectorEnv(VectorEnv(name, batch=num_envs, **options))


def _gym_vector_base():
    import gymnasium

    return gymnasium.vector.VectorEnv


class GymVectorEnv(_gym_vector_base()):
    """Self-play through Gymnasium's vector API: each of the ``num_envs`` games takes the
    action of its side to move; the reward is the mover's (1 win, -1 loss, 0 otherwise);
    observations are ``{"observation", "action_mask"}`` for the side to move next. Games
    restart in the step that ends them (Gymnasium's same-step autoreset). Only for games
    with a batched kernel; the others keep ``qipan.rl.env`` / ``single_agent``, which
    ``gymnasium.vector.SyncVectorEnv`` can batch step by step."""

    def __init__(self, env: VectorEnv):
        from gymnasium import spaces
        from gymnasium.vector import AutoresetMode
        from gymnasium.vector.utils import batch_space

        self.env, self.num_envs = env, env.batch
        self.metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}
        shape = env.space.observation_shape(env.players)
        self.single_observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, shape, np.float32),
                "action_mask": spaces.Box(0, 1, (env.space.size,), np.int8),
            }
        )
        self.single_action_space = spaces.Discrete(env.space.size)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)

    def _observation(self) -> dict:
        return {"observation": self.env.observe(), "action_mask": self.env.legal_action_mask().view(np.int8)}

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        self.env.reset(seed=0 if seed is None else seed)
        return self._observation(), {}

    def step(self, actions):
        movers = self.env.current_player()
        step = self.env.step(actions)
        mover = np.maximum(movers, 0)
        rewards = step.rewards[np.arange(self.num_envs), mover]
        truncated = np.zeros(self.num_envs, np.bool_)
        return self._observation(), rewards, step.terminated.copy(), truncated, {}

    def action_masks(self) -> np.ndarray:
        """The legal actions as booleans (for MaskablePPO-style learners)."""
        return self.env.legal_action_mask()
