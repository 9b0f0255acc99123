"""The board as a flat padded array, point names and the reusable Move objects.

A point (col, row) with col 0..n-1 left to right and row 0..n-1 bottom to top lives at
``(row + PAD) * width + col`` with ``width = n + PAD``. Four sentinel columns between
rows and four sentinel rows above and below mean that stepping up to four points (a
capture looks three ahead, the agent's windows four) in any of the 8 directions from a board point never leaves the array: no bounds checks in the
hot path, a sentinel simply is neither empty nor a stone."""

from __future__ import annotations

import random
from functools import cache, cached_property

from ...core.move import Move

PAD = 4
EMPTY = 0
OFF = 7  # sentinel cell value; stones are player index + 1 (1..4)
FILES = "ABCDEFGHJKLMNOPQRST"  # pente.org files: no I
CAPTURE_TARGET = 10  # captured stones that win (5 pairs)

# Formations as windows along a board line: x = own stone, . = empty point, o = anything else.
#: An open tria (活三, pente.md §2.2.8, the clarified definition): one more stone on the
#: line makes an open four _XXXX_ (so _XXX_ needs room on one side: _XXX__ or __XXX_).
TRIA = ("..xxx.", ".xxx..", ".x.xx.", ".xx.x.")
#: A tessera (四): four own stones in five points whose fifth is empty, so one more stone
#: makes five (XXXX_, X_XXX, XX_XX, ...): the threat the etiquette announces as "four".
TESSERA = ("xxxx.", ".xxxx", "x.xxx", "xx.xx", "xxx.x")


class Geometry:
    def __init__(self, n: int):
        self.n = n
        self.centre_offset = n // 2
        self.width = w = n + PAD
        self.size = (n + 2 * PAD) * w
        #: The four line directions and all eight capture directions.
        self.dirs4 = (1, w, w + 1, w - 1)
        self.dirs8 = self.dirs4 + tuple(-d for d in self.dirs4)
        self.points = [self.index(col, row) for row in range(n) for col in range(n)]
        self.name: list[str | None] = [None] * self.size
        self.col = [-1] * self.size
        self.row = [-1] * self.size
        for row in range(n):
            for col in range(n):
                i = self.index(col, row)
                self.name[i] = f"{FILES[col]}{row + 1}"
                self.col[i], self.row[i] = col, row
        self.by_name = {self.name[i]: i for i in self.points}
        #: One Move per point, created once and reused (data = (index, capture choice)).
        self.moves: list[Move | None] = [None] * self.size
        for i in self.points:
            self.moves[i] = Move(self.name[i], (self.name[i],), (i, None))
        #: A new game's cells, its empty points and their moves (index order): templates a new
        #: state copies (a game database import makes a state per game read and per game stored).
        self.blank_cells = [OFF] * self.size
        for i in self.points:
            self.blank_cells[i] = EMPTY
        self.point_moves = [self.moves[i] for i in self.points]
        self.centre = self.index(self.centre_offset, self.centre_offset)
        c = self.centre_offset
        #: Points the tournament rule forbids for P1's second stone: max(|x|,|y|) < 3.
        self.inner = frozenset(i for i in self.points if max(abs(self.col[i] - c), abs(self.row[i] - c)) < 3)
        #: Every board line (one per direction and offset) long enough for a five.
        self.lines = self._lines(5)
        rng = random.Random(0x9E3779B97F4A7C15 ^ n)
        self.zobrist = [[rng.getrandbits(64) for _ in range(5)] for _ in range(self.size)]
        self._choice_moves: dict[tuple[int, tuple[int, ...]], Move] = {}

    def index(self, col: int, row: int) -> int:
        return (row + PAD) * self.width + col

    def on_board(self, col: int, row: int) -> bool:
        return 0 <= col < self.n and 0 <= row < self.n

    def centred(self, i: int) -> tuple[int, int]:
        """The seed's centred coordinates (x, y) of point ``i``."""
        return self.col[i] - self.centre_offset, self.row[i] - self.centre_offset

    def from_centred(self, x: int, y: int) -> int | None:
        col, row = x + self.centre_offset, y + self.centre_offset
        return self.index(col, row) if self.on_board(col, row) else None

    @cached_property
    def symmetry_maps(self) -> list[list[int]]:
        """The board's eight symmetries as point maps (``m[i]`` = image of point ``i``; the
        identity first), from the opening book's coordinate transforms."""
        from .book import SYMMETRIES

        maps = []
        for f in SYMMETRIES:
            m = list(range(self.size))
            for i in self.points:
                m[i] = self.from_centred(*f(*self.centred(i)))
            maps.append(m)
        return maps

    def choice_move(self, i: int, dirs: tuple[int, ...]) -> Move:
        """A placement that captures only the pairs in ``dirs`` (``max_pairs_per_move``);
        written ``K10xL10`` with the nearer stone of each chosen pair."""
        key = (i, dirs)
        move = self._choice_moves.get(key)
        if move is None:
            taken = [self.name[i + d] for d in dirs]
            text = self.name[i] + "".join("x" + t for t in taken)
            move = Move(text, (self.name[i], *taken), (i, dirs))
            self._choice_moves[key] = move
        return move

    def _lines(self, min_len: int) -> list[list[int]]:
        lines = []
        for d in self.dirs4:
            for start in self.points:
                if self.name[start - d] is not None:
                    continue  # not the first point of its line
                line, j = [], start
                while self.name[j] is not None:
                    line.append(j)
                    j += d
                if len(line) >= min_len:
                    lines.append(line)
        return lines


@cache
def geometry(n: int) -> Geometry:
    return Geometry(n)
