"""Trax as a qipan game: unlimited (Supertrax), 8×8 (Limited Trax) and Loop Trax.

One Move is the free tile of a turn; the forced tiles follow from the rules and are kept
in the undo token, so ``undo`` is exact."""

from __future__ import annotations

import random

from ...core.errors import IllegalMove, NotationError, OptionError
from ...core.game import Game, State
from ...core.move import Move
from ...core.outcome import Outcome
from .board import DELTA, Board, IllegalTurn, pos_of, row_col
from .notation import cell_label, split_move
from .tiles import (
    BITS,
    COLOUR,
    COLOUR_NAMES,
    EMPTY_GLYPH,
    GLYPH,
    NS,
    NW,
    SYMBOL,
    SYMBOL_TILES,
    SYMBOLS,
    WHITE,
    WHITE_MASK,
)

VARIANTS = ("unlimited", "8x8", "loop")
SIMULTANEOUS = ("mover", "draw")
PLAYER_NAMES = ("White", "Red")
LIMIT = 8  # the 8×8 game's maximum width and height
#: The two legal first moves and the tiles they mean by convention (rules §2.7).
FIRST_MOVES = {"@0+": NS, "@0/": NW}


class TraxGame(Game):
    id = "trax"
    title = "Trax"
    family = "trax"
    players = (2,)

    def __init__(self, variant: str = "unlimited", simultaneous: str = "mover", **options):
        super().__init__(variant=variant, simultaneous=simultaneous, **options)
        if variant not in VARIANTS:
            raise OptionError(f"unknown Trax variant {variant!r}; choose one of {', '.join(VARIANTS)}")
        if simultaneous not in SIMULTANEOUS:
            raise OptionError(f"simultaneous={simultaneous!r} is not allowed; choose mover or draw")
        self.variant = variant
        self.simultaneous = simultaneous
        self.limited = variant == "8x8"
        self.lines_win = variant != "loop"
        self.title = {"unlimited": "Trax", "8x8": "8x8 Trax", "loop": "Loop Trax"}[variant]

    def new_state(self, players: int, rng: random.Random) -> TraxState:
        return TraxState(self, players)

    def parse(self, text: str, state: State) -> Move:
        return state.resolve(str(text))

    def position(self, text: str) -> TraxState:
        from .position import read_position

        return read_position(self, text)

    # -- knowledge for the generic alphabeta agent ---------------------------------------
    has_evaluation = True

    def evaluate(self, state: State, player: int) -> float:
        from .threats import evaluate

        return evaluate(state.board, player, state.to_move, self.lines_win)

    def order_moves(self, state: State, moves: list[Move]) -> list[Move]:
        from .threats import order_moves

        return order_moves(state, moves)


class TraxState(State):
    def __init__(self, game: TraxGame, players: int = 2):
        super().__init__(game, players)
        self.board = Board()
        self.to_move: int | None = 0
        self.outcome: Outcome | None = None
        self._stamp = 0
        self._legal_cache: tuple[int, list[Move]] | None = None
        self._trial: tuple[int, list] | None = None

    # -- coordinates ---------------------------------------------------------------------
    def label(self, pos: int) -> str:
        """The cell's name relative to the current tile area (``@``/``0`` = just outside)."""
        board = self.board
        if not board.cells:
            return "@0"
        r, c = row_col(pos)
        return cell_label(c - board.min_c + 1, r - board.min_r + 1)

    def move_for(self, pos: int, tile: int) -> Move:
        cell = self.label(pos)
        text = cell + SYMBOL[tile]
        return Move(text, (cell, text), (pos, tile))

    # -- legality ------------------------------------------------------------------------
    def _locate(self, text: str) -> tuple[int, int]:
        """The (cell, tile) a move text names here, checked for everything but forced plays."""
        col, row, symbol = split_move(text)
        board = self.board
        token = text.strip().upper()
        if not board.cells:
            if token not in FIRST_MOVES:
                raise IllegalMove(f"the first move must be @0+ or @0/, not {token}", token)
            return pos_of(0, 0), FIRST_MOVES[token]
        if row > board.height + 1 or col > board.width + 1:
            raise IllegalMove(f"{token}: the cell has no neighbouring tile", token)
        pos = pos_of(board.min_r - 1 + row, board.min_c - 1 + col)
        if pos in board.cells:
            raise IllegalMove(f"{token}: the cell is occupied", token)
        if pos not in board.frontier:
            raise IllegalMove(f"{token}: the cell has no neighbouring tile", token)
        if self.game.limited:
            height, width = board.area_with(pos)
            if height > LIMIT or width > LIMIT:
                raise IllegalMove(
                    f"{token}: the tile area would grow beyond 8x8 ({width} wide, {height} high)", token
                )
        white, red = board.neighbour_masks(pos)
        occupied = white | red
        for tile in SYMBOL_TILES[symbol]:
            if WHITE_MASK[tile] & occupied == white:
                return pos, tile
        raise IllegalMove(f"{token}: neither {symbol} tile matches the neighbouring colours", token)

    def _try(self, pos: int, tile: int, token: str) -> None:
        """Raise IllegalMove if the turn breaks the illegal-turn rule; change nothing.
        The tiles of a legal turn are remembered, so that playing it does not redo them."""
        try:
            placed = self.board.place(pos, tile)
        except IllegalTurn as exc:
            where = (
                f" (cell {self.label(exc.pos)} of the area before the move)" if exc.pos is not None else ""
            )
            raise IllegalMove(f"{token}: illegal turn: {exc.reason}{where}", token) from None
        self.board.rollback(placed)
        self._trial = (self._stamp, placed)

    def resolve(self, text: str) -> Move:
        """The legal move ``text`` denotes here (lenient about case and spaces)."""
        if not isinstance(text, str) or not text.strip():
            raise NotationError("empty move")
        if self.outcome is not None:
            raise IllegalMove(f"the game is over ({self.outcome.reason})", text)
        pos, tile = self._locate(text)
        move = self.move_for(pos, tile)
        self._try(pos, tile, move.text)
        return move

    def check_legal(self, move: Move) -> None:
        found = self.resolve(move.text)
        if move.data is not None and move.data != found.data:
            raise IllegalMove(f"{move.text} does not denote that tile in this position", move)

    def candidates(self):
        """Every (cell, tile) a free placement could use before the forced-play check."""
        return free_placements(self.board, self.game.limited)

    def is_legal_turn(self, pos: int, tile: int) -> bool:
        try:
            placed = self.board.place(pos, tile)
        except IllegalTurn:
            return False
        self.board.rollback(placed)
        return True

    def legal_moves(self) -> list[Move]:
        if self.outcome is not None:
            return []
        if self._legal_cache is not None and self._legal_cache[0] == self._stamp:
            return list(self._legal_cache[1])
        moves = [self.move_for(p, t) for p, t in legal_placements(self.board, self.game.limited)]
        self._legal_cache = (self._stamp, moves)
        return list(moves)

    def has_legal_move(self) -> bool:
        board = self.board
        if not self.game.limited or board.width < LIMIT or board.height < LIMIT:
            # A tile just outside the area touches one tile, so it fits, and the forced
            # tiles it sets off run along the outside row one by one, each with only two
            # neighbours: such a turn is always legal. Only a full 8x8 area can be stuck.
            return True
        return any(self.is_legal_turn(p, t) for p, t in self.candidates())

    # -- playing -------------------------------------------------------------------------
    def _apply(self, move: Move) -> tuple:
        pos, tile = move.data if move.data is not None else self.resolve(move.text).data
        board = self.board
        before = board.bbox()
        trial = self._trial
        if trial is not None and trial[0] == self._stamp and trial[1][0] == (pos, tile):
            placed = trial[1]
            board.cells.update(placed)
        else:
            placed = board.place(pos, tile)
        self._trial = None
        board.commit(placed)
        token = (placed, before, self.to_move, self.outcome)
        mover = self.to_move
        self.outcome = self._judge(placed, mover)
        self.to_move = None if self.outcome is not None else 1 - mover
        if self.outcome is None and self.game.limited:
            self.outcome = self._limited_draw()
            if self.outcome is not None:
                self.to_move = None
        self._stamp += 1
        return token

    def _revert(self, token: tuple) -> None:
        placed, before, to_move, outcome = token
        self.board.uncommit(placed, before)
        self.to_move, self.outcome = to_move, outcome
        self._stamp += 1

    def _judge(self, placed, mover: int) -> Outcome | None:
        """The win check once per turn (rules §2.3 step 3)."""
        game = self.game
        done = self.board.wins(placed, game.lines_win)
        return outcome_of(done, mover, game.simultaneous)

    def _limited_draw(self) -> Outcome | None:
        if len(self.board.cells) >= LIMIT * LIMIT:
            return Outcome.draw(2, "the 8x8 board is full with no winner")
        if not self.has_legal_move():
            return Outcome.draw(2, f"{PLAYER_NAMES[self.to_move]} has no legal move")
        return None

    # -- views ---------------------------------------------------------------------------
    def key(self):
        board = self.board
        tiles = tuple(
            sorted(
                (r - board.min_r, c - board.min_c, t)
                for (r, c), t in ((row_col(p), t) for p, t in board.cells.items())
            )
        )
        return self.to_move, tiles, self.outcome is not None

    def glyph_rows(self) -> list[str]:
        board = self.board
        if not board.cells:
            return []
        rows = []
        for r in range(board.min_r, board.max_r + 1):
            row = []
            for c in range(board.min_c, board.max_c + 1):
                t = board.cells.get(pos_of(r, c))
                row.append(EMPTY_GLYPH if t is None else GLYPH[t])
            rows.append("".join(row))
        return rows

    def position(self) -> str:
        rows = self.glyph_rows() or [EMPTY_GLYPH]
        return "/".join(rows) + " " + ("W" if self.next_colour() == 0 else "R")

    #: Who was to move when the state was set up (White for a new game).
    first_player = 0

    def next_colour(self) -> int:
        """Whose turn it is, or would be had the game not ended (the last mover's opponent)."""
        if self.to_move is not None:
            return self.to_move
        return (self.first_player + len(self.history)) % 2

    def text(self) -> str:
        from .render import text

        return text(self)

    def svg(self) -> str:
        from .render import svg

        return svg(self)

    def copy(self) -> TraxState:
        other = TraxState.__new__(TraxState)
        other.game = self.game
        other.num_players = self.num_players
        other.history = list(self.history)
        other._undo_stack = list(self._undo_stack)
        other.seed = self.seed
        other.board = self.board.copy()
        other.to_move = self.to_move
        other.outcome = self.outcome
        other._stamp = 0
        other._legal_cache = None
        other._trial = None
        other.first_player = self.first_player
        return other


def free_placements(board: Board, limited: bool):
    """Every (cell, tile) a free placement may use before the forced-play check, in a fixed
    order (cells top to bottom, left to right; symbols + / \\): the cells next to a tile,
    within 8x8 for Limited Trax, with the one tile per symbol that fits the neighbours."""
    if not board.cells:
        yield pos_of(0, 0), NS
        yield pos_of(0, 0), NW
        return
    for pos in sorted(board.frontier):
        if limited:
            height, width = board.area_with(pos)
            if height > LIMIT or width > LIMIT:
                continue
        white, red = board.neighbour_masks(pos)
        occupied = white | red
        for symbol in SYMBOLS:
            for tile in SYMBOL_TILES[symbol]:
                if WHITE_MASK[tile] & occupied == white:
                    yield pos, tile
                    break


def legal_placements(board: Board, limited: bool) -> list[tuple[int, int]]:
    """The free placements whose whole turn is legal. A placement that gives no empty
    neighbour two same-coloured edges forces nothing and is legal as it stands; only the
    others need the forced plays tried."""
    cells = board.cells
    masks: dict[int, tuple[int, int]] = {}
    legal = []
    for pos, tile in free_placements(board, limited):
        colour = COLOUR[tile]
        quiet = True
        for d in range(4):
            q = pos + DELTA[d]
            if q in cells:
                continue
            wr = masks.get(q)
            if wr is None:
                wr = masks[q] = board.neighbour_masks(q)
            white, red = wr
            if colour[d] == WHITE:
                white |= 1 << (d ^ 2)
            else:
                red |= 1 << (d ^ 2)
            if BITS[white] >= 2 or BITS[red] >= 2:
                quiet = False
                break
        if quiet:
            legal.append((pos, tile))
            continue
        try:
            placed = board.place(pos, tile)
        except IllegalTurn:
            continue
        board.rollback(placed)
        legal.append((pos, tile))
    return legal


def outcome_of(done: tuple[list[str], list[str]], mover: int, simultaneous: str = "mover") -> Outcome | None:
    """The result of a turn from what each colour completed (White = player 0)."""
    mine, theirs = done[mover], done[1 - mover]
    if not mine and not theirs:
        return None
    if mine and theirs and simultaneous == "draw":
        return Outcome.draw(2, "both colours completed a loop or line")
    winner = mover if mine else 1 - mover
    what = " and ".join(done[winner])
    reason = f"{COLOUR_NAMES[winner]} {what}"
    if mine and theirs:
        reason += f" ({COLOUR_NAMES[1 - mover]} too: the mover wins)"
    elif winner != mover:
        reason += f" completed by {PLAYER_NAMES[mover]}"
    return Outcome.win((winner,), 2, reason)


__all__ = ["TraxGame", "TraxState", "VARIANTS", "free_placements", "legal_placements", "outcome_of"]
