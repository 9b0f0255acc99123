"""Pointy-top hex grid in axial coordinates (q, r).

Direction d = 0..5 clockwise from the upper right: NE, E, SE, SW, W, NW; the opposite
edge of d is (d + 3) % 6."""

from __future__ import annotations

from functools import cache

DIRECTIONS = ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))
DIRECTION_NAMES = ("NE", "E", "SE", "SW", "W", "NW")

Cell = tuple[int, int]


def neighbour(cell: Cell, d: int) -> Cell:
    dq, dr = DIRECTIONS[d]
    return (cell[0] + dq, cell[1] + dr)


@cache
def neighbours(cell: Cell) -> tuple[Cell, ...]:
    """The six neighbours in direction order (memoised: the closure test and every random
    playout ask for them constantly, over a bounded set of cells)."""
    q, r = cell
    return tuple((q + dq, r + dr) for dq, dr in DIRECTIONS)


_FACING = (3, 4, 5, 0, 1, 2)  # the side of neighbour d that faces back


def side_pattern(edges: dict[Cell, str], cell: Cell) -> str:
    """The colour each neighbour shows towards ``cell``, side by side ("." where empty)."""
    get = edges.get
    return "".join(
        "." if (e := get(nb)) is None else e[back] for nb, back in zip(neighbours(cell), _FACING, strict=True)
    )


def distance(a: Cell, b: Cell) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


def rotate_cell(cell: Cell, k: int) -> Cell:
    """The cell turned k × 60° clockwise about the origin (maps direction d to d + k)."""
    q, r = cell
    for _ in range(k % 6):
        # In cube coordinates (x, y, z) = (q, -q - r, r) a clockwise turn is (-z, -x, -y).
        q, r = -r, q + r
    return (q, r)


def neighbour_counts(occupied) -> dict[Cell, int]:
    """For every empty cell next to an occupied one: how many occupied neighbours it has."""
    counts: dict[Cell, int] = {}
    for cell in occupied:
        for nb in neighbours(cell):
            if nb not in occupied:
                counts[nb] = counts.get(nb, 0) + 1
    return counts


def geometry_allows(occupied, counts: dict[Cell, int], cell: Cell) -> bool:
    """The colour-blind closure test of R2 + R3 (rules 4.5.4) for placing at ``cell``.

    ``occupied`` holds the occupied cells, ``counts`` their empty neighbours' counts.
    Virtually fill forced spaces one at a time; the placement is illegal as soon as an
    empty cell would have four occupied neighbours or two forced spaces touch."""
    extra: dict[Cell, int] = {}
    virtual = {cell}
    forced = {c for c, n in counts.items() if n >= 3 and c != cell}

    def add(filled: Cell) -> bool:
        for nb in neighbours(filled):
            if nb in occupied or nb in virtual:
                continue
            k = extra.get(nb, 0) + 1
            extra[nb] = k
            total = counts.get(nb, 0) + k
            if total >= 4:
                return False
            if total == 3:
                forced.add(nb)
        return True

    if not add(cell):
        return False
    while forced:
        for f in forced:
            for nb in neighbours(f):
                if nb in forced:
                    return False
        f = min(forced)
        forced.discard(f)
        virtual.add(f)
        if not add(f):
            return False
    return True
