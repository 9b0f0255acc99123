"""Pente knowledge shared by the ``pente`` agent and the generic alpha-beta agent:
candidate points near the stones, immediate wins, a move's heuristic value (lines,
captures, capture threats, exposed pairs) and a static evaluation."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.move import Move
from .board import CAPTURE_TARGET, EMPTY, OFF

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
    if state.line_wins(i, p + 1):
        return True
    if state.team_captures(p) + 8 >= CAPTURE_TARGET or state.captures[p] + 8 >= CAPTURE_TARGET:
        return state.team_captures(p) + captured_count(state, i, p) >= CAPTURE_TARGET
    return False


def winning_points(state: PenteState, p: int, points: list[int] | None = None) -> list[int]:
    if points is None:
        points = candidates(state, 1) if state.stones else []
    return [i for i in points if wins_at(state, i, p)]


# Cell codes seen from the player to move: the line patterns below are cached by code.
C_EMPTY, C_OWN, C_PARTNER, C_OFF, C_FOE = 0, 1, 2, 3, 4


_CODES: dict[tuple[int, int, int | None], list[int]] = {}


def _codes(state: PenteState, p: int) -> list[int]:
    """Cell value -> code for player ``p``: foes get distinct codes from C_FOE up."""
    n = state.num_players
    partner = state.game.partner(p, n)
    key = (n, p, partner)
    code = _CODES.get(key)
    if code is None:
        code = _CODES[key] = _make_codes(n, p, partner)
    return code


def _make_codes(n: int, p: int, partner: int | None) -> list[int]:
    code = [C_OFF] * (OFF + 1)
    code[EMPTY] = C_EMPTY
    for q in range(n):
        if q == p:
            code[q + 1] = C_OWN
        elif q == partner:
            code[q + 1] = C_PARTNER
        else:
            code[q + 1] = C_FOE + (q - p) % n
    return code


_PATTERNS: dict[tuple, tuple[int, ...]] = {}


def _line_pattern(key: tuple, need: int, count_partner: bool) -> tuple[int, ...]:
    """What placing on the empty centre of ``key`` (4 codes before it, 4 after, along one
    line) is worth: (attack, defence, stones taken, own pairs saved, capture threats made,
    own pairs exposed, most own stones in a clean window, own line length made, longest
    line of one foe through the point). Line lengths see 4 points each way."""
    cells = key[:4] + (C_EMPTY,) + key[4:]
    attack = defence = best = 0
    for start in range(4 - (need - 1), 5):
        window = cells[start : start + need]
        if C_OFF in window:
            continue
        colours = {c for c in window if c != C_EMPTY}
        if not colours or colours == {C_OWN}:
            own = window.count(C_OWN)
            attack += ATTACK[own]
            best = max(best, own)
        elif len(colours) == 1 and min(colours) >= C_FOE:
            defence += DEFENCE[need - window.count(C_EMPTY)]
    taken = saved = threats = exposed = 0
    for side in (1, -1):
        a, b, c = cells[4 + side], cells[4 + 2 * side], cells[4 + 3 * side]
        back = cells[4 - side]
        stones = a not in (C_EMPTY, C_OWN, C_OFF) and b not in (C_EMPTY, C_OWN, C_OFF)
        if stones and c == C_OWN:
            taken += (a != C_PARTNER or count_partner) + (b != C_PARTNER or count_partner)
        if a in (C_OWN, C_PARTNER) and b in (C_OWN, C_PARTNER) and c >= C_FOE:
            saved += 1
        if a >= C_FOE and b >= C_FOE and c == C_EMPTY:
            threats += 1
        if (a == C_OWN and b >= C_FOE and back == C_EMPTY) or (a == C_OWN and b == C_EMPTY and back >= C_FOE):
            exposed += 1
    own_line = 1 + _run(cells, C_OWN, -1) + _run(cells, C_OWN, 1)
    foe_line = 0
    for foe in {cells[3], cells[5]}:
        if foe >= C_FOE:
            foe_line = max(foe_line, 1 + _run(cells, foe, -1) + _run(cells, foe, 1))
    return attack, defence, taken, saved, threats, exposed, best, own_line, foe_line


def _run(cells: tuple, code: int, step: int) -> int:
    n, k = 0, 4 + step
    while 0 <= k < 9 and cells[k] == code:
        n += 1
        k += step
    return n


def _patterns(state: PenteState, i: int, p: int) -> list[tuple[int, ...]]:
    cells, code = state.cells, _codes(state, p)
    need, count_partner = state.game.win_length, state.game.count_partner
    out = []
    for d in state.geom.dirs4:
        key = (
            code[cells[i - 4 * d]], code[cells[i - 3 * d]], code[cells[i - 2 * d]], code[cells[i - d]],
            code[cells[i + d]], code[cells[i + 2 * d]], code[cells[i + 3 * d]], code[cells[i + 4 * d]],
        )  # fmt: skip
        full = (key, need, count_partner)
        value = _PATTERNS.get(full)
        if value is None:
            value = _PATTERNS[full] = _line_pattern(key, need, count_partner)
        out.append(value)
    return out


def move_score(state: PenteState, i: int, p: int) -> int:
    """How good placing ``p`` on empty ``i`` looks, attack and defence together: line
    windows, captures (worth more as the count nears 10), own pairs saved from capture,
    capture threats made, own pairs left exposed."""
    score = taken = saved = 0
    for attack, defence, t, sv, threats, exposed, *_ in _patterns(state, i, p):
        score += attack + defence + CAPTURE_THREAT * threats - EXPOSED * exposed
        taken += t
        saved += sv
    if taken:
        m = state.game.max_pairs
        if m is not None:
            taken = min(taken, 2 * m)
        score += CAPTURE * taken // 2 * (1 + state.team_captures(p) // 4)
    if saved:
        worst = max(state.captures[q] for q in enemies(state, p))
        score += CAPTURE_BLOCK * saved * (1 + worst // 4)
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
    return max(v[6] for v in _patterns(state, i, p))


def point_info(state: PenteState, i: int, p: int) -> tuple[int, bool, bool]:
    """For two players, in one pass: (move_score, whether ``p`` wins by placing on ``i``,
    whether the opponent would). Exact-five games check lines exactly."""
    game = state.game
    need = game.win_length
    score = taken = saved = 0
    own_line = foe_line = 0
    for attack, defence, t, sv, threats, exposed, _, own, foe in _patterns(state, i, p):
        score += attack + defence + CAPTURE_THREAT * threats - EXPOSED * exposed
        taken += t
        saved += sv
        own_line = max(own_line, own)
        foe_line = max(foe_line, foe)
    caps, opp_caps = state.captures[p], state.captures[1 - p]
    if taken:
        if game.max_pairs is not None:
            taken = min(taken, 2 * game.max_pairs)
        score += CAPTURE * taken // 2 * (1 + caps // 4)
    if saved:
        score += CAPTURE_BLOCK * saved * (1 + opp_caps // 4)
    if game.exact:
        mine = own_line >= need and wins_at(state, i, p)
        theirs = foe_line >= need and wins_at(state, i, 1 - p)
    else:
        mine = own_line >= need
        theirs = foe_line >= need
    mine = mine or caps + taken >= CAPTURE_TARGET
    if not theirs and opp_caps + 2 >= CAPTURE_TARGET:
        theirs = wins_at(state, i, 1 - p)
    return score, mine, theirs


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
