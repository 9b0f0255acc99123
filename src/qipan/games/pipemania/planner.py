"""A planner for one level: given the layout and the pieces (a known queue sequence, a
fixed multiset, or free choice), find placements that make the level succeed.

    plan(level, pieces=None, reservoir_factor=3, max_nodes=200_000) -> Plan | None

``pieces``: None for free choice of any piece each tick, a list of piece ids for a known
queue (the front piece must be placed; unwanted pieces are dumped on spare cells), or a
dict of counts for the ``fixed`` supply. The search enumerates the pipelines the flow can
follow from the start (straights may later be crossed, which needs a cross there) and, for
each, checks that the pieces can be put on its cells before the flow arrives, one
placement per tick from tick 0. Plans never replace a piece; on grids where the search
finishes within ``max_nodes`` it is complete for such plans.

A module of its own, not ``agent.py``: it plans a whole level offline from the level and
its pieces, not a move from a State under an agent's limits. The level generator uses it
to draw winnable layouts, and the tests use it as the reference for winnability."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...core import CHANCE, QipanError
from .board import BY_ID, opposite, pipe_for
from .level import Level


@dataclass
class Plan:
    #: (tick, cell, piece id) in tick order, one per tick from tick 0.
    placements: list[tuple[int, int, str]]
    #: The cells of the pipeline in flow order.
    pipeline: list[int] = field(default_factory=list)

    def actions(self, cols: int, with_piece: bool) -> list[str]:
        """The plan as Pipe Mania moves: ``p<r>,<c>`` (queue) or ``p<r>,<c>:<piece>``."""
        out = []
        for _tick, cell, piece in self.placements:
            r, c = divmod(cell, cols)
            out.append(f"p{r},{c}:{piece}" if with_piece else f"p{r},{c}")
        return out


class _Search:
    def __init__(self, level: Level, pieces, reservoir_factor: int, max_nodes: int):
        self.level = level
        self.pieces = pieces
        self.factor = reservoir_factor
        self.max_nodes = max_nodes
        self.nodes = 0
        #: Cells to place on the pipeline: cell -> [accepted piece ids, deadline tick].
        self.reqs: dict[int, list] = {}
        self.order: list[int] = []
        #: Channels of cells on the pipeline already used: cell -> set of channel indexes.
        self.used: dict[int, set] = {}
        self.spare = [i for i, p in enumerate(level.cells) if p is None]
        self.result: Plan | None = None
        #: Pipelines are searched up to this many channels (raised step by step).
        self.max_length = 10**6

    # -- timing ------------------------------------------------------------------------
    def tick_of_advance(self, j: int, extra: int) -> int:
        """The tick at which the j-th advance (1-based) enters its cell."""
        return self.level.start_delay + (j + extra) * self.level.flow_period

    # -- feasibility -------------------------------------------------------------------
    def schedule(self) -> list[tuple[int, int, str]] | None:
        reqs = [(cell, frozenset(acc), dl) for cell, (acc, dl) in self.reqs.items()]
        if self.pieces is None or isinstance(self.pieces, dict):
            return self._schedule_any_order(reqs)
        return self._schedule_queue(reqs)

    def _schedule_any_order(self, reqs):
        """Free choice or a fixed multiset: pieces in any order, earliest deadline first,
        one per tick. From a fixed stock, a straight takes its own pipe or else a cross."""
        reqs.sort(key=lambda r: r[2])
        chosen = {}
        if self.pieces is None:
            for cell, acc, _dl in reqs:
                chosen[cell] = min(acc, key=lambda p: p == "X")
        else:
            stock = dict(self.pieces)
            # Cells that accept one piece only first, straights (own pipe or cross) last.
            for cell, acc, _dl in sorted(reqs, key=lambda r: len(r[1])):
                pick = next((p for p in sorted(acc, key=lambda p: p == "X") if stock.get(p, 0) > 0), None)
                if pick is None:
                    return None
                stock[pick] -= 1
                chosen[cell] = pick
        out = []
        for tick, (cell, _acc, dl) in enumerate(reqs):
            if dl < tick:
                return None
            out.append((tick, cell, chosen[cell]))
        return out

    def _schedule_queue(self, reqs):
        """The queue's front piece goes either on a pipeline cell that accepts it (earliest
        deadline first within cells accepting the same pieces) or on a spare cell."""
        classes: dict[frozenset, list] = {}
        for cell, acc, dl in reqs:
            classes.setdefault(acc, []).append((dl, cell))
        keys = list(classes)
        for k in keys:
            classes[k].sort()
        spare = [c for c in self.spare if c not in self.reqs]
        seq = self.pieces
        total = len(reqs)
        seen = set()

        def go(i: int, pointers: tuple, dumps: int, done: int):
            if done == total:
                return []
            if i >= len(seq) or (i, pointers, dumps) in seen:
                return None
            seen.add((i, pointers, dumps))
            for k, ptr in zip(keys, pointers, strict=True):
                if ptr < len(classes[k]) and classes[k][ptr][0] < i:
                    return None  # a cell's deadline passed
            piece = seq[i]
            for n, k in enumerate(keys):
                ptr = pointers[n]
                if piece in k and ptr < len(classes[k]):
                    rest = go(i + 1, pointers[:n] + (ptr + 1,) + pointers[n + 1 :], dumps, done + 1)
                    if rest is not None:
                        return [(i, classes[k][ptr][1], piece), *rest]
            if dumps < len(spare):
                rest = go(i + 1, pointers, dumps + 1, done)
                if rest is not None:
                    return [(i, spare[dumps], piece), *rest]
            return None

        return go(0, tuple(0 for _ in keys), 0, 0)

    # -- pipelines ---------------------------------------------------------------------
    def succeed(self, pipeline) -> bool:
        placements = self.schedule()
        if placements is None:
            return False
        self.result = Plan(sorted(placements), list(pipeline))
        return True

    def extend(self, cell: int, exit_side: int, length: int, extra: int, pipeline: list) -> bool:
        self.nodes += 1
        if self.nodes > self.max_nodes:
            return False
        level = self.level
        if level.goal == "length" and length >= level.min_length and self.succeed(pipeline):
            return True
        if length >= self.max_length:
            return False
        nxt = level.neighbour(cell, exit_side)
        if nxt is None:
            return False
        entry = opposite(exit_side)
        deadline = self.tick_of_advance(length + 1, extra)
        piece = level.cells[nxt]
        if piece is not None:
            if piece.kind == "drain":
                ok = piece.channels[0][0] == entry and length >= level.min_length
                return ok and self.succeed(pipeline)
            if piece.kind in ("blocked", "start"):
                return False
            ch = piece.channel_at(entry)
            if (
                ch is None
                or ch in self.used.get(nxt, ())
                or (piece.kind == "oneway" and entry != piece.entry)
            ):
                return False
            self.used.setdefault(nxt, set()).add(ch)
            hold = self.factor - 1 if piece.kind == "reservoir" else 0
            found = self.extend(nxt, piece.other_end(ch, entry), length + 1, extra + hold, pipeline + [nxt])
            self.used[nxt].discard(ch)
            return found
        if nxt in self.reqs:
            # Back in a pipeline cell: only a straight crossed at right angles, with a cross there.
            acc, _dl = self.reqs[nxt]
            axis = 0 if entry in (1, 3) else 1
            if len(self.used[nxt]) != 1 or "X" not in acc or axis in self.used[nxt]:
                return False
            saved = acc
            self.reqs[nxt][0] = {"X"}
            self.used[nxt].add(axis)
            found = self.extend(nxt, opposite(entry), length + 1, extra, pipeline + [nxt])
            self.used[nxt].discard(axis)
            self.reqs[nxt][0] = saved
            return found
        for exit2 in self.exit_order(nxt, entry):
            pipe = pipe_for(entry, exit2)
            acc = {pipe, "X"} if exit2 == opposite(entry) else {pipe}
            self.reqs[nxt] = [acc, deadline]
            self.used[nxt] = {0 if entry in (1, 3) else 1}
            # With free choice every prefix can be placed in time (cell j is due at a tick
            # after j); otherwise check the pieces before going deeper.
            feasible = self.pieces is None or self.schedule() is not None
            if feasible and self.extend(nxt, exit2, length + 1, extra, pipeline + [nxt]):
                return True
            del self.reqs[nxt]
            del self.used[nxt]
        return False

    def exit_order(self, cell: int, entry: int) -> list[int]:
        exits = [s for s in range(4) if s != entry]
        drain = self.level.drain
        if drain is None:
            return sorted(exits, key=lambda s: s != opposite(entry))
        dr, dc = divmod(drain[0], self.level.cols)

        def distance(side: int) -> int:
            nxt = self.level.neighbour(cell, side)
            if nxt is None:
                return 10**6
            r, c = divmod(nxt, self.level.cols)
            return abs(r - dr) + abs(c - dc)

        return sorted(exits, key=distance)


def plan(level: Level, pieces=None, reservoir_factor: int = 3, max_nodes: int = 200_000) -> Plan | None:
    """A plan that wins ``level`` with these pieces, or None (see the module docstring)."""
    if pieces is not None and not isinstance(pieces, dict):
        pieces = list(pieces)
        unknown = [p for p in pieces if p not in BY_ID]
        if unknown:
            raise ValueError(f"unknown pieces {unknown}")
    search = _Search(level, pieces, reservoir_factor, max_nodes)
    cell, side = level.start
    # Short pipelines first (iterative deepening); the last round has no bound, so the
    # search stays complete. Every pipeline channel is a cell side pair: at most 2 per cell.
    most = 2 * level.cols * level.rows
    if level.drain is not None:
        (sr, sc), (dr, dc) = divmod(cell, level.cols), divmod(level.drain[0], level.cols)
        bound = max(level.min_length, abs(sr - dr) + abs(sc - dc) - 1)
    else:
        bound = level.min_length
    while search.result is None and search.nodes <= max_nodes:
        search.max_length = bound if bound < most else 10**6
        search.extend(cell, side, 0, 0, [])
        if search.max_length == 10**6:
            break
        bound += 4
    return search.result


def winnable_by_search(state, memo: dict | None = None) -> bool:
    """Can player 1 still win this one-player game by placing on empty cells or passing?
    A memoised search over the game's own moves: the ground truth the planner is checked
    and timed against on tiny grids (tests, ``benchmarks/pipemania_speed.py``). The piece
    sequence must be known (``sequence=``): a draw of the dispenser raises QipanError."""
    if memo is None:
        memo = {}
    if state.outcome is not None:
        return state.outcome.winners == (0,)
    if state.to_move == CHANCE:
        raise QipanError("the search needs a known piece sequence: the dispenser draws here")
    key = state.key()
    if key in memo:
        return memo[key]
    board = state.boards[0]
    result = False
    for move in state.legal_moves():
        if move.data[0] == "place" and board.cells[move.data[1]] is not None:
            continue  # plans make no replacements
        if move.text == "h":
            continue  # hurrying never helps
        state.play(move)
        try:
            result = winnable_by_search(state, memo)
        finally:
            state.undo()
        if result:
            break
    memo[key] = result
    return result
