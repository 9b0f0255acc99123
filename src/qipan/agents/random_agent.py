"""Uniformly random legal moves: the baseline and the playout policy."""

from __future__ import annotations

from ..core.game import State
from ..core.move import Move
from .base import Agent


class RandomAgent(Agent):
    name = "random"

    def select(self, state: State) -> Move:
        return self.rng.choice(state.legal_moves())
