"""The ``trax-classic`` agent: the ``trax`` agent as it was before issue 17, kept unchanged
as the fixed reference the new ``trax`` agent (``agent.py``) is measured against.

Iterative-deepening alpha-beta over the free tiles only (forced plays applied by the rules
engine), immediate wins and losses found through the forced-play chains by the search
itself, and leaves scored by the threats of ``evaluation.py``."""

from __future__ import annotations

from ...agents import clock
from ...agents.base import Agent
from ...core.errors import SearchTimeout
from ...core.move import Move
from .board import LIMIT
from .evaluation import evaluate, hot_cells, open_tracks
from .rules import Board, IllegalTurn, TraxState, free_placements, legal_placements

WIN = 1000.0
DEFAULT_TIME = 1.0


class TraxClassicAgent(Agent):
    name = "trax-classic"

    def select(self, state: TraxState) -> Move:
        if not state.board.cells:
            return self.rng.choice(state.legal_moves())
        search = Search(state, self.rng, self._deadline(), self.iterations)
        pos, tile = search.best(self.depth or 64)
        self.last_search = search
        return state.move_for(pos, tile)

    def _deadline(self) -> float | None:
        if self.time is None and self.depth is None and self.iterations is None:
            return clock.now() + DEFAULT_TIME
        return self.deadline()


class Search:
    """Negamax with alpha-beta on a private copy of the board. Scores are for the side
    to move at each node; a win is worth WIN plus the depth left, so quicker wins and
    slower losses are preferred."""

    def __init__(self, state: TraxState, rng, deadline: float | None = None, node_limit: int | None = None):
        game = state.game
        self.board: Board = state.board.copy()
        self.lines = game.lines_win
        self.limited = game.limited
        self.draw_on_both = game.simultaneous == "draw"
        self.mover = state.to_move
        self.rng = rng
        self.deadline = deadline
        self.node_limit = node_limit
        self.nodes = 0
        self.depth_done = 0
        self.scores: dict[tuple[int, int], float] = {}
        #: Root moves that survived the two-ply win scan.
        self.safe = 0

    # -- root ------------------------------------------------------------------------------
    def best(self, max_depth: int) -> tuple[int, int]:
        moves = self._legal_root()
        self.rng.shuffle(moves)  # ties broken at random (seeded)
        if len(moves) == 1:
            return moves[0]
        # A complete two-ply scan for wins only, whatever the time limit: take a win at
        # once, and never play a move after which the opponent has a winning reply.
        safe = []
        for i, move in enumerate(moves):
            if self.deadline is not None and clock.now() > self.deadline:
                safe.extend(moves[i:])  # out of time on a huge board: the rest unscanned
                break
            verdict = self._scan(move)
            if verdict == "win":
                self.scores = {move: WIN}
                return move
            if verdict == "safe":
                safe.append(move)
        self.safe = len(safe)
        if len(safe) == 1:
            return safe[0]
        order = self._ordered(safe or moves)
        best = order[0]
        for depth in range(1, max_depth + 1):
            try:
                scores = self._root(order, depth)
            except SearchTimeout:
                break
            self.scores = scores
            self.depth_done = depth
            order = sorted(order, key=lambda m: -scores[m])
            best = order[0]
            top = scores[best]
            if top >= WIN or all(v <= -WIN for v in scores.values()):
                break  # a forced win found, or every move loses: deeper search changes nothing
        return best

    def _scan(self, move) -> str:
        """ "win" if ``move`` wins for the side to move, "lose" if it loses at once or lets
        the opponent win with their next move, else "safe"."""
        board, mover = self.board, self.mover
        pos, tile = move
        placed = board.place(pos, tile)
        before = board.bbox()
        board.commit(placed)
        try:
            value = self._result(placed, mover)
            if value is not None:
                return "win" if value > 0 else "lose" if value < 0 else "safe"
            if self.limited and len(board.cells) >= LIMIT * LIMIT:
                return "safe"
            return "lose" if self._has_winning_move(1 - mover) else "safe"
        finally:
            board.uncommit(placed, before)

    def _has_winning_move(self, mover: int) -> bool:
        """Can ``mover`` (to move) win with one turn?"""
        board = self.board
        for pos, tile in free_placements(board, self.limited):
            try:
                placed = board.place(pos, tile)
            except IllegalTurn:
                continue
            before = board.bbox()
            board.commit(placed)
            value = self._result(placed, mover)
            board.uncommit(placed, before)
            if value is not None and value > 0:
                return True
        return False

    def _result(self, placed, mover: int) -> float | None:
        """+1 / -1 / 0 if the turn that put ``placed`` ends the game for ``mover``."""
        white, red = self.board.wins(placed, self.lines)
        mine, theirs = (white, red) if mover == 0 else (red, white)
        if mine and theirs and self.draw_on_both:
            return 0.0
        if mine:
            return 1.0
        if theirs:
            return -1.0
        return None

    def _legal_root(self) -> list[tuple[int, int]]:
        return legal_placements(self.board, self.limited)

    def _root(self, order, depth):
        scores = {}
        alpha = -2 * WIN
        for move in order:
            value = self._child(move, self.mover, depth, -2 * WIN, -alpha)
            if value is None:
                continue
            scores[move] = value
            alpha = max(alpha, value)
        return scores

    # -- tree ------------------------------------------------------------------------------
    def _negamax(self, mover: int, depth: int, alpha: float, beta: float) -> float:
        best = None
        for move in self._ordered(list(free_placements(self.board, self.limited))):
            value = self._child(move, mover, depth, alpha, beta)
            if value is None:
                continue
            if best is None or value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        return 0.0 if best is None else best  # no legal move: a draw (8x8)

    def _child(self, move, mover, depth, alpha, beta) -> float | None:
        """The value for ``mover`` of playing ``move``; None if the turn is illegal."""
        self._tick()
        board = self.board
        pos, tile = move
        try:
            placed = board.place(pos, tile)
        except IllegalTurn:
            return None
        before = board.bbox()
        board.commit(placed)
        try:
            result = self._result(placed, mover)
            if result is not None:
                return result * (WIN + depth)
            if self.limited and len(board.cells) >= LIMIT * LIMIT:
                return 0.0
            if depth <= 1:
                return evaluate(board, mover, 1 - mover, self.lines)
            return -self._negamax(1 - mover, depth - 1, -beta, -alpha)
        finally:
            board.uncommit(placed, before)

    def _ordered(self, moves):
        """The cells at the ends of tracks close to a win first."""
        hot = hot_cells(self.board, open_tracks(self.board, self.lines))
        if not hot:
            return moves
        return sorted(moves, key=lambda m: hot.get(m[0], 99))

    def _tick(self):
        self.nodes += 1
        if self.nodes & 63 == 0 and self.deadline is not None and clock.now() > self.deadline:
            raise SearchTimeout
        if self.node_limit is not None and self.nodes > self.node_limit and self.depth_done:
            raise SearchTimeout
