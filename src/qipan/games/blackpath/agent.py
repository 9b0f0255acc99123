"""Black Path players: the Winning Ways domino strategy, and the strongest player: the
exact solver where it finishes in time, Monte Carlo tree search with safe playouts before."""

from __future__ import annotations

from ...agents import clock
from ...agents.base import Agent
from ...agents.mcts import MCTSAgent
from ...core import Move
from ...core.errors import OptionError, SearchTimeout
from .board import EMPTY, GOAL, OPEN, PAIR, follow, tile_joining
from .solver import Solver

#: Share of a move's time the exact solver gets before the tree search takes over (the
#: solver's memo keeps what it finished, so later moves finish sooner).
SOLVER_SHARE = 0.3
#: Playouts of the tree search in a lost position when no time is given.
UNTIMED_PLAYOUTS = 2000
#: What plays before the solver finishes in time.
MIDGAMES = ("search", "domino")


def domino_partners(rows: int, cols: int) -> list[int]:
    """partner[cell] in a domino tiling of the board (Winning Ways vol. 2, pp. 682-683).

    Even boards are tiled completely; an odd x odd board is tiled without the top-left
    start cell (partner -1), which is what the second player's strategy needs."""
    partner = [-1] * (rows * cols)

    def pair(a: int, b: int) -> None:
        partner[a], partner[b] = b, a

    if cols % 2 == 0:
        for r in range(rows):
            for c in range(0, cols, 2):
                pair(r * cols + c, r * cols + c + 1)
    elif rows % 2 == 0:
        for c in range(cols):
            for r in range(0, rows, 2):
                pair(r * cols + c, (r + 1) * cols + c)
    else:
        for c in range(1, cols, 2):  # the top row after the start cell, in pairs
            pair(c, c + 1)
        for c in range(cols):  # the other rows (an even number) in vertical pairs
            for r in range(1, rows, 2):
                pair(r * cols + c, (r + 1) * cols + c)
    return partner


def on_board(state, moves: list[Move]) -> list[Move]:
    """The moves whose tile keeps the path on the board; all of them where none does."""
    safe = state.safe_tiles()
    return [m for m in moves if m.data in safe] or moves


def domino_move(state) -> Move | None:
    """The strategist's move: link the entry side to the side of the free end's domino
    partner, when that partner is empty. None when the invariant does not hold."""
    g = state.game
    partners = domino_partners(g.rows, g.cols)
    cell = state.end_cell
    partner = partners[cell]
    if partner < 0 or partner == g.goal or state.tiles[partner] != EMPTY:
        return None
    side = g.neigh[cell].index(partner)
    move = g.cell_moves[cell][tile_joining(state.end_side, side) - 1]
    return move if move in state.legal_moves() else None


class DominoAgent(Agent):
    """Plays the domino-tiling strategy; where it does not apply (the wrong side of the
    parity, the seed variant's goal), a winning tile or else a tile that stays on the board."""

    name = "blackpath-domino"

    def select(self, state) -> Move:
        moves = state.legal_moves()
        if len(moves) == 1:
            return moves[0]
        for move in moves:
            if state.where(move.data) == GOAL:
                return move
        move = domino_move(state)
        if move is not None:
            return move
        return self.rng.choice(on_board(state, moves))


def safe_playout(tiles: list[int], neigh, goal: int, cell: int, entry: int, mover: int, rng) -> int:
    """The winner when the game is played on from the free end (``cell``, entered by side
    ``entry``, ``mover`` to play) by players who take the goal when they can, else draw a
    random tile that stays on the board, and go out only when every tile does. ``tiles``
    is changed."""
    while True:
        options = []
        for tile in (1, 2, 3):
            tiles[cell] = tile
            kind, nxt, nxt_entry, _ = follow(tiles, neigh, goal, cell, PAIR[tile][entry])
            if kind == GOAL:
                return mover
            if kind == OPEN:
                options.append((tile, nxt, nxt_entry))
        if not options:
            return 1 - mover  # forced out
        tiles[cell], cell, entry = rng.choice(options)
        mover = 1 - mover


class SafePlayoutSearch(MCTSAgent):
    """UCT whose playouts never leave the board by choice: uniformly random playouts end
    in a few plies with a tile into the border and say little about a position. (Black Path
    has no compiled kernel, whose own search would bypass these playouts.)"""

    name = "blackpath-mcts"

    def _playout(self, state) -> list[float]:
        if state.outcome is not None:
            return [state.outcome.reward(p) for p in range(2)]
        g = state.game
        winner = safe_playout(
            list(state.tiles), g.neigh, g.goal, state.end_cell, state.end_side, state.to_move, self.rng
        )
        return [1.0 if p == winner else 0.0 for p in range(2)]


class SolverAgent(Agent):
    """Perfect play from the exhaustive solver. The search is exact; with a ``time`` limit
    the solver gets a share of it (``SOLVER_SHARE``) and, where it cannot finish, Monte
    Carlo tree search with safe playouts plays the rest of the time."""

    name = "blackpath-solver"
    # Between two players who search, the second wins nearly every 8x8 game: a shorter
    # search still plays that seat perfectly (level 8 over 7 by time shares: 20/40, the first
    # seat 0/40), so the levels are set by lapses into level 3's move, which lose the seat.
    levels_by_lapses = True
    # The seat survives most lapses (with 40 % of its moves level 3's, the second player still
    # won 87 of 100 games between levels 5 and 6; with 70 %, about half): the rates stay high.
    steady_lapses = (0.85, 0.7, 0.55, 0.4)
    # Untimed it solves exactly, which takes hours on 8x8 before about ply 20.
    open_ended = True

    def __init__(self, midgame: str = "search", **limits):
        super().__init__(**limits)
        if midgame not in MIDGAMES:
            raise OptionError(f"midgame is one of {', '.join(MIDGAMES)}, not {midgame!r}")
        #: "domino" plays the domino move until the solver finishes in time, as this agent
        #: did before the search (kept to measure the search against).
        self.midgame = midgame
        self._solvers: dict[tuple, Solver] = {}
        self._search = SafePlayoutSearch(seed=self.seed)
        self._domino = DominoAgent(seed=self.seed)
        #: How the last move was chosen: "forced", "solver", "search" or "domino".
        self.last = ""

    def _solver(self, game) -> Solver:
        options = (game.rows, game.cols, game.variant, game.options.get("start_arm", "horizontal"))
        if options not in self._solvers:
            self._solvers[options] = Solver(*options)
        return self._solvers[options]

    def select(self, state) -> Move:
        moves = state.legal_moves()
        if len(moves) == 1:
            self.last = "forced"
            return moves[0]
        solver = self._solver(state.game)
        solver.clock = clock.now  # the agents' clock: CPU seconds in a match that asks for them
        start = clock.now()
        share = SOLVER_SHARE if self.midgame == "search" else 1.0
        solver.deadline = start + share * self.time if self.time is not None else None
        try:
            best, solved = solver.best_move(state), True
        except SearchTimeout:
            best, solved = None, False
        if best is not None:
            self.last = "solver"
            return best
        if self.midgame == "domino":
            if not solved:
                self.last = "domino"
                return self._domino.select(state)
            self.last = "solver"
            return on_board(state, moves)[0]  # lost anyway: stay on the board
        # Not solved in time, or lost against perfect play: the tree search finds the move
        # that leaves an imperfect opponent the most chances to go wrong.
        search = self._search
        if self.time is None:
            search.time, search.iterations = None, UNTIMED_PLAYOUTS
        else:
            search.time, search.iterations = max(self.time - (clock.now() - start), 0.001), None
        self.last = "search"
        return search.select(state)
