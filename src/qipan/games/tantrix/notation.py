"""Move notation (rules 4.6): ``12@1,-1r3`` places tile 12 at (q, r) = (1, -1) turned 3 × 60°
clockwise; ``F 12@1,-1r3`` is a forced fill; ``+17`` draws tile 17 from the bag.

``Move.path`` for the web front-end is (hand tile ``t12``, cell ``1,-1``, rotation ``r3``)."""

from __future__ import annotations

import re

from ...core import CHANCE, IllegalMove, Move, NotationError
from .board import DIRECTION_NAMES, ORIENTED, TILES, neighbours

_PLACEMENT = re.compile(r"(F)?\s*(\d+)\s*@\s*\(?\s*(-?\d+)\s*,\s*(-?\d+)\s*\)?\s*R\s*(\d+)", re.IGNORECASE)
_DRAW = re.compile(r"\+\s*(\d+)")

_CACHE: dict[tuple, Move] = {}


def placement_text(tile: int, cell: tuple[int, int], rot: int, forced: bool = False) -> str:
    return f"{'F ' if forced else ''}{tile}@{cell[0]},{cell[1]}r{rot}"


def placement_move(tile: int, cell: tuple[int, int], rot: int, forced: bool) -> Move:
    key = (tile, cell, rot, forced)
    move = _CACHE.get(key)
    if move is None:
        path = (f"t{tile}", f"{cell[0]},{cell[1]}", f"r{rot}")
        move = _CACHE[key] = Move(
            placement_text(tile, cell, rot, forced), path, ("place", tile, cell, rot, forced)
        )
    return move


def draw_move(tile: int) -> Move:
    key = ("draw", tile)
    move = _CACHE.get(key)
    if move is None:
        move = _CACHE[key] = Move(f"+{tile}", (f"+{tile}",), ("draw", tile))
    return move


def read_placement(text: str) -> tuple[int, tuple[int, int], int, bool]:
    """(tile, cell, rotation, forced) from ``[F] <tile>@<q>,<r>r<k>``; NotationError if malformed."""
    m = _PLACEMENT.fullmatch(text.strip())
    if not m:
        raise NotationError(f"{text!r} is not a Tantrix placement: expected e.g. 12@1,-1r3 or F 12@1,-1r3")
    tile, q, r, rot = int(m.group(2)), int(m.group(3)), int(m.group(4)), int(m.group(5))
    if tile not in TILES:
        raise NotationError(f"there is no tile {tile}: tiles are numbered 1-56")
    if rot > 5:
        raise NotationError(f"rotation r{rot} out of range: 0-5 sixth-turns clockwise")
    return tile, (q, r), rot, bool(m.group(1))


def parse_move(state, text: str) -> Move:
    """The legal move ``text`` names. Lenient about spaces and case; the ``F`` may be left
    out of a forced fill. NotationError for no move at all, IllegalMove for an illegal one."""
    wanted = " ".join(str(text).split())
    if not wanted:
        raise NotationError("empty move")
    if state.outcome is not None:
        raise IllegalMove(f"the game is over ({state.outcome.reason})", wanted)
    m = _DRAW.fullmatch(wanted)
    if m:
        tile = int(m.group(1))
        if tile not in TILES:
            raise NotationError(f"there is no tile {tile}: tiles are numbered 1-56")
        move = draw_move(tile)
        state.check_legal(move)
        return move
    tile, cell, rot, forced = read_placement(wanted)
    moves = state.legal_moves()
    for candidate_forced in (forced, not forced) if not forced else (True,):
        move = placement_move(tile, cell, rot, candidate_forced)
        if move in moves:
            return move
    raise IllegalMove(explain_illegal(state, placement_move(tile, cell, rot, forced)), wanted)


def explain_illegal(state, move: Move) -> str:
    """Why ``move`` is not legal in ``state`` (a message for a person)."""
    data = move.data
    if data is None:
        return f"{move} is not a legal move here"
    if state.outcome is not None:
        return f"the game is over ({state.outcome.reason})"
    if data[0] == "draw":
        if state.to_move != CHANCE:
            return f"{move}: no tile is drawn now; player {state.to_move + 1} is to place a tile"
        return f"tile {data[1]} is not in the bag"
    if state.to_move == CHANCE:
        return f"{move}: a tile must be drawn from the bag first"
    _, tile, cell, rot, forced = data
    player = state.to_move
    edges = getattr(state, "edges", {})
    hand = state.hands[player] if hasattr(state, "hands") else state.hand
    if tile not in hand:
        return f"tile {tile} is not in the hand of player {player + 1}"
    if cell in edges:
        return f"{cell[0]},{cell[1]} is occupied"
    fills = [m for m in state.legal_moves() if m.data[0] == "place" and m.data[4]]
    if fills and not (forced and cell in {m.data[2] for m in fills}):
        return f"a forced space must be filled first, e.g. {fills[0]}"
    if edges and not any(nb in edges for nb in neighbours(cell)):
        return f"{cell[0]},{cell[1]} does not touch any tile"
    oriented = ORIENTED[tile][rot]
    for d, nb in enumerate(neighbours(cell)):
        e = edges.get(nb)
        if e is not None and e[(d + 3) % 6] != oriented[d]:
            return (
                f"tile {tile} in rotation {rot} shows {oriented[d]} on its {DIRECTION_NAMES[d]} edge "
                f"but the neighbour there shows {e[(d + 3) % 6]}"
            )
    if forced and not fills:
        return f"{move}: there is no forced fill to make now"
    if hasattr(state, "why_restricted"):
        reason = state.why_restricted(tile, cell, rot)
        if reason:
            return f"{move}: {reason}"
    return f"{move} is not a legal move here"
