"""The agent interface and the agent registry.

``agent.choose(state) -> Move`` for a state whose ``to_move`` is a player (drivers resolve
chance nodes). Limits: ``time`` (seconds per move), ``iterations`` and ``depth``; an agent
stops by the first one it reaches. ``seed`` makes it reproducible. ``choose(state, budget)``
with a clock :class:`~qipan.agents.budget.Budget` spends a share of it (``budget.allot``)."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..core.errors import OptionError, QipanError
from ..core.game import Game, State
from ..core.move import Move
from ..core.registry import Option
from . import clock
from .budget import Budget, allot


class Agent:
    name = "agent"
    #: The agent stops near ``soft_time`` and may go on to ``time`` where the position is
    #: critical (its search says when); others are given the target time alone.
    manages_time = False
    #: Time shares cannot set its levels (its search ends early or stops gaining at a fraction
    #: of a second, or a small share leaves it no deeper than level 3's look): levels 4–8 give
    #: it the full time and set the level by lapses into level 3's move alone.
    levels_by_lapses = False
    #: For such an agent: levels 4-7's chance of playing level 3's move instead of its own,
    #: where its strength does not grow evenly with the share of moves it searches (None: the
    #: levels' own ``steady_lapse``).
    steady_lapses: tuple[float, float, float, float] | None = None
    #: Without a time limit its search may run for hours (an exact solve of a large board);
    #: the server gives such a bot its longest think.
    open_ended = False

    def __init__(
        self,
        time: float | None = None,
        iterations: int | None = None,
        depth: int | None = None,
        seed: int | None = None,
    ):
        for label, value in (("time", time), ("iterations", iterations), ("depth", depth)):
            if value is not None and not (math.isfinite(value) and value > 0):
                raise OptionError(f"agent limit {label} must be positive, not {value}")
        self.time = time
        self.iterations = iterations
        self.depth = depth
        self.seed = seed
        self.rng = random.Random(seed)
        #: The time to aim for on this move, when a clock budget set one (see ``time``).
        self.soft_time: float | None = None

    def choose(self, state: State, budget: Budget | None = None) -> Move:
        """The agent's move; with a clock ``budget`` it takes the share the budget allots
        (never more than its own ``time`` limit, when it has one)."""
        if state.outcome is not None:
            raise QipanError("the game is over: there is no move to choose")
        if state.is_chance:
            raise QipanError("a chance node is resolved by the driver, not by an agent")
        if budget is None:
            return self.select(state)
        share = allot(budget, len(state.legal_moves()))
        own = self.time
        target = share.target if own is None else min(share.target, own)
        limit = share.limit if own is None else min(share.limit, max(own, target))
        # Agents read their limit from ``time`` (and ``deadline()``): set it for this move.
        self.time, self.soft_time = (limit, target) if self.manages_time else (target, None)
        try:
            return self.select(state)
        finally:
            self.time, self.soft_time = own, None

    def select(self, state: State) -> Move:
        raise NotImplementedError

    def deadline(self) -> float | None:
        return clock.now() + self.time if self.time is not None else None

    def describe(self) -> str:
        limits = [f"{k}={v}" for k in ("time", "iterations", "depth") if (v := getattr(self, k)) is not None]
        return f"{self.name}({', '.join(limits)})" if limits else self.name


#: The limits every agent takes, with the bounds the CLI, the server and the lobby enforce.
LIMIT_OPTIONS = (
    Option("time", float, None, "seconds per move", minimum=0.001, maximum=3600.0, allow_none=True),
    Option(
        "iterations",
        int,
        None,
        "iterations per move (playouts, candidates or nodes: the agent says which)",
        minimum=1,
        maximum=100_000_000,
        allow_none=True,
    ),
    Option("depth", int, None, "search depth in plies", minimum=1, maximum=64, allow_none=True),
    Option(
        "seed",
        int,
        None,
        "random seed (reproducible play)",
        minimum=-(2**63),
        maximum=2**63 - 1,
        allow_none=True,
    ),
)


@dataclass(frozen=True)
class AgentSpec:
    """A registered agent: what it plays and the typed parameters it takes."""

    name: str
    make: Callable[..., Agent]
    description: str
    #: Game families it plays; None for every game.
    families: tuple[str, ...] | None = None
    #: Narrower than the families where needed (e.g. only the 3x3 Morris boards).
    supports: Callable[[Game], bool] | None = None
    #: Preference among the agents of a family for "the strongest agent" (higher first).
    strength: int = 0
    #: Player counts it plays; None for any.
    players: tuple[int, ...] | None = None
    #: Its own parameters, beyond the limits of ``LIMIT_OPTIONS``.
    options: tuple[Option, ...] = ()
    #: Needs the game's evaluation (``Game.has_evaluation``) to play it.
    needs_evaluation: bool = False
    #: May be picked as "the strongest agent" (``--players ai``, the site's default bot);
    #: False for agents with a costly first use (building tables) that people opt into.
    default_ai: bool = True
    #: Starts programs on this machine (the ``engine`` agent): only local front ends use it,
    #: so ``agents_for`` (what the lobby and the server offer) leaves it out.
    local_only: bool = False

    def plays(self, game: Game, players: int | None = None) -> bool:
        return self.refusal(game, players) is None

    def refusal(self, game: Game, players: int | None = None) -> str | None:
        """Why this agent cannot play ``game`` with ``players`` players, or None."""
        if self.families is not None and game.family not in self.families:
            return f"the {self.name} agent does not play {game.title}"
        if self.supports is not None and not self.supports(game):
            return f"the {self.name} agent does not play {game.title} with these options"
        if self.needs_evaluation and not game.has_evaluation:
            return f"the {self.name} agent needs an evaluation, which {game.title} does not provide"
        if players is not None and self.players is not None and players not in self.players:
            counts = " or ".join(map(str, self.players))
            return f"the {self.name} agent plays games of {counts} players, not {players}"
        return None

    def all_options(self) -> tuple[Option, ...]:
        return LIMIT_OPTIONS + self.options

    def parse(self, raw: dict[str, Any] | None) -> dict[str, Any]:
        """Typed parameters from strings (command line) or JSON values (server, lobby)."""
        known = {o.name: o for o in self.all_options()}
        out = {}
        for key, value in (raw or {}).items():
            if key not in known:
                raise OptionError(
                    f"the {self.name} agent has no parameter {key!r}; its parameters are: {', '.join(known)}"
                )
            coerced = known[key].coerce(value)
            if coerced is not None:
                out[key] = coerced
        return out

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "description": self.description,
            "families": list(self.families) if self.families is not None else None,
            "players": list(self.players) if self.players is not None else None,
            "strength": self.strength,
            "local_only": self.local_only,
            "options": [o.to_dict() for o in self.all_options()],
        }


_AGENTS: dict[str, AgentSpec] = {}


def register_agent(spec: AgentSpec) -> None:
    _AGENTS[spec.name] = spec


def agent_specs() -> list[AgentSpec]:
    from ..core.registry import specs

    specs()  # game packages register their own agents when imported
    return sorted(_AGENTS.values(), key=lambda a: a.name)


def agent_spec(name: str) -> AgentSpec:
    names = {a.name: a for a in agent_specs()}
    if name not in names:
        raise OptionError(f"unknown agent {name!r}; known agents: {', '.join(sorted(names))}")
    return names[name]


def agents_for(game: Game, players: int | None = None) -> list[AgentSpec]:
    """The agents that play ``game`` with ``players`` players and that any front end may
    offer (not the ``local_only`` ones)."""
    return [a for a in agent_specs() if a.plays(game, players) and not a.local_only]


def strongest_agent_name(game: Game, players: int | None = None) -> str:
    """The agent to play ``game`` well: the preferred agent made for its family, else
    alpha-beta where the game provides an evaluation for two players, else MCTS."""
    # Without a count, the game's first (a solo preset's agent is not its duel's).
    count = players if players is not None else game.players[0]
    able = [a for a in agents_for(game, count) if a.default_ai]
    own = [a for a in able if a.families]
    if own:
        return max(own, key=lambda a: a.strength).name
    if count == 2 and game.has_evaluation and any(a.name == "alphabeta" for a in able):
        return "alphabeta"
    return "mcts"


def parse_agent(text: str) -> tuple[str, dict[str, str]]:
    """``"mcts:time=2,exploration=0.5"`` -> ``("mcts", {"time": "2", "exploration": "0.5"})``."""
    name, _, args = text.strip().partition(":")
    params: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in args.split(","))):
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise OptionError(f"bad agent parameter {part!r}: expected key=value, e.g. mcts:time=2")
        params[key.strip().replace("-", "_")] = value.strip()
    return name.strip(), params


def load(name: str, game: Game | None = None, players: int | None = None, **params: Any) -> Agent:
    """An agent by name, its parameters checked and typed:
    ``qipan.agents.load("mcts", time=1.0, seed=7)``. With ``game`` (and ``players``) an
    agent that cannot play it is refused with the names of those that can."""
    spec = agent_spec(name)
    if game is not None:
        why = spec.refusal(game, players)
        if why is not None:
            able = ", ".join(a.name for a in agents_for(game, players))
            raise OptionError(f"{why}; agents that do: {able}")
    return spec.make(**spec.parse(params))
