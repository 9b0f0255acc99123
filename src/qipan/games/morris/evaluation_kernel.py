"""The compiled evaluations of Morris positions over the kernel's arrays (``kernel.py``):
``evaluate``, the twin of ``evaluation.evaluate`` that the generic ``mcts`` and
``alphabeta`` searches use; ``strong_evaluate`` (one stone = 100), which the fixed reference
``morris-2026`` scores positions by; and the ``morris`` agent's own, ``tuned_evaluate``: the
same terms and a few more as a vector of counts (``features``) with fitted weights. The PVS
of both agents is in ``kernel_search.py``.

They call ``kernel.py``'s compiled rules, so each is compiled with a cache emptied when this
file, ``kernel.py`` or ``fast.py`` changes (``fast.njit_guarded``)."""

from __future__ import annotations

import math
from pathlib import Path

from ... import fast
from ...fast import njit_guarded, np, popcount
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
def _closed_mills(pt, lines, nlines, own, opp, empty, opp_flies, sliding):
    """The closed mills of ``own``: how many, their points, and while sliding how many open
    and close again with no enemy stone to fill the gap and with one (``_running_closed``)."""
    count = 0
    mills = 0
    free_runs = 0
    openable = 0
    for i in range(nlines):
        m = lines[i]
        if own & m == m:
            mills |= m
            count += 1
            if sliding:
                run = _running_closed(pt, m, opp, empty, opp_flies)
                if run == W_FREE_RUN:
                    free_runs += 1
                elif run == W_OPENABLE:
                    openable += 1
    return count, mills, free_runs, openable


@njit
def _open_mills(pt, lines, nlines, own, empty, mills, sliding):
    """The lines with two stones of ``own`` and the third point empty: the points that close
    one (``once``) and two of them (``twice``); while sliding also those no stone can slide
    into (``dead``), those a stone off the line can (``reaching``; ``running`` when it comes
    from a closed mill) and their points (``reach``)."""
    once = 0
    twice = 0
    reach = 0
    dead = 0
    reaching = 0
    running = 0
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
                dead += 1
            else:
                reach |= x
                if movers & mills:
                    running += 1
                else:
                    reaching += 1
    return once, twice, reach, dead, reaching, running


@njit
def _stone_terms(pt, own, empty):
    """Over the stones of ``own``: free slides, stones without an empty neighbour, stones on
    points of four and of three neighbours, and the empty points next to them."""
    slides = 0
    blocked = 0
    junctions = 0
    crosses = 0
    liberties = 0
    x = own
    while x:
        low = x & -x
        x ^= low
        nbr = pt[low_index(low), PT_NBR]
        free = nbr & empty
        liberties |= free
        slides += popcount(free)
        if free == 0:
            blocked += 1
        degree = popcount(nbr)
        if degree >= 4:
            junctions += 1
        elif degree == 3:
            crosses += 1
    return slides, blocked, junctions, crosses, liberties


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
    count, mills, free_runs, openable = _closed_mills(pt, lines, nlines, own, opp, empty, opp_flies, sliding)
    score += W_MILL * count + W_FREE_RUN * free_runs + W_OPENABLE * openable
    once, twice, reach, dead, reaching, running = _open_mills(pt, lines, nlines, own, empty, mills, sliding)
    if sliding:
        threats = W_REACH * reaching + W_RUNNING * running
        score += W_DEAD * dead + (threats * FLYING_BLOCKS if opp_flies else threats)
    else:
        score += W_OPEN_PLACING * popcount(once) + W_DOUBLE_PLACING * popcount(twice)
        reach = once
    slides, blocked, junctions, _, _ = _stone_terms(pt, own, empty)
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


# -- the ``morris`` agent's evaluation since issue 38: the terms above as counts, with a few
# placement-phase terms more, weighed by weights fitted to the results of games
# (benchmarks/morris_tune.py). ``strong_evaluate`` above stays as it was: the fixed reference
# ``morris-2026`` plays by it.
#: The terms of a side (``side_features``), each a count or a share of one.
FEATURES = (
    "stone",  # stones on the board and in hand
    "mill",  # closed mills
    "free_run",  # sliding: a closed mill that opens and closes again, no enemy can fill the gap
    "openable",  # ... one whose gap an enemy stone next to it (or a flying one) could fill
    "dead",  # sliding: a potential mill no stone can slide into
    "reach",  # sliding: a mill point a stone not on that line can slide to
    "running",  # ... a stone of a closed mill
    "reach_flying",  # the same two against a flying opponent
    "running_flying",
    "open_placing",  # placing: a point that closes a mill
    "double_placing",  # ... two mills at once
    "open_flying",  # flying: the same two
    "double_flying",
    "slide",  # sliding: a free slide
    "blocked",  # sliding: a stone without an empty neighbour
    "slides_0",  # sliding with this many slides left (at most three)
    "slides_1",
    "slides_2",
    "slides_3",
    "slide_placing",  # placing: a free slide, foreseen; weighed from the first weight to the
    "slide_placing_late",  # second over the last ``RAMP_HAND`` stones in hand
    "blocked_placing",  # placing: a stone without an empty neighbour, the same way
    "blocked_placing_late",
    "junction",  # placing (either side): a stone on a point with four neighbours
    "cross",  # ... with three
    "liberty",  # ... an empty point next to the side's stones
    "trapped",  # ... a stone in a group the opponent can shut in with the stones in hand
    "tempo",  # the side to move can close a mill now
    "fork",  # the side not to move threatens two mills
    "fork_flying",  # ... against a flying opponent, who blocks one threat anywhere
    "hand",  # stones in hand
)
N_FEATURES = len(FEATURES)
FEATURE_INDEX = {name: i for i, name in enumerate(FEATURES)}


def fitted_for(rules) -> bool:
    """Whether ``TUNED_WEIGHTS`` were fitted to games of rules like these: Nine Men's Morris's
    board (no diagonals), its mills and its captures, whatever the other options."""
    return rules.board == "nine" and not rules.diagonals and rules.goal == "mill" and rules.captures == "mill"


#: The weights of ``FEATURES`` (one stone = 100) fitted by ``benchmarks/morris_tune.py`` to
#: the games of Nine Men's Morris named in ``benchmarks/results/morris.md``.
TUNED_WEIGHTS = np.array(
    [
        100.0,  # stone
        16.6,  # mill
        69.8,  # free_run
        11.4,  # openable
        2.5,  # dead
        56.6,  # reach
        88.0,  # running
        10.3,  # reach_flying
        21.9,  # running_flying
        19.8,  # open_placing
        45.0,  # double_placing
        28.3,  # open_flying
        45.0,  # double_flying
        -4.7,  # slide
        -47.0,  # blocked
        -140.0,  # slides_0
        -60.9,  # slides_1
        -27.2,  # slides_2
        -11.3,  # slides_3
        23.1,  # slide_placing
        12.7,  # slide_placing_late
        -17.1,  # blocked_placing
        -23.3,  # blocked_placing_late
        8.4,  # junction
        2.7,  # cross
        23.2,  # liberty
        -5.8,  # trapped
        65.0,  # tempo
        61.1,  # fork
        150.4,  # fork_flying
        0.6,  # hand
    ]
)


@njit
def _trapped(pt, own, empty, opp_hand):
    """Stones of ``own`` in groups (connected through ``own``) with at most two empty
    neighbours, no more than the opponent can still fill: shut in at the start of the sliding
    phase unless the side's own placements free them; a group counts more the fewer it has."""
    trapped = 0.0
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
            trapped += popcount(group) * (3 - n_libs) / 3.0
    return trapped


@njit
def side_features(pt, lines, par, s, p, empty, f, sign):
    """Adds ``sign`` times player ``p``'s terms to ``f`` (at their places in ``FEATURES``:
    compiled code indexes by number)."""
    own = s[S_BB0 + p]
    hand = s[S_HAND0 + p]
    on_board = popcount(own)
    flies = hand == 0 and on_board <= par[_P_FLY_AT]
    sliding = hand == 0 and not flies
    if par[_P_LINE_GOAL] == 0:
        f[0] += sign * (hand + on_board)
    f[30] += sign * hand
    nlines = par[_P_NLINES]
    opp = s[S_BB0 + 1 - p]
    opp_hand = s[S_HAND0 + 1 - p]
    opp_flies = opp_hand == 0 and popcount(opp) <= par[_P_FLY_AT]
    count, mills, free_runs, openable = _closed_mills(pt, lines, nlines, own, opp, empty, opp_flies, sliding)
    f[1] += sign * count
    f[2] += sign * free_runs
    f[3] += sign * openable
    once, twice, reach, dead, reaching, running = _open_mills(pt, lines, nlines, own, empty, mills, sliding)
    if sliding:
        f[4] += sign * dead
        k = 7 if opp_flies else 5
        f[k] += sign * reaching
        f[k + 1] += sign * running
    else:
        k = 11 if flies else 9
        f[k] += sign * popcount(once)
        f[k + 1] += sign * popcount(twice)
        reach = once
    slides, blocked, junctions, crosses, liberties = _stone_terms(pt, own, empty)
    if sliding:
        f[13] += sign * slides
        f[14] += sign * blocked
        if slides <= 3:
            f[15 + slides] += sign
    elif hand:
        late = max(0.0, (RAMP_HAND - hand) / RAMP_HAND)
        f[19] += sign * slides * (1.0 - late)
        f[20] += sign * slides * late
        f[21] += sign * blocked * (1.0 - late)
        f[22] += sign * blocked * late
    if hand or opp_hand:
        f[23] += sign * junctions
        f[24] += sign * crosses
        f[25] += sign * popcount(liberties)
        f[26] += sign * _trapped(pt, own, empty, opp_hand)
    if reach:
        if s[S_TO_MOVE] == p:
            f[27] += sign
        elif popcount(reach) >= 2:
            f[29 if opp_flies and sliding else 28] += sign


@njit
def features(pt, lines, par, s, f):
    """White's terms minus Black's into ``f`` (``FEATURES``), of a position in play."""
    empty = par[_P_FULL] ^ (s[S_BB0] | s[S_BB1])
    f[:] = 0.0
    side_features(pt, lines, par, s, 0, empty, f, 1.0)
    side_features(pt, lines, par, s, 1, empty, f, -1.0)


@njit
def tuned_evaluate(pt, lines, par, s, player, f):
    """The ``morris`` agent's static value of a position in play, for ``player``: its
    ``features`` (into the scratch array ``f``) weighed by ``TUNED_WEIGHTS``."""
    features(pt, lines, par, s, f)
    value = 0.0
    for i in range(N_FEATURES):
        value += f[i] * TUNED_WEIGHTS[i]
    return value if player == 0 else -value
