"""The seed's centred ``(x,y)`` notation beside pente.org's canonical ``K10``.

``game.parse`` accepts both; these helpers print the centred form and the seed's
export, where captured stones are marked with an asterisk: ``3. (3,0) (1,0)* (2,0)*``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.errors import NotationError
from ...core.move import Move

if TYPE_CHECKING:
    from .rules import PenteGame, PenteState


def centred(game: PenteGame, point: str | int) -> str:
    """``"(x,y)"`` of a point given as ``K10``/``(x,y)`` text or board index."""
    i = game.point(point) if isinstance(point, str) else point
    x, y = game.geom.centred(i)
    return f"({x},{y})"


def pente_org(game: PenteGame, point: str) -> str:
    """The pente.org name (``K10``) of a point written either way."""
    return game.geom.name[game.point(point)]


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


def pente_org_index(game: PenteGame, point: str) -> int:
    """pente.org's internal index ``(19 - rank) * 19 + file`` (0 = A19, 180 = K10)."""
    i = game.point(point)
    g = game.geom
    return (g.n - 1 - g.row[i]) * g.n + g.col[i]


def from_pente_org_index(game: PenteGame, index: int) -> str:
    g = game.geom
    if not 0 <= index < g.n * g.n:
        raise NotationError(f"pente.org index {index} is off the {g.n}x{g.n} board")
    return g.name[g.index(index % g.n, g.n - 1 - index // g.n)]
