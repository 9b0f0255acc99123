"""The agent interface and the agent registry.

``agent.choose(state) -> Move`` for a state whose ``to_move`` is a player (drivers resolve
chance nodes). Limits: ``time`` (seconds per move), ``iterations`` and ``depth``; an agent
stops by the first one it reaches. ``seed`` makes it reproducible."""

from __future__ import annotations

import random
import time as _time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..core.errors import OptionError, QipanError
from ..core.game import Game, State
from ..core.move import Move


class Agent:
    name = "agent"

    def __init__(
        self,
        time: float | None = None,
        iterations: int | None = None,
        depth: int | None = None,
        seed: int | None = None,
    ):
        for label, value in (("time", time), ("iterations", iterations), ("depth", depth)):
            if value is not None and value <= 0:
                raise OptionError(f"agent limit {label} must be positive, not {value}")
        self.time = time
        self.iterations = iterations
        self.depth = depth
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, state: State) -> Move:
        if state.outcome is not None:
            raise QipanError("the game is over: there is no move to choose")
        if state.is_chance:
            raise QipanError("a chance node is resolved by the driver, not by an agent")
        return self.select(state)

    def select(self, state: State) -> Move:
        raise NotImplementedError

    def deadline(self) -> float | None:
        return _time.perf_counter() + self.time if self.time is not None else None

    def describe(self) -> str:
        limits = [f"{k}={v}" for k in ("time", "iterations", "depth") if (v := getattr(self, k)) is not None]
        return f"{self.name}({', '.join(limits)})" if limits else self.name


@dataclass(frozen=True)
class AgentSpec:
    name: str
    make: Callable[..., Agent]
    description: str
    #: Game families it plays; None for every game.
    families: tuple[str, ...] | None = None
    #: Narrower than the families where needed (e.g. only the 3x3 Morris boards).
    supports: Callable[[Game], bool] | None = None
    #: Preference among the agents of a family for "the strongest agent" (higher first).
    strength: int = 0

    def plays(self, game: Game) -> bool:
        if self.families is not None and game.family not in self.families:
            return False
        return self.supports is None or self.supports(game)


_AGENTS: dict[str, AgentSpec] = {}


def register_agent(spec: AgentSpec) -> None:
    _AGENTS[spec.name] = spec


def agent_specs() -> list[AgentSpec]:
    from ..core.registry import specs

    specs()  # game packages register their own agents when imported
    return sorted(_AGENTS.values(), key=lambda a: a.name)


def strongest_agent_name(game: Game) -> str:
    """The agent to play ``game`` well: the preferred agent made for its family, else
    alpha-beta where the game provides an evaluation for two players, else MCTS."""
    own = [a for a in agent_specs() if a.families and a.plays(game)]
    if own:
        return max(own, key=lambda a: a.strength).name
    if game.players == (2,) and type(game).evaluate is not Game.evaluate:
        return "alphabeta"
    return "mcts"


def load(name: str, **limits: Any) -> Agent:
    """An agent by name: ``qipan.agents.load("mcts", time=1.0, seed=7)``."""
    names = {a.name: a for a in agent_specs()}
    if name not in names:
        raise OptionError(f"unknown agent {name!r}; known agents: {', '.join(sorted(names))}")
    try:
        return names[name].make(**limits)
    except TypeError as exc:
        raise OptionError(f"bad limits for agent {name!r}: {exc}") from exc
