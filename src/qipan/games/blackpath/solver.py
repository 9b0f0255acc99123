"""Perfect play for the Black Path Game by exhaustive search with memoisation.

    solve(rows, cols, variant="seed", start_arm="horizontal", deadline=None)
        -> (winner, first_move)

``winner`` is the index (0 = player 1, 1 = player 2) of the player with a forced win;
``first_move`` is a winning first move for player 1 in notation with its cell (``"a1+"``,
accepted by ``game.parse``), or None when player 2 wins. Any board from 1x1 is accepted
(the engine itself starts at 2x2); the seed variant needs at least two cells.

``Solver(...).best_move(state)`` answers the same question for any position of a game.
A position is keyed by its tiles alone (2 bits per cell): the free end and the player to
move follow from them. ``deadline`` (a ``time.perf_counter()`` value, or one of the solver's
``clock``) stops a search that runs too long with ``qipan.core.errors.SearchTimeout``; only
finished results are memoised."""

from __future__ import annotations

import time

from ...core.errors import SearchTimeout
from .board import CROSS, EMPTY, PAIR, N, W, cell_name, neighbours


class Solver:
    def __init__(self, rows: int, cols: int, variant: str = "seed", start_arm: str = "horizontal"):
        if rows < 1 or cols < 1:
            raise ValueError("a board has at least one row and one column")
        if variant not in ("seed", "ww"):
            raise ValueError(f"unknown variant {variant!r}")
        if variant == "seed" and rows * cols < 2:
            raise ValueError("the seed variant needs a start cell and a goal cell")
        self.rows, self.cols, self.variant = rows, cols, variant
        self.start_side = W if start_arm == "horizontal" else N
        self.goal = rows * cols - 1 if variant == "seed" else -1
        self.neigh = neighbours(rows, cols)
        self.tiles = [EMPTY] * (rows * cols)
        self.memo: dict[int, bool] = {}
        self.nodes = 0
        self.deadline: float | None = None
        #: What ``deadline`` is measured on: wall seconds, or an agent's clock (CPU seconds in
        #: a match on a busy machine, so that the solver gets the time its budget says).
        self.clock = time.perf_counter

    # -- the search --------------------------------------------------------------------
    def _place(self, cell: int, entry: int, tile: int):
        """Put ``tile`` on the free end; return ("goal"|"border"|"open", next cell, its entry side).
        The tile stays on the board; the caller clears it."""
        tiles, neigh, goal = self.tiles, self.neigh, self.goal
        tiles[cell] = tile
        exit_side = PAIR[tile][entry]
        cur = cell
        while True:
            nxt = neigh[cur][exit_side]
            if nxt < 0:
                return "border", -1, -1
            if nxt == goal:
                return "goal", nxt, -1
            entry_side = (exit_side + 2) & 3
            t = tiles[nxt]
            if t == EMPTY:
                return "open", nxt, entry_side
            exit_side = PAIR[t][entry_side]
            cur = nxt

    def mover_wins(self, cell: int, entry: int, key: int) -> bool:
        """True if the player about to fill ``cell`` (entered through ``entry``) can force a win.
        ``key`` encodes the current tiles."""
        known = self.memo.get(key)
        if known is not None:
            return known
        self.nodes += 1
        if self.deadline is not None and self.nodes & 4095 == 0 and self.clock() > self.deadline:
            raise SearchTimeout
        tiles = self.tiles
        children = []
        for tile in (1, 2, 3):
            kind, nxt, side = self._place(cell, entry, tile)
            if kind == "goal":
                tiles[cell] = EMPTY
                self.memo[key] = True
                return True
            if kind == "open":
                children.append((tile, nxt, side))
        tiles[cell] = EMPTY
        result = False
        for tile, nxt, side in children:
            tiles[cell] = tile
            try:
                opponent_wins = self.mover_wins(nxt, side, key | tile << (2 * cell))
            finally:
                tiles[cell] = EMPTY
            if not opponent_wins:
                result = True
                break
        self.memo[key] = result
        return result

    def tile_value(self, cell: int, entry: int, key: int, tile: int) -> bool:
        """True if placing ``tile`` on the free end wins for the player placing it."""
        kind, nxt, side = self._place(cell, entry, tile)
        try:
            if kind != "open":
                return kind == "goal"
            return not self.mover_wins(nxt, side, key | tile << (2 * cell))
        finally:
            self.tiles[cell] = EMPTY

    # -- positions of the engine -------------------------------------------------------
    def _load(self, tiles) -> int:
        self.tiles = list(tiles)
        key = 0
        for cell, t in enumerate(self.tiles):
            key |= t << (2 * cell)
        return key

    def winning_tiles(self, state) -> list[int]:
        """Every tile that wins for the player to move in an engine state (empty if lost)."""
        key = self._load(state.tiles)
        allowed = [m.data for m in state.legal_moves()]
        return [t for t in allowed if self.tile_value(state.end_cell, state.end_side, key, t)]

    def best_move(self, state):
        """A winning move of ``state`` if there is one, else None."""
        wins = self.winning_tiles(state)
        if not wins:
            return None
        return state.game.cell_moves[state.end_cell][wins[0] - 1]

    def solve(self) -> tuple[int, str | None]:
        """(winner, winning first move of player 1 or None) from the start of the game."""
        key = self._load([EMPTY] * (self.rows * self.cols))
        first_tiles = (CROSS,) if self.variant == "seed" else (1, 2, 3)
        for tile in first_tiles:
            if self.tile_value(0, self.start_side, key, tile):
                return 0, cell_name(0, self.cols) + "+/\\"[tile - 1]
        return 1, None


def mover_wins_by_plain_search(state) -> bool:
    """True if the player to move in ``state`` can force a win, by plain search through the
    game's own rules (no memo, no shortcuts): the reference the solver is checked and
    timed against (tests, ``benchmarks/blackpath_solver.py``). Small boards only."""
    mover = state.to_move
    for move in state.legal_moves():
        state.play(move)
        try:
            if state.outcome is not None:
                won = mover in state.outcome.winners
            else:
                won = not mover_wins_by_plain_search(state)
        finally:
            state.undo()
        if won:
            return True
    return False


def solve(rows: int, cols: int, variant: str = "seed", start_arm: str = "horizontal", deadline=None):
    """(winner index, winning first move like ``"a1+"`` or None). See the module docstring."""
    solver = Solver(rows, cols, variant, start_arm)
    solver.deadline = deadline
    return solver.solve()


def probe(state, deadline=None) -> dict:
    """The exact value of ``state`` for the player to move (the game's ``perfect_value``,
    shown by the analysis page): the memoised search, stopped at ``deadline``
    (``time.perf_counter()``) with QipanError when the board is too large for the time."""
    from ...core.errors import QipanError

    if state.outcome is not None:
        raise QipanError("the game is over")
    game = state.game
    solver = Solver(game.rows, game.cols, game.variant, game.options.get("start_arm", "horizontal"))
    solver.deadline = deadline
    try:
        wins = solver.winning_tiles(state)
    except SearchTimeout:
        raise QipanError(
            f"the {game.rows}x{game.cols} board is too large to solve in the time given"
        ) from None
    moves = game.cell_moves[state.end_cell]
    return {
        "value": "win" if wins else "loss",
        "plies": None,
        "best": [moves[t - 1].text for t in wins],
        "source": "exhaustive search",
    }
