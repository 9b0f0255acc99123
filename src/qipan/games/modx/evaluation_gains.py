"""The ``modx`` agent's move-ordering knowledge, computed pattern by pattern.

``evaluation.placement_gains`` and ``evaluation.relocation_penalties`` (kept as they are for
``modx-classic`` and the generic agents) visit every open square and, for each, the patterns
through it and every player: most of the agent's time. The same sums go here the other way
round: each of the 168 patterns is looked at once per player, from the rules' incremental
cover counts, and its term is added to the open squares it holds. The terms are the same;
only the order of the floating-point additions differs. The legal relocation squares come
from the mover's four-of-five patterns instead of a test per open square."""

from __future__ import annotations

from .board import PATTERNS, PATTERNS_THROUGH, squares_of
from .evaluation import _tops, _value
from .rules import ModXState

#: ``placement_gains``' terms: the mover's pattern by how many squares it already has, and
#: another colour's (friend or foe) per square it has, from 2 to 3.
OWN_TERM = (0.02, 0.06, 0.22, 0.6)
FRIEND_TERM, FOE_TERM = 0.05, 0.15


_SQUARES_OF_PATTERN = tuple(squares_of(p) for p in PATTERNS)


def placement_gains(state: ModXState) -> dict[int, float]:
    """As ``evaluation.placement_gains``: a quick value for each open square as the mover's
    X placement (what it scores, the threats it blocks, the potential it adds or takes)."""
    me = state.to_move
    n = state.num_players
    xs = state.xs
    jokers = state.jokers
    all_x = state.x_mask()
    friends = state.friends(me)
    any_top, hostile, friendly = _tops(state, me)
    done, near = state.threats(me)
    open_mask = state.open_mask()
    gains = dict.fromkeys(squares_of(open_mask), 0.0)
    own_x = xs[me]
    for low, union in ((bit, done | near.get(bit, 0)) for bit in _bits(open_mask)):
        if union:
            gains[low.bit_length() - 1] += 1.5 * _value(union & own_x | low, any_top, hostile, friendly)
    for o in range(n):
        if o in friends:
            continue
        _, o_near = state.threats(o)
        if not o_near:
            continue
        o_any, o_hostile, o_friendly = _tops(state, o)
        urgency = 1.0 if o == (me + 1) % n else 0.6
        for bit, union in o_near.items():
            gains[bit.bit_length() - 1] += (
                0.9 * urgency * _value(union & ~jokers, o_any, o_hostile, o_friendly)
            )
    cover = state._pattern_counts()[0]
    blockers = [all_x & ~xs[q] for q in range(n)]
    mine = cover[me]
    others = [
        (o, cover[o], blockers[o], FRIEND_TERM if o in friends else FOE_TERM) for o in range(n) if o != me
    ]
    block_me = blockers[me]
    for i, pat in enumerate(PATTERNS):
        free = pat & open_mask
        if not free:
            continue
        term = 0.0
        if not pat & block_me:
            have = mine[i]
            if have < 4:
                term += OWN_TERM[have]
        for _o, counts, block, weight in others:
            if not pat & block:
                have_o = counts[i]
                if 2 <= have_o < 4:
                    term += weight * have_o
        if term:
            for s in _SQUARES_OF_PATTERN[i]:
                if free >> s & 1:
                    gains[s] += term
    return gains


def relocation_squares(state: ModXState) -> list[int]:
    """The open squares where the mover may put a joker (``ModXState.relocation_ok``): not
    completing one of their patterns, unless that makes an all-joker pattern."""
    me = state.to_move
    open_mask = state.open_mask()
    jokers = state.jokers
    cover = state.xs[me] | jokers
    bad = 0
    fours = state._pattern_counts()[1][me]
    while fours:
        low = fours & -fours
        fours ^= low
        bad |= PATTERNS[low.bit_length() - 1] & ~cover
    bad &= open_mask
    if bad:
        for s in squares_of(bad):  # an all-joker pattern through it makes it a win
            with_joker = jokers | 1 << s
            if any(pat & with_joker == pat for pat in PATTERNS_THROUGH[s]):
                bad &= ~(1 << s)
    return squares_of(open_mask & ~bad)


def relocation_penalties(state: ModXState) -> dict[int, float]:
    """As ``evaluation.relocation_penalties``: the harm of a joker on each legal square."""
    me = state.to_move
    n = state.num_players
    xs = state.xs
    jokers = state.jokers
    all_x = state.x_mask()
    friends = state.friends(me)
    legal = relocation_squares(state)
    out = dict.fromkeys(legal, 0.0)
    legal_mask = 0
    for s in legal:
        legal_mask |= 1 << s
    cover = state._pattern_counts()[0]
    blockers = [all_x & ~xs[q] for q in range(n)]
    nxt = (me + 1) % n
    for i, pat in enumerate(PATTERNS):
        free = pat & legal_mask
        if not free:
            continue
        if (pat & jokers).bit_count() == 4:  # the joker completes an all-joker pattern: a win
            for s in _SQUARES_OF_PATTERN[i]:
                if free >> s & 1:
                    out[s] -= 1000.0
            continue
        term = 0.0
        for q in range(n):
            if pat & blockers[q]:
                continue
            have = cover[q][i] + 1
            if have < 3:
                continue
            size = 1.0 if have == 3 else 4.0 if have == 4 else 6.0
            if q == me:
                term -= 0.5 * size
            elif q in friends:
                term -= 0.3 * size
            else:
                term += size * (1.5 if q == nxt else 1.0)
        if term:
            for s in _SQUARES_OF_PATTERN[i]:
                if free >> s & 1:
                    out[s] += term
    return out


def _bits(mask: int):
    while mask:
        low = mask & -mask
        yield low
        mask ^= low
