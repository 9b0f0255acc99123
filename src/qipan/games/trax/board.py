"""The Trax tile set on an unbounded grid: placement, forced plays, and win detection.

Cells are plain ints ``pos = (row + OFFSET) * STRIDE + (col + OFFSET)`` so neighbours are
one addition away. Every operation is local: a turn only looks at the cells around the
tiles it places, and the win check follows only the tracks through those tiles (a new
loop or line must run through a new tile, because the game ends at the first one)."""

from __future__ import annotations

from .tiles import BITS, COLOUR, OTHER_END, RED, TRACK, WHITE, tile_joining

STRIDE = 1 << 12
OFFSET = STRIDE // 2
#: Neighbour offsets by direction N, E, S, W.
DELTA = (-STRIDE, 1, STRIDE, -1)
LINE_SPAN = 8


def pos_of(row: int, col: int) -> int:
    if not (-OFFSET < row < OFFSET and -OFFSET < col < OFFSET):
        raise ValueError(f"cell ({row}, {col}) is outside the supported grid")
    return (row + OFFSET) * STRIDE + col + OFFSET


def row_col(pos: int) -> tuple[int, int]:
    r, c = divmod(pos, STRIDE)
    return r - OFFSET, c - OFFSET


# The colour (0 white, 1 red) each tile shows on its S, W, N and E side.
_SOUTH = tuple(COLOUR[t][2] for t in range(6))
_WEST = tuple(COLOUR[t][3] for t in range(6))
_NORTH = tuple(COLOUR[t][0] for t in range(6))
_EAST = tuple(COLOUR[t][1] for t in range(6))


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

    def __init__(self, reason: str, pos: int | None = None):
        super().__init__(reason)
        self.reason = reason
        self.pos = pos


class Board:
    """Tiles by cell, the tile area, and the empty cells next to a tile (with how many
    tiles they touch). Mutated only through ``commit``/``rollback``."""

    __slots__ = ("cells", "frontier", "min_r", "max_r", "min_c", "max_c")

    def __init__(self):
        self.cells: dict[int, int] = {}
        self.frontier: dict[int, int] = {}
        self.min_r = self.max_r = self.min_c = self.max_c = 0

    def copy(self) -> Board:
        other = Board.__new__(Board)
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
        cells = self.cells
        get = cells.get
        cells[pos] = tile
        placed = [(pos, tile)]
        todo = [pos + dd for dd in DELTA]
        while todo:
            q = todo.pop()
            if q in cells:
                continue
            white, red = _masks(get, q)
            nw, nr = BITS[white], BITS[red]
            if nw < 2 and nr < 2:
                continue
            if nw >= 3 or nr >= 3:
                self.rollback(placed)
                colour = "white" if nw >= 3 else "red"
                raise IllegalTurn(f"the forced plays leave a space with three {colour} edges", q)
            forced = tile_joining(WHITE, white) if nw == 2 else tile_joining(RED, red)
            cells[q] = forced
            placed.append((q, forced))
            todo.extend(q + dd for dd in DELTA)
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
        """Do these track ends lie on opposite outermost edges of an area ≥ 8 long?"""
        (p1, d1), (p2, d2) = end1, end2
        r1, c1 = row_col(p1)
        r2, c2 = row_col(p2)
        if d1 > d2:
            (r1, c1, d1), (r2, c2, d2) = (r2, c2, d2), (r1, c1, d1)
        if (d1, d2) == (1, 3):  # E and W ends
            return self.width >= LINE_SPAN and c1 == self.max_c and c2 == self.min_c
        if (d1, d2) == (0, 2):  # N and S ends
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
