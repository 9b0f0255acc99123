"""Parse ``--players human,mcts:time=2`` into seats: None for a human, else an Agent."""

from __future__ import annotations

from ..agents import Agent, parse_agent, strongest_agent_name
from ..agents import load as load_agent
from ..agents.engine import allow_programs
from ..core.errors import OptionError
from ..core.game import Game

_LIMITS = ("time", "iterations", "depth")


def parse_player(
    text: str,
    game: Game,
    players: int,
    default_time: float | None,
    seed: int | None,
    level: int | None = None,
) -> Agent | None:
    """``human``, an agent name, or ``ai`` (the strongest agent for the game; with ``level``
    that level of play, 1-8), with optional parameters: ``mcts:time=2``,
    ``alphabeta:depth=5``, ``level:level=3``. An agent that cannot play ``game`` is refused
    with the names of those that can."""
    name, params = parse_agent(text)
    if name in ("human", "h", ""):
        return None
    if name == "ai" and level is not None:
        name = "level"
        params.setdefault("level", str(level))
    elif name == "ai":
        name = strongest_agent_name(game, players)
    allow_programs()  # a local command line may run engine programs (a server may not)
    if default_time is not None and not any(k in params for k in _LIMITS):
        params["time"] = default_time
    params.setdefault("seed", seed)
    return load_agent(name, game=game, players=players, **params)


def parse_players(
    text: str | None,
    game: Game,
    count: int | None,
    default_time: float | None,
    seed: int | None,
    level: int | None = None,
) -> list[Agent | None]:
    """One seat per comma-separated entry (``count`` of them, if given; else as many as
    ``text`` names, or the game's default player count against the strongest agent, or
    against ``level`` 1-8 where given: every ``ai`` seat plays that level)."""
    # An agent's parameters are separated by commas too: "mcts:time=2,exploration=1,human".
    seats: list[str] = []
    for part in (p.strip() for p in (text or "").split(",")):
        if "=" in part and ":" not in part and seats:
            seats[-1] += "," + part
        elif part:
            seats.append(part)
    if count is None:
        count = len(seats) or game.players[0]
    if not seats:
        seats = ["human"] + ["ai"] * (count - 1)
    if count not in game.players:
        allowed = ", ".join(map(str, game.players))
        raise OptionError(f"{game.title} is played by {allowed} players, not {count}")
    if len(seats) != count:
        raise OptionError(f"--players names {len(seats)} seats but the game has {count} players")
    return [
        parse_player(s, game, count, default_time, None if seed is None else seed + i, level)
        for i, s in enumerate(seats)
    ]
