"""Levels: a grid layout plus the level's timing and goal, read from a layout text or
generated from a level number (obstacles grow and the flow speeds up level by level).

Layout text: rows separated by ``/`` or new lines, cells separated by spaces (see
``board.parse_piece_token``): ``. . S:E . / # . . D:W .``.

A module of its own, not part of ``board.py``: a level is made per game from the options
(a layout text, or generated and checked with the planner), and the speed curve belongs
to it; ``board.py`` holds only the constants every level shares."""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass

from .board import DC, DR, SIDE_NAMES, Piece, drain_piece, opposite, parse_piece_token, start_piece


@dataclass(frozen=True)
class Level:
    number: int
    cols: int
    rows: int
    #: The pre-placed piece of each cell (None = empty), row by row.
    cells: tuple[Piece | None, ...]
    start: tuple[int, int]  # (cell, open side)
    drain: tuple[int, int] | None
    goal: str
    min_length: int
    start_delay: int
    flow_period: int
    #: Rows whose W/E border wraps around, columns whose N/S border wraps around.
    wrap_rows: frozenset = frozenset()
    wrap_cols: frozenset = frozenset()

    def neighbour(self, cell: int, side: int) -> int | None:
        """The cell beyond ``side`` of ``cell``; None at a border without a wrap opening."""
        r, c = divmod(cell, self.cols)
        rr, cc = r + DR[side], c + DC[side]
        if 0 <= rr < self.rows and 0 <= cc < self.cols:
            return rr * self.cols + cc
        if side in (1, 3) and r in self.wrap_rows:
            return r * self.cols + cc % self.cols
        if side in (0, 2) and c in self.wrap_cols:
            return (rr % self.rows) * self.cols + c
        return None

    def layout_text(self) -> str:
        rows = []
        for r in range(self.rows):
            rows.append(" ".join(_token(self.cells[r * self.cols + c]) for c in range(self.cols)))
        return " / ".join(rows)


def _token(piece: Piece | None) -> str:
    return "." if piece is None else piece.id


def speed(
    number: int, start_delay: int, flow_period: int, delay_step: int, period_step: int
) -> tuple[int, int]:
    """Countdown and flow period of level ``number`` (1-based): both shrink level by level."""
    k = number - 1
    return max(1, start_delay - k * delay_step), max(1, flow_period - k * period_step)


def parse_wrap(text: str, cols: int, rows: int) -> tuple[frozenset, frozenset]:
    """``all``, or a comma list of ``r<row>`` / ``c<col>`` wrap openings (0-based)."""
    text = (text or "").strip().lower()
    if not text or text == "none":
        return frozenset(), frozenset()
    if text == "all":
        return frozenset(range(rows)), frozenset(range(cols))
    wrap_rows, wrap_cols = set(), set()
    for part in text.split(","):
        part = part.strip()
        try:
            index = int(part[1:])
        except ValueError:
            raise ValueError(f"wrap opening {part!r} is not r<row> or c<col>") from None
        if part[:1] == "r" and 0 <= index < rows:
            wrap_rows.add(index)
        elif part[:1] == "c" and 0 <= index < cols:
            wrap_cols.add(index)
        else:
            raise ValueError(f"wrap opening {part!r} is not r<row> or c<col> on this grid")
    return frozenset(wrap_rows), frozenset(wrap_cols)


def parse_layout(text: str) -> tuple[int, int, tuple]:
    """(cols, rows, cells) of a layout text. Raises ValueError with the reason."""
    lines = [line.split() for line in text.replace("/", "\n").splitlines() if line.strip()]
    if not lines:
        raise ValueError("the layout is empty")
    cols = len(lines[0])
    if any(len(line) != cols for line in lines):
        raise ValueError("every layout row needs the same number of cells")
    cells = tuple(parse_piece_token(tok) for line in lines for tok in line)
    return cols, len(lines), cells


def build_level(number: int, cols: int, rows: int, cells, goal: str, min_length: int, timing, wrap) -> Level:
    starts = [(i, p.channels[0][0]) for i, p in enumerate(cells) if p is not None and p.kind == "start"]
    drains = [(i, p.channels[0][0]) for i, p in enumerate(cells) if p is not None and p.kind == "drain"]
    if len(starts) != 1:
        raise ValueError("a level has exactly one start piece (S:<side>)")
    if len(drains) > 1:
        raise ValueError("a level has at most one drain (D:<side>)")
    if goal == "connect" and not drains:
        raise ValueError("goal=connect needs a drain (D:<side>) in the layout")
    wrap_rows, wrap_cols = parse_wrap(wrap, cols, rows)
    return Level(
        number,
        cols,
        rows,
        tuple(cells),
        starts[0],
        drains[0] if drains else None,
        goal,
        min_length,
        timing[0],
        timing[1],
        wrap_rows,
        wrap_cols,
    )


def generate_cells(number: int, cols: int, rows: int, goal: str, rng: random.Random) -> list:
    """A random layout for level ``number``: a start facing into the grid, a drain for the
    connect goal, and ``number - 1`` obstacles (at most one cell in eight)."""
    cells: list = [None] * (cols * rows)

    def inward_sides(cell: int) -> list[int]:
        r, c = divmod(cell, cols)
        return [s for s in range(4) if 0 <= r + DR[s] < rows and 0 <= c + DC[s] < cols]

    def in_front(cell: int, side: int) -> int:
        r, c = divmod(cell, cols)
        return (r + DR[side]) * cols + c + DC[side]

    start = rng.randrange(cols * rows)
    start_side = rng.choice(inward_sides(start))
    cells[start] = start_piece(start_side)
    keep_free = {start, in_front(start, start_side)}
    if goal == "connect":
        sr, sc = divmod(start, cols)
        far = [
            i
            for i in range(cols * rows)
            if abs(i // cols - sr) + abs(i % cols - sc) >= max(3, (cols + rows) // 3)
        ]
        far = [i for i in far if i not in keep_free] or [i for i in range(cols * rows) if i not in keep_free]
        drain = rng.choice(far)
        drain_side = rng.choice(inward_sides(drain))
        cells[drain] = drain_piece(drain_side)
        keep_free |= {drain, in_front(drain, drain_side)}
    free = [i for i in range(cols * rows) if i not in keep_free]
    for cell in rng.sample(free, min(number - 1, (cols * rows) // 8, len(free))):
        cells[cell] = parse_piece_token("#")
    return cells


@functools.lru_cache(maxsize=256)  # levels are immutable; generation runs the planner
def generated_level(
    number: int, cols: int, rows: int, goal: str, min_length: int, timing, wrap: str, layout_seed: int
):
    """The generated level ``number``; layouts the planner cannot win are drawn again."""
    from .planner import plan  # the planner needs Level, so it is imported here

    rng = random.Random(f"pipemania:{layout_seed}:{number}:{cols}x{rows}:{goal}")
    level = None
    for _attempt in range(40):
        cells = generate_cells(number, cols, rows, goal, rng)
        level = build_level(number, cols, rows, cells, goal, min_length, timing, wrap)
        if plan(level, max_nodes=20000) is not None:
            return level
    return level


def side_name(side: int) -> str:
    return SIDE_NAMES[side]


__all__ = ["Level", "build_level", "generated_level", "opposite", "parse_layout", "speed"]
