"""The compiled twin of the Pente rules (Numba, ``qipan[fast]``): legal moves, play with
captures, five (or four), capture wins, the tournament rule, exact five (C1), double open tria
(C2), ``max_pairs_per_move``, two or four players and teams; random playouts and perft. Same
semantics as ``PenteState``, over the same padded cell array (``board.py``).

A state ``s`` is an int64 array: a header (``S_*``) then the cells. A move is one int: the
point's index, plus for a ``max_pairs_per_move`` choice ``CHOSEN | dirs_mask << 10`` (bit k:
the pair in direction ``dirs8[k]`` is taken), the reference ``Move.data`` ``(i, dirs)``.
The ``pente`` agent's search runs on these states (``kernel_search.py``); so do the generic agents'
searches, here: UCT for ``mcts`` (every player count; the loop is ``agents/uct_kernel.py``'s,
over this file's ``uct_*`` functions) and PVS for ``alphabeta`` (two players) over the
compiled twin of ``evaluation.evaluate``, with the same values."""

from __future__ import annotations

import sys
from operator import itemgetter
from pathlib import Path
from typing import NamedTuple

from ...agents import ab_kernel, uct_kernel
from ...agents.ab_kernel import WIN
from ...agents.uct_kernel import M_NODES, N_GAME, Tree, append_node, best_move
from ...core.errors import OptionError
from ...fast import njit, njit_inline, njit_signed, np, rand_below, seed_word
from .board import CAPTURE_TARGET, EMPTY, OFF, TRIA

S_TO_MOVE, S_PLACED, S_STONES, S_PENDING, S_MAYBE_LINE, S_LAST, S_CAPS = 0, 1, 2, 3, 4, 5, 6
S_RESULT, S_REASON, S_PLAYERS = 10, 11, 12
HEADER = 16
#: ``s[S_RESULT]``: still playing, a draw, else the bit mask of the winners.
ONGOING, DRAW = -1, 0
(
    R_NONE,
    R_LINE_ANSWERS_TRIA,
    R_CAPTURE_ANSWERS_TRIA,
    R_DOUBLE_TRIA,
    R_LINE,
    R_CAPTURES,
    R_TRIA_BOARD_FULL,
    R_BOARD_FULL,
) = range(8)
P_N, P_CENTRE, P_TOURNAMENT, P_EXACT, P_DOUBLE_TRIA, P_OVERRIDES, P_MAX_PAIRS = range(7)
P_TEAMS, P_WIN_LENGTH, P_COUNT_PARTNER, P_NPOINTS = 7, 8, 9, 10
CHOSEN = 1 << 18
#: TRIA patterns as codes: 1 = own stone, 0 = empty, one row per pattern.
_TRIA = [[1 if c == "x" else 0 for c in pattern] for pattern in TRIA]


class RuleArrays(NamedTuple):
    """The rule arrays of one kernel by name: one argument for the compiled searches (Numba
    compiles a NamedTuple of arrays as fast as the arrays passed one by one)."""

    points: np.ndarray  # the board's points (cell indices)
    inner: np.ndarray  # per cell: 1 within 2 of the centre (the tournament rule's square)
    lines: np.ndarray  # every line of the board, a row each (padded)
    line_len: np.ndarray  # its length
    tria: np.ndarray  # the open-tria patterns (double tria rule)
    dirs8: np.ndarray  # the 8 direction offsets
    par: np.ndarray  # the game's options (``P_*``)


@njit
def _partner(par, players, p):
    return (p + 2) % 4 if par[P_TEAMS] and players == 4 else -1


@njit
def capture_dirs(dirs8, s, i, me):
    """Bit k set when a stone of cell value ``me`` on ``i`` brackets a pair along ``dirs8[k]``."""
    mask = 0
    for k in range(8):
        d = dirs8[k]
        a = s[HEADER + i + d]
        if a != me and EMPTY < a < OFF:
            b = s[HEADER + i + 2 * d]
            if b != me and EMPTY < b < OFF and s[HEADER + i + 3 * d] == me:
                mask |= 1 << k
    return mask


@njit
def _choices(par, dirs8, s, i, me, out, count):
    """Append the moves placing on ``i``: one, or one per allowed choice of pairs."""
    m = par[P_MAX_PAIRS]
    if m == 0:
        out[count] = i
        return count + 1
    mask = capture_dirs(dirs8, s, i, me)
    k = 0
    x = mask
    while x:
        x &= x - 1
        k += 1
    if k <= m:
        out[count] = i
        return count + 1
    sub = mask  # every subset of ``mask`` with exactly m directions
    while sub:
        bits = 0
        y = sub
        while y:
            y &= y - 1
            bits += 1
        if bits == m:
            out[count] = i | CHOSEN | sub << 10
            count += 1
        sub = (sub - 1) & mask
    return count


@njit
def legal_moves(points, inner, dirs8, par, s, out):
    if s[S_RESULT] != ONGOING:
        return 0
    me = s[S_TO_MOVE] + 1
    centre = par[P_CENTRE]
    if s[S_PLACED] == 0 and s[HEADER + centre] == EMPTY:
        out[0] = centre
        return 1
    restrict = par[P_TOURNAMENT] and s[S_PLACED] == s[S_PLAYERS]
    count = 0
    for k in range(par[P_NPOINTS]):
        i = points[k]
        if s[HEADER + i] == EMPTY and not (restrict and inner[i]):
            count = _choices(par, dirs8, s, i, me, out, count)
    return count


@njit
def _run_length(s, i, d, me):
    n = 1
    j = i + d
    while s[HEADER + j] == me:
        n += 1
        j += d
    j = i - d
    while s[HEADER + j] == me:
        n += 1
        j -= d
    return n


@njit
def _line_wins(par, dirs8, s, i, me):
    need = par[P_WIN_LENGTH]
    for k in range(4):
        n = _run_length(s, i, dirs8[k], me)
        if n == need or (n > need and not par[P_EXACT]):
            return True
    return False


@njit
def _has_line(points, par, dirs8, s, me):
    """Whether cell value ``me`` owns a qualifying line anywhere (full scan)."""
    need = par[P_WIN_LENGTH]
    for k in range(par[P_NPOINTS]):
        i = points[k]
        if s[HEADER + i] != me:
            continue
        for q in range(4):
            d = dirs8[q]
            if s[HEADER + i - d] == me:
                continue  # not the start of the run
            n = 1
            j = i + d
            while s[HEADER + j] == me:
                n += 1
                j += d
            if n == need or (n > need and not par[P_EXACT]):
                return True
    return False


@njit
def _open_tria_lines(lines, line_len, tria, s, me):
    """How many board lines hold an open tria of cell value ``me`` (``board.TRIA``)."""
    found = 0
    for li in range(lines.shape[0]):
        length = line_len[li]
        hit = False
        for start in range(length - 5):
            for p in range(tria.shape[0]):
                ok = True
                for q in range(6):
                    c = s[HEADER + lines[li, start + q]]
                    if tria[p, q] == 1:
                        if c != me:
                            ok = False
                            break
                    elif c != EMPTY:
                        ok = False
                        break
                if ok:
                    hit = True
                    break
            if hit:
                break
        if hit:
            found += 1
    return found


@njit
def _win(par, s, p, reason):
    partner = _partner(par, s[S_PLAYERS], p)
    s[S_RESULT] = 1 << p | (1 << partner if partner >= 0 else 0)
    s[S_REASON] = reason
    s[S_TO_MOVE] = -1


@njit
def play(points, lines, line_len, tria, dirs8, par, s, code, undo):
    """Play the legal move ``code`` (``PenteState._apply``). ``undo`` receives the header and
    the cells changed, for ``unplay``."""
    i = code & 1023
    p = s[S_TO_MOVE]
    me = p + 1
    undo[:HEADER] = s[:HEADER]
    changed = 0
    undo[HEADER] = i
    undo[HEADER + 1] = EMPTY
    changed = 1
    s[HEADER + i] = me
    s[S_STONES] += 1
    s[S_PLACED] += 1
    s[S_LAST] = i
    mask = (code >> 10) & 255 if code & CHOSEN else capture_dirs(dirs8, s, i, me)
    if mask:
        partner = _partner(par, s[S_PLAYERS], p)
        counted = 0
        removed = 0
        for k in range(8):
            if not mask >> k & 1:
                continue
            d = dirs8[k]
            for j in (i + d, i + 2 * d):
                c = s[HEADER + j]
                undo[HEADER + 2 * changed] = j
                undo[HEADER + 2 * changed + 1] = c
                changed += 1
                s[HEADER + j] = EMPTY
                removed += 1
                if c - 1 != partner or par[P_COUNT_PARTNER]:
                    counted += 1
                if par[P_EXACT]:
                    s[S_MAYBE_LINE] |= 1 << (c - 1)
        s[S_STONES] -= removed
        s[S_CAPS + p] += counted
    undo[HEADER - 1] = changed
    _decide(points, lines, line_len, tria, dirs8, par, s, i, p, me)


@njit
def unplay(s, undo):
    for k in range(undo[HEADER - 1] - 1, -1, -1):
        s[HEADER + undo[HEADER + 2 * k]] = undo[HEADER + 2 * k + 1]
    s[: HEADER - 1] = undo[: HEADER - 1]


@njit
def _decide(points, lines, line_len, tria, dirs8, par, s, i, p, me):
    made_line = _line_wins(par, dirs8, s, i, me)
    if not made_line and s[S_MAYBE_LINE] >> p & 1:
        made_line = _has_line(points, par, dirs8, s, me)
    s[S_MAYBE_LINE] &= ~(1 << p)
    players = s[S_PLAYERS]
    partner = _partner(par, players, p)
    team = s[S_CAPS + p] + (s[S_CAPS + partner] if partner >= 0 else 0)
    capture_win = team >= CAPTURE_TARGET
    pending = s[S_PENDING]
    if pending >= 0:
        s[S_PENDING] = -1
        if made_line:
            _win(par, s, p, R_LINE_ANSWERS_TRIA)
        elif capture_win and par[P_OVERRIDES]:
            _win(par, s, p, R_CAPTURE_ANSWERS_TRIA)
        else:
            _win(par, s, pending, R_DOUBLE_TRIA)
        return
    if made_line:
        _win(par, s, p, R_LINE)
        return
    if capture_win:
        _win(par, s, p, R_CAPTURES)
        return
    if par[P_DOUBLE_TRIA] and _open_tria_lines(lines, line_len, tria, s, me) >= 2:
        s[S_PENDING] = p
    if s[S_STONES] == par[P_NPOINTS]:
        if s[S_PENDING] >= 0:
            _win(par, s, s[S_PENDING], R_TRIA_BOARD_FULL)
        else:
            s[S_RESULT] = DRAW
            s[S_REASON] = R_BOARD_FULL
            s[S_TO_MOVE] = -1
        return
    s[S_TO_MOVE] = (p + 1) % players


@njit
def _random_move(points, inner, dirs8, par, s, rng, buf):
    """A uniformly random legal move: by rejection over the points when every empty point is
    one move (no ``max_pairs_per_move``), else from the full list."""
    if par[P_MAX_PAIRS] == 0 and s[S_STONES] * 2 < par[P_NPOINTS]:
        centre = par[P_CENTRE]
        if s[S_PLACED] == 0 and s[HEADER + centre] == EMPTY:
            return centre
        restrict = par[P_TOURNAMENT] and s[S_PLACED] == s[S_PLAYERS]
        while True:
            i = points[rand_below(rng, par[P_NPOINTS])]
            if s[HEADER + i] == EMPTY and not (restrict and inner[i]):
                return i
    n = legal_moves(points, inner, dirs8, par, s, buf)
    return buf[rand_below(rng, n)]


@njit
def _playout(points, inner, lines, line_len, tria, dirs8, par, s, rng, buf, undo, cap):
    """Random moves from ``s`` until the game ends or ``cap`` plies (0: no cap); the plies."""
    plies = 0
    while s[S_RESULT] == ONGOING and (cap == 0 or plies < cap):
        code = _random_move(points, inner, dirs8, par, s, rng, buf)
        play(points, lines, line_len, tria, dirs8, par, s, code, undo)
        plies += 1
    return plies


@njit
def playouts(points, inner, lines, line_len, tria, dirs8, par, s0, rng, games, cap):
    """``games`` random playouts from ``s0``: (plies, draws, unfinished, wins per player x4)."""
    buf = np.empty(par[P_NPOINTS] * 8 + 8, np.int64)
    undo = np.empty(HEADER + 2 * 20, np.int64)
    s = s0.copy()
    stats = np.zeros(7, np.int64)
    for _ in range(games):
        s[:] = s0
        stats[0] += _playout(points, inner, lines, line_len, tria, dirs8, par, s, rng, buf, undo, cap)
        r = s[S_RESULT]
        if r == DRAW:
            stats[1] += 1
        elif r == ONGOING:
            stats[2] += 1
        else:
            for p in range(4):
                if r >> p & 1:
                    stats[3 + p] += 1
    return stats


@njit_signed(  # recursive: an explicit signature, see ``qipan.fast.njit_signed``
    "i8(i8[::1], i8[::1], i8[:, ::1], i8[::1], i8[:, ::1], i8[::1], i8[::1], i8[::1], i8, i8[:, ::1], i8[:, ::1])"
)
def _perft(points, inner, lines, line_len, tria, dirs8, par, s, depth, bufs, undos):
    buf = bufs[depth]
    n = legal_moves(points, inner, dirs8, par, s, buf)
    if depth == 1:
        return n
    total = 0
    undo = undos[depth]
    for k in range(n):
        play(points, lines, line_len, tria, dirs8, par, s, buf[k], undo)
        total += _perft(points, inner, lines, line_len, tria, dirs8, par, s, depth - 1, bufs, undos)
        unplay(s, undo)
    return total


@njit
def perft(points, inner, lines, line_len, tria, dirs8, par, s, depth):
    if depth <= 0:
        return 1
    bufs = np.empty((depth + 1, par[P_NPOINTS] * 8 + 8), np.int64)
    undos = np.empty((depth + 1, HEADER + 2 * 20), np.int64)
    return _perft(points, inner, lines, line_len, tria, dirs8, par, s.copy(), depth, bufs, undos)


# -- the reference evaluation, compiled (``evaluation.py``: ``move_score``, ``evaluate``) --------
# ``ev``: the evaluation's weights, passed in from ``evaluation.py`` (so that a cached
# compilation never keeps old values): ATTACK[5], DEFENCE[5], then the four below.
E_ATTACK, E_DEFENCE, E_CAPTURE, E_CAPTURE_BLOCK, E_CAPTURE_THREAT, E_EXPOSED = 0, 5, 10, 11, 12, 13
#: Cell codes seen from one player (``evaluation.C_*``): foes get C_FOE + their seat offset.
C_EMPTY, C_OWN, C_PARTNER, C_OFF, C_FOE = 0, 1, 2, 3, 4


@njit
def _enemy(par, players, p, q):
    return q != p and q != _partner(par, players, p)


@njit
def _team(par, s, p):
    partner = _partner(par, s[S_PLAYERS], p)
    return s[S_CAPS + p] + (s[S_CAPS + partner] if partner >= 0 else 0)


@njit
def _codes(par, players, p, code):
    """``code[cell value]``: the cell seen from ``p`` (``evaluation._make_codes``)."""
    code[:] = C_OFF
    code[EMPTY] = C_EMPTY
    partner = _partner(par, players, p)
    for q in range(players):
        code[q + 1] = C_OWN if q == p else C_PARTNER if q == partner else C_FOE + (q - p) % players


@njit
def _is_stone(c):  # a stone of another seat (partner or foe): not empty, own or off
    return c == C_PARTNER or c >= C_FOE


@njit
def move_score(par, ev, dirs8, s, i, p, code):
    """``evaluation.move_score``: line windows through ``i``, captures, pairs saved, capture
    threats made and own pairs exposed, for ``p`` placing on empty ``i`` (``code``: from
    ``_codes`` for ``p``)."""
    need = par[P_WIN_LENGTH]
    score = 0
    taken = 0
    saved = 0
    cells = np.empty(9, np.int64)
    for k in range(4):
        d = dirs8[k]
        for t in range(9):
            cells[t] = code[s[HEADER + i + (t - 4) * d]]
        cells[4] = C_EMPTY
        for start in range(5 - need, 5):
            own = empty = 0
            foe = -1
            clean = True  # holds no off-board point, partner stone or two foes
            for t in range(start, start + need):
                c = cells[t]
                if c == C_OFF:
                    clean = False
                    foe = -2
                    break
                if c == C_EMPTY:
                    empty += 1
                elif c == C_OWN:
                    own += 1
                elif c == C_PARTNER or (foe >= 0 and c != foe):
                    clean = False
                else:
                    foe = c
            if foe == -2:
                continue
            if own == need - empty and clean:
                score += ev[E_ATTACK + own]
            elif own == 0 and clean and foe >= 0:
                score += ev[E_DEFENCE + need - empty]
        for side in (1, -1):
            a, b, c = cells[4 + side], cells[4 + 2 * side], cells[4 + 3 * side]
            back = cells[4 - side]
            if _is_stone(a) and _is_stone(b) and c == C_OWN:
                for x in (a, b):
                    if x != C_PARTNER or par[P_COUNT_PARTNER]:
                        taken += 1
            if (a == C_OWN or a == C_PARTNER) and (b == C_OWN or b == C_PARTNER) and c >= C_FOE:
                saved += 1
            if a >= C_FOE and b >= C_FOE and c == C_EMPTY:
                score += ev[E_CAPTURE_THREAT]
            if (a == C_OWN and b >= C_FOE and back == C_EMPTY) or (
                a == C_OWN and b == C_EMPTY and back >= C_FOE
            ):
                score -= ev[E_EXPOSED]
    if taken:
        m = par[P_MAX_PAIRS]
        if m and taken > 2 * m:
            taken = 2 * m
        score += ev[E_CAPTURE] * taken // 2 * (1 + _team(par, s, p) // 4)
    if saved:
        players = s[S_PLAYERS]
        worst = 0
        for q in range(players):
            if _enemy(par, players, p, q) and s[S_CAPS + q] > worst:
                worst = s[S_CAPS + q]
        score += ev[E_CAPTURE_BLOCK] * saved * (1 + worst // 4)
    return score


@njit
def _allowed(points, inner, par, s, i):
    """``PenteState._placement_error(i) is None`` for an empty ``i``."""
    centre = par[P_CENTRE]
    if s[S_PLACED] == 0 and i != centre and s[HEADER + centre] == EMPTY:
        return False
    return not (par[P_TOURNAMENT] and s[S_PLACED] == s[S_PLAYERS] and inner[i])


@njit
def near_points(points, inner, dirs8, par, s, out, mark):
    """``evaluation.candidates(state, 1)``: the empty points next to a stone (the centre, or
    every empty point, on a board without stones), only where the opening rules allow;
    ``mark`` is scratch of the board's size."""
    n = 0
    mark[:] = 0
    for k in range(par[P_NPOINTS]):
        i = points[k]
        if s[HEADER + i] != EMPTY:
            for q in range(8):
                j = i + dirs8[q]
                if s[HEADER + j] == EMPTY and not mark[j]:
                    mark[j] = 1
                    out[n] = j
                    n += 1
    if n == 0:
        centre = par[P_CENTRE]
        if s[HEADER + centre] == EMPTY:
            out[0] = centre
            n = 1
        else:
            for k in range(par[P_NPOINTS]):
                if s[HEADER + points[k]] == EMPTY:
                    out[n] = points[k]
                    n += 1
    if s[S_PLACED] <= s[S_PLAYERS]:
        kept = 0
        for t in range(n):
            if _allowed(points, inner, par, s, out[t]):
                out[kept] = out[t]
                kept += 1
        if kept == 0:  # the legal moves' points
            for k in range(par[P_NPOINTS]):
                i = points[k]
                if s[HEADER + i] == EMPTY and _allowed(points, inner, par, s, i):
                    out[kept] = i
                    kept += 1
        n = kept
    return n


@njit
def evaluate(points, inner, dirs8, par, ev, s, player):
    """``evaluation.evaluate``: the value in [-1, 1] of the unfinished ``s`` for ``player``."""
    out = np.empty(par[P_NPOINTS], np.int64)
    mark = np.zeros(s.shape[0] - HEADER, np.int64)
    n = near_points(points, inner, dirs8, par, s, out, mark)
    if n == 0:
        return 0.0
    players = s[S_PLAYERS]
    mover = s[S_TO_MOVE]
    code = np.empty(OFF + 1, np.int64)
    _codes(par, players, mover, code)
    best_mover = move_score(par, ev, dirs8, s, out[0], mover, code)
    for t in range(1, n):
        v = move_score(par, ev, dirs8, s, out[t], mover, code)
        if v > best_mover:
            best_mover = v
    best_other = 0
    first = True
    for q in range(players):
        if not _enemy(par, players, mover, q):
            continue
        _codes(par, players, q, code)
        for t in range(n):
            v = move_score(par, ev, dirs8, s, out[t], q, code)
            if first or v > best_other:
                best_other = v
                first = False
    raw = best_mover - 0.6 * best_other
    if _enemy(par, players, mover, player):
        raw = -raw
    worst = -1
    for q in range(players):
        if _enemy(par, players, player, q) and (worst < 0 or _team(par, s, q) > worst):
            worst = _team(par, s, q)
    raw += 60 * (_team(par, s, player) - worst)
    return max(-0.99, min(0.99, raw / 4000))


@njit
def rewards(points, inner, dirs8, par, ev, s, out):
    """Each player's playout reward in [0, 1] (``mcts``): the outcome's, or the evaluation's
    for a cut playout."""
    players = s[S_PLAYERS]
    r = s[S_RESULT]
    for p in range(players):
        if r == ONGOING:
            out[p] = (evaluate(points, inner, dirs8, par, ev, s, p) + 1.0) / 2.0
        elif r == DRAW:
            out[p] = 0.5
        else:
            out[p] = 1.0 if r >> p & 1 else 0.0


# -- UCT for ``mcts`` (every player count), run by ``agents/uct_kernel.py`` over the hooks below --
# A node's untried moves are the first ``N_UNTRIED`` of its legal moves, listed again when one
# is expanded (a 19x19 list per node would cost more memory than the tree); the root's stay in
# ``G.root_moves``.
class UctArrays(NamedTuple):
    """``G`` of the UCT hooks."""

    rules: RuleArrays
    ev: np.ndarray  # the evaluation's weights (a playout cut short is scored)
    root_moves: np.ndarray  # the root's untried moves (shuffled)
    buf: np.ndarray  # a move list
    undo: np.ndarray  # an undo record


@njit_inline
def uct_room(G, meta):
    return True  # the tree alone grows


@njit_inline
def uct_reset(G, s, root):
    s[:] = root


@njit_inline
def uct_ongoing(s):
    return s[S_RESULT] == ONGOING


@njit_inline
def uct_expand(G, s, nodes, stats, meta, code):
    R = G.rules
    listed = G.root_moves if meta[M_NODES] == 0 else G.buf
    n = legal_moves(R.points, R.inner, R.dirs8, R.par, s, listed)
    return append_node(nodes, stats, meta, code, s[S_TO_MOVE], n)


@njit_inline
def uct_root_untried(G):
    return G.root_moves


@njit_inline
def uct_untried(G, s, nodes, node, k):
    R = G.rules
    if node == 0:
        return G.root_moves[k]
    legal_moves(R.points, R.inner, R.dirs8, R.par, s, G.buf)
    return G.buf[k]


@njit_inline
def uct_play(G, s, code):
    R = G.rules
    play(R.points, R.lines, R.line_len, R.tria, R.dirs8, R.par, s, code, G.undo)


@njit_inline
def uct_playout(G, s, rng, cap):
    R = G.rules
    _playout(R.points, R.inner, R.lines, R.line_len, R.tria, R.dirs8, R.par, s, rng, G.buf, G.undo, cap)


@njit_inline
def uct_rewards(G, s, out):
    R = G.rules
    rewards(R.points, R.inner, R.dirs8, R.par, G.ev, s, out)
    return s[S_PLAYERS]


#: ``run(G, root, nodes, stats, meta, rng, iterations, exploration, cap)``: UCT iterations.
mcts_run = uct_kernel.uct_loop(sys.modules[__name__], also=[Path(__file__).parent / "board.py"])


# -- alpha-beta for ``alphabeta`` (two players), run by ``agents/ab_kernel.py`` over the hooks
# below: exact values of the generic agent's search (full width, the reference evaluation), found
# faster: a Zobrist transposition table (the reference state's ``zhash``, kept per ply as moves
# are played, plus the header fields of its ``key``), killer and history ordering.
#: Plies of the search's arrays (it deepens to two less).
MAX_PLY = 64
#: Header keys (``zh``): side to move + 1, pending + 1 (from 8), captures (from 16, 32 per
#: player), the opening ply + 1 (from 144: the ply while it is at most the players, else 0).
Z_PENDING, Z_CAPS, Z_OPENING, Z_SIZE = 8, 16, 144, 152


class AlphaBetaArrays(NamedTuple):
    """``G`` of the alpha-beta hooks."""

    rules: RuleArrays
    ev: np.ndarray  # the evaluation's weights
    offs2: np.ndarray  # offsets of the points within two of a point (ordering)
    zob: np.ndarray  # the reference Zobrist keys per cell and content
    zh: np.ndarray  # keys of the header fields (``Z_*``)
    hashes: np.ndarray  # the cells' hash per ply (the root's set before the search)
    undos: np.ndarray  # an undo record per ply
    mark: np.ndarray  # ordering scratch: the cells within two of a stone
    code: np.ndarray  # ordering scratch: move codes by what a cell holds


@njit
def note_cutoff(killers, history, ply, code, point, depth):
    """A move that cut off at ``ply``: the first killer there (the old first one second), and
    history credit for its point (``kernel_search.py`` orders by both too)."""
    if killers[ply, 0] != code:
        killers[ply, 1] = killers[ply, 0]
        killers[ply, 0] = code
    history[point] += depth * depth


@njit
def position_key(zh, s, h):
    """The transposition key: ``h`` (the cells' Zobrist hash) and the header (``key()``)."""
    k = h ^ zh[s[S_TO_MOVE] + 1] ^ zh[Z_PENDING + s[S_PENDING] + 1]
    for q in range(s[S_PLAYERS]):
        k ^= zh[Z_CAPS + 32 * q + min(s[S_CAPS + q], 31)]
    placed = s[S_PLACED]
    return k ^ zh[Z_OPENING + (placed + 1 if placed <= s[S_PLAYERS] else 0)]


@njit
def cells_key(points, zob, s):
    """The reference ``zhash`` of ``s``'s cells."""
    h = np.uint64(0)
    for k in range(points.shape[0]):
        c = s[HEADER + points[k]]
        if c != EMPTY:
            h ^= zob[points[k], c]
    return h


@njit
def _order(points, dirs8, par, ev, offs2, s, moves, scores, n, tt_move, killers, history, ply, mark, code):
    """Scores to try the moves best first: the table's move, killers, points within two of a
    stone by ``move_score`` (``evaluation.order_moves``) plus history, then the rest."""
    p = s[S_TO_MOVE]
    _codes(par, s[S_PLAYERS], p, code)
    mark[:] = 0
    for k in range(par[P_NPOINTS]):
        i = points[k]
        if s[HEADER + i] != EMPTY:
            for a in range(offs2.shape[0]):
                mark[i + offs2[a]] = 1
    for t in range(n):
        c = moves[t]
        i = c & 1023
        if c == tt_move:
            scores[t] = 1 << 60
        elif c == killers[ply, 0]:
            scores[t] = 1 << 58
        elif c == killers[ply, 1]:
            scores[t] = (1 << 58) - 1
        elif mark[i]:
            scores[t] = (1 << 40) + move_score(par, ev, dirs8, s, i, p, code) + history[i]
        else:
            scores[t] = history[i]


@njit_inline
def ab_over(G, s):
    return s[S_RESULT] != ONGOING


@njit_inline
def ab_final(G, s, ply, player):
    r = s[S_RESULT]
    if r == DRAW:
        return 0.0
    return WIN - ply if r >> player & 1 else -WIN + ply


@njit_inline
def ab_horizon(G, s):
    return False  # a state has room for every move


@njit_inline
def ab_evaluate(G, s, player):
    R = G.rules
    return evaluate(R.points, R.inner, R.dirs8, R.par, G.ev, s, player)


@njit_inline
def ab_key(G, s, ply):
    return position_key(G.zh, s, G.hashes[ply])


@njit_inline
def ab_slot(G, key, mask):
    return np.int64(key & np.uint64(mask))


@njit_inline
def ab_moves(G, s, ply, out):
    R = G.rules
    return legal_moves(R.points, R.inner, R.dirs8, R.par, s, out)


@njit_inline
def ab_order(G, W, s, ply, moves, scores, n, tt_move):
    R, killers, history = G.rules, W.killers, W.history
    _order(
        R.points,
        R.dirs8,
        R.par,
        G.ev,
        G.offs2,
        s,
        moves,
        scores,
        n,
        tt_move,
        killers,
        history,
        ply,
        G.mark,
        G.code,
    )


@njit_inline
def ab_play(G, s, ply, code):
    R, undo = G.rules, G.undos[ply]
    play(R.points, R.lines, R.line_len, R.tria, R.dirs8, R.par, s, code, undo)
    h = G.hashes[ply]
    for u in range(undo[HEADER - 1]):  # the cells the move changed
        j = undo[HEADER + 2 * u]
        h ^= G.zob[j, undo[HEADER + 2 * u + 1]] ^ G.zob[j, s[HEADER + j]]
    G.hashes[ply + 1] = h


@njit_inline
def ab_undo(G, s, ply):
    unplay(s, G.undos[ply])


@njit_inline
def ab_cutoff(G, W, ply, code, depth):
    note_cutoff(W.killers, W.history, ply, code, code & 1023, depth)


#: ``run(G, W, s, depth, player)``: one alpha-beta iteration (``ab_kernel.ab_loop``).
alphabeta_run = ab_kernel.ab_loop(sys.modules[__name__], also=[Path(__file__).parent / "board.py"])


# -- the Python side -----------------------------------------------------------------------------
class PenteKernel:
    """The compiled twin of one Pente game (board size and options)."""

    def __init__(self, game):
        g = self.geom = game.geom
        self.game = game
        self.points = np.array(g.points, np.int64)
        self.inner = np.zeros(g.size, np.int64)
        for i in g.inner:
            self.inner[i] = 1
        self.dirs8 = np.array(g.dirs8, np.int64)
        longest = max(len(line) for line in g.lines)
        self.lines = np.zeros((len(g.lines), longest), np.int64)
        self.line_len = np.array([len(line) for line in g.lines], np.int64)
        for k, line in enumerate(g.lines):
            self.lines[k, : len(line)] = line
        self.tria = np.array(_TRIA, np.int64)
        par = np.zeros(11, np.int64)
        par[P_N], par[P_CENTRE] = g.n, g.centre
        par[P_TOURNAMENT], par[P_EXACT] = game.tournament, game.exact
        par[P_DOUBLE_TRIA], par[P_OVERRIDES] = game.double_tria, game.capture_win_overrides
        par[P_MAX_PAIRS] = game.max_pairs or 0
        par[P_TEAMS], par[P_WIN_LENGTH] = game.teams, game.win_length
        par[P_COUNT_PARTNER], par[P_NPOINTS] = game.count_partner, len(g.points)
        self.par = par
        self.arrays = RuleArrays(
            self.points, self.inner, self.lines, self.line_len, self.tria, self.dirs8, par
        )
        self._buf = np.empty(len(g.points) * 8 + 8, np.int64)
        self._undo = np.empty(HEADER + 2 * 20, np.int64)
        # The generic agents' searches: the evaluation's weights, the points within two of a
        # stone (move ordering), the reference Zobrist keys and keys for the header fields.
        from . import evaluation as e

        self.ev = np.array(
            [*e.ATTACK, *e.DEFENCE, e.CAPTURE, e.CAPTURE_BLOCK, e.CAPTURE_THREAT, e.EXPOSED], np.int64
        )
        w = g.width
        self.offs2 = np.array([r * w + c for r in range(-2, 3) for c in range(-2, 3) if r or c], np.int64)
        self.zob = np.zeros((g.size, 8), np.uint64)
        self.zob[:, 1:5] = np.array([row[1:5] for row in g.zobrist], np.uint64)
        self.zh = np.random.default_rng(0x5EED).integers(0, 2**63, Z_SIZE, np.int64).astype(np.uint64)

    def _rules(self):
        return self.points, self.lines, self.line_len, self.tria, self.dirs8, self.par

    # -- states and moves --------------------------------------------------------------------
    def state(self, ref) -> np.ndarray:
        s = np.zeros(HEADER + self.geom.size, np.int64)
        s[: S_RESULT + 1] = self._header(ref)
        s[S_PLAYERS] = ref.num_players
        s[HEADER:] = ref.cells
        return s

    @staticmethod
    def _header(ref) -> list[int]:
        """The fields of ``ref`` in the kernel state's header, up to ``S_RESULT``."""
        caps = [*ref.captures, *[0] * (4 - ref.num_players)]
        result = ONGOING if ref.outcome is None else sum(1 << p for p in ref.outcome.winners)
        to_move = -1 if ref.to_move is None else ref.to_move
        return [to_move, ref.placed, ref.stones, ref.pending, ref.maybe_line, ref.last, *caps, result]

    @staticmethod
    def snapshot(s) -> tuple[int, ...]:
        """The position fields of ``s`` (header, every cell) for comparing with the rules."""
        return tuple(s[: S_RESULT + 1].tolist() + s[HEADER:].tolist())

    def snapshot_of(self, ref) -> tuple[int, ...]:
        """``snapshot(state(ref))`` without building the state (``qipan.fast.check_kernel``)."""
        return tuple(self._header(ref) + list(ref.cells))

    def moves_of(self, codes: list[int]) -> list:
        """The reference Moves of kernel codes: a plain placement is the board's own Move."""
        if len(codes) > 1:
            try:
                return list(itemgetter(*codes)(self.geom.moves))  # one call: CI compares thousands of games
            except IndexError:  # a choice of pairs (``max_pairs_per_move``)
                pass
        return [self.move(c) for c in codes]

    def legal(self, s) -> list[int]:
        n = legal_moves(self.points, self.inner, self.dirs8, self.par, s, self._buf)
        return self._buf[:n].tolist()

    def play(self, s, code: int) -> None:
        play(*self._rules()[:5], self.par, s, code, self._undo)

    def code(self, move) -> int:
        i, dirs = move.data
        if dirs is None:
            return i
        dirs8 = self.geom.dirs8
        return i | CHOSEN | sum(1 << dirs8.index(d) for d in dirs) << 10

    def move(self, code: int):
        g = self.geom
        i = code & 1023
        if not code & CHOSEN:
            return g.moves[i]
        mask = code >> 10 & 255
        return g.choice_move(i, tuple(d for k, d in enumerate(g.dirs8) if mask >> k & 1))

    def outcome(self, s):
        from ...core.outcome import Outcome

        result, reason = int(s[S_RESULT]), int(s[S_REASON])
        if result == ONGOING:
            return None
        players = int(s[S_PLAYERS])
        line_word = "five" if self.game.win_length == 5 else "four"
        if result == DRAW:
            return Outcome.draw(players, "board full")
        text = {
            R_LINE_ANSWERS_TRIA: f"{line_word} in a row answers the double open tria",
            R_CAPTURE_ANSWERS_TRIA: "capture win answers the double open tria",
            R_DOUBLE_TRIA: "double open tria",
            R_LINE: f"{line_word} in a row",
            R_CAPTURES: f"{CAPTURE_TARGET} stones captured",
            R_TRIA_BOARD_FULL: "double open tria (board full)",
        }[reason]
        return Outcome.win([p for p in range(4) if result >> p & 1], players, text)

    # -- bulk work ---------------------------------------------------------------------------
    def perft(self, ref, depth: int) -> int:
        points, lines, line_len, tria, dirs8, par = self._rules()
        return int(perft(points, self.inner, lines, line_len, tria, dirs8, par, self.state(ref), depth))

    def playouts(self, ref, games: int, seed: int, cap: int = 0):
        """(plies, draws, unfinished, wins of players 1..4) over ``games`` random playouts."""
        points, lines, line_len, tria, dirs8, par = self._rules()
        rng = np.array([seed_word(seed)], np.uint64)
        stats = playouts(
            points, self.inner, lines, line_len, tria, dirs8, par, self.state(ref), rng, games, cap
        )
        return tuple(int(x) for x in stats)

    def warm_up(self, ref) -> None:
        self.perft(ref, 2)
        self.playouts(ref, 1, 1, 20)
        self.mcts(ref, iterations=4, playout_cap=20)
        if ref.num_players == 2:
            self.alphabeta(ref, depth=1)
        from .kernel_search import warm_up  # the pente agent's compiled search, too
        from .threats_kernel import warm_up as warm_up_threats

        warm_up(self, ref)
        warm_up_threats(self, ref)

    #: The searches this kernel runs for the generic agents (``mcts`` for every player count,
    #: ``alphabeta`` for two players, as that agent).
    searches = ("mcts", "alphabeta")
    #: Its optional members (``qipan.fast.KernelOptions``).
    provides = frozenset({"moves_of", "snapshot_of", "perft", "evaluate", "mcts", "uct", "alphabeta"})

    def evaluate(self, s, player: int) -> float:
        """``game.evaluate`` of the unfinished kernel state ``s`` for ``player``."""
        return float(evaluate(self.points, self.inner, self.dirs8, self.par, self.ev, s, player))

    def mcts(self, ref, iterations=None, deadline=None, seed=0, exploration=1.4, playout_cap=400):
        """UCT inside the kernel, as ``mcts`` searches: (the chosen Move, iterations done).
        Stops at ``iterations`` or when the agents' clock passes ``deadline``."""
        tree, done = self.uct(ref, iterations, deadline, seed, exploration, playout_cap)
        return self.move(int(best_move(tree.nodes, tree.stats, ref.to_move))), done

    def uct(self, ref, iterations=None, deadline=None, seed=0, exploration=1.4, playout_cap=400):
        """The tree of ``mcts`` (``uct_kernel.Tree``: ``root_children`` gives the visits) and
        the iterations done."""
        root = self.state(ref)
        rng = np.array([seed_word(seed)], np.uint64)
        room = len(self.geom.points) * 8 + 8
        tree = Tree(min(iterations + 2, 1 << 15) if iterations else 2048, N_GAME, 4)
        buffers = np.empty(room, np.int64), np.empty(room, np.int64), self._undo.copy()
        game = UctArrays(self.arrays, self.ev, *buffers)
        args = (mcts_run, tree, lambda: game, root, rng, iterations, deadline, exploration, playout_cap)
        return tree, uct_kernel.search(*args, 16, 1024)

    def alphabeta(self, ref, depth=None, deadline=None, table_bits: int = 18):
        """Alpha-beta inside the kernel with ``alphabeta``'s values (full width,
        ``game.evaluate``), deepening to ``depth`` (default 64) or until the agents' clock
        passes ``deadline`` (``ab_kernel.deepen``): the move of the deepest completed
        iteration, its score for the side to move, that depth and the nodes searched."""
        if ref.num_players != 2:
            raise OptionError("the alphabeta agent plays two-player games only; use mcts")
        s = self.state(ref)
        room = len(self.geom.points) * 8 + 8
        work = ab_kernel.workspace(MAX_PLY, room, table_bits, self.geom.size, np.uint64, 0, -1)
        arrays = AlphaBetaArrays(
            self.arrays, self.ev, self.offs2, self.zob, self.zh,
            hashes=np.zeros(MAX_PLY + 1, np.uint64),
            undos=np.empty((MAX_PLY, HEADER + 2 * 20), np.int64),
            mark=np.zeros(s.shape[0] - HEADER, np.int64),
            code=np.empty(OFF + 1, np.int64),
        )  # fmt: skip
        arrays.hashes[0] = cells_key(self.points, self.zob, s)
        first = self.legal(s)[0]
        found = ab_kernel.deepen(
            alphabeta_run, arrays, work, s, int(s[S_TO_MOVE]), first, depth, deadline, 20_000.0
        )
        return AlphaBetaResult(self.move(found.move), found.score, found.depth, found.nodes)


class AlphaBetaResult:
    __slots__ = ("move", "score", "depth", "nodes")

    def __init__(self, move, score, depth, nodes):
        self.move, self.score, self.depth, self.nodes = move, score, depth, nodes


def kernel_for(game):
    """The kernel of ``game`` (one per option set), or None when kernels are off."""
    from ...fast import enabled

    if not enabled(game.family):
        return None
    key = tuple(sorted(game.options.items()))
    kernel = _KERNELS.get(key)
    if kernel is None:
        kernel = _KERNELS[key] = PenteKernel(game)
    return kernel


_KERNELS: dict = {}
