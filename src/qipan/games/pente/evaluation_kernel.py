"""The compiled twin of the reference evaluation (``evaluation.py``) over the kernel's states
(``kernel.py``): ``move_score`` (line windows, captures, pairs saved, capture threats, pairs
exposed), ``near_points`` (the candidates next to a stone), ``evaluate`` (the value in
[-1, 1] that the generic ``alphabeta`` scores its horizon by, with the same values) and
``rewards`` (a playout's reward per player for the generic ``mcts``).

They call ``kernel.py``'s compiled functions and compile in ``board.py``'s constants, so each
is compiled with a cache emptied when one of ``SOURCES`` changes (``fast.njit_guarded``)."""

from __future__ import annotations

from pathlib import Path

from ... import fast
from ...fast import njit_guarded, np
from . import board, kernel
from .board import EMPTY, OFF
from .kernel import (
    DRAW,
    HEADER,
    ONGOING,
    P_CENTRE,
    P_COUNT_PARTNER,
    P_MAX_PAIRS,
    P_NPOINTS,
    P_TOURNAMENT,
    P_WIN_LENGTH,
    S_CAPS,
    S_PLACED,
    S_PLAYERS,
    S_RESULT,
    S_TO_MOVE,
    _partner,
)

#: The files compiled into this file's functions.
SOURCES = (Path(__file__), Path(kernel.__file__), Path(board.__file__), Path(fast.__file__))


def njit(fn):
    """``njit`` with the cache guarded by ``SOURCES`` (see the module's docstring)."""
    return njit_guarded(fn, SOURCES)


# ``ev``: the evaluation's weights, passed in from ``evaluation.py`` (so that a cached
# compilation never keeps old values): ATTACK[5], DEFENCE[5], then the four below.
E_ATTACK, E_DEFENCE, E_CAPTURE, E_CAPTURE_BLOCK, E_CAPTURE_THREAT, E_EXPOSED = 0, 5, 10, 11, 12, 13


def weights() -> np.ndarray:
    """``ev``, from ``evaluation.py``'s constants."""
    from . import evaluation as e

    return np.array(
        [*e.ATTACK, *e.DEFENCE, e.CAPTURE, e.CAPTURE_BLOCK, e.CAPTURE_THREAT, e.EXPOSED], np.int64
    )


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
