"""Drive games between agents: one game, or a match with seats rotated."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from ..core.game import CHANCE, Game, State, resolve_chance
from .base import Agent


def play_game(
    game: Game,
    agents: list[Agent],
    seed: int | None = None,
    players: int | None = None,
    max_plies: int | None = None,
) -> State:
    """Play one game; ``agents[i]`` plays seat i; chance resolved with a seeded RNG."""
    state = game.new(players=players or len(agents), seed=seed)
    rng = random.Random(seed)
    while state.outcome is None and (max_plies is None or state.ply < max_plies):
        if state.to_move == CHANCE:
            resolve_chance(state, rng)
        else:
            state.play(agents[state.to_move].choose(state))
    return state


@dataclass
class MatchResult:
    games: int = 0
    #: Points per agent (win 1, draw 1/2 split among the drawing agents).
    points: list[float] = field(default_factory=list)
    wins: list[int] = field(default_factory=list)
    draws: int = 0
    unfinished: int = 0
    seconds: float = 0.0

    def rate(self, i: int) -> float:
        return self.points[i] / self.games if self.games else 0.0


def run_match(
    game: Game,
    agents: list[Agent],
    games: int,
    seed: int = 0,
    players: int | None = None,
    max_plies: int | None = None,
    progress=None,
) -> MatchResult:
    """``games`` games with the seats rotated each game, so every agent plays every seat."""
    n = players or len(agents)
    result = MatchResult(points=[0.0] * len(agents), wins=[0] * len(agents))
    start = time.perf_counter()
    for g in range(games):
        seating = [(g + i) % len(agents) for i in range(n)]  # seat -> agent index
        state = play_game(game, [agents[a] for a in seating], seed=seed + g, players=n, max_plies=max_plies)
        result.games += 1
        if state.outcome is None:
            result.unfinished += 1
        elif not state.outcome.winners:
            result.draws += 1
            for a in set(seating):
                result.points[a] += 0.5
        else:
            for a in {seating[w] for w in state.outcome.winners}:
                result.points[a] += 1.0
                result.wins[a] += 1
        if progress is not None:
            progress(g + 1, result, state)
    result.seconds = time.perf_counter() - start
    return result
