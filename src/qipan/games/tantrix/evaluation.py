"""Tantrix knowledge for agents: a position evaluation and a move ordering.

A colour's *potential* estimates the score its best track will end with: the track's
score now (a line 1 per tile, a loop 2 per tile), a small bonus for each end that can
still grow, a share of the second-best track, and the expected gain of the best *join*:
one tile in a cell that the ends of two tracks face (or both ends of one line) links them
into one track (or closes a loop), and a forced space is filled by rule.

An end can grow when the empty cell beyond it may still take a tile (before the endgame:
the R2/R3 closure allows a placement there) and some tile not yet on the board fits it.
The evaluation is the mover's potential minus the best opponent colour's: so building
means lengthening and joining one's own tracks, and blocking means not feeding the
opponent's lines, not leaving them joins, and killing their ends (a cell no remaining
tile fits, or a controlled side). ``Weights`` holds every parameter, including some that
tuning left at zero (live ends worth more early, graded ends, a bonus for holding a
fitting tile).

Joins may chain (``join_depth``): a line joined at one end may be joined again at its other
end, so three or four lines lying end to end through cells their ends face are one long
track in the making; the chain's gain is weighted by the product of its joins' chances.
The ``tantrix`` agent plays ``AGENT`` (chains of up to three joins, the second-best track
at a quarter instead of half); ``tantrix-classic``
plays ``CLASSIC``, the weights from before the chains, which keep their old values."""

from __future__ import annotations

import math
from bisect import bisect_right
from dataclasses import dataclass, fields, replace
from operator import itemgetter

from ...core.errors import OptionError
from .board import (
    DIRECTIONS,
    ORIENTED,
    Cell,
    fitting,
    geometry_allows,
    link_ends,
    neighbour,
    neighbours,
    side_pattern,
    track_value,
    tracks,
    walk_track,
)


@dataclass(frozen=True)
class Weights:
    """The evaluation's parameters (tuned by ``benchmarks/tantrix_variants.py``)."""

    #: A live end's worth in tiles at the end of the game ...
    live_end: float = 0.3
    #: ... plus this much per tile still in the bag (a live end has turns to grow) ...
    end_per_tile: float = 0.0
    #: ... capped here.
    end_cap: float = 4.0
    #: How many fitting remaining tiles make an end fully live (fewer: proportionally less).
    fit_full: int = 1
    #: Extra per live end of the mover's own tracks when the mover holds a tile that fits it
    #: now (the line can grow again next turn).
    hand_fit: float = 0.0
    #: An end blocked only by the restriction rules may reopen in the endgame: its share.
    restricted_end: float = 0.3
    #: Weight of the second-best track (a second chance if the best one dies).
    second: float = 0.5
    #: Weight of the expected gain of joining two tracks (or a line's two ends) in one cell:
    join: float = 1.0
    #: its chance when that cell is a forced space (filled by rule), ...
    join_forced: float = 0.9
    #: ... or an open space whose owner holds a fitting tile (half that if they do not).
    join_open: float = 0.4
    #: A join usually absorbs the second-best track, so the two terms overlap: this share
    #: of the smaller of them is taken off again (1: count only the larger).
    join_overlap: float = 0.0
    #: Added to ``join_open`` for a rival colour whose owner holds a fitting tile: the
    #: rival moves next, so they can make that join before anyone spoils it.
    rival_join: float = 0.0
    #: Joins chained through lines (a line joined at one end may be joined at the other
    #: too): the longest chain of this many joins is looked for (1: single joins only).
    join_depth: int = 1
    #: Chance of a join in two tiles: two tracks whose ends face two neighbouring cells ...
    join_near: float = 0.0
    #: ... or a line whose two ends do (two tiles close it into a loop, 2 points a tile).
    loop_near: float = 0.0
    #: An end whose fitting tiles (those not on the table) are all in rival hands counts
    #: this share of its liveness: the rival can hold them back.
    held_end: float = 1.0
    #: Extra per live end of a rival's track that a tile in the rival's hand fits now (the
    #: rival, next to move, can extend it at once).
    rival_hand_fit: float = 0.0
    #: Weight of the best opponent colour's potential against the mover's own.
    opponent: float = 1.0
    #: Only the longest tracks of a colour get their ends examined (the expensive part).
    top_tracks: int = 3
    #: The evaluation is tanh(potential difference / scale): ...
    scale: float = 8.0
    #: ... and in the endgame (no tiles left to draw), where a point decides the game:
    endgame_scale: float = 8.0

    @classmethod
    def parse(cls, text: str, base: Weights | None = None) -> Weights:
        """``"live_end=1,second=0.4"`` -> ``base`` (the class defaults if None) with those
        fields changed. Fields may be separated by ``;`` too: an agent's parameters on a
        command line are separated by commas (``tantrix:time=1,weights=live_end=1;second=0.4``)."""
        names = {f.name: f.type for f in fields(cls)}
        changes = {}
        for item in filter(None, (s.strip() for s in text.replace(";", ",").split(","))):
            name, _, value = item.partition("=")
            if name not in names:
                raise OptionError(f"unknown weight {name!r}; known: {', '.join(names)}")
            kind = int if names[name] in (int, "int") else float
            try:
                changes[name] = kind(value)
            except ValueError:
                raise OptionError(
                    f"weight {name} must be {'an integer' if kind is int else 'a number'}, got {value!r}"
                ) from None
        return replace(base or cls(), **changes)


#: The weights ``tantrix-classic`` plays with: the evaluation as it was before the knowledge
#: below was added.
CLASSIC = Weights()
DEFAULT = CLASSIC
#: The ``tantrix`` agent's weights (and the game's ``evaluate``, which the generic agents and
#: the levels use): chains of joins, and the second-best track at a quarter (it predicts
#: nothing of the final margin: ``benchmarks/results/tantrix.md``, 2026-12-02).
AGENT = Weights(join_depth=3, second=0.25)


def _fits(edges, cell: Cell, tiles, enough: int = 1) -> int:
    """How many of ``tiles`` fit ``cell`` in some rotation, counting no further than
    ``enough`` (this runs for every end of every evaluation)."""
    return _count_fits(fitting(side_pattern(edges, cell)), tiles, enough)


def _count_fits(fit, tiles, enough: int = 1) -> int:
    n = 0
    for tile in tiles:
        if tile in fit:
            n += 1
            if n >= enough:
                break
    return n


def _liveness(state, cell: Cell, unplaced, cache: dict, weights: Weights, geometry=None) -> float:
    """In [0, 1]: whether (and how well) the remaining tiles can fill ``cell``; an end the
    restrictions alone close counts ``restricted_end``. ``geometry`` (cell -> the closure
    test's answer) may carry answers for this table's occupied cells: they do not depend
    on the tiles' colours, so every placement on one cell shares them; with it the fits
    come from the table's memo (the same answers)."""
    live = cache.get(cell)
    if live is not None:
        return live
    edges = state.edges
    if geometry is None:
        live = _fits(edges, cell, unplaced, weights.fit_full) / weights.fit_full
    else:  # the incremental path: the table's own memo of the fits (``Layout.space_fits``)
        live = _count_fits(state.space_fits(cell), unplaced, weights.fit_full) / weights.fit_full
    if live and not state.endgame:
        if geometry is None:
            allowed = geometry_allows(edges, state.counts, cell, state.consecutive_forced)
        else:
            allowed = geometry.get(cell)
            if allowed is None:
                allowed = geometry[cell] = geometry_allows(
                    edges, state.counts, cell, state.consecutive_forced
                )
        if not allowed:
            live *= weights.restricted_end
    cache[cell] = live
    return live


def faced_tracks(edges, colour: str, found) -> list[tuple[list[Cell], bool, tuple[Cell, ...]]]:
    """``tracks`` with each line's *faced* cells: the empty cells its ends lead to, end by
    end (a loop faces none)."""
    return [(cells, loop, () if loop else _faced(edges, cells, colour)) for cells, loop in found]


def _faced(edges, cells: list[Cell], colour: str) -> tuple[Cell, ...]:
    out = []
    for end in {cells[0], cells[-1]}:
        for d in link_ends(edges[end], colour):
            dq, dr = DIRECTIONS[d]
            beyond = (end[0] + dq, end[1] + dr)
            if beyond not in edges:
                out.append(beyond)
    return tuple(out)


def colour_potential(
    state,
    colour: str,
    unplaced,
    cache: dict,
    weights: Weights = DEFAULT,
    own: bool = False,
    found_tracks=None,
    geometry=None,
    rival: bool = False,
) -> float:
    """The estimate of ``colour``'s final score: best track with its live ends, a share of
    the second best, and the likely gain of the best join. ``found_tracks``: ``faced_tracks``
    of this table if known (``TrackIndex.after``); ``geometry``: see ``_liveness``.
    ``own``: the colour of the player the evaluation is for; ``rival``: another colour
    (the ones moving next)."""
    edges = state.edges
    if found_tracks is None:
        found_tracks = faced_tracks(edges, colour, tracks(edges, colour))
    found = sorted(
        ((track_value(cells, loop), loop, cells, faced) for cells, loop, faced in found_tracks),
        key=lambda t: t[0],
        reverse=True,
    )
    per_end = min(weights.end_cap, weights.live_end + weights.end_per_tile * len(state.bag))
    hands = None
    hand_bonus = weights.hand_fit if own else weights.rival_hand_fit if rival else 0.0
    if hand_bonus or weights.join or weights.held_end != 1.0:
        hands = [t for p, c in enumerate(state.colours) if c == colour for t in state.hands[p]]
    # The tiles this colour's owner may still get: the bag's and their own hands'.
    reachable = None
    if weights.held_end != 1.0:
        reachable = list(state.bag) + hands
    values = []
    #: Empty cell -> the tracks (by index) whose ends face it.
    meeting: dict[Cell, list[int]] = {}
    top_tracks = weights.top_tracks
    for index, (value, loop, _cells, faced) in enumerate(found):
        if loop:
            continue
        top = index < top_tracks
        ends_value = 0.0
        for beyond in faced:
            meeting.setdefault(beyond, []).append(index)
            if top:
                live = _liveness(state, beyond, unplaced, cache, weights, geometry)
                if live and reachable is not None and not _fits_space(state, beyond, reachable, geometry):
                    live *= weights.held_end
                end_value = per_end * live
                if live and hand_bonus and _fits_space(state, beyond, hands, geometry):
                    end_value += hand_bonus
                ends_value += end_value
        if top:
            values.append(value + ends_value)
    values += [float(v) for v, loop, _, _ in found[:top_tracks] if loop]
    best = sorted(values, reverse=True) + [0.0, 0.0]
    second = weights.second * best[1]
    join = 0.0
    if weights.join:
        join = weights.join * _best_join(
            state, found, meeting, best[0], unplaced, hands, cache, weights, geometry, rival
        )
    return best[0] + second + join - weights.join_overlap * min(second, join)


def _fits_space(state, cell: Cell, tiles, geometry=None) -> int:
    """Whether one of ``tiles`` fits ``cell`` (from the table's memo on the incremental
    path, as ``_liveness``: the same answer)."""
    if geometry is None:
        return _fits(state.edges, cell, tiles)
    return _count_fits(state.space_fits(cell), tiles)


def _best_join(
    state,
    found,
    meeting,
    best: float,
    unplaced,
    hands,
    cache,
    weights: Weights,
    geometry=None,
    rival: bool = False,
) -> float:
    """The largest expected gain over ``best`` from one tile that joins two tracks (or
    closes a line into a loop) in a cell both ends face. A forced space gets filled by
    rule if any tile fits it; an open one only if its owner chooses to. With ``join_near``
    or ``loop_near``: also two tiles in two neighbouring cells the ends face."""
    gain = 0.0
    for cell, ends in meeting.items():
        if len(ends) < 2:
            continue
        a, b = ends[0], ends[1]
        if a == b:
            joined = 2.0 * (len(found[a][2]) + 1)
        else:
            joined = len(found[a][2]) + len(found[b][2]) + 1.0
        if joined <= best + gain:
            continue
        if not _liveness(state, cell, unplaced, cache, weights, geometry):
            continue
        if state.is_forced(cell, state.counts.get(cell, 0)):
            chance = weights.join_forced
        elif hands and _fits_space(state, cell, hands, geometry):
            chance = weights.join_open + (weights.rival_join if rival else 0.0)
        else:
            chance = weights.join_open / 2
        gain = max(gain, chance * (joined - best))
    if weights.join_depth > 1:
        gain = max(
            gain, _best_chain(state, found, meeting, best, unplaced, hands, cache, weights, geometry, rival)
        )
    if weights.join_near or weights.loop_near:
        gain = max(gain, _best_near_join(state, found, meeting, best, unplaced, cache, weights, geometry))
    return gain


def _join_chance(state, cell: Cell, unplaced, hands, cache, weights: Weights, geometry, rival: bool) -> float:
    """The chance ``_best_join`` gives a join in ``cell`` (0 if no remaining tile fits it)."""
    if not _fillable(state, cell, unplaced, cache, weights, geometry):
        return 0.0
    if state.is_forced(cell, state.counts.get(cell, 0)):
        return weights.join_forced
    if hands and _fits_space(state, cell, hands, geometry):
        return weights.join_open + (weights.rival_join if rival else 0.0)
    return weights.join_open / 2


def _fillable(state, cell: Cell, unplaced, cache, weights: Weights, geometry) -> bool:
    """``bool(_liveness(...))`` without its closure test where that cannot make it zero (the
    test only scales a live end by ``restricted_end``): the chains ask about many cells."""
    live = cache.get(cell)
    if live is not None:
        return bool(live)
    if not weights.restricted_end:
        return bool(_liveness(state, cell, unplaced, cache, weights, geometry))
    return _fits_space(state, cell, unplaced, geometry) > 0


def _best_chain(
    state, found, meeting, best: float, unplaced, hands, cache, weights: Weights, geometry, rival: bool
) -> float:
    """The largest expected gain over ``best`` of a chain of up to ``join_depth`` joins:
    lines linked end to end through cells both ends face, each join with its own chance
    (as ``_best_join``'s), the gain weighted by their product."""
    starts = [(cell, ends) for cell, ends in meeting.items() if len(ends) > 1]
    if not starts:
        return 0.0
    chances: dict[Cell, float] = {}
    gain = 0.0
    depth = weights.join_depth
    # For pruning: no join adds more than the longest line and its cell, and no chance
    # exceeds ``most`` (so a chain cut here could not have beaten ``gain``).
    longest = next((len(cells) for _, loop, cells, _ in found if not loop), 0)
    most = max(1.0, weights.join_forced, weights.join_open + (max(0.0, weights.rival_join) if rival else 0.0))

    def extend(exit_cell: Cell, used: tuple, length: float, p: float, joins: int) -> None:
        nonlocal gain
        left = depth - joins
        if p * most**left * (length + left * (longest + 1.0) - best) <= gain:
            return
        c = chances.get(exit_cell)
        if c is None:
            c = chances[exit_cell] = _join_chance(
                state, exit_cell, unplaced, hands, cache, weights, geometry, rival
            )
        if not c:
            return
        p *= c
        for other in meeting[exit_cell]:
            if other in used:
                continue
            total = length + len(found[other][2]) + 1.0
            if p * (total - best) > gain:
                gain = p * (total - best)
            faced = found[other][3]
            if joins + 1 < depth and len(faced) == 2:  # leave by the other end
                nxt = faced[1] if faced[0] == exit_cell else faced[0]
                if nxt != exit_cell and nxt in meeting:
                    extend(nxt, used + (other,), total, p, joins + 1)

    for cell, ends in starts:
        for index in ends:
            extend(cell, (index,), float(len(found[index][2])), 1.0, 0)
    return gain


def _best_near_join(state, found, meeting, best: float, unplaced, cache, weights: Weights, geometry) -> float:
    """The largest expected gain of two tiles in two neighbouring cells that ends face:
    one line's two ends (closing a loop, ``loop_near``) or two tracks' (``join_near``);
    both cells must be live."""
    gain = 0.0
    for cell, ends in meeting.items():
        for nb in neighbours(cell):
            if nb <= cell or nb not in meeting:
                continue
            for a in ends:
                for b in meeting[nb]:
                    if a == b:
                        chance = weights.loop_near
                        joined = 2.0 * (len(found[a][2]) + 2)
                    else:
                        chance = weights.join_near
                        joined = len(found[a][2]) + len(found[b][2]) + 2.0
                    if not chance or chance * (joined - best) <= gain:
                        continue
                    if not _liveness(state, cell, unplaced, cache, weights, geometry):
                        continue
                    if not _liveness(state, nb, unplaced, cache, weights, geometry):
                        continue
                    gain = chance * (joined - best)
    return gain


def potentials(
    state,
    cache: dict | None = None,
    weights: Weights = DEFAULT,
    own: str | None = None,
    found_tracks: dict | None = None,
    geometry: dict | None = None,
) -> dict[str, float]:
    """Each colour's potential. ``cache`` (cell -> can grow) may carry what is known from a
    nearby position; cells near a change must have been removed from it. ``found_tracks``
    (colour -> its tracks) and ``geometry``: see ``colour_potential``."""
    unplaced = set(state.bag).union(*state.hands)
    cache = {} if cache is None else cache
    return {
        c: colour_potential(
            state,
            c,
            unplaced,
            cache,
            weights,
            c == own,
            None if found_tracks is None else found_tracks[c],
            geometry,
            own is not None and c != own,
        )
        for c in set(state.colours)
    }


def evaluate(
    state,
    player: int,
    cache: dict | None = None,
    weights: Weights = DEFAULT,
    found_tracks: dict | None = None,
    geometry: dict | None = None,
) -> float:
    """In [-1, 1]: ``player``'s colour potential against the best opponent colour's."""
    if state.outcome is not None:
        return 2.0 * state.outcome.reward(player) - 1.0
    mine = state.colours[player]
    pots = potentials(state, cache, weights, mine, found_tracks, geometry)
    others = [pots[c] for c in set(state.colours) if c != mine]
    if not others:
        return 0.0
    scale = weights.endgame_scale if state.endgame else weights.scale
    return math.tanh((pots[mine] - weights.opponent * max(others)) / scale)


class TrackIndex:
    """The tracks of one colour on a base table, to list them on tables that differ from it
    by a few added tiles without walking them all again: only the tracks through the added
    tiles change (they join the base tracks their links touch), the rest stay as they were.
    ``after`` returns exactly ``faced_tracks`` of the new table, in the same order with the
    cells in the same order (tested against it over random games). The cells a kept track
    faces stay empty: a tile on one would have joined that track."""

    def __init__(self, edges: dict[Cell, str], colour: str):
        self.colour = colour
        self.found = faced_tracks(edges, colour, tracks(edges, colour))
        # A track's first cell in (q, r) order: ``tracks`` lists them by it.
        self.firsts = [min(cells) for cells, _, _ in self.found]
        self.index = {cell: i for i, (cells, _, _) in enumerate(self.found) for cell in cells}

    def after(self, edges: dict[Cell, str], added) -> list[tuple[list[Cell], bool, tuple[Cell, ...]]]:
        """``faced_tracks`` of ``edges``, the base table plus tiles on the cells ``added``
        (and nothing taken away)."""
        colour, index = self.colour, self.index
        gone: set[int] = set()
        new: list = []
        covered: set[Cell] = set()
        for cell in added:
            ends = link_ends(edges[cell], colour)
            if ends is None:
                continue
            for d in ends:  # the base tracks this tile's link touches join the new track
                i = index.get(neighbour(cell, d))
                if i is not None:
                    gone.add(i)
            if cell in covered:
                continue
            cells, loop = walk_track(edges, cell, colour)
            first = min(cells)
            if first != cell:
                cells, loop = walk_track(edges, first, colour)
            covered.update(cells)
            new.append((first, (cells, loop, () if loop else _faced(edges, cells, colour))))
        if not new:
            return self.found
        found, firsts = self.found, self.firsts
        if gone:
            kept = [i for i in range(len(found)) if i not in gone]
            out, keys = [found[i] for i in kept], [firsts[i] for i in kept]
        else:
            out, keys = list(found), list(firsts)
        # The kept tracks are in order already: each new one goes in after the firsts
        # below or equal to its own (as a stable sort of them all would put it).
        for first, track in sorted(new, key=itemgetter(0)):
            at = bisect_right(keys, first)
            keys.insert(at, first)
            out.insert(at, track)
        return out


def own_contacts(move, colour: str, edges) -> int:
    """How many sides of ``colour`` the placement turns towards occupied neighbours (each
    joins a track of that colour)."""
    if move.data[0] != "place":
        return 0
    _, tile, cell, rot, _ = move.data
    oriented = ORIENTED[tile][rot]
    return sum(1 for d, nb in enumerate(neighbours(cell)) if oriented[d] == colour and nb in edges)


def order_moves(state, moves):
    """Placements that join the mover's colour to neighbours first (cheap, no evaluation)."""
    if state.to_move is None or state.to_move < 0:
        return moves
    colour = state.colours[state.to_move]
    edges = state.edges
    return sorted(moves, key=lambda move: own_contacts(move, colour, edges), reverse=True)
