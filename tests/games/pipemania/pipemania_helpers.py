"""Helpers for the Pipe Mania tests: a small level and a way to play scripted actions.
``conftest.py`` puts this folder on sys.path."""

from __future__ import annotations

import qipan
from qipan.core import CHANCE

ROW1 = ". . . . . / S:E . . . . / . . . . ."  # 5x3, start at (1,0) opening E
FILLER = ",".join(["V"] * 12)


def make(layout=ROW1, sequence="H,H,H," + FILLER, **options):
    opts = dict(layout=layout, start_delay=2, flow_period=1, goal="length", min_length=3, sequence=sequence)
    opts.update(options)
    return qipan.load("pipemania", **opts)


def act(state, *actions):
    """Play one action per turn, drawing V for any refill the test did not script."""
    for action in actions:
        while state.to_move == CHANCE:
            state.play("+V")
        state.play(action)
    while state.to_move == CHANCE and state.outcome is None:
        state.play("+V")
    return state


def until_over(state, limit=200):
    while state.outcome is None and limit:
        act(state, "-")
        limit -= 1
    return state


def cell(state, r, c, board=0):
    b = state.boards[board]
    return b.cells[r * b.level.cols + c], b.flooded[r * b.level.cols + c]


#: A queue that lays a cross the flow runs through twice.
CROSS_LOOP = "H,X,NW,WS,ES," + FILLER
