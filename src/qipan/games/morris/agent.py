"""The Morris agents: ``morris-solver``, perfect play for the Three Men's Morris variants from
the exhaustive solver, and ``morris-perfect``, perfect play from the retrograde tables
(``perfect.py``): both win as fast as possible, lose as slowly as possible, keep a draw."""

from __future__ import annotations

from ...agents import clock
from ...agents.base import Agent
from ...core.errors import QipanError, SearchTimeout
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
    side on the larger boards). Outside the tables it searches (alpha-beta, the agent's
    ``depth`` or ``time``, depth 2 by default), scoring every position the tables hold by its
    exact value and distance and the others by the game's evaluation."""

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
        return self._search(state, tables)

    def _search(self, state, tables) -> Move:
        """Negamax with alpha-beta over the engine's moves: a position the tables hold is
        scored exactly (won or lost after its distance), others at the depth limit by the
        game's evaluation, scaled far below any proven result. Iterative deepening within
        ``time``; without limits, depth 2."""
        deadline = self.deadline()
        max_depth = self.depth or (64 if self.time else 2)
        game = state.game

        def ended(node, mover, ply):
            r = node.outcome.reward(mover)
            return PROVEN - ply if r == 1 else 0.0 if r == 0.5 else -(PROVEN - ply)

        def negamax(node, depth, ply, alpha, beta):
            if deadline is not None and clock.now() > deadline:
                raise SearchTimeout
            if tables.covers(node):
                kind, plies = tables.value(node)
                if kind == "draw":
                    return 0.0
                return PROVEN - ply - plies if kind == "win" else -(PROVEN - ply - plies)
            if depth == 0:
                return SCALE * game.evaluate(node, node.to_move)
            value = -INF
            mover = node.to_move
            for move in game.order_moves(node, node.legal_moves()):
                node.play(move)
                try:
                    if node.outcome is not None:
                        score = ended(node, mover, ply + 1)
                    else:
                        score = -negamax(node, depth - 1, ply + 1, -beta, -alpha)
                finally:
                    node.undo()
                value = max(value, score)
                alpha = max(alpha, score)
                if alpha >= beta:
                    break
            return value

        root = state.copy()
        moves = game.order_moves(root, root.legal_moves())
        best = moves[0]
        for depth in range(1, max_depth + 1):
            scored = []
            try:
                alpha = -INF
                for move in moves:
                    root.play(move)
                    try:
                        if root.outcome is not None:
                            score = ended(root, state.to_move, 1)
                        else:
                            score = -negamax(root, depth - 1, 1, -INF, -alpha)
                    finally:
                        root.undo()
                    scored.append((score, move))
                    alpha = max(alpha, score)
            except SearchTimeout:
                break
            top = max(score for score, _ in scored)
            best = self.rng.choice([m for score, m in scored if score == top])
            moves = [m for _, m in sorted(scored, key=lambda sm: -sm[0])]  # best first next time
            if abs(top) >= PROVEN - 256:
                break  # a proven result: deeper search cannot change it
        return best


#: A proven result (win or loss, less the plies to it) outweighs any evaluation (in [-1, 1]).
PROVEN = 10_000.0
SCALE = 100.0
INF = float("inf")


def covered_by_tables(game) -> bool:
    """The retrograde tables (``tables.py``) support the game's rule set."""
    from .table_rules import supported

    return supported(game.rules) is None
