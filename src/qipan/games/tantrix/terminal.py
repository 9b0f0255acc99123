"""Tantrix in colour for the terminal (Rich): the position map as in ``state.text()``, then
every hand with each tile's six edges in their colours (NE, E, SE, SW, W, NW at rotation
0; a move r1..r5 turns it by that many edges), so a person sees which rotation fits. Declared
as the game's ``terminal_picture``; Rich comes with the ``cli`` extra."""

from __future__ import annotations

from .board import ORIENTED

_PAINT = {"R": "bold red", "Y": "bold yellow", "G": "bold green", "B": "bold blue"}


def tile_text(tile: int, rotation: int = 0):
    """``12 ⬢⬢⬢⬢⬢⬢``: the number, then the edges' colours from NE clockwise."""
    from rich.text import Text

    out = Text(f"{tile:>2} ")
    for colour in ORIENTED[tile][rotation]:
        out.append("⬢", _PAINT[colour])
    return out


def picture(state):
    from rich.text import Text

    lines = state.text().splitlines()
    out = Text("\n".join(line for line in lines if not line.lstrip().startswith("hand")) + "\n")
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
