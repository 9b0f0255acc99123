"""The ``modx`` agent's evaluation: points plus what is still reachable.

``evaluation.evaluate_raw`` (kept as it is for ``modx-classic`` and the generic agents) adds
up a potential for every open pattern, so a handful of unscored X pieces in overlapping
patterns count more than points already scored (four of Black's X pieces around an empty
centre: about 20 points of potential against the 5 of completing the plus). Here the
terms are weighed by ``Knobs``:

* long-term pattern potential (two or three of five) scaled by ``long_scale`` and by how many
  turns are left to use it (``turns_left``): a pattern needs two or three more placements
  that the opponents leave alone, which the end of the game may not allow;
* threats (four of five) as before: the player to move cashes the best one, a waiting
  player's best one is probably blocked and the next not;
* forks: an open square that would make two threats with different missing squares at once
  (two three-of-five patterns meeting there); one block cannot stop both, so the player to
  move who has one is likely to score the smaller.

The counts per pattern come from the rules' incremental cover counts."""

from __future__ import annotations

from dataclasses import dataclass

from .board import PATTERNS
from .evaluation import WIN, _tops, _value, threat_values, turns_left
from .rules import ModXState


@dataclass(frozen=True)
class Knobs:
    """The weights of the evaluation's terms (in points)."""

    #: Potential per open pattern with 0..3 of its squares the player's, per point it would
    #: earn (three and two of five), or flat (one of five).
    weight: tuple[float, float, float, float] = (0.0, 0.02, 0.08, 0.3)
    #: All long-term potential (two or three of five) is multiplied by this.
    long_scale: float = 1.0
    #: Turns left below which the long-term potential fades linearly to none.
    horizon: int = 0
    #: The long-term terms, largest first, count decay**rank each (1: all in full). Overlapping
    #: patterns share X pieces, and each piece scores once: their sum overstates the points.
    decay: float = 1.0
    #: Threat shares: the mover's best and the others; a waiting player's first, second, rest.
    cash: float = 0.9
    cash_rest: float = 0.1
    first_waiting: float = 0.3
    second_waiting: float = 0.6
    rest_waiting: float = 0.2
    #: Share of the smaller threat of the best fork square, for the mover and a waiting player.
    fork_mover: float = 0.0
    fork_waiting: float = 0.0


#: The ``modx`` agent's weights (the defaults above are ``modx-classic``'s): a quarter of the
#: long-term potential, and forks. Chosen by 60-game screening matches against ``modx-classic``
#: (seeds 11 and 12; benchmarks/results/modx.md).
KNOBS = Knobs(long_scale=0.25, fork_mover=0.5, fork_waiting=0.2)


def potential(state: ModXState, q: int, turns: int, knobs: Knobs) -> float:
    """The reachable potential of player ``q`` (their colour only) with ``turns`` turns left."""
    if turns <= 0:
        return 0.0
    own = state.xs[q]
    jokers = state.jokers
    cover = own | jokers
    block = state.x_mask() & ~own
    counts = state._pattern_counts()[0][q]
    any_top, hostile, friendly = _tops(state, q)
    long_share = knobs.long_scale if turns > 1 else 0.0
    if knobs.horizon and turns < knobs.horizon:
        long_share *= turns / knobs.horizon
    w1, w2, w3 = knobs.weight[1], knobs.weight[2], knobs.weight[3]
    forks = knobs.fork_mover or knobs.fork_waiting
    long_term = 0.0
    decay = knobs.decay
    terms: list[float] = []
    near: dict[int, int] = {}
    # For the forks: each missing square of a three-of-five pattern, with the other one.
    halves: dict[int, list[tuple[int, int]]] = {}
    for i, pat in enumerate(PATTERNS):
        if pat & block:
            continue
        have = counts[i]
        if have >= 4:
            missing = pat & ~cover
            near[missing] = near.get(missing, 0) | pat
        elif have == 3:
            sq = pat & ~jokers
            term = w3 * ((sq & ~any_top).bit_count() + 2 * (sq & hostile).bit_count() + 1)
            if decay < 1.0:
                terms.append(term)
            else:
                long_term += term
            if forks:
                missing = pat & ~cover
                low = missing & -missing
                halves.setdefault(low, []).append((missing ^ low, pat))
                halves.setdefault(missing ^ low, []).append((low, pat))
        elif have == 2:
            sq = pat & ~jokers
            term = w2 * ((sq & ~any_top).bit_count() + 2 * (sq & hostile).bit_count() + 1)
            if decay < 1.0:
                terms.append(term)
            else:
                long_term += term
        elif have == 1:
            long_term += w1
    if terms:
        terms.sort(reverse=True)
        share = 1.0
        for term in terms:
            long_term += share * term
            share *= decay
            if share < 1e-3:
                break
    pot = long_share * long_term
    mover = state.to_move == q
    if near:
        complete, values = threat_values(near, jokers, any_top, hostile, friendly)
        if complete is not None:  # made by another player's relocation: it scores next turn
            pot += complete
        elif mover:
            pot += knobs.cash * values[0] + knobs.cash_rest * sum(values[1:])
        else:
            pot += (
                knobs.first_waiting * values[0]
                + knobs.second_waiting * sum(values[1:2])
                + knobs.rest_waiting * sum(values[2:])
            )
    if forks and halves and turns > 1:
        pot += (knobs.fork_mover if mover else knobs.fork_waiting) * _best_fork(
            state, halves, jokers, any_top, hostile, friendly
        )
    return pot


def _best_fork(state: ModXState, halves, jokers: int, any_top: int, hostile: int, friendly: int) -> float:
    """The smaller threat of the best open square that makes two threats with different
    missing squares (0 if there is none)."""
    open_ = state.open_mask()
    best = 0.0
    for square, pairs in halves.items():
        if len(pairs) < 2 or not square & open_:
            continue
        by_other: dict[int, int] = {}
        for other, pat in pairs:
            if other & open_:
                by_other[other] = by_other.get(other, 0) | pat
        if len(by_other) < 2:
            continue
        values = sorted(
            (_value(union & ~jokers, any_top, hostile, friendly) for union in by_other.values()), reverse=True
        )
        best = max(best, values[1])
    return best


def evaluate_raw(state: ModXState, player: int) -> float:
    """Own side's points plus potential minus the opponents' (the best and the average)."""
    if state.outcome is not None:
        return WIN * (2 * state.outcome.reward(player) - 1)
    knobs = KNOBS
    turns = turns_left(state)
    totals: dict[tuple[int, ...], float] = {}
    for q in range(state.num_players):
        side = tuple(sorted(state.friends(q)))
        totals[side] = totals.get(side, 0.0) + state.points[q] + potential(state, q, turns[q], knobs)
    own = totals.pop(tuple(sorted(state.friends(player))))
    others = list(totals.values())
    if len(others) == 1:
        return own - others[0]
    return own - 0.5 * max(others) - 0.5 * sum(others) / len(others)
