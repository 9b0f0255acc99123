"""Trax in colour for the terminal (Rich): each tile drawn 3 rows by 5 columns with its
four edges in their colours and its white track's turn in the middle, column letters and
row numbers as the moves name cells, the last turn's tiles underlined. Declared as the
game's ``terminal_picture``; Rich comes with the ``cli`` extra."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .board import COLOUR, RED, WHITE_MASK, column_label, pos_of

if TYPE_CHECKING:
    from .rules import TraxState

#: The white track's middle glyph by WHITE_MASK (edges N=1, E=2, S=4, W=8).
_MIDDLE = {0b0101: "┃", 0b1010: "━", 0b1001: "┛", 0b0011: "┗", 0b1100: "┓", 0b0110: "┏"}
_PAINT = {0: "bold white", 1: "bold red"}


def _rows(tile: int, mark: str) -> list[list[tuple[str, str]]]:
    """A tile's three rows as (text, style) pieces, on a black tile."""
    edge = [_PAINT[COLOUR[tile][d]] for d in range(4)]
    back = f" on grey7{mark}"
    middle = _MIDDLE[WHITE_MASK[tile]]
    return [
        [("  ", back), ("█", edge[0] + back), ("  ", back)],
        [
            ("█", edge[3] + back),
            (" ", back),
            (middle, "bold white" + back),
            (" ", back),
            ("█", edge[1] + back),
        ],
        [("  ", back), ("█", edge[2] + back), ("  ", back)],
    ]


def picture(state: TraxState):
    from rich.text import Text

    board = state.board
    out = Text()
    if not board.cells:
        out.append("(no tiles: the first tile goes on @0)\n")
    else:
        last = {p for p, _ in state.last_turn()}
        width = board.max_c - board.min_c + 1
        out.append("    " + "".join(column_label(i).center(5) for i in range(1, width + 1)) + "\n")
        for i, r in enumerate(range(board.min_r, board.max_r + 1), start=1):
            rows = [Text(f"{i:>3} " if k == 1 else "    ") for k in range(3)]
            for c in range(board.min_c, board.max_c + 1):
                pos = pos_of(r, c)
                tile = board.cells.get(pos)
                if tile is None:
                    for k in range(3):
                        rows[k].append("  ·  " if k == 1 else "     ", "dim")
                    continue
                for k, pieces in enumerate(_rows(tile, " underline" if pos in last else "")):
                    for text, style in pieces:
                        rows[k].append(text, style)
            for row in rows:
                out.append_text(row)
                out.append("\n")
    out.append(state.text().splitlines()[-1], "bold red" if state.to_move == RED else "bold")
    return out
