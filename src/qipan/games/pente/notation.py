"""Pente moves as text: pente.org's canonical ``K10`` beside the seed's centred ``(x,y)``.

``parse_move(state, text)`` reads both (``game.parse`` delegates to it), ``K10xL10``
for a placement that chooses which pairs it captures (``max_pairs_per_move``), and the
seed's ``(3,0) (1,0)* (2,0)*``: a placement followed by the stones it captures, each
marked with an asterisk ("被提取的子可圈出它們或加註星號標明"). The other helpers print
the centred form and the seed's export (``seed_movetext``), which ``read_seed_movetext``
reads back: ``3. (3,0) (1,0)* (2,0)*``."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ...core.errors import IllegalMove, NotationError, QipanError, RecordError
from ...core.move import Move

if TYPE_CHECKING:
    from .rules import PenteGame, PenteState

#: A point in the seed's centred notation, ``(x,y)``.
_XY = r"\(\s*[+-]?\d+\s*,\s*[+-]?\d+\s*\)"
_CENTRED = re.compile(r"\(\s*([+-]?\d+)\s*,\s*([+-]?\d+)\s*\)")
_NAMED = re.compile(r"([A-Za-z])(\d{1,2})")
#: A captured stone in the seed's notation, ``(1,0)*``.
_MARKED = re.compile(f"({_XY})\\*")
#: One placement of the seed's movetext with the stones it captured: ``(3,0) (1,0)* (2,0)*``.
_SEED_ITEM = re.compile(f"{_XY}(?:\\s*{_XY}\\s*\\*)*")


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
    """The legal move ``text`` denotes: ``K10``, ``(0,0)``, ``K10xL10`` (the pairs it
    captures, named by their nearer stones) or ``(3,0) (1,0)* (2,0)*`` (every stone it
    captures, marked ``*``). NotationError for text that is no move, IllegalMove with the
    rules' reason for a move not legal here (also when the marked stones are not the ones
    the placement captures)."""
    wanted = "".join(str(text).split())
    if not wanted:
        raise NotationError("empty move")
    game = state.game
    marked = {point(game, m) for m in _MARKED.findall(wanted)}
    wanted = _MARKED.sub("", wanted)
    if marked and not wanted:
        raise NotationError(
            f"{text!r} only marks captured stones: write the placement first, as the seed does: "
            "(3,0) (1,0)* (2,0)*"
        )
    if "*" in wanted or (marked and "x" in wanted.lower()):
        raise NotationError(f"{text!r} is not a move: mark captured stones as (1,0)* after the placement")
    parts = wanted.replace("X", "x").split("x")
    if any(not p for p in parts):
        raise NotationError(f"{text!r} is not a move: write K10, (0,0), K10xL10 or (3,0) (1,0)* (2,0)*")
    i = point(game, parts[0])
    taken = [point(game, p) for p in parts[1:]]
    if marked and state.outcome is None and state.stone(i) is None:
        taken = _pairs_marked(state, i, marked)
    return state.resolve(i, taken)


def _pairs_marked(state: PenteState, i: int, marked: set[int]) -> list[int]:
    """The nearer stones of the pairs a placement on ``i`` captures whose two stones are
    ``marked``; IllegalMove unless the marks are exactly whole capturable pairs."""
    g = state.geom
    dirs = state.capture_dirs(i, state.to_move)
    chosen = [d for d in dirs if {i + d, i + 2 * d} <= marked]
    covered = {j for d in chosen for j in (i + d, i + 2 * d)}
    if covered != marked:
        can = sorted(centred(state.game, j) for d in dirs for j in (i + d, i + 2 * d))
        raise IllegalMove(
            f"the stones marked * are not whole pairs that {centred(state.game, i)} captures "
            f"(it can capture {', '.join(can) or 'nothing'})",
            g.name[i],
        )
    return [i + d for d in chosen]


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


def read_seed_movetext(game: PenteGame, text: str, players: int = 2) -> PenteState:
    """Replay the seed's notation as ``seed_movetext`` writes it (numbered rounds, each
    placement ``(x,y)`` followed by its captured stones ``(x,y)*``; the move numbers are
    optional). RecordError with the ply for text that is no move or a move the rules refuse,
    or when the marked stones are not the ones captured."""
    state = game.new(players=players)
    body = re.sub(r"(?m)(^|\s)\d+\.", " ", text)
    position = 0
    for ply, item in enumerate(_SEED_ITEM.finditer(body), start=1):
        gap = body[position : item.start()].strip()
        if gap:
            raise RecordError(f"{gap!r} is not a move in the seed's notation", ply)
        try:
            state.play(parse_move(state, item.group()))
        except QipanError as exc:
            raise RecordError(f"{' '.join(item.group().split())}: {exc}", ply) from exc
        position = item.end()
    rest = body[position:].strip()
    if rest:
        raise RecordError(f"{rest!r} is not a move in the seed's notation", state.ply + 1)
    return state


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
