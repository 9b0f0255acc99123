"""A PettingZoo AEC environment for any registered game, built on the game's declared
action space (``Game.actions()``).

Agents are ``player_0`` … ``player_{n-1}`` (the game's player indices). Observations are
``{"observation": planes (float32), "action_mask": int8 over the actions}``; the mask is
zero for an agent that is not to move. Chance nodes never reach an agent: the
environment resolves them with its own generator, seeded by ``reset(seed=...)``. Rewards
come only at the end: ``2 · outcome.reward(player) - 1`` (1 a win, -1 a loss, 0 a draw
between two). ``max_plies`` truncates long games."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..core.errors import QipanError
from ..core.game import Game, State, sample_chance
from ..core.move import Move
from ..core.registry import load


class QipanAECEnv(AECEnv):
    metadata = {"render_modes": ["ansi", "human"], "name": "qipan", "is_parallelizable": False}

    @classmethod
    def of(
        cls, name: str, players: int | None = None, max_plies: int | None = None, render_mode=None, **options
    ):
        return cls(load(name, **options), players=players, max_plies=max_plies, render_mode=render_mode)

    def __init__(
        self, game: Game, players: int | None = None, max_plies: int | None = None, render_mode=None
    ):
        super().__init__()
        space = game.actions()
        if space is None:
            raise QipanError(f"{game.title} declares no action space")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise QipanError(f"render_mode={render_mode!r}: expected one of {self.metadata['render_modes']}")
        self.game, self.space = game, space
        self.num_players = game.players[0] if players is None else players
        if self.num_players not in game.players:
            allowed = ", ".join(map(str, game.players))
            raise QipanError(f"{game.title} is played by {allowed} players, not {self.num_players}")
        self.max_plies, self.render_mode = max_plies, render_mode
        self.metadata = {**self.metadata, "name": f"qipan_{game.preset}"}
        self.possible_agents = [f"player_{p}" for p in range(self.num_players)]
        self.agent_index = {a: p for p, a in enumerate(self.possible_agents)}
        self.shape = space.observation_shape(self.num_players)
        observation = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, self.shape, np.float32),
                "action_mask": spaces.Box(0, 1, (space.size,), np.int8),
            }
        )
        self.observation_spaces = {a: observation for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(space.size) for a in self.possible_agents}
        self.state: State | None = None

    def observation_space(self, agent: str):
        return self.observation_spaces[agent]

    def action_space(self, agent: str):
        return self.action_spaces[agent]

    # -- the episode ---------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self.rng = random.Random(seed)
        self.state = self.game.new(self.num_players, seed=self.rng.getrandbits(63))
        self._resolve_chance()
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self._selected()

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.play_move(self.space.move(self.state, int(action)))

    def play_move(self, move: Move) -> None:
        """Play a legal move of the agent to move (also one outside the action window, as an
        opponent agent may choose), resolve chance, and hand out the rewards."""
        agent = self.agent_selection
        self._cumulative_rewards[agent] = 0.0
        self.state.play(move)
        self._resolve_chance()
        self._clear_rewards()
        state = self.state
        if state.outcome is not None:
            for a, p in self.agent_index.items():
                self.rewards[a] = 2.0 * state.outcome.reward(p) - 1.0
                self.terminations[a] = True
        elif self.max_plies is not None and state.ply >= self.max_plies:
            self.truncations = {a: True for a in self.agents}
        self.agent_selection = self._selected(after=agent)
        self._accumulate_rewards()

    def _resolve_chance(self) -> None:
        while self.state.is_chance:
            self.state.play(sample_chance(self.state, self.rng))

    def _selected(self, after: str | None = None) -> str:
        to_move = self.state.to_move
        if to_move is not None and to_move >= 0 and not any(self.truncations.values()):
            return self.possible_agents[to_move]
        # Over: every agent steps once more (None) to leave, in seat order after the last mover.
        start = 0 if after is None else self.agent_index[after] + 1
        return self.possible_agents[start % self.num_players]

    # -- what an agent sees --------------------------------------------------------------
    def legal_actions(self, agent: str | None = None) -> list[int]:
        agent = self.agent_selection if agent is None else agent
        if self.state.to_move != self.agent_index[agent]:
            return []
        return self.space.legal_actions(self.state)

    def observe(self, agent: str) -> dict[str, Any]:
        p = self.agent_index[agent]
        seen = self.state.view(p) if self.game.hides_information else self.state
        obs = np.asarray(self.space.observe(seen, p), dtype=np.float32).reshape(self.shape)
        mask = np.zeros(self.space.size, dtype=np.int8)
        if not (self.terminations[agent] or self.truncations[agent]):
            mask[self.legal_actions(agent)] = 1
        return {"observation": obs, "action_mask": mask}

    def render(self):
        """The board as text: returned with ``render_mode="ansi"``, printed with ``"human"``."""
        if self.render_mode is None or self.state is None:
            return None
        if self.render_mode == "human":
            print(self.state.text())
            return None
        return self.state.text()

    def close(self) -> None:
        pass
