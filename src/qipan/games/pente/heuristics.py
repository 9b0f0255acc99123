"""Pente knowledge shared by the ``pente`` agent and the generic alpha-beta agent:
candidate points near the stones, immediate wins, a move's heuristic value (lines,
captures, capture threats, exposed pairs) and a static evaluation."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.move import Move
from .geometry import EMPTY, OFF
from .rules import CAPTURE_TARGET

if TYPE_CHECKING:
    from .rules import PenteState

WIN = 1_000_000
#: Value of a line window by the number of own stones already in it (placing adds one).
ATTACK = (1, 4, 24, 160, 20000)
DEFENCE = (0, 2, 14, 120, 15000)
CAPTURE = 400  # per pair captured (more as the count nears 10)
CAPTURE_BLOCK = 300  # per pair of ours the opponent could take here
CAPTURE_THREAT = 60  # per X O O _ made
EXPOSED = 150  # per own pair left as _ X X O


def enemies(state: PenteState, p: int) -> list[int]:
    partner = state.game.partner(p, state.num_players)
    return [q for q in range(state.num_players) if q != p and q != partner]


def candidates(state: PenteState, radius: int = 2) -> list[int]:
    """Empty points within ``radius`` (king steps) of a stone; the centre on an empty board.
    Only points the opening rules allow."""
    g, cells = state.geom, state.cells
    w = g.width
    offsets = [
        dr * w + dc for dr in range(-radius, radius + 1) for dc in range(-radius, radius + 1) if dr or dc
    ]
    seen = set()
    for i in g.points:
        if cells[i] != EMPTY:
            for o in offsets:
                j = i + o
                if 0 <= j < g.size and cells[j] == EMPTY:
                    seen.add(j)
    if not seen:
        seen = {g.centre} if cells[g.centre] == EMPTY else {i for i in g.points if cells[i] == EMPTY}
    if state.placed <= state.num_players:
        seen = {i for i in seen if state._placement_error(i) is None}
        if not seen:
            seen = {m.data[0] for m in state.legal_moves()}
    return sorted(seen)


def captured_count(state: PenteState, i: int, p: int) -> int:
    """Stones that would count for ``p`` if ``p`` placed on ``i``."""
    dirs = state.capture_dirs(i, p)
    if not dirs:
        return 0
    game = state.game
    m = game.max_pairs
    if m is not None:
        dirs = dirs[:m]
    partner = game.partner(p, state.num_players)
    cells = state.cells
    n = 0
    for d in dirs:
        for j in (i + d, i + 2 * d):
            if cells[j] - 1 != partner or game.count_partner:
                n += 1
    return n


def wins_at(state: PenteState, i: int, p: int) -> bool:
    """Whether ``p`` placing on empty ``i`` wins at once (line or capture count)."""
    need, exact, me = state.game.win_length, state.game.exact, p + 1
    for d in state.geom.dirs4:
        n = state.run_length(i, d, me)
        if n == need or (n > need and not exact):
            return True
    if state.team_captures(p) + 8 >= CAPTURE_TARGET or state.captures[p] + 8 >= CAPTURE_TARGET:
        return state.team_captures(p) + captured_count(state, i, p) >= CAPTURE_TARGET
    return False


def winning_points(state: PenteState, p: int, points: list[int] | None = None) -> list[int]:
    if points is None:
        points = candidates(state, 1) if state.stones else []
    return [i for i in points if wins_at(state, i, p)]


def move_score(state: PenteState, i: int, p: int) -> int:
    """How good placing ``p`` on empty ``i`` looks, attack and defence together."""
    g, cells = state.geom, state.cells
    me = p + 1
    need = state.game.win_length
    foes = {q + 1 for q in enemies(state, p)}
    score = 0
    span = need - 1
    for d in g.dirs4:
        vals = [cells[i + k * d] for k in range(-span, span + 1)]
        for s in range(need):
            window = vals[s : s + need]
            if OFF in window:
                continue
            own = window.count(me)
            stones = need - window.count(EMPTY)  # stones in the window (i itself is empty)
            if own == stones:
                score += ATTACK[own] if own < len(ATTACK) else ATTACK[-1]
            elif own == 0:
                colours = {c for c in window if c != EMPTY}
                if len(colours) == 1 and colours <= foes:
                    score += DEFENCE[min(stones, len(DEFENCE) - 1)]
    # captures made, blocked and threatened; own pairs left exposed
    taken = captured_count(state, i, p)
    if taken:
        score += CAPTURE * taken // 2 * (1 + state.team_captures(p) // 4)
    for q in foes:
        blocked = len(state.capture_dirs(i, q - 1))
        if blocked:
            score += CAPTURE_BLOCK * blocked * (1 + state.captures[q - 1] // 4)
    for d in g.dirs8:
        a, b, c = cells[i + d], cells[i + 2 * d], cells[i + 3 * d]
        if a in foes and b == a and c == EMPTY:
            score += CAPTURE_THREAT
        if a == me and b in foes and cells[i - d] == EMPTY:
            score -= EXPOSED
        if a == me and b == EMPTY and cells[i - d] in foes:
            score -= EXPOSED
    return score


def order_moves(state: PenteState, moves: list[Move]) -> list[Move]:
    """Moves near the stones by heuristic value, then the rest in their given order."""
    if state.outcome is not None or not moves:
        return moves
    p = state.to_move
    near = set(candidates(state, 2))
    scored = sorted((m for m in moves if m.data[0] in near), key=lambda m: -move_score(state, m.data[0], p))
    return scored + [m for m in moves if m.data[0] not in near]


def evaluate(state: PenteState, player: int) -> float:
    """Static value for ``player`` in [-1, 1]: captures plus the best move each side has."""
    if state.outcome is not None:
        return 2 * state.outcome.reward(player) - 1
    points = candidates(state, 1)
    if not points:
        return 0.0
    mover = state.to_move
    best_mover = max(move_score(state, i, mover) for i in points)
    best_other = max((move_score(state, i, q) for q in enemies(state, mover) for i in points), default=0)
    raw = best_mover - 0.6 * best_other
    if player in enemies(state, mover):
        raw = -raw
    raw += 60 * (state.team_captures(player) - max(state.team_captures(q) for q in enemies(state, player)))
    return max(-0.99, min(0.99, raw / 4000))


def max_window(state: PenteState, i: int, p: int) -> int:
    """The most own stones in a line window through empty ``i`` that holds no other stone:
    ``win_length - 2`` means placing on ``i`` makes a four (a threat to win)."""
    g, cells = state.geom, state.cells
    me, need = p + 1, state.game.win_length
    span = need - 1
    best = 0
    for d in g.dirs4:
        vals = [cells[i + k * d] for k in range(-span, span + 1)]
        for s in range(need):
            window = vals[s : s + need]
            own = window.count(me)
            if own > best and own + window.count(EMPTY) == need:
                best = own
    return best


def threatens_capture_win(state: PenteState, i: int, p: int) -> bool:
    """Placing ``p`` on ``i`` sets up X O O _ while one more pair would win."""
    if state.team_captures(p) + 2 < CAPTURE_TARGET:
        return False
    cells, foes = state.cells, {q + 1 for q in enemies(state, p)}
    for d in state.geom.dirs8:
        a = cells[i + d]
        if a in foes and cells[i + 2 * d] in foes and cells[i + 3 * d] == EMPTY:
            return True
    return False
