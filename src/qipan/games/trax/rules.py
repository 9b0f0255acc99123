"""Trax as a qipan game: unlimited (Supertrax), 8×8 (Limited Trax) and Loop Trax.

One Move is the free tile of a turn; the forced tiles follow from the rules and are kept
in the undo token, so ``undo`` is exact.

``Board`` is the tile set with the rules that act on it: placement, forced plays (rules
§2.3), the illegal-turn check and win detection. It is rules, not board data, so it lives
here; the agent's search runs on a private ``Board`` without a State. Every operation is
local: a turn only looks at the cells around the tiles it places, and the win check
follows only the tracks through those tiles (a new loop or line must run through a new
tile, because the game ends at the first one)."""

from __future__ import annotations

import random

from ...core.errors import IllegalMove, OptionError
from ...core.game import Game, State
from ...core.move import Move
from ...core.outcome import Outcome
from .board import (
    BITS,
    COLOUR,
    COLOUR_NAMES,
    DELTA,
    LIMIT,
    LINE_SPAN,
    NS,
    NW,
    OTHER_END,
    PLAYER_NAMES,
    RED,
    STRIDE,
    SYMBOL,
    SYMBOL_TILES,
    SYMBOLS,
    TRACK,
    WHITE,
    WHITE_MASK,
    cell_label,
    pos_of,
    row_col,
    tile_joining,
)

VARIANTS = ("unlimited", "8x8", "loop")
SIMULTANEOUS = ("mover", "draw")
#: What makes a line (docs/games/trax.md): ``edges`` (official) -- its ends on the W and E
#: (or N and S) edges of the outermost columns (rows) of the whole tile area, at least 8
#: wide; ``span`` (the seed's rule 8) -- its ends face outward, W and E (N and S), on tiles
#: at least 8 columns (rows) apart counting both, wherever they lie in the area.
LINE_RULES = ("edges", "span")


# The colour (0 white, 1 red) each tile shows on its S, W, N and E side.
_SOUTH = tuple(COLOUR[t][2] for t in range(6))
_WEST = tuple(COLOUR[t][3] for t in range(6))
_NORTH = tuple(COLOUR[t][0] for t in range(6))
_EAST = tuple(COLOUR[t][1] for t in range(6))
#: The forced tile of a cell whose two white (red) edges are the sides in the mask.
_FORCED_WHITE = {m: tile_joining(WHITE, m) for m in range(16) if BITS[m] == 2}
_FORCED_RED = {m: tile_joining(RED, m) for m in range(16) if BITS[m] == 2}


def _masks(get, q: int) -> tuple[int, int]:
    """Sides of the empty cell ``q`` (bit d for direction d) whose neighbour shows white,
    and red, towards it. Unrolled: this is the innermost loop of every turn."""
    white = red = 0
    t = get(q - STRIDE)  # the neighbour to the north shows its south side
    if t is not None:
        if _SOUTH[t]:
            red = 1
        else:
            white = 1
    t = get(q + 1)
    if t is not None:
        if _WEST[t]:
            red |= 2
        else:
            white |= 2
    t = get(q + STRIDE)
    if t is not None:
        if _NORTH[t]:
            red |= 4
        else:
            white |= 4
    t = get(q - 1)
    if t is not None:
        if _EAST[t]:
            red |= 8
        else:
            white |= 8
    return white, red


class IllegalTurn(Exception):
    """A free tile that breaks the rules; ``reason`` says why."""

    def __init__(self, reason: str, pos: int | None = None, placed: list | None = None):
        super().__init__(reason)
        self.reason = reason
        self.pos = pos
        #: The tiles the forced plays had put when the rule broke (already taken back).
        self.placed = placed or []


class Board:
    """Tiles by cell, the tile area, and the empty cells next to a tile (with how many
    tiles they touch). Mutated only through ``commit``/``rollback``."""

    __slots__ = ("cells", "frontier", "min_r", "max_r", "min_c", "max_c", "line_rule", "refused")

    def __init__(self, line_rule: str = "edges"):
        self.cells: dict[int, int] = {}
        self.frontier: dict[int, int] = {}
        self.min_r = self.max_r = self.min_c = self.max_c = 0
        self.line_rule = line_rule  # one of LINE_RULES
        #: Why the last ``place_if_legal`` returned None (see there).
        self.refused: tuple[int, int, list[tuple[int, int]]] | None = None

    def copy(self) -> Board:
        other = Board.__new__(Board)
        other.line_rule = self.line_rule
        other.refused = None
        other.cells = dict(self.cells)
        other.frontier = dict(self.frontier)
        other.min_r, other.max_r, other.min_c, other.max_c = self.min_r, self.max_r, self.min_c, self.max_c
        return other

    # -- geometry ----------------------------------------------------------------------
    @property
    def width(self) -> int:
        return self.max_c - self.min_c + 1 if self.cells else 0

    @property
    def height(self) -> int:
        return self.max_r - self.min_r + 1 if self.cells else 0

    def bbox(self) -> tuple[int, int, int, int]:
        return self.min_r, self.max_r, self.min_c, self.max_c

    def area_with(self, pos: int) -> tuple[int, int]:
        """(height, width) of the tile area if a tile were put on ``pos``."""
        if not self.cells:
            return 1, 1
        r, c = row_col(pos)
        return max(self.max_r, r) - min(self.min_r, r) + 1, max(self.max_c, c) - min(self.min_c, c) + 1

    # -- one tile ------------------------------------------------------------------------
    def neighbour_masks(self, pos: int) -> tuple[int, int]:
        """Sides of the empty cell ``pos`` whose neighbour shows white, and red, towards it."""
        return _masks(self.cells.get, pos)

    def fits(self, pos: int, tile: int) -> bool:
        """Does ``tile`` match every neighbour's colour on ``pos``?"""
        cells = self.cells
        colour = COLOUR[tile]
        for d in range(4):
            t = cells.get(pos + DELTA[d])
            if t is not None and COLOUR[t][d ^ 2] != colour[d]:
                return False
        return True

    # -- a turn --------------------------------------------------------------------------
    def place(self, pos: int, tile: int) -> list[tuple[int, int]]:
        """Put the free tile and fill every forced cell (rules §2.3). Returns the tiles
        placed, free tile first; the board's cells then hold them (call ``commit`` to
        keep them or ``rollback`` to take them away). Raises IllegalTurn, leaving the
        board unchanged, if a space with three same-coloured edges appears."""
        placed = self.place_if_legal(pos, tile)
        if placed is None:
            cell, colour, placed = self.refused
            name = "white" if colour == WHITE else "red"
            raise IllegalTurn(f"the forced plays leave a space with three {name} edges", cell, placed)
        return placed

    def place_if_legal(self, pos: int, tile: int) -> list[tuple[int, int]] | None:
        """The one forced-play engine of the Python rules, for the searches, which try many
        illegal turns: ``place`` with None instead of the exception (the board then left
        as it was, and ``refused`` says why: the cell with three edges of one colour, that
        colour, and the tiles placed until then). The work list is last in, first out, over
        the neighbours N, E, S, W: the kernel's ``place`` keeps the same order."""
        cells = self.cells
        get = cells.get
        cells[pos] = tile
        placed = [(pos, tile)]
        todo = [pos - STRIDE, pos + 1, pos + STRIDE, pos - 1]
        pop, push = todo.pop, todo.extend
        while todo:
            q = pop()
            if q in cells:
                continue
            white, red = _masks(get, q)
            nw, nr = BITS[white], BITS[red]
            if nw < 2 and nr < 2:
                continue
            if nw >= 3 or nr >= 3:
                self.rollback(placed)
                self.refused = (q, WHITE if nw >= 3 else RED, placed)
                return None
            forced = _FORCED_WHITE[white] if nw == 2 else _FORCED_RED[red]
            cells[q] = forced
            placed.append((q, forced))
            push((q - STRIDE, q + 1, q + STRIDE, q - 1))
        return placed

    def rollback(self, placed: list[tuple[int, int]]) -> None:
        """Take back tiles that ``place`` put but that were never committed."""
        cells = self.cells
        for p, _ in placed:
            del cells[p]

    def commit(self, placed: list[tuple[int, int]]) -> None:
        """Keep the tiles of ``place``: update the frontier and the tile area."""
        cells, frontier = self.cells, self.frontier
        first = not frontier and len(cells) == len(placed)
        for p, _ in placed:
            frontier.pop(p, None)
            for dd in DELTA:
                q = p + dd
                if q not in cells:
                    frontier[q] = frontier.get(q, 0) + 1
        # Forced tiles lie inside the area (rules §2.3), so only the free tile can grow it.
        r, c = row_col(placed[0][0])
        if first:
            self.min_r = self.max_r = r
            self.min_c = self.max_c = c
        else:
            self.min_r, self.max_r = min(self.min_r, r), max(self.max_r, r)
            self.min_c, self.max_c = min(self.min_c, c), max(self.max_c, c)

    def uncommit(self, placed: list[tuple[int, int]], bbox: tuple[int, int, int, int]) -> None:
        """Exact inverse of ``place`` + ``commit``."""
        cells, frontier = self.cells, self.frontier
        gone = set()
        for p, _ in placed:
            del cells[p]
            gone.add(p)
        for p in gone:
            for dd in DELTA:
                q = p + dd
                if q not in cells and q not in gone:
                    n = frontier[q] - 1
                    if n:
                        frontier[q] = n
                    else:
                        del frontier[q]
        for p in gone:
            n = sum(1 for dd in DELTA if p + dd in cells)
            if n:
                frontier[p] = n
        self.min_r, self.max_r, self.min_c, self.max_c = bbox

    # -- tracks and wins -----------------------------------------------------------------
    def follow(self, pos: int, side: int, visit=None) -> tuple[int, int] | None:
        """Follow the track leaving tile ``pos`` through ``side`` to its end: the
        (cell, side) where it leaves the tile set, or None if it comes back to ``pos``.
        ``visit(cell)``, if given, is called for every other tile the track passes."""
        cells = self.cells
        p, d = pos, side
        while True:
            q = p + DELTA[d]
            t = cells.get(q)
            if t is None:
                return p, d
            if q == pos:
                return None
            if visit is not None:
                visit(q)
            d = OTHER_END[t][d ^ 2]
            p = q

    def track_ends(self, pos: int, colour: int) -> tuple[tuple[int, int], tuple[int, int]] | None:
        """Both ends of the ``colour`` track through tile ``pos``, or None for a loop."""
        a, b = TRACK[self.cells[pos]][colour]
        end = self.follow(pos, a)
        if end is None:
            return None
        return end, self.follow(pos, b)

    def is_line(self, end1: tuple[int, int], end2: tuple[int, int]) -> bool:
        """Do these track ends make a line: on opposite outermost edges of an area ≥ 8 long
        (``line_rule="edges"``), or facing outward on tiles ≥ 8 apart (``"span"``)?"""
        (p1, d1), (p2, d2) = end1, end2
        r1, c1 = row_col(p1)
        r2, c2 = row_col(p2)
        if d1 > d2:
            (r1, c1, d1), (r2, c2, d2) = (r2, c2, d2), (r1, c1, d1)
        span = self.line_rule == "span"
        if (d1, d2) == (1, 3):  # E and W ends
            if span:
                return c1 - c2 + 1 >= LINE_SPAN  # the E end's tile right of the W end's
            return self.width >= LINE_SPAN and c1 == self.max_c and c2 == self.min_c
        if (d1, d2) == (0, 2):  # N and S ends
            if span:
                return r2 - r1 + 1 >= LINE_SPAN  # the S end's tile below the N end's
            return self.height >= LINE_SPAN and r1 == self.min_r and r2 == self.max_r
        return False

    def wins(self, placed: list[tuple[int, int]], lines: bool = True) -> tuple[list[str], list[str]]:
        """What each colour completed with these new tiles: ``(white, red)`` lists of
        "loop"/"line" (empty when nothing)."""
        found: tuple[list[str], list[str]] = ([], [])
        new = {p for p, _ in placed}
        seen: set[tuple[int, int]] = set()
        cells = self.cells
        for p, _ in placed:
            for colour in (WHITE, RED):
                if (p, colour) in seen:
                    continue
                a, b = TRACK[cells[p]][colour]
                end1 = self._walk(p, a, colour, new, seen)
                if end1 is None:
                    if "loop" not in found[colour]:
                        found[colour].append("loop")
                    continue
                end2 = self._walk(p, b, colour, new, seen)
                if lines and "line" not in found[colour] and self.is_line(end1, end2):
                    found[colour].append("line")
        return found

    def _walk(self, pos, side, colour, new, seen):
        # follow() that also marks the new tiles it passes, so each track is traced once.
        seen.add((pos, colour))

        def mark(q):
            if q in new:
                seen.add((q, colour))

        return self.follow(pos, side, mark)

    def track_cells(self, pos: int, colour: int) -> list[int]:
        """Every tile the ``colour`` track through ``pos`` passes, ``pos`` included."""
        seen = [pos]
        a, b = TRACK[self.cells[pos]][colour]
        if self.follow(pos, a, seen.append) is not None:
            self.follow(pos, b, seen.append)
        return seen

    def winning_track(self, placed: list[tuple[int, int]], colour: int, lines: bool) -> list[int]:
        """The tiles of a loop or line of ``colour`` through the new tiles ``placed`` (what
        ``wins`` found), for the outcome to name; empty if there is none."""
        for p, _ in placed:
            ends = self.track_ends(p, colour)
            if ends is None or (lines and self.is_line(*ends)):
                return self.track_cells(p, colour)
        return []

    def all_wins(self, lines: bool = True) -> tuple[list[str], list[str]]:
        """``wins`` over every tile (for positions set up from text)."""
        return self.wins(sorted(self.cells.items()), lines)

    def load(self, tiles: dict[int, int]) -> None:
        """Replace the whole tile set (for positions set up from text)."""
        self.cells = dict(tiles)
        self.frontier = {}
        for p in self.cells:
            for dd in DELTA:
                q = p + dd
                if q not in self.cells:
                    self.frontier[q] = self.frontier.get(q, 0) + 1
        if self.cells:
            rows, cols = zip(*(row_col(p) for p in self.cells), strict=True)
            self.min_r, self.max_r, self.min_c, self.max_c = min(rows), max(rows), min(cols), max(cols)
        else:
            self.min_r = self.max_r = self.min_c = self.max_c = 0


class TraxGame(Game):
    id = "trax"
    title = "Trax"
    family = "trax"
    action_space = "qipan.games.trax.actions:TraxActions"
    puzzle_finder = "qipan.games.trax.puzzles:FINDER"
    terminal_picture = "qipan.games.trax.terminal:picture"
    players = (2,)

    def __init__(
        self, variant: str = "unlimited", simultaneous: str = "mover", line_rule: str = "edges", **options
    ):
        super().__init__(variant=variant, simultaneous=simultaneous, line_rule=line_rule, **options)
        if variant not in VARIANTS:
            raise OptionError(f"unknown Trax variant {variant!r}; choose one of {', '.join(VARIANTS)}")
        if simultaneous not in SIMULTANEOUS:
            raise OptionError(f"simultaneous={simultaneous!r} is not allowed; choose mover or draw")
        if line_rule not in LINE_RULES:
            raise OptionError(f"line_rule={line_rule!r} is not allowed; choose {' or '.join(LINE_RULES)}")
        self.variant = variant
        self.simultaneous = simultaneous
        self.line_rule = line_rule
        self.limited = variant == "8x8"
        self.lines_win = variant != "loop"
        self.title = {"unlimited": "Trax", "8x8": "8x8 Trax", "loop": "Loop Trax"}[variant]

    def new_state(self, players: int, rng: random.Random) -> TraxState:
        return TraxState(self, players)

    def parse(self, text: str, state: State) -> Move:
        return parse_move(state, text)

    def position(self, text: str) -> TraxState:
        from .position import read_position

        return read_position(self, text)

    # -- knowledge for the generic alphabeta agent ---------------------------------------
    has_evaluation = True

    def evaluate(self, state: State, player: int) -> float:
        from .evaluation import evaluate

        return evaluate(state.board, player, state.to_move, self.lines_win)

    def order_moves(self, state: State, moves: list[Move]) -> list[Move]:
        from .evaluation import order_moves

        return order_moves(state, moves)

    def kernel(self):
        """The compiled twin of these rules (``kernel.py``), every variant and option; None
        without ``qipan[fast]`` or with ``QIPAN_KERNELS=0``."""
        from .kernel import kernel_for

        return kernel_for(self)


class TraxState(State):
    def __init__(self, game: TraxGame, players: int = 2):
        super().__init__(game, players)
        self.board = Board(game.line_rule)
        self.to_move: int | None = 0
        self.outcome: Outcome | None = None
        self._stamp = 0
        self._legal_cache: tuple[int, list[Move]] | None = None
        self._trial: tuple[int, list] | None = None
        #: (cell, tile) -> (legal, cells its forced plays filled), for the placements that
        #: force something: kept from turn to turn where the new tiles change nothing.
        self._verdicts: dict[tuple[int, int], tuple[bool, frozenset]] = {}

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
    def check_turn(self, pos: int, tile: int, token: str) -> None:
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

    def check_legal(self, move: Move) -> None:
        found = parse_move(self, move.text)
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
        placements = legal_placements(self.board, self.game.limited, self._verdicts)
        moves = [self.move_for(p, t) for p, t in placements]
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

    #: Draws of ``random_move`` per frontier cell before it falls back to ``legal_moves``.
    RANDOM_TRIES_PER_CELL = 3

    def random_move(self, rng: random.Random) -> Move:
        """Uniform over ``legal_moves()`` without building them: draw a frontier cell and a
        symbol uniformly; keep the pair if a tile of that symbol fits and the turn is legal
        (checked only around the new tile, and by a trial forced play only when it forces
        something), else draw again. Each legal move is exactly one (cell, symbol) pair, so
        each is equally likely. When the draws keep failing (a nearly full 8x8 area), a draw
        from ``legal_moves()`` finishes the job: uniform too, so the mixture is uniform."""
        board = self.board
        if self.outcome is not None or not board.cells:
            return super().random_move(rng)
        cells = sorted(board.frontier)  # sorted: the same draw after an undo or a copy
        n = len(cells)
        limited = self.game.limited
        for _ in range(self.RANDOM_TRIES_PER_CELL * n):
            k = rng.randrange(3 * n)
            pos = cells[k // 3]
            if limited:
                height, width = board.area_with(pos)
                if height > LIMIT or width > LIMIT:
                    continue
            white, red = board.neighbour_masks(pos)
            tile = fitting_tile(white, red, SYMBOLS[k % 3])
            if tile is None:
                continue
            if not forces_nothing(board, pos, tile):
                try:
                    placed = board.place(pos, tile)
                except IllegalTurn:
                    continue
                board.rollback(placed)
                self._trial = (self._stamp, placed)  # so that playing it does not redo them
            return self.move_for(pos, tile)
        return rng.choice(self.legal_moves())

    # -- playing -------------------------------------------------------------------------
    def _apply(self, move: Move) -> tuple:
        if move.data is None:
            move = parse_move(self, move.text)
        pos, tile = move.data
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
        self._verdicts = forget_near(self._verdicts, [p for p, _ in placed])
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
        self._verdicts = forget_near(self._verdicts, [p for p, _ in placed])
        self.to_move, self.outcome = to_move, outcome
        self._stamp += 1

    def _judge(self, placed, mover: int) -> Outcome | None:
        """The win check once per turn (rules §2.3 step 3)."""
        game = self.game
        done = self.board.wins(placed, game.lines_win)
        outcome = outcome_of(done, mover, game.simultaneous)
        if outcome is not None and outcome.winners:
            track = self.board.winning_track(placed, outcome.winners[0], game.lines_win)
            outcome = outcome.with_cells(self.label(p) for p in track)
        return outcome

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

    def position(self) -> str:
        from .position import write_position

        return write_position(self)

    #: Who was to move when the state was set up (White for a new game).
    first_player = 0

    def next_colour(self) -> int:
        """Whose turn it is, or would be had the game not ended (the last mover's opponent)."""
        if self.to_move is not None:
            return self.to_move
        return (self.first_player + len(self.history)) % 2

    def last_turn(self) -> list[tuple[int, int]]:
        """The tiles the last turn placed, (cell, tile), the chosen one first and then the
        forced ones (what the picture marks); empty before the first move."""
        return list(self._undo_stack[-1][0]) if self._undo_stack else []

    def seat_colours(self) -> list[tuple[str, str]]:
        from .render import COLOURS

        return [(PLAYER_NAMES[p], COLOURS[p]) for p in (WHITE, RED)]

    def text(self) -> str:
        from .render import text

        return text(self)

    def svg(self) -> str:
        from .render import svg

        return svg(self)

    def _copy_parts(self, new: TraxState) -> None:
        new.board = self.board.copy()
        # The caches belong to this state's stamps; the copy starts its own.
        new._stamp = 0
        new._legal_cache = None
        new._trial = None
        new._verdicts = dict(self._verdicts)


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
        for symbol in SYMBOLS:
            tile = fitting_tile(white, red, symbol)
            if tile is not None:
                yield pos, tile


def fitting_tile(white: int, red: int, symbol: str) -> int | None:
    """The tile of ``symbol`` that shows white exactly towards the ``white`` sides of a
    cell whose neighbours show ``white`` and ``red`` (``neighbour_masks``), or None."""
    occupied = white | red
    for tile in SYMBOL_TILES[symbol]:
        if WHITE_MASK[tile] & occupied == white:
            return tile
    return None


def forces_nothing(board: Board, pos: int, tile: int, masks: dict | None = None) -> bool:
    """Does a free ``tile`` on ``pos`` leave every empty neighbour with fewer than two
    same-coloured edges? Then it forces nothing and the turn is legal as it stands.
    ``masks`` caches ``neighbour_masks`` across the placements of one position."""
    cells = board.cells
    colour = COLOUR[tile]
    for d in range(4):
        q = pos + DELTA[d]
        if q in cells:
            continue
        wr = None if masks is None else masks.get(q)
        if wr is None:
            wr = board.neighbour_masks(q)
            if masks is not None:
                masks[q] = wr
        white, red = wr
        if colour[d] == WHITE:
            white |= 1 << (d ^ 2)
        else:
            red |= 1 << (d ^ 2)
        if BITS[white] >= 2 or BITS[red] >= 2:
            return False
    return True


def legal_placements(board: Board, limited: bool, verdicts: dict | None = None) -> list[tuple[int, int]]:
    """The free placements whose whole turn is legal. A placement that gives no empty
    neighbour two same-coloured edges forces nothing and is legal as it stands; only the
    others need the forced plays tried. ``verdicts`` (``TraxState._verdicts``) keeps the
    tried ones' results with the cells their forced plays filled, for ``forget_near``."""
    masks: dict[int, tuple[int, int]] = {}
    legal = []
    for pos, tile in free_placements(board, limited):
        if forces_nothing(board, pos, tile, masks):
            legal.append((pos, tile))
            continue
        known = None if verdicts is None else verdicts.get((pos, tile))
        if known is None:
            try:
                placed = board.place(pos, tile)
            except IllegalTurn as exc:
                known = (False, frozenset(p for p, _ in exc.placed))
            else:
                board.rollback(placed)
                known = (True, frozenset(p for p, _ in placed))
            if verdicts is not None:
                verdicts[(pos, tile)] = known
        if known[0]:
            legal.append((pos, tile))
    return legal


#: Offsets of the cells at most two steps (N/E/S/W) away.
_WITHIN_TWO = tuple(dr * STRIDE + dc for dr in range(-2, 3) for dc in range(-2, 3) if abs(dr) + abs(dc) <= 2)


def forget_near(verdicts: dict, changed) -> dict:
    """The ``verdicts`` still true after tiles came or went on the cells ``changed``. A
    trial forced play looks at the cells it fills, their neighbours and theirs (``_masks``),
    so its result can change only if one of those did: a verdict is kept when no changed
    cell lies within two steps of a cell it filled."""
    if not verdicts:  # playouts that only sample never fill it
        return verdicts
    near = {p + d for p in changed for d in _WITHIN_TWO}
    return {key: v for key, v in verdicts.items() if near.isdisjoint(v[1])}


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


# The notation reads States but imports only board.py (and rules.py only for type hints),
# so it is imported last, once: parsing is on the path of every played text.
from .notation import parse_move  # noqa: E402
