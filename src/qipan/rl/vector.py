"""Batched simulation, Pgx style: B games of one preset stepped at once in compiled code,
for games whose action space declares a batched twin (``ActionSpace.batched``):

    env = qipan.rl.vector.VectorEnv("nine-mens-morris", batch=1024)
    env.init(seed=0)
    mask = env.legal_action_mask()          # (B, actions) bool
    obs = env.observe()                     # (B, *planes) float32, for the side to move
    rewards, terminated = env.step(actions) # actions (B,) int; finished games ignore theirs

Indices and planes are those of the game's ``actions.py``; a finished game stays finished
until ``init``. Chance, if a game has any, is the twin's to resolve."""

from __future__ import annotations

from ..core.errors import QipanError
from ..core.refs import load_ref
from ..core.registry import load


class VectorEnv:
    def __init__(self, name: str, batch: int = 1024, **options):
        if batch < 1:
            raise QipanError(f"batch must be at least 1, not {batch}")
        self.game = load(name, **options)
        space = self.game.actions()
        if space is None or space.batched is None:
            raise QipanError(f"{self.game.title} has no batched simulation")
        self.impl = load_ref(space.batched)(self.game, batch)
        self.batch, self.space = batch, space

    def init(self, seed: int = 0) -> None:
        """B new games (game b set up with seed ``seed + b``)."""
        self.impl.init(seed)

    def step(self, actions):
        return self.impl.step(actions)

    def observe(self):
        return self.impl.observe()

    def legal_action_mask(self):
        return self.impl.legal_action_mask()

    def current_player(self):
        return self.impl.current_player()

    def terminated(self):
        return self.impl.terminated()
