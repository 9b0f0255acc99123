"""Helpers shared by the MOD X tests: positions from a dict of cells, state snapshots."""

from __future__ import annotations

import qipan
from qipan.games.modx.board import FILES, NAMES


def make(cells: dict[str, str], turn="R", phase="play", players=2, game="modx", **options):
    """A position from a dict of cells (``{"D4": "R", "D3": "bR"}``); other squares are empty."""
    grid = dict.fromkeys(NAMES, ".")
    grid.update(cells)
    rows = [" ".join(grid[f"{f}{r}"] for f in FILES) for r in range(8, 0, -1)]
    return qipan.load(game, **options).position("\n".join([f"{players} {turn} {phase}", *rows]))


def snapshot(state):
    """Everything an illegal input must leave unchanged."""
    return state.key(), state.position(), [m.text for m in state.legal_moves()], state.to_move, state.outcome
