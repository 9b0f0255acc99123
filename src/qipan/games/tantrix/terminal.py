"""Tantrix in colour for the terminal (Rich): the board as small hexagons, each tile 3 rows
by 6 columns on a dark ground with its six edges in their colours and its number in the
middle, the corner between two edges painted where a sharp link joins them; the spaces
show their ``q,r`` (forced ones in red, ``F``), the last placed tile is underlined. The
tiles sit like bricks, each row half a tile to the right of the one above, so a tile
touches its six neighbours: NW and NE above, W and E beside it, SW and SE below. Then
every hand with each tile's six edges (NE, E, SE, SW, W, NW at rotation 0; a move r1..r5
turns it by that many edges). Declared as the game's ``terminal_picture``; Rich comes with
the ``cli`` extra."""

from __future__ import annotations

from .board import ORIENTED, Cell
from .render import last_placed

_PAINT = {"R": "bold red", "Y": "bold yellow", "G": "bold green", "B": "bold blue"}
#: A tile's block: 3 rows of 6 columns; a row of tiles is 3 rows down and 3 columns right.
WIDTH, HEIGHT = 6, 3
#: Where each edge (NE, E, SE, SW, W, NW) is drawn in the block (row, column) and how.
_EDGE = (((0, 4), "▀"), ((1, 5), "▐"), ((2, 4), "▄"), ((2, 1), "▄"), ((1, 0), "▌"), ((0, 1), "▀"))
#: The corner cells between edges d and d + 1, painted when a sharp link joins them.
_CORNER = {
    0: (((0, 5), "◥"),),
    1: (((2, 5), "◢"),),
    2: (((2, 2), "▄"), ((2, 3), "▄")),
    3: (((2, 0), "◣"),),
    4: (((0, 0), "◤"),),
    5: (((0, 2), "▀"), ((0, 3), "▀")),
}
_GROUND = " on grey11"


def tile_text(tile: int, rotation: int = 0):
    """``12 ⬢⬢⬢⬢⬢⬢``: the number, then the edges' colours from NE clockwise."""
    from rich.text import Text

    out = Text(f"{tile:>2} ")
    for colour in ORIENTED[tile][rotation]:
        out.append("⬢", _PAINT[colour])
    return out


def tile_block(tile: int, rotation: int, mark: str = "") -> list[list[tuple[str, str]]]:
    """The tile's 3 x 6 block as (character, style) cells."""
    back = _GROUND + mark
    block = [[(" ", back) for _ in range(WIDTH)] for _ in range(HEIGHT)]
    edges = ORIENTED[tile][rotation]
    for d, ((row, col), glyph) in enumerate(_EDGE):
        block[row][col] = (glyph, _PAINT[edges[d]] + back)
    for d in range(6):
        if edges[d] == edges[(d + 1) % 6]:  # a sharp link turns round this corner
            for (row, col), glyph in _CORNER[d]:
                block[row][col] = (glyph, _PAINT[edges[d]] + back)
    number = f"{tile:>2}"
    block[1][2], block[1][3] = (number[0], "bold white" + back), (number[1], "bold white" + back)
    return block


def space_block(cell: Cell, forced: bool) -> list[list[tuple[str, str]]]:
    """An empty space: its name in the middle row, ``F`` first when it is forced."""
    label = ("F" if forced else "") + f"{cell[0]},{cell[1]}"
    style = "bold red" if forced else "dim"
    middle = label[:WIDTH].center(WIDTH)  # (a name past 6 characters, q or r beyond ±9, is cut)
    return [[(" ", "")] * WIDTH, [(ch, style) for ch in middle], [(" ", "")] * WIDTH]


def board_picture(board: dict, spaces: dict[Cell, int], forced_at: int = 3, last: Cell | None = None):
    """The tiles and spaces as a Rich Text (the board part of ``picture``)."""
    from rich.text import Text

    if not board and not spaces:
        return Text("(empty board: the first tile goes to 0,0)\n")
    cells = {**{c: None for c in spaces}, **dict(board)}
    left = min(WIDTH * q + 3 * r for q, r in cells)
    top = min(r for _, r in cells)
    rows = HEIGHT * (max(r for _, r in cells) - top + 1)
    width = max(WIDTH * q + 3 * r for q, r in cells) - left + WIDTH
    canvas = [[(" ", "")] * width for _ in range(rows)]
    for cell, placed in cells.items():
        q, r = cell
        x, y = WIDTH * q + 3 * r - left, HEIGHT * (r - top)
        if placed is None:
            block = space_block(cell, spaces[cell] >= forced_at)
        else:
            block = tile_block(*placed, mark=" underline" if cell == last else "")
        for k, line in enumerate(block):
            canvas[y + k][x : x + WIDTH] = line
    out = Text()
    for k, line in enumerate(canvas):
        row = Text(f"r={top + k // HEIGHT:>3} " if k % HEIGHT == 1 else "      ")
        for ch, style in line:
            row.append(ch, style or None)
        row.rstrip()
        out.append_text(row)
        out.append("\n")
    return out


def picture(state):
    from rich.text import Text

    spaces = dict(state.counts) if state.board else {(0, 0): 0}
    out = Text()
    for line in state.text().splitlines():
        if line.startswith("Board ("):  # the text map gives way to the picture
            out.append("Board (tile numbers; a space shows its q,r, F: forced):\n", "dim")
            out.append_text(board_picture(state.board, spaces, last=last_placed(state)))
        elif not line.startswith("r="):
            out.append(line + "\n")
    out.append("edges from NE clockwise (rotation 0):\n", "dim")
    for p, hand in enumerate(state.hands):
        colour = state.colours[p]
        out.append(f"P{p + 1} ", _PAINT[colour])
        if not hand:
            out.append("(hidden or empty)")
        for tile in sorted(hand):
            out.append_text(tile_text(tile))
            out.append("  ")
        out.append("\n")
    return out
