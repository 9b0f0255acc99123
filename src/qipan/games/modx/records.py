"""MOD X game text (rules §3.9): qipan's PGN-like tags, then one line per turn prefixed by
the player's colour letter::

    [Game "modx"]
    [Players "2"]
    [Result "1-0"]

    R J@C3 F7 A8 H1 H8
    B H4
    R A1
    ...
    R E5 {A1 B2 C3 D4 E5} J>C3

The setup line lists the joker squares after one ``J@``; a placement line may end with the
relocations of the jokers it removed. Registered as the record format ``modx-turns``."""

from __future__ import annotations

import re

from ...core.errors import RecordError
from ...core.formats import RecordFormat
from ...core.records import Record
from .board import LETTERS

# A placement may list what it scores; with manual_claims, ``E4 {}`` and ``C1 claim {...}``.
_TOKEN = re.compile(r"J@[A-H][1-8]|J>[A-H][1-8]|[A-H][1-8](?:\s+claim)?(?:\s*\{[^}]*\})?", re.IGNORECASE)
_LINE = re.compile(r"([RBYO])\s+(\S.*)")
_RESULTS = ("1-0", "0-1", "1/2-1/2", "*")


def turn_lines(moves: list[str], players: int) -> list[str]:
    """The moves (notation) grouped into one line per turn, each with its colour letter."""
    lines: list[str] = []
    setup: list[str] = []
    placements = 0
    for move in moves:
        if move.upper().startswith("J@"):
            setup.append(move[2:].upper() if setup else move.upper())
        elif move.upper().startswith("J>"):
            if not lines:
                raise RecordError(f"{move}: a relocation must follow a placement")
            lines[-1] += " " + move
        else:
            colour = LETTERS[(1 + placements) % players]
            placements += 1
            lines.append(f"{colour} {move}")
    if setup:
        lines.insert(0, "R " + " ".join(setup))
    return lines


def moves_from_lines(lines: list[str], players: int) -> list[str]:
    """The inverse of ``turn_lines``; checks each line's colour letter."""
    moves: list[str] = []
    placements = 0
    for number, line in enumerate(lines, start=1):
        m = _LINE.fullmatch(line.strip())
        if not m:
            raise RecordError(f"line {number}: {line!r} is not '<colour letter> <moves>'")
        colour, rest = m.groups()
        tokens = [t.group(0) for t in _TOKEN.finditer(rest)]
        if _TOKEN.sub("", rest).strip():
            raise RecordError(f"line {number}: {line!r} holds text that is no MOD X move")
        if tokens and tokens[0].upper().startswith("J@"):
            if colour != "R":
                raise RecordError(f"line {number}: the first player (R) places the setup jokers")
            for t in tokens:
                t = t.upper()
                if t.startswith("J>"):
                    raise RecordError(f"line {number}: {t} in the setup line")
                moves.append(t if t.startswith("J@") else "J@" + t)
            continue
        expected = LETTERS[(1 + placements) % players]
        if colour != expected:
            raise RecordError(f"line {number}: it is {expected}'s turn, not {colour}'s")
        if not tokens or tokens[0].upper().startswith("J"):
            raise RecordError(f"line {number}: a turn starts with an X placement")
        placements += 1
        moves.extend(tokens)
    return moves


def _split(text: str) -> tuple[list[str], list[str]]:
    tags, body = [], []
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        (tags if stripped.startswith("[") else body).append(stripped)
    return tags, body


def sniff(text: str) -> bool:
    tags, body = _split(text)
    return any(t.startswith('[Game "modx') for t in tags) and bool(body) and bool(_LINE.fullmatch(body[0]))


def read(text: str) -> list[Record]:
    chunks = re.split(r"\n(?=\[Game )", "\n" + text.strip())
    records = []
    for chunk in chunks:
        if not chunk.strip():
            continue
        tags, body = _split(chunk)
        if body and (body[-1] in _RESULTS or body[-1] == "draw" or body[-1].startswith("winners ")):
            body = body[:-1]  # the result line (the Result tag is what counts)
        players = 2
        for t in tags:
            m = re.fullmatch(r'\[Players\s+"(\d+)"\]', t)
            if m:
                players = int(m.group(1))
        if players not in (2, 3, 4):
            raise RecordError(f"MOD X is played by 2, 3 or 4 players, not {players}")
        moves = moves_from_lines(body, players)
        quoted = " ".join('"' + m.replace("\\", "\\\\").replace('"', '\\"') + '"' for m in moves)
        records.append(Record.from_pgn("\n".join(tags) + "\n\n" + quoted + "\n"))
    return records


def write(records: list[Record]) -> str:
    out = []
    for record in records:
        tags = record.to_pgn().split("\n\n", 1)[0]
        result = record.result.result_text() if record.result else "*"
        out.append(tags + "\n\n" + "\n".join(turn_lines(record.moves, record.players)) + "\n" + result + "\n")
    return "\n".join(out)


FORMAT = RecordFormat("modx-turns", sniff, read, write, suffixes=(".modx",))
