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


class MorrisAgent(Agent):
    """The strongest Morris player here, for every preset: on the 3x3 boards the exhaustive
    solver's perfect play; elsewhere perfect play wherever the installed retrograde tables
    hold the position (never building them), the opening book in 9MM placement, and
    otherwise the kernel's PVS search (``search.py``) with an evaluation that knows
    mobility and blockades, reachable and running mills, double threats and placement
    structure; root moves into the tables get their exact values. Without the compiled
    kernels it plays the reference ``alphabeta``. Default limit: 1 s a move."""

    name = "morris"
    _tables_found: dict = {}

    def __init__(self, tables: str | None = None, book: bool = True, **limits):
        super().__init__(**limits)
        if self.time is None and self.depth is None and self.iterations is None:
            self.time = 1.0
        self.directory = tables
        self.use_book = book
        self._searchers: dict = {}
        self.last = None  # how the last move was chosen: "solver", "tables", "book" or "search"

    def select(self, state) -> Move:
        game = state.game
        moves = state.legal_moves()
        if len(moves) == 1:
            self.last = "forced"
            return moves[0]
        if game.rules.board == "three":
            self.last = "solver"
            return MorrisSolverAgent(seed=self.rng.getrandbits(63)).select(state)
        tables = self._installed_tables(game)
        if tables is not None and tables.covers(state):
            values = tables.move_values(state)
            best = values[0].rank()
            self.last = "tables"
            return self.rng.choice([v.move for v in values if v.rank() == best])
        kernel = game.kernel()
        if kernel is None:
            from ...agents.alphabeta import AlphaBetaAgent

            self.last = "reference"
            fallback = AlphaBetaAgent(time=self.time, depth=self.depth, seed=self.rng.getrandbits(63))
            return fallback.select(state)
        if self.use_book:
            from .book import book_move

            move = book_move(state, self.rng)
            if move is not None:
                self.last = "book"
                return move
        return self._search(state, kernel, tables)

    def _search(self, state, kernel, tables) -> Move:
        import math

        from .search import Searcher

        deadline = self.deadline()
        codes = [kernel.code(m) for m in state.legal_moves()]
        self.rng.shuffle(codes)  # the seed decides among equal moves
        fixed = [math.nan] * len(codes)
        if tables is not None:
            fixed = [self._table_value(state, kernel, tables, code) for code in codes]
        searcher = self._searchers.get(kernel.rules)
        if searcher is None:
            searcher = self._searchers[kernel.rules] = Searcher(kernel)
        result = searcher.search(
            state, codes, fixed, depth=self.depth, deadline=deadline, nodes=self.iterations
        )
        self.last = "search"
        self.last_result = result
        return kernel.move(result.code)

    @staticmethod
    def _table_value(state, kernel, tables, code) -> float:
        """The exact value of the root move ``code`` for the mover when its position is in the
        tables (a win or loss after its plies, a draw), NaN otherwise."""
        from .kernel import WIN

        child = state.copy()
        child.play(kernel.move(code))
        if child.outcome is not None or not tables.covers(child):
            return float("nan")  # a finished game is scored by the search itself
        kind, plies = tables.value(child)
        if kind == "draw":
            return 0.0
        plies = (plies or 0) + 1
        return -(WIN - plies) if kind == "win" else WIN - plies

    def _installed_tables(self, game):
        """The largest complete tables of the game's rule set that are installed (in
        ``tables`` or the default places), or None. Never builds any."""
        key = (game.rules, self.directory)
        if key in self._tables_found:
            return self._tables_found[key]
        found = None
        if covered_by_tables(game):
            found = _find_tables(game, self.directory)
        self._tables_found[key] = found
        return found


def _find_tables(game, directory):
    """Complete tables of ``game``'s rule set in ``directory`` or under the tables' home,
    the whole game before the largest endgames; read from the manifests, so no position
    space is made for tables that are not there."""
    import json
    from dataclasses import asdict
    from pathlib import Path

    from .perfect import PerfectTables, tables_home

    wanted = asdict(game.rules) | {"repetition_count": None, "n_move": 0, "max_plies": None}
    if directory is not None:
        places = [Path(directory)]
    else:
        home = tables_home()
        places = sorted(home.glob(f"{game.id}-*")) if home.is_dir() else []
    found = []
    for place in places:
        try:
            space = json.loads((place / "manifest.json").read_text())["space"]
        except (OSError, ValueError, KeyError, TypeError):
            continue  # not a table directory
        if space.get("game") == game.id and space.get("rules") == wanted:
            stones = space.get("max_stones")
            found.append((stones is None, stones or 0, str(place)))
    for _, stones, place in sorted(found, reverse=True):
        tables = PerfectTables(game, place, stones or None)
        if tables.db.complete():
            return tables
    return None
