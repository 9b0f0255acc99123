"""The traditional Morris move list as a record format (rules file §1.9): Malom's
``d7, d6; d2, f4; …`` (comma = White, Black; semicolon = next move) or WMD's numbered
``1. d6 f4 2. d2 b4 …``, with an optional first line ``# <preset> [option=value …]``
(default ``nine-mens-morris``) and an optional result ``1-0``, ``0-1``, ``1/2-1/2``."""

from __future__ import annotations

import re

from ...core.errors import RecordError
from ...core.outcome import Outcome
from ...core.records import Record

_MOVE = re.compile(r"x?[a-g][1-7](?:-[a-g][1-7])?(?:x[a-g][1-7])*")
_NUMBER = re.compile(r"\d+\.(?:\.\.)?")
_RESULTS = {"1-0": (0,), "0-1": (1,), "1/2-1/2": ()}


def _split(text: str) -> tuple[str | None, list[str]]:
    header = None
    lines = text.strip().splitlines()
    if lines and lines[0].lstrip().startswith("#"):
        header = lines[0].lstrip()[1:].strip()
        lines = lines[1:]
    tokens = [tok for tok in re.split(r"[\s,;]+", " ".join(lines)) if tok]
    return header, tokens


def sniff(text: str) -> bool:
    stripped = text.strip()
    if not stripped or stripped[0] in "[{":
        return False
    header, tokens = _split(stripped)
    moves = [t for t in tokens if not _NUMBER.fullmatch(t) and t not in _RESULTS and t != "*"]
    if not moves or not all(_MOVE.fullmatch(t) for t in moves):
        return False
    return header is not None or len(moves) >= 2


def read(text: str) -> list[Record]:
    header, tokens = _split(text)
    game, options = "nine-mens-morris", {}
    if header:
        game, *pairs = header.split()
        for pair in pairs:
            key, sep, value = pair.partition("=")
            if not sep:
                raise RecordError(f"bad option {pair!r} in the header: expected key=value")
            options[key] = value
    moves, result = [], None
    for tok in tokens:
        if _NUMBER.fullmatch(tok) or tok == "*":
            continue
        if tok in _RESULTS:
            winners = _RESULTS[tok]
            result = (
                Outcome.win(winners, 2, "recorded result") if winners else Outcome.draw(2, "recorded result")
            )
            continue
        if not _MOVE.fullmatch(tok):
            raise RecordError(f"{tok!r} is not a Morris move", len(moves) + 1)
        moves.append(tok)
    return [Record(game=game, options=options, moves=moves, result=result)]


def write(records: list[Record]) -> str:
    out = []
    for record in records:
        opts = " ".join(f"{k}={'none' if v is None else v}" for k, v in sorted(record.options.items()))
        lines = [f"# {record.game}" + (f" {opts}" if opts else "")]
        pairs = [record.moves[i : i + 2] for i in range(0, len(record.moves), 2)]
        body = "; ".join(", ".join(p) for p in pairs)
        if record.result is not None:
            body += ("; " if body else "") + record.result.result_text()
        lines.append(body)
        out.append("\n".join(lines))
    return "\n\n".join(out) + "\n"
