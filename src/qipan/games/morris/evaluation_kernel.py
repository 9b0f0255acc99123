"""The compiled evaluations of Morris positions over the kernel's arrays (``kernel.py``):
``evaluate``, the twin of ``evaluation.evaluate`` that the generic ``mcts`` and
``alphabeta`` searches use, and the ``morris`` agent's own (``strong_evaluate`` and, with
the placement-phase blockade terms, ``blockade_evaluate``; one stone = 100), which its PVS
(``kernel_search.py``) scores positions by.

They call ``kernel.py``'s compiled rules, so each is compiled with a cache emptied when this
file, ``kernel.py`` or ``fast.py`` changes (``fast.njit_guarded``)."""

from __future__ import annotations

import math
from pathlib import Path

from ... import fast
from ...fast import njit_guarded, popcount
from . import kernel
from .kernel import (
    _P_FLY_AT,
    _P_FULL,
    _P_LINE_GOAL,
    _P_NLINES,
    PT_NBR,
    S_BB0,
    S_BB1,
    S_HAND0,
    S_HAND1,
    S_TO_MOVE,
    in_mills,
    low_index,
)

#: The files compiled into this file's functions.
SOURCES = (Path(__file__), Path(kernel.__file__), Path(fast.__file__))


def njit(fn):
    """``njit`` with the cache guarded by ``SOURCES`` (see the module's docstring)."""
    return njit_guarded(fn, SOURCES)


# -- the twin of ``evaluation.evaluate`` --------------------------------------------------------
@njit
def _closers(lines, nlines, own, empty):
    once = 0
    twice = 0
    for i in range(nlines):
        x = lines[i] & ~own
        if x and not x & (x - 1) and x & empty:
            twice |= once & x
            once |= x
    return once, twice


@njit
def _mobility(pt, par, s, player, empty):
    own = s[S_BB0 + player]
    if s[S_HAND0 + player] or popcount(own) <= par[_P_FLY_AT]:
        return 0.0
    slides = 0
    blocked = 0
    x = own
    while x:
        low = x & -x
        x ^= low
        i = 0
        while not (low >> i) & 1:
            i += 1
        free = pt[i, PT_NBR] & empty
        slides += popcount(free)
        if free == 0:
            blocked += 1
    return 0.05 * slides - 0.1 * blocked


@njit
def evaluate(pt, lines, par, s, player):
    """Heuristic value in [-1, 1] of a position still in play, for ``player``."""
    white = s[S_BB0]
    black = s[S_BB1]
    nlines = par[_P_NLINES]
    empty = par[_P_FULL] ^ (white | black)
    score = 0.0
    if par[_P_LINE_GOAL] == 0:
        score += (s[S_HAND0] + popcount(white)) - (s[S_HAND1] + popcount(black))
        score += (
            0.25 * (popcount(in_mills(lines, nlines, white)) - popcount(in_mills(lines, nlines, black))) / 3
        )
    w_once, w_twice = _closers(lines, nlines, white, empty)
    b_once, b_twice = _closers(lines, nlines, black, empty)
    score += 0.3 * (popcount(w_once) - popcount(b_once)) + 0.5 * (popcount(w_twice) - popcount(b_twice))
    score += _mobility(pt, par, s, 0, empty) - _mobility(pt, par, s, 1, empty)
    if s[S_TO_MOVE] == 0 and w_once:
        score += 0.3
    elif s[S_TO_MOVE] == 1 and b_once:
        score -= 0.3
    value = math.tanh(score / 4)
    return value if player == 0 else -value


# -- the ``morris`` agent's evaluation: what decides games between engines (mobility and
# blockades, mills a stone can actually reach, double threats, placement structure, stones in
# hand) ---------------------------------------------------------------------------------------
W_STONE = 100.0
W_MILL = 12.0
W_OPEN_PLACING = 22.0  # a potential mill while placing or flying (two stones, third point empty)
W_DOUBLE_PLACING = 45.0  # a point that would close two mills at once
W_REACH = 40.0  # sliding: a mill point one of our stones (not on that line) can slide to
W_RUNNING = 85.0  # ... from a closed mill: it closes a mill every other move
W_DEAD = 6.0  # sliding: a potential mill no stone can reach
W_SLIDE = 9.0  # per free slide while sliding
W_BLOCKED = 16.0  # per stone without an empty neighbour while sliding
W_SLIDE_PLACING = 4.0  # the same, foreseen while placing
W_BLOCKED_PLACING = 9.0
W_JUNCTION = 5.0  # a stone on a point with four neighbours, while placing
RAMP_HAND = 4.0  # with fewer stones in hand the placing mobility weights move to the sliding ones
W_TEMPO = 55.0  # the side to move can close a mill now
W_FORK = 60.0  # the side not to move threatens two mills: one block is not enough
# Against a flying opponent (3 stones) one threat is blocked at once wherever it is, and two
# win: the fork counts far more, a single reachable mill far less.
W_FORK_FLYING = 150.0
FLYING_BLOCKS = 0.25
W_FREE_RUN = 60.0  # sliding: a closed mill that can open and close again, no enemy can fill the gap
W_OPENABLE = 10.0  # ... one whose gap an enemy stone next to it could fill


@njit
def _near_blockade(slides):
    """Sliding with this few moves left is close to a blockade (a loss)."""
    if slides == 0:
        return 140.0
    if slides == 1:
        return 60.0
    if slides == 2:
        return 25.0
    if slides == 3:
        return 8.0
    return 0.0


@njit
def _running_closed(pt, m, opp, empty, opp_flies):
    """A closed mill ``m`` as a mill that runs: a stone of it steps out onto an
    empty point off the line and back next move, closing it again. Worth ``W_FREE_RUN`` when
    no enemy stone stands next to the gap it leaves (nothing can fill it: a capture every
    other move), ``W_OPENABLE`` when one does, 0 when no stone of it can step out."""
    value = 0.0
    x = m
    while x:
        low = x & -x
        x ^= low
        nbr = pt[low_index(low), PT_NBR]
        if nbr & empty & ~m == 0:
            continue
        if opp_flies or nbr & opp:
            value = max(value, W_OPENABLE)
        else:
            return W_FREE_RUN
    return value


@njit
def side_terms(pt, lines, par, s, p, empty):
    """The evaluation terms of player ``p`` alone (``strong_evaluate`` subtracts the other's)."""
    own = s[S_BB0 + p]
    hand = s[S_HAND0 + p]
    on_board = popcount(own)
    flies = hand == 0 and on_board <= par[_P_FLY_AT]
    sliding = hand == 0 and not flies
    score = 0.0
    if par[_P_LINE_GOAL] == 0:
        score += W_STONE * (hand + on_board)
    nlines = par[_P_NLINES]
    opp = s[S_BB0 + 1 - p]
    opp_flies = s[S_HAND0 + 1 - p] == 0 and popcount(opp) <= par[_P_FLY_AT]
    mills = 0
    for i in range(nlines):
        m = lines[i]
        if own & m == m:
            mills |= m
            score += W_MILL
            if sliding:
                score += _running_closed(pt, m, opp, empty, opp_flies)
    once = 0
    twice = 0
    reach = 0
    for i in range(nlines):
        m = lines[i]
        x = m & ~own
        if x == 0 or x & (x - 1) or not x & empty:
            continue
        twice |= once & x
        once |= x
        if sliding:
            movers = pt[low_index(x), PT_NBR] & own & ~m
            if movers == 0:
                score += W_DEAD
            else:
                reach |= x
                threat = W_RUNNING if movers & mills else W_REACH
                score += threat * FLYING_BLOCKS if opp_flies else threat
    if not sliding:
        score += W_OPEN_PLACING * popcount(once) + W_DOUBLE_PLACING * popcount(twice)
        reach = once
    slides = 0
    blocked = 0
    junctions = 0
    x = own
    while x:
        low = x & -x
        x ^= low
        nbr = pt[low_index(low), PT_NBR]
        free = popcount(nbr & empty)
        slides += free
        if free == 0:
            blocked += 1
        if popcount(nbr) >= 4:
            junctions += 1
    if sliding:
        score += W_SLIDE * slides - W_BLOCKED * blocked - _near_blockade(slides)
    elif hand:
        # The last placements decide the blockades of the sliding phase: the mobility they
        # leave weighs more as the hand empties, up to the sliding weights.
        near = max(0.0, (RAMP_HAND - hand) / RAMP_HAND)
        w_slide = W_SLIDE_PLACING + near * (W_SLIDE - W_SLIDE_PLACING)
        w_blocked = W_BLOCKED_PLACING + near * (W_BLOCKED - W_BLOCKED_PLACING)
        score += w_slide * slides - w_blocked * blocked + W_JUNCTION * junctions
    if reach:
        if s[S_TO_MOVE] == p:
            score += W_TEMPO
        elif popcount(reach) >= 2:
            score += W_FORK_FLYING if opp_flies and sliding else W_FORK
    return score


@njit
def strong_evaluate(pt, lines, par, s, player):
    """The ``morris`` agent's static value of a position in play, for ``player``."""
    empty = par[_P_FULL] ^ (s[S_BB0] | s[S_BB1])
    value = side_terms(pt, lines, par, s, 0, empty) - side_terms(pt, lines, par, s, 1, empty)
    return value if player == 0 else -value


# -- the blockade-aware evaluation (style 1, the ``morris`` agent; style 0 is ``morris-2026``) ----
# The independent engines won by blockades built during placement: stones on points with few
# neighbours, groups whose last empty neighbours the opponent can still fill. These terms add
# to ``side_terms`` while stones are in hand.
W_JUNCTION_BLOCKADE = 8.0  # a stone on a point with four neighbours, while placing
W_CROSS = 2.0  # ... with three
W_LIBERTY = 4.0  # a distinct empty point next to our stones, while placing
W_TRAPPED = 20.0  # per stone of a group the opponent can shut in with the stones in hand


@njit
def blockade_terms(pt, par, s, p, empty):
    """Player ``p``'s placement-phase blockade terms (0 once both hands are empty)."""
    hand = s[S_HAND0 + p]
    opp_hand = s[S_HAND0 + 1 - p]
    if hand == 0 and opp_hand == 0:
        return 0.0
    own = s[S_BB0 + p]
    score = 0.0
    liberties = 0
    x = own
    while x:
        low = x & -x
        x ^= low
        nbr = pt[low_index(low), PT_NBR]
        liberties |= nbr & empty
        degree = popcount(nbr)
        if degree >= 4:
            score += W_JUNCTION_BLOCKADE
        elif degree == 3:
            score += W_CROSS
    score += W_LIBERTY * popcount(liberties)
    # Groups of stones (connected through our own stones) with at most as many empty
    # neighbours as the opponent can still fill, and no more than two: shut in at the start
    # of the sliding phase unless our own placements free them.
    rest = own
    while rest:
        group = rest & -rest
        while True:
            grown = group
            y = group
            while y:
                low = y & -y
                y ^= low
                grown |= pt[low_index(low), PT_NBR] & own
            if grown == group:
                break
            group = grown
        rest &= ~group
        libs = 0
        y = group
        while y:
            low = y & -y
            y ^= low
            libs |= pt[low_index(low), PT_NBR] & empty
        n_libs = popcount(libs)
        if n_libs <= 2 and n_libs <= opp_hand:
            score -= W_TRAPPED * popcount(group) * (3 - n_libs) / 3.0
    return score


@njit
def blockade_evaluate(pt, lines, par, s, player):
    """``strong_evaluate`` with the placement-phase blockade terms (the ``morris`` agent)."""
    empty = par[_P_FULL] ^ (s[S_BB0] | s[S_BB1])
    value = side_terms(pt, lines, par, s, 0, empty) - side_terms(pt, lines, par, s, 1, empty)
    value += blockade_terms(pt, par, s, 0, empty) - blockade_terms(pt, par, s, 1, empty)
    return value if player == 0 else -value
