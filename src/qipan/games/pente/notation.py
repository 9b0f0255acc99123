"""Pente moves as text: pente.org's canonical ``K10`` beside the seed's centred ``(x,y)``.

``parse_move(state, text)`` reads both (``game.parse`` delegates to it), and ``K10xL10``
for a placement that chooses which pairs it captures (``max_pairs_per_move``). The other
helpers print the centred form and the seed's export, where captured stones are marked
with an asterisk: ``3. (3,0) (1,0)* (2,0)*``."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ...core.errors import NotationError
from ...core.move import Move

if TYPE_CHECKING:
    from .rules import PenteGame, PenteState

_CENTRED = re.compile(r"\(\s*([+-]?\d+)\s*,\s*([+-]?\d+)\s*\)")
_NAMED = re.compile(r"([A-Za-z])(\d{1,2})")


def point(game: PenteGame, text: str) -> int:
    """The board index of a point written ``K10`` (pente.org) or ``(0,0)`` (centred)."""
    t = text.strip()
    g = game.geom
    m = _CENTRED.fullmatch(t)
    if m:
        i = g.from_centred(int(m.group(1)), int(m.group(2)))
        if i is None:
            raise NotationError(f"{t} is off the {g.n}x{g.n} board")
        return i
    m = _NAMED.fullmatch(t)
    if not m:
        raise NotationError(f"{t!r} is not a point: write K10 (pente.org) or (0,0) (centred)")
    letter, rank = m.group(1).upper(), int(m.group(2))
    if letter == "I":
        raise NotationError(f"{t!r}: pente.org files skip the letter I (H is followed by J)")
    i = g.by_name.get(f"{letter}{rank}")
    if i is None:
        raise NotationError(f"{t} is off the {g.n}x{g.n} board")
    return i


def parse_move(state: PenteState, text: str) -> Move:
    """The legal move ``text`` denotes: ``K10``, ``(0,0)`` or ``K10xL10`` (the pairs it
    captures, named by their nearer stones). NotationError for text that is no move,
    IllegalMove with the rules' reason for a move not legal here."""
    wanted = "".join(str(text).split())
    if not wanted:
        raise NotationError("empty move")
    parts = wanted.replace("X", "x").split("x")
    if any(not p for p in parts):
        raise NotationError(f"{text!r} is not a move: write K10, (0,0) or K10xL10")
    game = state.game
    i = point(game, parts[0])
    taken = [point(game, p) for p in parts[1:]]
    return state.resolve(i, taken)


def centred(game: PenteGame, where: str | int) -> str:
    """``"(x,y)"`` of a point given as ``K10``/``(x,y)`` text or board index."""
    i = point(game, where) if isinstance(where, str) else where
    x, y = game.geom.centred(i)
    return f"({x},{y})"


def pente_org(game: PenteGame, where: str) -> str:
    """The pente.org name (``K10``) of a point written either way."""
    return game.geom.name[point(game, where)]


def move_centred(game: PenteGame, move: Move) -> str:
    """A move in centred notation: ``(0,0)``, or ``(0,0)x(1,0)`` with a capture choice."""
    return "x".join(centred(game, part) for part in move.text.split("x"))


def seed_movetext(state: PenteState) -> str:
    """The game so far in the seed's notation: one numbered line per round, each placement
    in ``(x,y)`` followed by the stones it captured, marked ``*``."""
    game = state.game
    replay = game.new(players=state.num_players)
    lines = []
    n = state.num_players
    row: list[str] = []
    for ply, move in enumerate(state.history):
        replay.play(move)
        item = centred(game, move.text.split("x")[0])
        taken = sorted(replay.captured_by_last_move(), key=lambda j: game.geom.centred(j))
        item += "".join(f" {centred(game, j)}*" for j in taken)
        row.append(item)
        if ply % n == n - 1 or ply == len(state.history) - 1:
            lines.append(f"{ply // n + 1}. " + "  ".join(row))
            row = []
    return "\n".join(lines)


def pente_org_index(game: PenteGame, where: str) -> int:
    """pente.org's internal index ``(19 - rank) * 19 + file`` (0 = A19, 180 = K10)."""
    i = point(game, where)
    g = game.geom
    return (g.n - 1 - g.row[i]) * g.n + g.col[i]


def from_pente_org_index(game: PenteGame, index: int) -> str:
    g = game.geom
    if not 0 <= index < g.n * g.n:
        raise NotationError(f"pente.org index {index} is off the {g.n}x{g.n} board")
    return g.name[g.index(index % g.n, g.n - 1 - index // g.n)]
