"""``morris-solver``: perfect play for the Three Men's Morris variants from the exhaustive
solver (wins as fast as possible, loses as slowly as possible)."""

from __future__ import annotations

from ...agents.base import Agent, AgentSpec, register_agent
from ...core.errors import QipanError
from ...core.move import Move
from .solver import DRAW, LOSS, WIN, Solution, solvable_rules, solve


class MorrisSolverAgent(Agent):
    name = "morris-solver"
    _cache: dict = {}

    def _solution(self, state) -> Solution:
        rules = getattr(state, "rules", None)
        if rules is None or rules.board != "three":
            raise QipanError("morris-solver plays only the Three Men's Morris variants")
        key = solvable_rules(rules)
        if key not in self._cache:
            # Values depend only on the position, so one table serves either first player.
            white, black = solve(rules, 0), solve(rules, 1)
            white.value.update(black.value)
            white.depth.update(black.depth)
            self._cache[key] = white
        return self._cache[key]

    def select(self, state) -> Move:
        try:
            scored = self._solution(state).move_values(state)
        except KeyError:
            raise QipanError(
                "this position cannot arise from the start: the solver has no value for it"
            ) from None
        best = max(v for _, v, _ in scored)
        pool = [(m, d) for m, v, d in scored if v == best]
        if best == WIN:
            shortest = min(d for _, d in pool)
            pool = [(m, d) for m, d in pool if d == shortest]
        elif best == LOSS:
            longest = max(d for _, d in pool)
            pool = [(m, d) for m, d in pool if d == longest]
        assert best in (WIN, DRAW, LOSS)
        return self.rng.choice([m for m, _ in pool])


register_agent(
    AgentSpec(
        "morris-solver",
        MorrisSolverAgent,
        "perfect play for Three Men's Morris (exhaustive solver)",
        families=("morris",),
        supports=lambda game: game.rules.board == "three",
        strength=10,
        players=(2,),
    )
)
