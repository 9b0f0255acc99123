"""Pipe Mania knowledge for agents: a position evaluation and a move ordering.

The evaluation follows the flow through the pipes already laid, from its head (the start
before the countdown ends) to where it would spill, and scores the position as it would end
if nobody laid another pipe: each player's points now, plus the points of the channels the
flow will reach, minus the penalty of every placed pipe it will not reach (dry pipes). With
two players the difference of those projected scores is squashed on a scale that widens with
the ticks left before the flow spills: a lead is worth more the less time the other side has
to answer it, so a player ahead likes to hurry and a player behind does not. With one
player it is the chance that the level succeeds: the flow reaches the drain (or the minimum
length), else how close its path ends to it.

Where a laid pipe without a channel on the flow's side stops it, replacing that pipe opens the
path again (at the replacement's cost). The ordering puts first the placements that extend
the path the flow will take (on its open end, or replacing the pipe that blocks it), then
pass, the placements near the open end, hurry, and the other replacements last (hurry ordered
with a lead just after pass made level 3, which looks at the first 24 moves, hurry at the
first small lead and lose more often: benchmarks/results/levels.md)."""

from __future__ import annotations

import math

from .board import BY_ID, PIPES, opposite

#: Projected points that make a clear lead with no time left (a few channels' worth).
LEAD_SCALE = 300.0
#: How much each tick left widens that scale: time to lay about one pipe per tick.
SCALE_PER_TICK = 40.0
#: A dry pipe costs its penalty in full only when the flow is about to end: with ``t`` ticks
#: left it costs DRY_TICKS / (DRY_TICKS + t) of it (a pipe laid early may still be reached,
#: and a queue only moves on when its front piece is laid somewhere); the hopes of the
#: position (a piece that fits, pipes laid ahead) count t / (DRY_TICKS + t) of theirs.
DRY_TICKS = 2.0
#: Worth of a piece that fits the flow's open end, as a share of a channel's points, at the
#: front of a player's queue; each place further back multiplies it by FIT_DECAY.
FIT_SHARE = 0.8
FIT_DECAY = 0.7
#: Share of their points (and of their dry penalty spared) of pipes laid ahead of the flow
#: that one right piece in the open end would join to the path.
GAP_SHARE = 0.5


class FlowPath:
    """Where the flow of ``board`` will go through the pipes already laid."""

    __slots__ = ("beyond", "blocked", "cells", "channels", "end", "reached", "ticks")

    def __init__(self, board, reservoir_factor: int):
        level = board.level
        head = board.head if board.started else level.start
        flooded = list(board.flooded)
        #: (cell, channel index) of each channel the flow will enter, in order.
        self.channels, stop, reached, holds = walk(level, board.cells, flooded, head, reservoir_factor)
        self.reached = board.reached or reached
        #: The empty cell the flow would spill into and the side it enters by; ``blocked``:
        #: the same for a laid pipe without a channel there, which a replacement can open.
        #: Both None when it spills at a border, a blocked cell or a fixed piece.
        self.end = self.blocked = None
        if stop is not None:
            piece = board.cells[stop[0]]
            if piece is None:
                self.end = stop
            elif piece.replaceable and board.flooded[stop[0]] == 0:
                self.blocked = stop
        self.cells = {cell for cell, _ in self.channels}
        # Ticks until the flow reaches the end of the path: the countdown, then one period
        # per channel (and per reservoir hold).
        steps = len(self.channels) + holds + 1
        wait = 0 if board.started else max(0, board.start_delay - board.tick)
        self.ticks = wait + steps * board.flow_period + board.hold
        #: The channels laid beyond the open end that one right piece there would join to the
        #: path (the longest such run): pipes laid ahead of the flow.
        self.beyond: list[tuple[int, int]] = []
        if self.gap is not None:
            cell, entry = self.gap
            cells = list(board.cells)
            for piece in PIPES:
                ch = piece.channel_at(entry)
                if ch is None:
                    continue
                cells[cell] = piece
                run, _, _, _ = walk(level, cells, list(flooded), (cell, piece.other_end(ch, entry)), 1)
                if len(run) > len(self.beyond):
                    self.beyond = run

    @property
    def gap(self) -> tuple[int, int] | None:
        """Where one piece would let the flow go on: the open end, else the blocking pipe."""
        return self.end or self.blocked


def walk(level, cells, flooded: list[int], head, reservoir_factor: int):
    """The flow from ``head`` (cell, side it leaves by) through ``cells``, marking ``flooded``:
    (channels entered, (cell, entry side) of the empty cell or the piece without an open
    channel there where it spills, or None at a border or a blocked cell, drain reached,
    reservoir holds)."""
    channels: list[tuple[int, int]] = []
    holds = 0
    while True:
        cell, side = head
        nxt = level.neighbour(cell, side)
        if nxt is None:
            return channels, None, False, holds
        piece, entry = cells[nxt], opposite(side)
        if piece is None:
            return channels, (nxt, entry), False, holds
        if piece.kind == "drain":
            return channels, None, piece.channels[0][0] == entry, holds
        if piece.kind in ("blocked", "start") or (piece.kind == "oneway" and entry != piece.entry):
            return channels, None, False, holds
        ch = piece.channel_at(entry)
        if ch is None or flooded[nxt] >> ch & 1:
            return channels, (nxt, entry), False, holds
        flooded[nxt] |= 1 << ch
        channels.append((nxt, ch))
        if piece.kind == "reservoir":
            holds += reservoir_factor - 1
        head = (nxt, piece.other_end(ch, entry))


def projected_scores(state) -> tuple[list[float], list[FlowPath]]:
    """Each player's score if the flow ran through the laid pipes and the level ended there,
    and each board's flow path."""
    o = state.game.o
    scores = [float(s) for s in state.scores]
    paths = []
    for board in state.boards:
        path = FlowPath(board, o["reservoir_factor"])
        paths.append(path)
        if board.over:
            continue
        length, crossovers = board.length, board.crossovers
        level = board.level
        wet = set()
        for cell, ch in path.channels:
            length += 1
            owners = (board.owner[cell],) if board.owner[cell] >= 0 else board.players
            points = o["channel_points"] if length <= level.min_length else o["long_points"]
            piece = board.cells[cell]
            if len(piece.channels) == 2 and (board.flooded[cell] | 1 << ch) == 3:
                crossovers += 1
                points += o["crossover_points"]
            if piece.kind in ("reservoir", "bonus"):
                points += o["bonus_points"]
            for p in owners:
                scores[p] += points
            wet.add(cell)
        if crossovers >= o["crossover_bonus_count"]:  # awarded when the level ends
            for p in board.players:
                scores[p] += o["crossover_bonus"]
        # What may still change is worth the more the more ticks are left: the dry pipes'
        # penalty falls due as time runs out, the hopes (pieces that fit, pipes laid ahead)
        # fade with it, so hurrying locks in only what the flow will surely give.
        hope = path.ticks / (DRY_TICKS + path.ticks)
        dry = o["unused_penalty"] * (1.0 - hope)
        ahead = {}
        for cell, _ in path.beyond:
            ahead[cell] = GAP_SHARE
            if board.owner[cell] >= 0:
                scores[board.owner[cell]] += hope * GAP_SHARE * o["long_points"]
        for cell, owner in enumerate(board.owner):
            if owner >= 0 and board.flooded[cell] == 0 and cell not in wet:
                scores[owner] -= dry * (1.0 - ahead.get(cell, 0.0))
        if path.gap is not None:
            # Opening a blocked end costs a replacement: its penalty and its lost ticks.
            points, delay = o["long_points"], 0
            if path.end is None:
                points, delay = points - o["replace_penalty"], o["replace_delay"]
            for p in board.players:
                place = first_fit(state, p, path.gap[1])
                if place is not None:  # ticks lost to a replacement delay it as much
                    scores[p] += hope * FIT_SHARE * points * FIT_DECAY ** (place + delay + state.lost[p])
    return scores, paths


def first_fit(state, player: int, side: int) -> int | None:
    """How far back in ``player``'s supply the first piece with a channel on ``side`` is (0:
    it can be laid now), or None when none is in sight."""
    supply = state.game.supply
    if supply == "queue" or state.game.choice == "two_stacks" and supply == "choice":
        stacks = range(len(state.dispensers[player]))
        places = [
            i
            for stack in stacks
            for i, pid in enumerate(state.queue(player, stack))
            if BY_ID[pid].channel_at(side) is not None
        ]
        return min(places, default=None)
    if supply == "fixed":
        pool = state.pools[player]
        return (
            0 if any(n > 0 and BY_ID[pid].channel_at(side) is not None for pid, n in pool.items()) else None
        )
    return 0


def evaluate(state, player: int) -> float:
    """In [-1, 1]: ``player``'s prospects if no more pipes were laid (see the module doc)."""
    if state.outcome is not None:
        return 2.0 * state.outcome.reward(player) - 1.0
    scores, paths = projected_scores(state)
    board_index = state.board_of[player]
    if state.num_players == 1:
        return _solo_value(state.boards[board_index], paths[board_index])
    rival = 1 - player
    ticks = min(paths[state.board_of[p]].ticks for p in (player, rival))
    return math.tanh((scores[player] - scores[rival]) / (LEAD_SCALE + SCALE_PER_TICK * ticks))


def _solo_value(board, path: FlowPath) -> float:
    level = board.level
    length = board.length + len(path.channels)
    if length >= level.min_length and (level.goal == "length" or path.reached):
        return 0.9
    if level.goal == "length" or level.drain is None:
        return -0.9 + 1.6 * length / max(1, level.min_length)
    if path.end is None:
        return -0.9
    # How close the open end is to the drain, on the scale of the grid.
    (end, _), (drain, _) = path.end, level.drain
    (r, c), (dr, dc) = divmod(end, level.cols), divmod(drain, level.cols)
    return 0.7 - 1.4 * (abs(r - dr) + abs(c - dc)) / (level.rows + level.cols)


def order_moves(state, moves):
    """Placements extending the flow's path first, then pass, placements near its open end,
    hurry, and replacements last (cheap: one walk of the path)."""
    p = state.to_move
    if p is None or p < 0:
        return moves
    board = state.boards[state.board_of[p]]
    path = FlowPath(board, state.game.o["reservoir_factor"])
    cols = board.level.cols
    end_cell, end_side = path.gap if path.gap is not None else (None, None)
    queue = state.queue(p) if state.game.supply == "queue" else None

    def piece_of(choice):
        if choice is None:
            return BY_ID.get(queue[0]) if queue else None
        if choice.startswith("@"):
            front = state.queue(p, int(choice[1]) - 1)
            return BY_ID.get(front[0]) if front else None
        return BY_ID.get(choice)

    def rank(move) -> tuple:
        kind = move.data[0]
        if kind == "pass":
            return (1, 0)
        if kind == "hurry":
            return (3, 0)
        if kind != "place":
            return (5, 0)
        _, cell, choice = move.data
        if cell == end_cell:
            piece = piece_of(choice)
            # A piece that does not take the flow there blocks the path.
            return (0, 0) if piece is not None and piece.channel_at(end_side) is not None else (4, 1)
        if board.cells[cell] is not None:
            return (4, 0)
        if end_cell is None:
            return (2, 0)
        (r, c), (er, ec) = divmod(cell, cols), divmod(end_cell, cols)
        return (2, abs(r - er) + abs(c - ec))

    return sorted(moves, key=rank)
