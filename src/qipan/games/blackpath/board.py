"""Geometry of the Black Path board: sides, the three tiles, cell names and the
path-following rule.

Shared by the rules, the notation, the renderer and the solver so all follow the path the
same way (imports go one way: board <- rules <- the rest)."""

from __future__ import annotations

N, E, S, W = 0, 1, 2, 3
SIDE_NAMES = "NESW"
EMPTY, CROSS, SLASH, BACKSLASH = 0, 1, 2, 3
#: Tile symbols by tile id (index 0 is an empty cell).
SYMBOLS = (".", "+", "/", "\\")
TILE_OF_SYMBOL = {"+": CROSS, "/": SLASH, "\\": BACKSLASH}
#: PAIR[tile][side] = the side the tile joins with ``side``.
PAIR = (
    (),
    (S, W, N, E),  # + : N-S and W-E
    (W, S, E, N),  # / : N-W and S-E
    (E, N, W, S),  # \ : N-E and S-W
)
DR = (-1, 0, 1, 0)
DC = (0, 1, 0, -1)

#: What the path reaches when followed from the last placement.
OPEN, BORDER, GOAL = "open", "border", "goal"


def cell_name(cell: int, cols: int) -> str:
    """``a1`` for the top-left cell: columns a.. left to right, rows 1.. top to bottom."""
    return f"{chr(ord('a') + cell % cols)}{cell // cols + 1}"


def opposite(side: int) -> int:
    return (side + 2) % 4


def tile_joining(a: int, b: int) -> int:
    """The one tile whose segment joins sides ``a`` and ``b`` of a cell."""
    for tile in (CROSS, SLASH, BACKSLASH):
        if PAIR[tile][a] == b:
            return tile
    raise ValueError(f"no tile joins side {a} with itself")


def neighbours(rows: int, cols: int) -> list[tuple[int, ...]]:
    """``neighbours[cell][side]`` = the adjacent cell index, or -1 beyond the border."""
    out = []
    for r in range(rows):
        for c in range(cols):
            row = []
            for side in range(4):
                rr, cc = r + DR[side], c + DC[side]
                row.append(rr * cols + cc if 0 <= rr < rows and 0 <= cc < cols else -1)
            out.append(tuple(row))
    return out


def follow(tiles, neigh, goal: int, cell: int, exit_side: int):
    """Follow the path out of ``cell`` through ``exit_side`` until it reaches an empty
    cell, the border or the goal. Returns (kind, cell, entry_side, visited) where
    ``visited`` lists the (cell, entry, exit) segments crossed on the way."""
    visited = []
    while True:
        nxt = neigh[cell][exit_side]
        if nxt < 0:
            return BORDER, -1, -1, visited
        entry = opposite(exit_side)
        if nxt == goal:
            return GOAL, nxt, entry, visited
        tile = tiles[nxt]
        if tile == EMPTY:
            return OPEN, nxt, entry, visited
        exit_side = PAIR[tile][entry]
        visited.append((nxt, entry, exit_side))
        cell = nxt
