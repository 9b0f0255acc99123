"""The position text form (like FEN), for tests and analysis:

    ply=5 next=2 captures=0,2 pending=- 1:K10,N12 2:L10,M10

``ply`` = plies played so far (the opening rules depend on it), ``next`` = the player to
move (1-based), ``captures`` = stones captured by each player, ``pending`` = the player
whose double open tria is pending (C2) or ``-``, then each player's stones. Missing
fields default to: ply = number of stones, next = 1, captures 0, pending none."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.editing import PositionEditor
from ...core.errors import NotationError, QipanError
from ...core.outcome import Outcome
from .board import CAPTURE_TARGET, EMPTY
from .notation import point

if TYPE_CHECKING:
    from .rules import PenteGame, PenteState


def write_position(state: PenteState) -> str:
    g = state.geom
    parts = [
        f"ply={state.placed}",
        f"next={state.to_move + 1 if state.to_move is not None else '-'}",
        "captures=" + ",".join(map(str, state.captures)),
        f"pending={state.pending + 1 if state.pending >= 0 else '-'}",
    ]
    if state.outcome is not None:
        winners = ",".join(str(w + 1) for w in state.outcome.winners) or "draw"
        parts.append(f"over={winners}")
    for p in range(state.num_players):
        stones = [g.name[i] for i in g.points if state.cells[i] == p + 1]
        parts.append(f"{p + 1}:" + ",".join(stones))
    return " ".join(parts)


def read_position(game: PenteGame, text: str, players: int | None = None) -> PenteState:
    fields: dict[str, str] = {}
    stones: dict[int, list[str]] = {}
    for token in text.split():
        if "=" in token:
            key, _, value = token.partition("=")
            if key not in ("ply", "next", "captures", "pending", "players", "over"):
                raise NotationError(f"unknown position field {key!r}")
            fields[key] = value
        elif ":" in token:
            who, _, points = token.partition(":")
            if not who.isdigit():
                raise NotationError(f"bad player number in {token!r}")
            stones[int(who) - 1] = [p for p in points.split(",") if p]
        else:
            raise NotationError(f"cannot read {token!r} in a Pente position")
    n = int(fields["players"]) if "players" in fields and fields["players"].isdigit() else None
    n = players or n or (4 if max(stones, default=0) >= 2 else game.players[0])
    try:
        state = game.new(players=n)
    except QipanError as exc:
        raise NotationError(str(exc)) from exc
    g = state.geom
    count = 0
    for p, points in stones.items():
        if not 0 <= p < n:
            raise NotationError(f"player {p + 1} does not exist in a {n}-player game")
        for text_point in points:
            i = point(game, text_point)
            if state.cells[i] != EMPTY:
                raise NotationError(f"{g.name[i]} is given twice")
            state.cells[i] = p + 1
            state.zhash ^= g.zobrist[i][p + 1]
            count += 1
    state.stones = count
    state._rebuild_free()
    try:
        state.placed = int(fields.get("ply", count))
        nxt = fields.get("next", "1")
        over = fields.get("over")
        if over is not None:
            if nxt != "-":
                raise ValueError("a finished game has next=-")
            winners = () if over == "draw" else tuple(int(w) - 1 for w in over.split(","))
            if any(not 0 <= w < n for w in winners):
                raise ValueError(f"no such winner in over={over}")
            reason = "position set up as finished"
            state.outcome = Outcome.win(winners, n, reason) if winners else Outcome.draw(n, reason)
            state.to_move = None
        else:
            state.to_move = int(nxt) - 1
        caps = fields.get("captures")
        if caps:
            values = [int(c) for c in caps.split(",")]
            if len(values) != n or min(values) < 0:
                raise ValueError("one non-negative capture count per player")
            state.captures = values
        pending = fields.get("pending", "-")
        state.pending = -1 if pending == "-" else int(pending) - 1
    except ValueError as exc:
        raise NotationError(f"malformed Pente position: {exc}") from exc
    if game.exact:
        state.maybe_line = (1 << n) - 1  # re-check every player's lines once: always correct
    if state.outcome is None:  # a game someone has won is over: it says so (over=)
        for p in range(n):
            lined = state.has_line(p)  # a full scan: once
            if lined or state.team_captures(p) >= CAPTURE_TARGET:
                how = "a line that wins" if lined else f"{CAPTURE_TARGET} captured stones"
                raise NotationError(
                    f"malformed Pente position: player {p + 1} already has {how}; "
                    f"a finished game is written with over={p + 1} next=-"
                )
    to_move_ok = state.outcome is not None or 0 <= state.to_move < n
    if not to_move_ok or not -1 <= state.pending < n or state.placed < count:
        raise NotationError("malformed Pente position: player or ply out of range")
    return state


def symmetric_keys(state: PenteState) -> list:
    """``state.key()`` of the position turned or mirrored by each of the board's eight
    symmetries (its own key first): the stones' Zobrist hash over the mapped points, the rest
    of the key (side to move, captures, pending tria, opening stage) unchanged."""
    g = state.geom
    own = state.key()
    occupied = [(i, c) for i in g.points if (c := state.cells[i]) != EMPTY]
    keys = [own]
    for m in g.symmetry_maps[1:]:
        z = 0
        for i, c in occupied:
            z ^= g.zobrist[m[i]][c]
        keys.append((z, *own[1:]))
    return keys


#: The position editor: each player's stones are a ``p:`` list; ``next=`` the side to move.
EDITOR = PositionEditor(
    pieces=("1", "2", "3", "4"), mover_field="next=", movers=("1", "2", "3", "4"), derived=("ply=", "over=")
)
