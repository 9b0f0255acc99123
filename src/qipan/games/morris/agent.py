"""The Morris agents: ``morris-solver``, perfect play for the Three Men's Morris variants from
the exhaustive solver, and ``morris-perfect``, perfect play from the retrograde tables
(``perfect.py``): both win as fast as possible, lose as slowly as possible, keep a draw."""

from __future__ import annotations

from ...agents.base import Agent
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


class MorrisPerfectAgent(Agent):
    """Plays from the retrograde tables of the game's rule set, built on first use (the
    whole game on the 3x3 and 16-point boards; the endgames with at most ``stones`` stones a
    side on the larger boards). Outside the tables it takes a move into them that wins,
    else searches (alpha-beta on the game's evaluation, the agent's limits) among the moves
    that do not enter a lost table position."""

    name = "morris-perfect"
    _open: dict = {}

    def __init__(self, tables: str | None = None, stones: int | None = None, **limits):
        super().__init__(**limits)
        self.directory = tables
        self.stones = stones

    def _tables(self, game):
        from .perfect import PerfectTables
        from .table_rules import whole_game_tabled

        stones = self.stones
        if stones is None and not whole_game_tabled(game.rules):
            stones = 3
        key = (game.rules, self.directory, stones)
        tables = self._open.get(key)
        if tables is None:
            tables = PerfectTables(game, self.directory, stones)
            tables.ensure()
            self._open[key] = tables
        return tables

    def select(self, state) -> Move:
        tables = self._tables(state.game)
        if tables.covers(state):
            values = tables.move_values(state)
            best = values[0].rank()
            return self.rng.choice([v.move for v in values if v.rank() == best])
        known, unknown = [], []
        for move in state.legal_moves():
            child = state.copy()
            child.play(move)
            if child.outcome is not None and child.outcome.reward(state.to_move) == 1:
                return move
            (known if tables.covers(child) else unknown).append((move, child))
        scored = [(tables.value(child), move) for move, child in known]
        wins = [(plies, move) for (kind, plies), move in scored if kind == "loss"]
        if wins:
            return min(wins, key=lambda w: w[0])[1]
        safe = [move for (kind, _), move in scored if kind == "draw"] + [m for m, _ in unknown]
        if not safe:  # every move enters a lost position: lose as slowly as possible
            return max(scored, key=lambda s: s[0][1])[1]
        if len(safe) == 1:
            return safe[0]
        from ...agents.alphabeta import AlphaBetaAgent

        limits = {"time": self.time, "depth": self.depth or (None if self.time else 3), "seed": self.seed}
        choice = AlphaBetaAgent(**limits).choose(state)
        return choice if choice in safe else self.rng.choice(safe)


def covered_by_tables(game) -> bool:
    """The retrograde tables (``tables.py``) support the game's rule set."""
    from .table_rules import supported

    return supported(game.rules) is None
