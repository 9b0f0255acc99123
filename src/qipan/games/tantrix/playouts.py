"""Random playouts to check the agent's best few moves (``TantrixAgent``).

A part of the agent kept in a module of its own: the Monte Carlo stage has its own playout
policy, result scoring and tuning constants, and its own tests (test_playouts.py).

The evaluation ranks the moves; the few best are then played out to the end of the game
again and again, the bag drawn at random each time (the agent never sees its order).
Spending the playouts on a handful of moves instead of all of them (as the generic
``mcts`` does) tells those apart far better. In a playout half the moves are *building*
ones: a placement that turns the mover's colour towards as many neighbours as it can
(joining its tracks); the rest are uniformly random. Purely random players never extend
their own lines on purpose, so a random playout misjudges whose lines will grow.

A playout's result is half win or loss and half the final score margin (through a tanh,
``MARGIN_SCALE`` points worth 3/4): a win by ten points tells more than a win by one,
and with only a few playouts per move the margin separates the moves far better.

A move's value blends the two: its evaluation counts as ``PRIOR_PLAYOUTS`` playouts with
the result ``(1 + evaluation) / 2`` (the evaluation is in [-1, 1], a result in [0, 1]),
so with few playouts the evaluation decides and with many the playouts do.

The luck of the draw is large in Tantrix, so the candidates are played out in rounds and
every candidate of a round draws its tiles in the same random order (common random
numbers): the comparison then measures the moves, not the luck."""

from __future__ import annotations

import math

from ...agents import clock
from ...core import CHANCE
from .board import COLOUR_SIDES, FREE, ORIENTED, neighbours
from .evaluation import own_contacts
from .notation import draw_move, placement_move

#: How many of the best-evaluated moves get played out.
CANDIDATES = 6
#: How many playouts the evaluation of a move is worth.
PRIOR_PLAYOUTS = 4.0
#: The share of a playout's moves (where there is a choice) that are building ones.
BUILD_SHARE = 0.5
#: The share of a playout's result that is the score margin rather than win or loss.
MARGIN_SHARE = 0.5
#: The margin (points) worth three quarters of the margin part.
MARGIN_SCALE = 6.0
_THREE_QUARTERS = math.atanh(0.5)  # tanh of this is 1/2, so the margin part is 1/2 + 1/4


def playout(state, player: int, rng, order=None, fast: bool = False) -> float:
    """Play ``state`` (a copy: it is changed) to the end: ``player``'s result in [0, 1]
    (``playout_result``). ``order``: the tiles in the order the bag gives them out (each
    draw is the first one still in the bag), else random draws. ``fast``: the same policy
    without listing every legal placement (listing them is most of a playout's time): the
    uniform share is drawn by ``state.random_move``, the building share by
    ``legal_building_moves`` (benchmarks/tantrix_playouts.py measures both paths)."""
    while state.outcome is None:
        if state.to_move == CHANCE and order is not None:
            bag = state.bag
            state.play_unchecked(draw_move(next(t for t in order if t in bag)))
            continue
        if fast and state.to_move != CHANCE:
            if rng.random() < BUILD_SHARE:
                state.play_unchecked(rng.choice(legal_building_moves(state)))
            else:
                state.play_unchecked(state.random_move(rng))
            continue
        moves = state.legal_moves()
        if state.to_move != CHANCE and len(moves) > 1 and rng.random() < BUILD_SHARE:
            moves = building_moves(state, moves)
        state.play_unchecked(rng.choice(moves))
    return playout_result(state.outcome, state.colours, player)


def playout_result(outcome, colours, player: int) -> float:
    """``player``'s result in [0, 1]: the win, draw or loss blended with the margin of
    its score over the best other colour's (``MARGIN_SHARE``, ``MARGIN_SCALE``)."""
    result = outcome.reward(player)
    if MARGIN_SHARE:
        scores = outcome.scores
        rival = max(s for s, c in zip(scores, colours, strict=True) if c != colours[player])
        margin = 0.5 + 0.5 * math.tanh((scores[player] - rival) / MARGIN_SCALE * _THREE_QUARTERS)
        result = (1.0 - MARGIN_SHARE) * result + MARGIN_SHARE * margin
    return result


def building_moves(state, moves):
    """The placements that turn the mover's colour towards the most neighbours."""
    colour, edges = state.colours[state.to_move], state.edges
    contacts = [own_contacts(move, colour, edges) for move in moves]
    most = max(contacts)
    return [move for move, k in zip(moves, contacts, strict=True) if k == most]


def legal_building_moves(state):
    """``building_moves(state, state.legal_moves())``, in the same order, without listing
    every legal move: the placements that fit are ranked by their contacts and the
    restriction rules (whose closure test is most of a listing's time) are checked only
    down the ranking until a rank holds a legal placement."""
    player = state.to_move
    forced = state.step != FREE
    colour, edges = state.colours[player], state.edges
    # Each hand tile with the sides (bit d) where each of its turns shows the colour.
    hand = [
        (tile, [sides[colour] for sides in COLOUR_SIDES[tile]]) for tile in sorted(set(state.hands[player]))
    ]
    by_rank: tuple[list, ...] = ([], [], [])  # by contacts: a tile shows a colour on two sides
    for cell in state.placement_cells(forced):
        fit = state.space_fits(cell)
        if not fit:
            continue
        occupied = 0
        for d, nb in enumerate(neighbours(cell)):
            if nb in edges:
                occupied |= 1 << d
        for tile, sides in hand:
            rots = fit.get(tile)
            if rots:
                for rot in rots:
                    by_rank[(sides[rot] & occupied).bit_count()].append((tile, cell, rot))
    restricted = not state.endgame
    allowed: dict = {}  # cell -> R1's doubled colours, None where R2/R3 forbid the cell
    for ranked in reversed(by_rank):
        legal = []
        for tile, cell, rot in ranked:
            if restricted:
                if cell not in allowed:
                    allowed[cell] = state._doubled_colours(cell) if state.geometry_ok(cell) else None
                doubled = allowed[cell]
                if doubled is None:
                    continue
                oriented = ORIENTED[tile][rot]
                if any(oriented[d] in colours for d, colours in doubled):
                    continue
            legal.append(placement_move(tile, cell, rot, forced))
        if legal:
            return legal
    raise AssertionError("the turn machine hands a move only to a player with a legal placement")


def blended(total: float, count: int, evaluation: float, prior: float = PRIOR_PLAYOUTS) -> float:
    """A move's value from ``count`` playouts scoring ``total`` and its evaluation."""
    return (total + prior * (1.0 + evaluation) / 2.0) / (count + prior)


def best_by_playouts(
    state,
    player: int,
    ranked,
    rng,
    deadline=None,
    budget=None,
    fast: bool = False,
    whole_rounds: bool = False,
):
    """The best of ``ranked`` ((evaluation, move), best first) after playouts (``fast``:
    see ``playout``), taken in turn until ``deadline`` (the agents' clock) or ``budget``
    playouts in all (with neither: the first). ``whole_rounds``: the playouts of a round
    cut short by the deadline are left out, so every candidate is judged on the same
    draws (else the ones played out once more than the others win or lose on the luck of
    that draw alone)."""
    candidates = ranked[:CANDIDATES]
    if len(candidates) == 1 or budget is None and deadline is None:
        return candidates[0][1]
    totals = [0.0] * len(candidates)
    counts = [0] * len(candidates)
    done = 0
    order = None
    while True:
        if budget is not None and done >= budget:
            break
        if deadline is not None and clock.now() > deadline:
            break
        k = done % len(candidates)
        if k == 0:  # a new round: a new draw order, the same for every candidate
            order = rng.sample(sorted(state.bag), len(state.bag))
            if whole_rounds:
                kept = (list(totals), list(counts))
        sim = state.copy()
        sim.play_unchecked(candidates[k][1])
        totals[k] += playout(sim, player, rng, order, fast)
        counts[k] += 1
        done += 1
    if whole_rounds and done % len(candidates):
        totals, counts = kept
    best = max(range(len(candidates)), key=lambda k: blended(totals[k], counts[k], candidates[k][0]))
    return candidates[best][1]


#: Sequential halving: each candidate kept gets at least this many playouts per phase
#: before the worse half is dropped (fewer would drop moves on the luck of one draw).
HALVING_MIN_ROUNDS = 2


def best_by_halving(
    state,
    player: int,
    ranked,
    rng,
    deadline=None,
    budget=None,
    fast: bool = True,
    prior=PRIOR_PLAYOUTS,
    runner=None,
    candidates=CANDIDATES,
):
    """The best of ``ranked`` ((evaluation, move), best first) by sequential halving: the
    candidates are played out in whole rounds (one playout each on a shared draw order) and
    after each phase the worse half by ``blended`` value is dropped, so the playouts gather
    on the moves still in contention (simple regret, not the uniform spread of
    ``best_by_playouts``). Each phase gets an equal share of the playouts still affordable:
    ``budget`` playouts in all, or as many as fit before ``deadline`` at the cost measured
    so far; ``prior``: how many playouts the evaluation is worth (``blended``). Too few for ``HALVING_MIN_ROUNDS`` rounds of every candidate: the candidates
    the evaluation ranks lowest are left out from the start. The round a deadline cuts
    short is left out. ``runner(move, order)``: one playout after ``move`` (the compiled
    kernel's, ``kernel.Playouts.after``), instead of ``playout`` on a copy of ``state``;
    ``candidates``: how many of the best-ranked moves take part at most."""
    alive = list(range(min(candidates, len(ranked))))
    if len(alive) == 1 or budget is None and deadline is None:
        return ranked[0][1]
    totals = [0.0] * len(alive)
    counts = [0] * len(alive)
    done = 0
    started = clock.now()

    def value(k):
        return blended(totals[k], counts[k], ranked[k][0], prior)

    def affordable() -> int:
        if budget is not None:
            return budget - done
        return int((deadline - clock.now()) / ((clock.now() - started) / done))

    def one(k, order) -> bool:
        """Play candidate ``k`` out once; False (and nothing counted) if out of playouts."""
        nonlocal done
        if budget is not None and done >= budget or deadline is not None and clock.now() > deadline:
            return False
        if runner is not None:
            totals[k] += runner(ranked[k][1], order)
        else:
            sim = state.copy()
            sim.play_unchecked(ranked[k][1])
            totals[k] += playout(sim, player, rng, order, fast)
        counts[k] += 1
        done += 1
        return True

    # The first playout measures the cost; then as many candidates as the playouts allow.
    order = rng.sample(sorted(state.bag), len(state.bag))
    if not one(alive[0], order):
        return ranked[0][1]
    left = affordable() + 1
    while len(alive) > 2 and left < len(alive) * HALVING_MIN_ROUNDS * max(1, (len(alive) - 1).bit_length()):
        alive.pop()
    first_round = True
    while len(alive) > 1:
        phases = max(1, (len(alive) - 1).bit_length())  # halvings still to come
        rounds = max(HALVING_MIN_ROUNDS, affordable() // phases // len(alive))
        finished = True
        for _ in range(rounds):
            if not first_round:
                order = rng.sample(sorted(state.bag), len(state.bag))
            kept = [(totals[k], counts[k]) for k in alive]
            for k in alive[1:] if first_round else alive:
                if not one(k, order):
                    finished = False
                    break
            if first_round:
                kept[0] = (0.0, 0)  # the measuring playout belongs to this round
                first_round = False
            if not finished:
                for k, (t, c) in zip(alive, kept, strict=True):
                    totals[k], counts[k] = t, c
                break
        alive.sort(key=value, reverse=True)
        if not finished:
            break
        alive = alive[: (len(alive) + 1) // 2]
    return ranked[max(alive, key=value)][1]
