"""A Gymnasium single-agent environment: the learner plays one seat of a qipan AEC
environment and qipan agents play the others (``qipan.rl.single_agent``).

Observations and actions are the AEC environment's (planes + action mask, Discrete); the
reward is the learner's, given when the game ends. An opponent's move outside the action
window (an unbounded board) is still played: the opponents choose Moves, not indices.
An action outside the mask is refused the way Gymnasium's learners and checker expect a
step to answer (``illegal="lose"``, the default): nothing is played, the episode ends
(terminated) with reward -1 and ``info["illegal"] = True``, as in Pgx; ``illegal="raise"``
raises IllegalMove instead (the position unchanged), to catch a learner that should have
used the mask."""

from __future__ import annotations

import random
from typing import Any

import gymnasium

from ..agents import Agent, load, parse_agent
from ..core.errors import IllegalMove, QipanError
from .aec import QipanAECEnv


def _agent(spec: Any, env: QipanAECEnv) -> Agent:
    if isinstance(spec, Agent):
        return spec
    name, params = parse_agent(str(spec))
    return load(name, game=env.game, players=env.num_players, **params)


class SingleAgentEnv(gymnasium.Env):
    metadata = {"render_modes": ["ansi", "human"]}

    def __init__(self, aec: QipanAECEnv, opponent: Any = "random", seat: int = 0, illegal: str = "lose"):
        if illegal not in ("raise", "lose"):
            raise QipanError(f"illegal={illegal!r}: expected raise or lose")
        self.illegal, self.lost = illegal, False
        if not 0 <= seat < aec.num_players:
            raise QipanError(f"seat {seat} is not one of the {aec.num_players} seats")
        self.aec, self.seat = aec, seat
        self.learner = aec.possible_agents[seat]
        others = [p for p in range(aec.num_players) if p != seat]
        specs = list(opponent) if isinstance(opponent, list | tuple) else [opponent] * len(others)
        if len(specs) != len(others):
            raise QipanError(f"{len(others)} opponents needed, {len(specs)} given")
        self.opponents = {p: _agent(s, aec) for p, s in zip(others, specs, strict=True)}
        self.observation_space = aec.observation_space(self.learner)
        self.action_space = aec.action_space(self.learner)
        self.render_mode = aec.render_mode

    def _opponents_play(self) -> None:
        aec = self.aec
        while (
            aec.state.outcome is None and aec.state.to_move != self.seat and not any(aec.truncations.values())
        ):
            agent = self.opponents[aec.state.to_move]
            aec.play_move(agent.choose(aec.state))

    def _result(self):
        aec = self.aec
        obs = aec.observe(self.learner)
        terminated = aec.terminations[self.learner]
        truncated = aec.truncations[self.learner]
        return obs, aec._cumulative_rewards[self.learner], terminated, truncated

    def reset(self, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        self.aec.reset(seed=seed)
        self.lost = False
        # Seeded opponents replay the same episode for the same seed.
        rng = random.Random(seed)
        for agent in self.opponents.values():
            agent.rng = random.Random(rng.getrandbits(63))
        self._opponents_play()
        obs, _, _, _ = self._result()
        return obs, {}

    def step(self, action):
        aec = self.aec
        if self.lost or aec.terminations[self.learner] or aec.truncations[self.learner]:
            raise QipanError("the episode is over: call reset()")
        try:
            aec.step(action)
        except IllegalMove:
            if self.illegal == "raise":
                raise
            self.lost = True
            return aec.observe(self.learner), -1.0, True, False, {"illegal": True}
        self._opponents_play()
        obs, reward, terminated, truncated = self._result()
        return obs, reward, terminated, truncated, {}

    def action_masks(self):
        """The legal actions as booleans (the name sb3-contrib's MaskablePPO looks for)."""
        return self.aec.observe(self.learner)["action_mask"].astype(bool)

    def render(self):
        return self.aec.render()
