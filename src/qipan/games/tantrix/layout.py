"""The tiles on the table and, for every empty space next to them, how many tiles touch it.
Shared by the game and the solitaire puzzles."""

from __future__ import annotations

from .hexgrid import Cell, neighbours
from .tiles import ORIENTED


class Layout:
    """Mixin: ``board`` (cell -> (tile, rotation)), ``edges`` (cell -> oriented edge
    colours) and ``counts`` (empty cell -> number of neighbouring tiles)."""

    board: dict[Cell, tuple[int, int]]
    edges: dict[Cell, str]
    counts: dict[Cell, int]

    def _place(self, tile: int, cell: Cell, rot: int) -> None:
        self.board[cell] = (tile, rot)
        self.edges[cell] = ORIENTED[tile][rot]
        self.counts.pop(cell, None)
        for nb in neighbours(cell):
            if nb not in self.edges:
                self.counts[nb] = self.counts.get(nb, 0) + 1

    def _unplace(self, cell: Cell) -> int:
        """Take the tile off ``cell``; returns its number."""
        tile, _ = self.board.pop(cell)
        del self.edges[cell]
        k = 0
        for nb in neighbours(cell):
            if nb in self.edges:
                k += 1
            else:
                left = self.counts[nb] - 1
                if left:
                    self.counts[nb] = left
                else:
                    del self.counts[nb]
        if k:
            self.counts[cell] = k
        return tile
