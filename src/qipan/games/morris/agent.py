"""The Morris agents: ``morris-solver``, perfect play for the Three Men's Morris variants from
the exhaustive solver, and ``morris-perfect``, perfect play from the retrograde tables
(``perfect.py``): both win as fast as possible, lose as slowly as possible, keep a draw."""

from __future__ import annotations

from ...agents import clock
from ...agents.base import Agent
from ...core.errors import QipanError, SearchTimeout
from ...core.move import Move
from .solver import Solution, best_of, solution_for


class MorrisSolverAgent(Agent):
    name = "morris-solver"

    def _solution(self, state) -> Solution:
        rules = getattr(state, "rules", None)
        if rules is None or rules.board != "three":
            raise QipanError("morris-solver plays only the Three Men's Morris variants")
        return solution_for(rules)

    def select(self, state) -> Move:
        try:
            scored = self._solution(state).move_values(state)
        except KeyError:
            raise QipanError(
                "this position cannot arise from the start: the solver has no value for it"
            ) from None
        return self.rng.choice(best_of(scored))


class MorrisPerfectAgent(Agent):
    """Plays from the retrograde tables of the game's rule set: the installed ones (the
    largest found under the tables' home) or, where none are or ``tables``/``stones`` ask for
    others, built on first use (the whole game on the 3x3 and 16-point boards; the endgames
    with at most ``stones`` stones a side on the larger boards). Front ends offer it only
    where tables are installed (``perfect.tables_installed``), so a game never waits for a
    build. Outside the tables it searches (alpha-beta, the agent's
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
        if stones is None and self.directory is None:
            from .perfect import installed_tables

            found = installed_tables(game)  # what the operator built, whatever its size
            if found is not None:
                return found
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


def tables_installed(game) -> bool:
    """Whether complete tables of ``game``'s rule set are installed under the tables' home
    (``morris-perfect`` is offered only then: it never builds them inside a game)."""
    if not covered_by_tables(game):
        return False
    try:
        from .perfect import installed_tables
    except (ImportError, QipanError):  # no NumPy: no tables
        return False
    return installed_tables(game) is not None


def covered_by_tables(game) -> bool:
    """The retrograde tables (``tables.py``) support the game's rule set."""
    from .table_rules import supported

    return supported(game.rules) is None


class MorrisSearching(Agent):
    """What the ``morris`` agent and its fixed reference ``morris-2026`` (``classic.py``)
    share, for every preset: on the 3x3 boards the exhaustive solver's perfect play;
    elsewhere perfect play wherever the installed retrograde tables hold the position (never
    building them), the opening book in 9MM placement, and otherwise the kernel's PVS search
    (``search.py``) of the subclass's ``style``; root moves into the tables get their exact
    values. Without the compiled kernels it plays the reference ``alphabeta``. Default limit:
    1 s a move. The fixed reference's recorded decisions are a test
    (``tests/games/morris/test_morris_reference.py``): a change here that moves them is a
    change of the reference, which must not happen."""

    _tables_found: dict = {}
    #: The kernel search's style (``kernel_search.STYLE_*``; the kernel needs numba: not
    #: imported here).
    style: int

    def style_for(self, rules) -> int:
        """The search style on a rule set: ``style`` wherever it was measured."""
        return self.style

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
            searcher = self._searchers[kernel.rules] = Searcher(kernel, style=self.style_for(kernel.rules))
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
        from .kernel_search import WIN

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
            from .perfect import installed_tables

            found = installed_tables(game, self.directory)
        if found is not None:  # a miss is looked for again: the server may be building them
            self._tables_found[key] = found
        return found


class MorrisAgent(MorrisSearching):
    """The strongest Morris player here: ``MorrisSearching`` with the search's tuned style
    (an evaluation that knows mobility and blockades, reachable and running mills, double
    threats and placement structure, its weights fitted to game results; a contempt that
    grows with the material edge)."""

    name = "morris"
    style = 1  # kernel_search.STYLE_TUNED

    def style_for(self, rules) -> int:
        """The tuned style where its weights were fitted (``evaluation_kernel.fitted_for``),
        elsewhere the 2026 style: the weights of Nine Men's Morris lost on 直棋 (23.5 / 60
        against ``morris-2026``, benchmarks/results/morris.md)."""
        from .evaluation_kernel import fitted_for

        return self.style if fitted_for(rules) else 0  # kernel_search.STYLE_2026
