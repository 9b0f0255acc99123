"""MOD X knowledge: pattern-potential evaluation and move ordering (used by the modx agent
and by the generic agents through ``Game.evaluate`` / ``Game.order_moves``).

The value of a position for a player is their (team's) points plus the potential of their
open patterns, minus the same for the opponents. A pattern is open for a colour while no
other colour's X piece sits on it; its potential grows steeply with the number of its
squares already topped by that colour's X or a joker, and with what completing it would
earn: +1 for an empty square, +2 (a swing) for a square topped by an opponent's marker,
almost nothing for a square already topped by an own marker. Four-of-five patterns are
threats: the player to move cashes the best one; the others are likely to be blocked."""

from __future__ import annotations

import math

from ...core.move import Move
from .board import BIT, PATTERNS, PATTERNS_THROUGH, PLAY, RELOCATE, SETUP
from .rules import ModXState

#: The value of a won game in ``evaluate_raw`` (points), far above any position's heuristic.
WIN = 100.0
#: Potential per pattern by how many of its squares are already the player's (X or joker).
WEIGHT = (0.0, 0.02, 0.08, 0.3)
#: How much of a threat's value counts: the best one for the player to move; for a waiting
#: player the best is probably blocked, the second not.
CASH, FIRST_WAITING, OTHER_WAITING = 0.9, 0.3, 0.6


def _value(mask: int, any_top: int, hostile: int, friendly: int) -> float:
    """What completing the squares of ``mask`` (jokers excluded) would earn."""
    return (
        (mask & ~any_top).bit_count() + 2 * (mask & hostile).bit_count() + 0.2 * (mask & friendly).bit_count()
    )


def threat_values(near: dict[int, int], jokers: int, any_top: int, hostile: int, friendly: int):
    """The pattern threats ``near`` (missing square -> the patterns it completes) as the value
    of one already complete (None if none) and the others' values, best first. Each further
    threat counts only its squares not already counted: overlapping threats share X pieces,
    and cashing one removes them."""
    unions = sorted(near.values(), key=lambda m: -_value(m & ~jokers, any_top, hostile, friendly))
    values, counted = [], 0
    for union in unions:
        values.append(_value(union & ~jokers & ~counted, any_top, hostile, friendly))
        counted |= union
    complete = _value(near[0] & ~jokers, any_top, hostile, friendly) if 0 in near else None
    return complete, values


def _tops(state: ModXState, q: int) -> tuple[int, int, int]:
    any_top = 0
    for m in state.topmask:
        any_top |= m
    friendly = 0
    for f in state.friends(q):
        friendly |= state.topmask[f]
    return any_top, any_top & ~friendly, friendly


def turns_left(state: ModXState) -> list[int]:
    """How many more turns each player gets before someone runs out of X pieces, if nobody
    scores from now on (scoring returns X pieces and only makes the game longer)."""
    n = state.num_players
    t = state.to_move
    order = [(t + i) % n for i in range(n)]
    # The game ends after the turn at which a player places their last X piece.
    end = min((state.supply_x[p] - 1) * n + i for i, p in enumerate(order))
    end = min(end, min(state.supply_m) * n * 4)  # markers run out much later; a loose bound
    out = [0] * n
    for i, p in enumerate(order):
        out[p] = (end - i) // n + 1 if i <= end else 0
    return out


def potential(state: ModXState, q: int, turns: int = 99) -> float:
    """The open-pattern potential of player ``q`` (their colour only), who has ``turns``
    turns left: none means no potential, one means only what they can cash at once."""
    if turns <= 0:
        return 0.0
    xs = state.xs
    jokers = state.jokers
    own = xs[q]
    cover = own | jokers
    all_x = state.x_mask()
    block = all_x & ~own
    any_top, hostile, friendly = _tops(state, q)
    long_term = turns > 1
    pot = 0.0
    near: dict[int, int] = {}
    for pat in PATTERNS:
        if pat & block:
            continue
        have = (pat & cover).bit_count()
        if have < 4:
            if long_term:
                if have < 2:
                    pot += 0.02 * have
                else:
                    sq = pat & ~jokers
                    pot += WEIGHT[have] * ((sq & ~any_top).bit_count() + 2 * (sq & hostile).bit_count() + 1)
        else:
            missing = pat & ~cover
            near[missing] = near.get(missing, 0) | pat
    if near:
        complete, values = threat_values(near, jokers, any_top, hostile, friendly)
        if complete is not None:  # made by another player's relocation: it scores next turn
            pot += complete
        elif state.to_move == q:
            pot += CASH * values[0] + 0.1 * sum(values[1:])
        else:
            pot += FIRST_WAITING * values[0] + OTHER_WAITING * sum(values[1:2]) + 0.2 * sum(values[2:])
    return pot


def side_totals(state: ModXState) -> dict[tuple[int, ...], float]:
    """Points plus potential for each side (a player, or a team of two)."""
    totals: dict[tuple[int, ...], float] = {}
    turns = turns_left(state)
    for q in range(state.num_players):
        side = tuple(sorted(state.friends(q)))
        totals[side] = totals.get(side, 0.0) + state.points[q] + potential(state, q, turns[q])
    return totals


def evaluate_raw(state: ModXState, player: int) -> float:
    """The heuristic in points: own side minus the opponents (the best and the average)."""
    if state.outcome is not None:
        reward = state.outcome.reward(player)
        return WIN * (2 * reward - 1)
    totals = side_totals(state)
    mine = tuple(sorted(state.friends(player)))
    own = totals.pop(mine)
    others = list(totals.values())
    if len(others) == 1:
        return own - others[0]
    return own - 0.5 * max(others) - 0.5 * sum(others) / len(others)


def evaluate(state: ModXState, player: int) -> float:
    """``evaluate_raw`` squashed into [-1, 1]."""
    if state.outcome is not None:
        return 2 * state.outcome.reward(player) - 1
    return math.tanh(evaluate_raw(state, player) / 10.0)


# -- move ordering ---------------------------------------------------------------------


def placement_gains(state: ModXState) -> dict[int, float]:
    """A quick value for each open square as the mover's X placement: what it scores now,
    which opponent threats it blocks, and how much pattern potential it adds or takes away."""
    me = state.to_move
    n = state.num_players
    xs = state.xs
    jokers = state.jokers
    all_x = state.x_mask()
    friends = state.friends(me)
    any_top, hostile, friendly = _tops(state, me)
    done, near = state.threats(me)
    gains: dict[int, float] = {}
    open_mask = state.open_mask()
    opp_near = []
    for o in range(n):
        if o in friends:
            continue
        _, o_near = state.threats(o)
        o_any, o_hostile, o_friendly = _tops(state, o)
        # The player right after the mover cashes a threat first; later players may be blocked by others.
        urgency = 1.0 if o == (me + 1) % n else 0.6
        opp_near.append(
            (o, {m: urgency * _value(u & ~jokers, o_any, o_hostile, o_friendly) for m, u in o_near.items()})
        )
    own_x = xs[me]
    block_me = all_x & ~own_x
    while open_mask:
        low = open_mask & -open_mask
        open_mask ^= low
        s = low.bit_length() - 1
        scored = done | near.get(low, 0)
        gain = 0.0
        if scored:
            sq = scored & own_x | low
            gain += 1.5 * _value(sq, any_top, hostile, friendly)
        for _o, values in opp_near:
            gain += 0.9 * values.get(low, 0.0)
        cover = own_x | jokers
        for pat in PATTERNS_THROUGH[s]:
            if not pat & block_me:
                have = (pat & cover).bit_count()
                if have < 4:
                    gain += (0.02, 0.06, 0.22, 0.6)[have]
            # taking the square away from every other colour's open pattern here
            for o in range(n):
                if o == me:
                    continue
                if not pat & (all_x & ~xs[o]):
                    have_o = (pat & (xs[o] | jokers)).bit_count()
                    if 2 <= have_o < 4:
                        gain += (0.05 if o in friends else 0.15) * have_o
        gains[s] = gain
    return gains


def relocation_penalties(state: ModXState) -> dict[int, float]:
    """For each legal relocation square: the harm of putting a joker there (lower is better).
    Completing or nearly completing another side's pattern hands them points; making a
    four-of-five for the mover is good. An all-joker pattern wins."""
    me = state.to_move
    n = state.num_players
    xs = state.xs
    all_x = state.x_mask()
    friends = state.friends(me)
    out: dict[int, float] = {}
    for move in state.legal_moves():
        s = move.data[1]
        jokers = state.jokers | BIT[s]
        harm = 0.0
        for pat in PATTERNS_THROUGH[s]:
            if pat & jokers == pat:
                harm -= 1000.0
                continue
            for q in range(n):
                if pat & (all_x & ~xs[q]):
                    continue
                have = (pat & (xs[q] | jokers)).bit_count()
                if have < 3:
                    continue
                size = 1.0 if have == 3 else 4.0 if have == 4 else 6.0
                if q == me:
                    harm -= 0.5 * size
                elif q in friends:
                    harm -= 0.3 * size
                else:
                    harm += size * (1.5 if q == (me + 1) % n else 1.0)
        out[s] = harm
    return out


def setup_scores(state: ModXState) -> dict[int, float]:
    """Setup jokers help whoever uses them; the placer's opponent moves first, so the placer
    prefers squares in few patterns (edges and corners), spread out. Higher is better."""
    out = {}
    for move in state.legal_moves():
        s = move.data[1]
        out[s] = -len(PATTERNS_THROUGH[s])
    return out


def order_moves(state: ModXState, moves: list[Move]) -> list[Move]:
    """Best guesses first, by the quick per-square values above."""
    if state.outcome is not None or not moves:
        return moves
    if state.phase == PLAY:
        gains = placement_gains(state)
        return sorted(moves, key=lambda m: -gains.get(m.data[1], -1e9))
    if state.phase == RELOCATE:
        harm = relocation_penalties(state)
        return sorted(moves, key=lambda m: harm.get(m.data[1], 1e9))
    if state.phase == SETUP:
        scores = setup_scores(state)
        return sorted(moves, key=lambda m: -scores.get(m.data[1], -1e9))
    return moves
