"""The Black Path Game: one path, three tiles, the free end decides where the next tile goes.

Variants (rules file §1.3, §1.4): ``seed`` (forced cross in the top-left cell, goal in the
bottom-right cell) and ``ww`` (Winning Ways: free first tile, no goal). ``start_arm``
chooses whether the path enters the top-left cell from the left (horizontal) or the top."""

from __future__ import annotations

import random

from ...core import IllegalMove, Move, NotationError, Outcome, State
from ...core.game import Game
from .board import (
    BORDER,
    CROSS,
    EMPTY,
    GOAL,
    OPEN,
    PAIR,
    SYMBOLS,
    TILE_OF_SYMBOL,
    N,
    W,
    cell_name,
    follow,
    neighbours,
)

SEED, WW = "seed", "ww"


class BlackPathGame(Game):
    id = "blackpath"
    title = "The Black Path Game"
    family = "blackpath"
    action_space = "qipan.games.blackpath.actions:BlackPathActions"
    players = (2,)
    #: The memoised exhaustive search plays every position perfectly (given the time).
    solved_by = ("blackpath-solver",)
    #: The same search gives the analysis page a position's exact value (small boards in time).
    perfect_value = "qipan.games.blackpath.solver:probe"

    def __init__(
        self,
        rows: int = 8,
        cols: int = 8,
        variant: str = SEED,
        start_arm: str = "horizontal",
        no_voluntary_exit: bool = False,
        **kw,
    ):
        options = dict(rows=rows, cols=cols, variant=variant, start_arm=start_arm)
        if no_voluntary_exit:  # only when set, so the default game's options stay as they were
            options["no_voluntary_exit"] = True
        super().__init__(**options, **kw)
        if variant not in (SEED, WW):
            raise ValueError(f"unknown variant {variant!r}")
        self.rows, self.cols, self.variant = rows, cols, variant
        #: The seed's rule 6 read as "only forced out" (rules §1.3): a tile into the border is
        #: refused while a safe one exists. The values do not change (running out loses
        #: anyway), only which moves are offered.
        self.no_voluntary_exit = no_voluntary_exit
        self.start_side = W if start_arm == "horizontal" else N
        self.goal = rows * cols - 1 if variant == SEED else -1
        self.neigh = neighbours(rows, cols)
        # The three moves of every cell, made once: the text is the tile symbol, the path
        # names the (forced) cell and then the tile, for click-to-play front-ends.
        self.cell_moves = [
            tuple(Move(SYMBOLS[t], (cell_name(cell, cols), SYMBOLS[t]), t) for t in (1, 2, 3))
            for cell in range(rows * cols)
        ]

    def new_state(self, players: int, rng: random.Random) -> BlackPathState:
        return BlackPathState(self, players)

    def parse(self, text: str, state: State) -> Move:
        return parse_move(state, text)

    def position(self, text: str) -> BlackPathState:
        from .position import read_position

        return read_position(self, text)

    has_evaluation = True

    def evaluate(self, state: State, player: int) -> float:
        """Safe replies count: a mover with fewer tiles that stay on the board is worse off."""
        if state.outcome is not None:
            return 2 * state.outcome.reward(player) - 1
        safe = len(state.safe_tiles())
        value = (safe - 2) / 3
        return value if state.to_move == player else -value

    def order_moves(self, state: State, moves: list[Move]) -> list[Move]:
        """Tiles that reach the goal first, then those that stay on the board, border last."""
        rank = {GOAL: 0, OPEN: 1, BORDER: 2}
        return sorted(moves, key=lambda m: rank[state.where(m.data)])


class BlackPathState(State):
    game: BlackPathGame

    def __init__(self, game: BlackPathGame, players: int = 2):
        super().__init__(game, players)
        self.tiles = [EMPTY] * (game.rows * game.cols)
        #: The free end: the empty cell the path enters next and the side it enters by.
        self.end_cell = 0
        self.end_side = game.start_side
        self.to_move = 0
        self.outcome = None
        self.filled = 0

    # -- rules ---------------------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        if self.outcome is not None:
            return []
        moves = self.game.cell_moves[self.end_cell]
        if self.game.variant == SEED and self.filled == 0:
            return [moves[0]]  # move 1 is the compulsory cross
        if self.game.no_voluntary_exit:
            # Never empty: a position with no safe tile is over already (forced out).
            return [m for m in moves if self.where(m.data) != BORDER]
        return list(moves)

    def check_legal(self, move: Move) -> None:
        if move not in self.legal_moves():
            if self.game.variant == SEED and self.filled == 0:
                raise IllegalMove("move 1 must be the cross + in the top-left cell", move)
            if move in self.game.cell_moves[self.end_cell]:
                raise IllegalMove(
                    f"{move} would run the path into the border while a tile that stays on the board "
                    "exists (no_voluntary_exit)",
                    move,
                )
            raise IllegalMove(f"{move} is not a tile (+, / or \\)", move)

    def where(self, tile: int) -> str:
        """What the path reaches if ``tile`` goes on the free end: open, border or goal."""
        return self._reach(tile)[0]

    def _reach(self, tile: int):
        g = self.game
        self.tiles[self.end_cell] = tile
        try:
            return follow(self.tiles, g.neigh, g.goal, self.end_cell, PAIR[tile][self.end_side])
        finally:
            self.tiles[self.end_cell] = EMPTY

    def safe_tiles(self) -> list[int]:
        """Tiles for the free end that do not send the path into the border."""
        return [t for t in (1, 2, 3) if self.where(t) != BORDER]

    def _apply(self, move: Move):
        tile = TILE_OF_SYMBOL[move.text]
        cell, mover = self.end_cell, self.to_move
        token = (cell, self.end_side, mover)
        kind, nxt, entry, _ = self._reach(tile)
        self.tiles[cell] = tile
        self.filled += 1
        name = cell_name(cell, self.game.cols)
        if kind in (GOAL, BORDER):
            # Every tile lies on the one path, so the path that decided the game is the tiles.
            path = [cell_name(c, self.game.cols) for c, t in enumerate(self.tiles) if t != EMPTY]
            winner, end = (mover, "reaches the goal") if kind == GOAL else (1 - mover, "runs into the border")
            self.outcome = Outcome.win((winner,), 2, f"the path from {name} {end}", path)
            self.to_move = None
        else:
            self.end_cell, self.end_side = nxt, entry
            self.to_move = 1 - mover
            if not self.safe_tiles():
                where = cell_name(nxt, self.game.cols)
                self.outcome = Outcome.win(
                    (mover,),
                    2,
                    f"player {2 - mover} is forced out: every tile at {where} runs into the border",
                )
                self.to_move = None
        return token

    def _revert(self, token) -> None:
        cell, side, mover = token
        self.tiles[cell] = EMPTY
        self.filled -= 1
        self.end_cell, self.end_side = cell, side
        self.to_move = mover
        self.outcome = None

    # -- views ---------------------------------------------------------------------------
    def key(self):
        return (bytes(self.tiles), self.to_move)

    def path(self) -> list[tuple[int, int, int]]:
        """The path as (cell, entry side, exit side) segments from the start to the free end."""
        g = self.game
        if self.tiles[0] == EMPTY:
            return []
        first = (0, g.start_side, PAIR[self.tiles[0]][g.start_side])
        return [first, *follow(self.tiles, g.neigh, g.goal, 0, first[2])[3]]

    def text(self) -> str:
        from .render import text

        return text(self)

    def svg(self) -> str:
        from .render import svg

        return svg(self)

    def position(self) -> str:
        from .position import write_position

        return write_position(self)

    def _copy_parts(self, new: BlackPathState) -> None:
        new.tiles = list(self.tiles)


__all__ = ["BlackPathGame", "BlackPathState", "CROSS", "NotationError", "SEED", "WW"]


# The notation reads States but imports only board.py (and rules.py only for type hints),
# so it is imported last, once: parsing is on the path of every played text.
from .notation import parse_move  # noqa: E402
