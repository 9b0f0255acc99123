"""The search of the ``trax`` agent: iterative-deepening principal-variation search over
the free tiles (the rules engine applies each one's forced plays), with

* a transposition table keyed by a Zobrist hash of the tiles (transpositions are common:
  the same tiles in another order give the same position);
* move ordering by the table's move, two killer moves per ply, a history score, and the
  cells at the ends of tracks close to a win;
* a threat horizon: at depth 0 the side to move's immediate wins are found exactly
  (``threats.winning_moves``, which tries only the placements that force something), and
  when the opponent has an immediate win the side to move gets one more ply to parry it
  (quiescence on threats), so a depth-3 search sees every loss four plies deep.

Scores are for the side to move; a win found ``n`` plies from the root is worth
``WIN - n``, so quicker wins and slower losses are preferred."""

from __future__ import annotations

import random

from ...agents import clock
from ...core.errors import SearchTimeout
from .board import DELTA, LIMIT
from .evaluation import evaluate_without_win, hot_cells, open_tracks
from .rules import Board, TraxState, free_placements, legal_placements
from .threats import turn_result, winning_moves

WIN = 1000.0
#: Scores beyond this are wins or losses found by the search.
PROVEN = WIN - 500
INFINITY = 4 * WIN
#: Null-window width for the scout searches (evaluations are floats in (-1, 1)).
EPSILON = 1e-7
EXACT, LOWER, UPPER = 0, 1, 2
#: Nodes with this much depth left order their moves by the cells at urgent track ends.
HOT_FROM_DEPTH = 1
#: Late-move reductions: at nodes with this much depth left, the moves after the first
#: FULL_MOVES (table move, killers, hot cells first) are scouted one ply shallower.
REDUCE_FROM_DEPTH = 2
FULL_MOVES = 8
#: Attacker moves in a chain of continuous threats (``_vcf``).
VCF_DEPTH = 3
#: Tracks this close to a win get threat moves tried near their ends.
THREAT_GAP = 3
#: Shares of the time budget: the threat search for a win first, the checks of the best
#: moves against the opponent's threats last.
ATTACK_SHARE = 0.1
DEFENCE_SHARE = 0.15
#: An iteration is started only if the time left is at least this many times the last
#: one's (each depth costs several times the one before).
GROWTH = 3.0
#: How many of the best root moves, and how far below the best score, ``_defend`` checks.
DEFENCE_MOVES = 12
DEFENCE_MARGIN = 0.5
_UNKNOWN = object()
_ILLEGAL = object()

_ZOBRIST_RNG = random.Random(0x7A1C5)
_ZOBRIST: dict[int, int] = {}
SIDE_KEY = (0, _ZOBRIST_RNG.getrandbits(64))


def zobrist(pos: int, tile: int) -> int:
    """The random 64-bit key of ``tile`` on ``pos`` (made on first use, fixed seed)."""
    k = pos * 8 + tile
    z = _ZOBRIST.get(k)
    if z is None:
        z = _ZOBRIST[k] = _ZOBRIST_RNG.getrandbits(64)
    return z


def board_hash(board: Board) -> int:
    h = 0
    for p, t in board.cells.items():
        h ^= zobrist(p, t)
    return h


class Memory:
    """What one search leaves for the next (an agent keeps one per rule set): positions are
    hashed by their tiles on the game's fixed grid, so the tables stay true from move to
    move, and the previous search already looked at much of the next one's tree."""

    #: Entries kept before the tables are emptied (bounded memory in long games).
    CAPACITY = 300_000

    def __init__(self):
        self.table: dict[int, tuple[int, int, float, tuple[int, int] | None]] = {}
        self.wins_known: dict[int, tuple[int, int] | None] = {}
        self.vcf_known: dict[tuple[int, int], tuple[int, int] | None] = {}
        self.history: dict[tuple[int, int], int] = {}

    def trim(self) -> None:
        if len(self.table) + len(self.wins_known) + len(self.vcf_known) > self.CAPACITY:
            self.__init__()


class ThreatSearch:
    """One move's search on a private copy of the board."""

    def __init__(
        self,
        state: TraxState,
        rng,
        deadline: float | None = None,
        node_limit: int | None = None,
        memory: Memory | None = None,
    ):
        game = state.game
        self.board: Board = state.board.copy()
        self.lines = game.lines_win
        self.limited = game.limited
        self.draw_on_both = game.simultaneous == "draw"
        self.span_rule = game.line_rule == "span"
        self.mover = state.to_move
        self.rng = rng
        self.deadline = deadline
        self.node_limit = node_limit
        self.nodes = 0
        self.depth_done = 0
        self.scores: dict[tuple[int, int], float] = {}
        self.hash = board_hash(self.board)
        memory = memory or Memory()
        memory.trim()
        self.table = memory.table
        self.wins_known = memory.wins_known
        self.vcf_known = memory.vcf_known
        self.history = memory.history
        #: The last immediate win found for each colour: tried first in the next position.
        self.last_win: list = [None, None]
        #: Root moves the threat search showed to lose (``_defend``).
        self.refuted: list = []
        self.killers: dict[int, list] = {}
        #: True while the first full-width iteration runs (node limits wait for it).
        self.first_iteration = False

    # -- root ------------------------------------------------------------------------------
    def best(self, max_depth: int) -> tuple[int, int]:
        moves = self._legal()
        self.rng.shuffle(moves)  # ties broken at random (seeded)
        if len(moves) == 1:
            return moves[0]
        win = self._immediate_win()
        if win is not None:
            self.scores = {win: WIN}
            return win
        start = clock.now()
        budget = None if self.deadline is None else max(0.0, self.deadline - start)
        # 1. A win by continuous threats, found by the cheap threat search.
        attack = self._within(start, budget, ATTACK_SHARE, self._vcf, self.mover, VCF_DEPTH, 0)
        if attack is not None:
            self.scores = {attack: PROVEN}
            return attack
        # 2. The full-width search.
        order = self._root_order(moves)
        best = order[0]
        final = self.deadline
        if budget is not None:
            self.deadline = start + budget * (1.0 - DEFENCE_SHARE)
        for depth in range(1, max_depth + 1):
            began = clock.now()
            self.first_iteration = depth == 1
            try:
                scores = self._root(order, depth)
            except SearchTimeout:
                break
            finally:
                self.first_iteration = False
            self.scores = scores
            self.depth_done = depth
            order = sorted(order, key=lambda m: -scores.get(m, -INFINITY))
            best = order[0]
            top = scores[best]
            if top >= PROVEN or all(v <= -PROVEN for v in scores.values()):
                break  # a forced win found, or every move loses: deeper search changes nothing
            if self.deadline is not None:
                now = clock.now()
                if self.deadline - now < GROWTH * (now - began):
                    break  # the next depth would not finish: its time goes to the threat checks
        self.deadline = final
        # 3. The best moves checked against the opponent's threat sequences.
        if self.scores and self.scores.get(best, 0.0) < PROVEN:
            best = self._defend(order, best)
        return best

    def _within(self, start, budget, share, search, *args):
        """``search(*args)`` with its own deadline (``share`` of the budget), None on timeout."""
        final = self.deadline
        if budget is not None:
            self.deadline = start + budget * share
        try:
            return search(*args)
        except SearchTimeout:
            return None
        finally:
            self.deadline = final

    def _defend(self, order, best):
        """The first of the best-scored moves after which the opponent has no win by
        continuous threats (checked until the time runs out); ``best`` if none is safe."""
        scores = self.scores
        top = scores.get(best, -INFINITY)
        other = 1 - self.mover
        self.refuted = []
        for move in order[:DEFENCE_MOVES]:
            value = scores.get(move, -INFINITY)
            if value <= -PROVEN or (value < top - DEFENCE_MARGIN and move != best):
                break
            try:
                threat = self._threat_after(move, other)
            except SearchTimeout:
                return best if not self.refuted or best not in self.refuted else move
            if threat is _ILLEGAL:
                continue
            if threat is None:
                return move
            self.refuted.append(move)
        return best

    # -- the steps the compiled search (``kernel_search.py``) does in the kernel -------------
    def _legal(self) -> list[tuple[int, int]]:
        return legal_placements(self.board, self.limited)

    def _immediate_win(self) -> tuple[int, int] | None:
        """The first free placement that wins at once for the side to move, or None."""
        wins = winning_moves(
            self.board, self.mover, self.lines, self.limited, self.draw_on_both, self.span_rule
        )
        return wins[0] if wins else None

    def _threat_after(self, move, attacker):
        """``attacker``'s win by continuous threats after our root ``move`` (None if it
        has none, ``_ILLEGAL`` if ``move`` is not a legal turn)."""
        made = self._make(move)
        if made is None:
            return _ILLEGAL
        placed, before, saved = made
        try:
            return self._vcf(attacker, VCF_DEPTH, 1)
        finally:
            self._unmake(placed, before, saved)

    # -- threat search ---------------------------------------------------------------------
    def _vcf(self, attacker: int, depth: int, ply: int):
        """A move of ``attacker`` (to move) that wins by continuous threats: each of its
        moves leaves it an immediate win, the defender's every reply is tried, and the
        chain is at most ``depth`` attacker moves long. None if none is found."""
        key = (self.hash ^ SIDE_KEY[attacker], depth)
        if key in self.vcf_known:
            return self.vcf_known[key]
        found = None
        for move in self._threat_candidates(attacker):
            self._tick()
            made = self._make(move)
            if made is None:
                continue
            placed, before, saved = made
            try:
                result = turn_result(
                    self.board, placed, attacker, self.lines, self.draw_on_both, self.span_rule
                )
                if result is not None:
                    if result > 0:
                        found = move
                elif not (self.limited and len(self.board.cells) >= LIMIT * LIMIT):
                    threat = self._win_move(attacker)
                    if threat is not None and not self._escapes(attacker, depth, ply + 1, threat):
                        found = move
            finally:
                self._unmake(placed, before, saved)
            if found is not None:
                break
        self.vcf_known[key] = found
        return found

    def _escapes(self, attacker: int, depth: int, ply: int, threat) -> bool:
        """Can the defender (to move) stop ``attacker``'s pending win ``threat`` and the
        threats that may follow (``depth`` attacker moves in all)?"""
        defender = 1 - attacker
        any_legal = False
        for reply in list(free_placements(self.board, self.limited)):
            self._tick()
            made = self._make(reply)
            if made is None:
                continue
            any_legal = True
            placed, before, saved = made
            try:
                result = turn_result(
                    self.board, placed, defender, self.lines, self.draw_on_both, self.span_rule
                )
                if result is not None:
                    if result >= 0:
                        return True  # the defender wins (or draws) at once
                    continue
                if self.limited and len(self.board.cells) >= LIMIT * LIMIT:
                    return True  # a full board: a draw
                if self._win_move(attacker, threat) is not None:
                    continue  # the threat stands
                if depth <= 1 or self._vcf(attacker, depth - 1, ply + 1) is None:
                    return True
            finally:
                self._unmake(placed, before, saved)
        return not any_legal  # no legal reply: a draw (8x8)

    def _threat_candidates(self, attacker: int):
        """Free placements near the open ends of ``attacker``'s tracks that are close to a
        loop or line (the cells they face and the empty cells beside those), nearest first:
        where a threat can be made. A heuristic choice: the threat search proves only what it
        finds."""
        board = self.board
        frontier = board.frontier
        near: dict[int, int] = {}
        for track in open_tracks(board, self.lines):
            if track.colour != attacker or track.gap > THREAT_GAP:
                continue
            for p, d in track.ends:
                q = p + DELTA[d]
                near[q] = min(near.get(q, 99), 2 * track.gap)
                for dd in DELTA:
                    if q + dd in frontier:
                        near[q + dd] = min(near.get(q + dd, 99), 2 * track.gap + 1)
        moves = [m for m in free_placements(board, self.limited) if m[0] in near]
        moves.sort(key=lambda m: near[m[0]])
        return moves

    def _root_order(self, moves):
        hot = hot_cells(self.board, open_tracks(self.board, self.lines))
        return sorted(moves, key=lambda m: hot.get(m[0], 99))

    def _root(self, order, depth):
        """Scores of the root moves: exact for the best, upper bounds for the others."""
        scores = {}
        alpha = -INFINITY
        mover = self.mover
        for i, move in enumerate(order):
            made = self._make(move)
            if made is None:
                continue
            placed, before, saved = made
            try:
                value = self._after(placed, mover, depth, 0, alpha, INFINITY, i == 0)
            finally:
                self._unmake(placed, before, saved)
            scores[move] = value
            alpha = max(alpha, value)
        return scores

    # -- tree ------------------------------------------------------------------------------
    def _make(self, move):
        board = self.board
        placed = board.place_if_legal(move[0], move[1])
        if placed is None:
            return None
        before = board.bbox()
        board.commit(placed)
        saved = self.hash
        h = saved
        for p, t in placed:
            h ^= zobrist(p, t)
        self.hash = h
        return placed, before, saved

    def _unmake(self, placed, before, saved):
        self.board.uncommit(placed, before)
        self.hash = saved

    def _after(self, placed, mover, depth, ply, alpha, beta, full, reduce=False) -> float:
        """The value for ``mover`` of the turn that just put ``placed`` (``depth`` left
        before it, ``ply`` its distance from the root). ``full``: search the reply with
        the whole window (first move), else a null window first (PVS); ``reduce``: a late
        move, scouted one ply shallower first and searched in full only if it looks good."""
        self._tick()
        result = turn_result(self.board, placed, mover, self.lines, self.draw_on_both, self.span_rule)
        if result is not None:
            return result * (WIN - ply - 1)
        if self.limited and len(self.board.cells) >= LIMIT * LIMIT:
            return 0.0
        other = 1 - mover
        if full:
            return -self._negamax(other, depth - 1, ply + 1, -beta, -alpha)
        if reduce:
            value = -self._negamax(other, depth - 2, ply + 1, -alpha - EPSILON, -alpha)
            if value <= alpha:
                return value
        value = -self._negamax(other, depth - 1, ply + 1, -alpha - EPSILON, -alpha)
        if alpha < value < beta:
            value = -self._negamax(other, depth - 1, ply + 1, -beta, -alpha)
        return value

    def _negamax(self, mover: int, depth: int, ply: int, alpha: float, beta: float) -> float:
        key = self.hash ^ SIDE_KEY[mover]
        entry = self.table.get(key)
        table_move = None
        if entry is not None:
            e_depth, flag, value, table_move = entry
            if e_depth >= depth:
                value = _from_table(value, ply)
                if flag == EXACT or (flag == LOWER and value >= beta) or (flag == UPPER and value <= alpha):
                    return value
        if depth <= 0:
            return self._horizon(mover, ply)
        if self._win_move(mover) is not None:
            return WIN - ply - 1  # a win at once: nothing to search (and cached)
        alpha0 = alpha
        best, best_move = -INFINITY, None
        first = True
        tried = 0
        for move in self._ordered(mover, ply, depth, table_move):
            made = self._make(move)
            if made is None:
                continue
            placed, before, saved = made
            reduce = depth >= REDUCE_FROM_DEPTH and tried >= FULL_MOVES
            try:
                value = self._after(placed, mover, depth, ply, alpha, beta, first, reduce)
            finally:
                self._unmake(placed, before, saved)
            first = False
            tried += 1
            if value > best:
                best, best_move = value, move
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        self._reward(move, ply, depth)
                        break
        if best_move is None:
            return 0.0  # no legal move: a draw (8x8)
        flag = LOWER if best >= beta else UPPER if best <= alpha0 else EXACT
        self.table[key] = (depth, flag, _to_table(best, ply), best_move)
        return best

    def _horizon(self, mover, ply) -> float:
        """Depth used up: an immediate win of the side to move (found exactly, through the
        forced plays) is a win, else the evaluation."""
        if self._win_move(mover) is not None:
            return WIN - ply - 1
        return evaluate_without_win(self.board, mover, self.lines)

    def _win_move(self, mover: int, hint=None):
        """A free placement that wins at once for ``mover`` here, or None (cached)."""
        key = self.hash ^ SIDE_KEY[mover]
        known = self.wins_known.get(key, _UNKNOWN)
        if known is _UNKNOWN:
            found = winning_moves(
                self.board,
                mover,
                self.lines,
                self.limited,
                self.draw_on_both,
                self.span_rule,
                True,
                hint or self.last_win[mover],
            )
            known = found[0] if found else None
            if known is not None:
                self.last_win[mover] = known
            self.wins_known[key] = known
        return known

    def _ordered(self, mover, ply, depth, table_move):
        moves = list(free_placements(self.board, self.limited))
        history = self.history
        killers = self.killers.get(ply, ())
        hot = hot_cells(self.board, open_tracks(self.board, self.lines)) if depth >= HOT_FROM_DEPTH else {}

        def rank(m):
            if m == table_move:
                return -1_000_000
            if m in killers:
                return -100_000
            return -history.get(m, 0) * 8 + hot.get(m[0], 9)

        moves.sort(key=rank)
        return moves

    def _reward(self, move, ply, depth):
        killers = self.killers.setdefault(ply, [])
        if move not in killers:
            killers.insert(0, move)
            del killers[2:]
        self.history[move] = self.history.get(move, 0) + depth * depth

    def _tick(self):
        self.nodes += 1
        if self.nodes & 63 == 0 and self.deadline is not None and clock.now() > self.deadline:
            raise SearchTimeout
        if self.node_limit is not None and self.nodes > self.node_limit and not self.first_iteration:
            raise SearchTimeout  # the first full-width iteration always finishes: it picks the move


def _to_table(value: float, ply: int) -> float:
    """Win scores stored relative to the node, so they stay right at another distance."""
    if value >= PROVEN:
        return value + ply
    if value <= -PROVEN:
        return value - ply
    return value


def _from_table(value: float, ply: int) -> float:
    if value >= PROVEN:
        return value - ply
    if value <= -PROVEN:
        return value + ply
    return value


__all__ = ["WIN", "Memory", "ThreatSearch", "board_hash", "zobrist"]
