"""Solvers for the solitaire puzzles (rules/tantrix.md 4.4).

Discovery puzzle: tiles 1..n form one loop of one colour through every tile, all touching
edges match, and the shape encloses no hole. Solutions are counted up to rotation and
translation: tile 1 is fixed at the origin in rotation 0 (no tile looks the same in two
rotations, so every class has exactly one such member) and the loop is followed from one
end of tile 1's link, so every solution is met exactly once.

Flower: 7 tiles, one in the centre and six around it, all edges matching; counted up to
rotation by fixing the centre tile's rotation."""

from __future__ import annotations

from .board import (
    DIRECTIONS,
    ORIENTED,
    TILES,
    Cell,
    distance,
    fitting,
    mismatch,
    neighbours,
    side_pattern,
    tracks,
)

Placement = tuple[Cell, int, int]  # (cell, tile, rotation)

#: Published counts up to rotation and translation (lwiest), rules 4.4.
PUBLISHED_DISCOVERY = {
    (3, "Y"): 2,
    (4, "R"): 2,
    (5, "R"): 4,
    (6, "B"): 8,
    (7, "R"): 32,
    (7, "B"): 36,
    (8, "B"): 84,
    (9, "Y"): 114,
    (10, "Y"): 388,
    (10, "R"): 1280,
    (10, "B"): 952,
}


def discovery_colour(n: int) -> str:
    """The puzzle's colour: the colour of tile n's back number."""
    return TILES[n].back


def has_hole(cells) -> bool:
    """True if some empty cell is enclosed by the cells (not reachable from outside)."""
    cells = set(cells)
    qs = [q for q, _ in cells]
    rs = [r for _, r in cells]
    lo_q, hi_q, lo_r, hi_r = min(qs) - 1, max(qs) + 1, min(rs) - 1, max(rs) + 1
    start = (lo_q, lo_r)
    seen = {start}
    stack = [start]
    while stack:
        cell = stack.pop()
        for nb in neighbours(cell):
            if nb in seen or nb in cells or not (lo_q <= nb[0] <= hi_q and lo_r <= nb[1] <= hi_r):
                continue
            seen.add(nb)
            stack.append(nb)
    box = (hi_q - lo_q + 1) * (hi_r - lo_r + 1)
    return len(seen) + len(cells) < box


def is_discovery_solution(board: dict[Cell, tuple[int, int]], colour: str) -> bool:
    """One loop of ``colour`` through every tile, all edges matching, no hole."""
    edges = {cell: ORIENTED[t][k] for cell, (t, k) in board.items()}
    if mismatch(edges) is not None:
        return False
    found = tracks(edges, colour)
    return len(found) == 1 and found[0][1] and len(found[0][0]) == len(board) and not has_hole(board)


def discovery_solutions(n: int, colour: str | None = None, tiles: list[int] | None = None):
    """Yield every solution (a list of placements) of the Discovery puzzle with tiles
    ``tiles`` (default 1..n) in ``colour`` (default: tile n's back colour)."""
    colour = colour or discovery_colour(n)
    tiles = list(tiles or range(1, n + 1))
    if any(colour not in TILES[t].edges for t in tiles):
        return
    first, rest = tiles[0], tiles[1:]
    edges: dict[Cell, str] = {(0, 0): ORIENTED[first][0]}
    start_exit, closing_edge = (d for d in range(6) if ORIENTED[first][0][d] == colour)
    placed: list[Placement] = [((0, 0), first, 0)]
    unused = set(rest)
    total = len(tiles)

    def extend(cell: Cell, exit_edge: int):
        dq, dr = DIRECTIONS[exit_edge]
        nxt = (cell[0] + dq, cell[1] + dr)
        entry = (exit_edge + 3) % 6
        if nxt == (0, 0):
            if not unused and entry == closing_edge and not has_hole(edges):
                yield list(placed)
            return
        if nxt in edges or not unused:
            return
        if distance(nxt, (0, 0)) > len(unused):
            return  # too far to close the loop with the tiles left
        fit = fitting(side_pattern(edges, nxt))
        for tile in sorted(unused):
            for rot in fit.get(tile, ()):
                oriented = ORIENTED[tile][rot]
                if oriented[entry] != colour:
                    continue
                out = next(d for d in range(6) if d != entry and oriented[d] == colour)
                edges[nxt] = oriented
                unused.discard(tile)
                placed.append((nxt, tile, rot))
                yield from extend(nxt, out)
                placed.pop()
                unused.add(tile)
                del edges[nxt]

    if total < 3:
        return
    yield from extend((0, 0), start_exit)


def count_discovery(n: int, colour: str | None = None) -> int:
    return sum(1 for _ in discovery_solutions(n, colour))


def flower_solutions(tiles: list[int]):
    """Yield every Flower arrangement of the 7 ``tiles`` (centre rotation fixed at 0)."""
    if len(tiles) != 7 or len(set(tiles)) != 7:
        raise ValueError("the Flower puzzle needs 7 different tiles")
    for centre in tiles:
        edges = {(0, 0): ORIENTED[centre][0]}
        petals = [t for t in tiles if t != centre]
        yield from _fill_petals(edges, petals, 0, [((0, 0), centre, 0)])


def _fill_petals(edges, petals, index, placed):
    if index == 6:
        yield list(placed)
        return
    cell = DIRECTIONS[index]
    fit = fitting(side_pattern(edges, cell))
    for tile in list(petals):
        for rot in fit.get(tile, ()):
            oriented = ORIENTED[tile][rot]
            edges[cell] = oriented
            petals.remove(tile)
            placed.append((cell, tile, rot))
            yield from _fill_petals(edges, petals, index + 1, placed)
            placed.pop()
            petals.append(tile)
            del edges[cell]


def count_flower(tiles: list[int]) -> int:
    return sum(1 for _ in flower_solutions(tiles))
