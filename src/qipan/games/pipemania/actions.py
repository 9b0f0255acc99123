"""The Pipe Mania action space (``Game.actions()``, see ``core/actions.py``).

Action 0 lets the tick pass (``-``), 1 hurries the flow (``h``). A placement on the cell at
row r, column c of a rows × cols grid (the largest grid of the game's levels) is
``2 + (r · cols + c) · 10 + choice`` with ``choice`` the piece the move names: 0 none (the
queue's next piece), 1..7 the pipes H, V, WS, ES, NE, NW, X (free choice or a fixed
supply), 8 and 9 the stacks ``@1`` and ``@2``. The dispenser's draws are chance moves.

Observation, shape (10·B + 8, rows, cols) with B the number of boards (one shared board, or
one per player in a race), seen by ``player``, its own board first: per board, planes 0..6
the cells holding each pipe (fixed, reservoir and bonus pipes included), 7 the cells
holding anything else (start, drain, blocked, one-way), 8 the flooded cells, 9 the cells
whose pipe ``player`` laid; then planes 10·B + k filled with 1/(j + 1) where pipe k comes
j-th next out of ``player``'s (first) dispenser (0 if not among the next five), and the
last plane 1 when ``player`` is to move."""

from __future__ import annotations

from ...core.actions import ActionSpace, Planes
from .board import PIPE_IDS

CHOICES = (None, *PIPE_IDS, "@1", "@2")
_CHOICE = {c: k for k, c in enumerate(CHOICES)}
_PIPE = {p: k for k, p in enumerate(PIPE_IDS)}
_SHOWN = 5  # upcoming pieces in the observation


class PipeManiaActions(ActionSpace):
    chance_outcomes = len(PIPE_IDS)  # the dispenser draws one of the pipes

    def __init__(self, game):
        super().__init__(game)
        levels = [game.level(n) for n in range(game.first_level, game.last_level + 1)]
        self.rows = max(level.rows for level in levels)
        self.cols = max(level.cols for level in levels)
        self.size = 2 + self.rows * self.cols * len(CHOICES)
        self.description = __doc__

    def index(self, state, move) -> int:
        kind = move.data[0]
        if kind == "pass":
            return 0
        if kind == "hurry":
            return 1
        _, cell, piece = move.data
        r, c = divmod(cell, state.boards[state.board_of[state.to_move]].level.cols)
        return 2 + (r * self.cols + c) * len(CHOICES) + _CHOICE[piece]

    def observation_shape(self, players: int) -> tuple[int, ...]:
        boards = 2 if players == 2 and self.game.mode == "race" else 1
        return (10 * boards + 8, self.rows, self.cols)

    def observe(self, state, player: int) -> list[float]:
        boards = sorted(range(len(state.boards)), key=lambda b: b != state.board_of[player])
        base = 10 * len(boards)
        planes = Planes(base + 8, self.rows, self.cols)
        for k, b in enumerate(boards):
            board = state.boards[b]
            cols = board.level.cols
            for cell, piece in enumerate(board.cells):
                r, c = divmod(cell, cols)
                if piece is not None:
                    pipe = piece.id.split(":")[-1]
                    plane = _PIPE[pipe] if pipe in _PIPE and piece.kind != "oneway" else 7
                    planes.set(10 * k + plane, r, c)
                if board.flooded[cell]:
                    planes.set(10 * k + 8, r, c)
                if board.owner[cell] == player:
                    planes.set(10 * k + 9, r, c)
        seq, used = state.dispensers[player][0]
        upcoming = state.sequences[seq][used : used + _SHOWN]
        for j, pipe in reversed(list(enumerate(upcoming))):
            planes.fill(base + _PIPE[pipe], 1 / (j + 1))
        if state.to_move == player:
            planes.fill(base + 7, 1.0)
        return planes.data
