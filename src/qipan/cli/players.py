"""Parse ``--players human,mcts:time=2`` into seats: None for a human, else an Agent."""

from __future__ import annotations

from ..agents import Agent
from ..agents import load as load_agent
from ..core.errors import OptionError


def parse_player(
    text: str, default_time: float | None, seed: int | None, strongest: str = "mcts"
) -> Agent | None:
    """``human``, an agent name, or ``ai`` (the strongest agent for the game), with
    optional limits: ``mcts:time=2``, ``alphabeta:depth=5``."""
    name, _, args = text.strip().partition(":")
    if name in ("human", "h", ""):
        return None
    if name == "ai":
        name = strongest
    limits: dict = {}
    for part in filter(None, args.split(",")):
        key, eq, value = part.partition("=")
        if not eq:
            raise OptionError(f"bad agent limit {part!r}: expected key=value, e.g. mcts:time=2")
        try:
            limits[key.strip()] = float(value) if key.strip() == "time" else int(value)
        except ValueError:
            raise OptionError(f"bad agent limit {part!r}: {value!r} is not a number") from None
    if not limits and default_time is not None:
        limits["time"] = default_time
    limits.setdefault("seed", seed)
    return load_agent(name, **limits)


def parse_players(
    text: str | None, count: int, default_time: float | None, seed: int | None, strongest: str = "mcts"
) -> list[Agent | None]:
    names = [p for p in (text or "").split(",") if p.strip()] or ["human"] + ["ai"] * (count - 1)
    if len(names) != count:
        raise OptionError(f"--players names {len(names)} seats but the game has {count} players")
    return [
        parse_player(n, default_time, None if seed is None else seed + i, strongest)
        for i, n in enumerate(names)
    ]
