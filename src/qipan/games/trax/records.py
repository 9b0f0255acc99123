"""Trax record files: GnuTrax ``.trx`` (one game per line) and tab-separated tables with
a column of such records (like the GnuTrax sample files in the tests' ``data/trax``).

A record lists only the free tile of each turn; forced tiles follow from the rules. A
line may end with ``RESIGN`` (the player whose turn it was resigns) or ``DRAW``. GnuTrax
puzzle lines put `` - `` before the solutions; those are kept in the ``solutions`` tag.
GnuTrax plays 8x8 Trax only, so records without a ``variant`` column are 8x8 games."""

from __future__ import annotations

import re

from ...core.errors import RecordError
from ...core.formats import RecordFormat
from ...core.outcome import Outcome
from ...core.records import Record
from .notation import RESULT_TOKENS, is_move_token

DEFAULT_GAME = "trax-8x8"
GAME_OF_VARIANT = {"unlimited": "trax", "8x8": "trax-8x8", "loop": "trax-loop"}


def _content_lines(text: str) -> list[tuple[int, str]]:
    return [
        (n, line.strip())
        for n, line in enumerate(text.splitlines(), start=1)
        if line.strip() and not line.lstrip().startswith("#")
    ]


def is_record_text(field: str) -> bool:
    """Is this whitespace-separated text a Trax record (tile moves, then maybe a result)?"""
    tokens = field.split()
    if not tokens:
        return False
    moves = tokens[:-1] if tokens[-1].upper() in RESULT_TOKENS else tokens
    return all(is_move_token(t) for t in moves) and bool(moves)


def record_from_tokens(tokens: list[str], game: str = DEFAULT_GAME, tags: dict | None = None) -> Record:
    """A Record from the tokens of one line: tile moves, an optional result token, and
    for puzzles a ``-`` followed by the solutions."""
    tags = dict(tags or {})
    if "-" in tokens:
        cut = tokens.index("-")
        tags["solutions"] = " ".join(tokens[cut + 1 :])
        tokens = tokens[:cut]
    moves, result = [], None
    for i, token in enumerate(tokens):
        kind = RESULT_TOKENS.get(token.upper())
        if kind is None:
            moves.append(token)
            continue
        if i != len(tokens) - 1:
            raise RecordError(f"{token} must end the record", i + 1)
        if kind == "draw":
            result = Outcome.draw(2, "draw agreed")
        elif kind in ("resign", "time"):
            # The token takes the turn slot of the player who resigns or runs out of time.
            loser = len(moves) % 2
            why = "resignation" if kind == "resign" else "time"
            result = Outcome.win((1 - loser,), 2, f"{('White', 'Red')[loser]} lost by {why}")
        tags["marker"] = token.upper()
    return Record(game=game, moves=moves, result=result, tags=tags)


# -- GnuTrax .trx -------------------------------------------------------------------------
def sniff_trx(text: str) -> bool:
    lines = _content_lines(text)
    return bool(lines) and all(
        all(is_move_token(t) or t.upper() in RESULT_TOKENS or t == "-" for t in line.split())
        for _, line in lines
    )


def read_trx(text: str, game: str = DEFAULT_GAME) -> list[Record]:
    records = []
    for number, line in _content_lines(text):
        records.append(record_from_tokens(line.split(), game, {"line": str(number)}))
    if not records:
        raise RecordError("no Trax records in the file")
    return records


def write_trx(records: list[Record]) -> str:
    lines = []
    for record in records:
        tokens = list(record.moves)
        result = record.result
        marker = record.tags.get("marker")
        if marker in ("RESIGN", "DRAW"):
            tokens.append(marker)
        elif result is not None and result.reason == "draw agreed":
            tokens.append("DRAW")
        elif result is not None and "resignation" in result.reason:
            tokens.append("RESIGN")
        lines.append(" ".join(tokens))
    return "\n".join(lines) + "\n"


# -- tab-separated tables -------------------------------------------------------------------
def _comment_header(text: str) -> list[str] | None:
    """Column names from a ``# Columns: a <TAB> b (note) <TAB> c`` comment, if any."""
    for line in text.splitlines():
        if line.startswith("#") and line[1:].strip().lower().startswith("columns:"):
            names = [re.match(r"\s*([\w-]*)", part).group(1) for part in line.split(":", 1)[1].split("<TAB>")]
            if all(names):
                return names
    return None


def _table(text: str) -> tuple[list[str] | None, list[tuple[int, list[str]]]]:
    rows = [
        (n, line.split("\t"))
        for n, line in ((n, raw.rstrip("\r\n")) for n, raw in enumerate(text.splitlines(), start=1))
        if line.strip() and not line.startswith("#")
    ]
    header = _comment_header(text)
    if rows and not any(is_record_text(f) for f in rows[0][1]):
        header = [h.strip() for h in rows[0][1]]
        rows = rows[1:]
    return header, rows


def _record_column(rows: list[tuple[int, list[str]]]) -> int | None:
    if not rows:
        return None
    width = min(len(fields) for _, fields in rows)
    for col in range(width):
        if all(is_record_text(fields[col]) or not fields[col].strip() for _, fields in rows) and any(
            is_record_text(fields[col]) for _, fields in rows
        ):
            return col
    return None


def sniff_tsv(text: str) -> bool:
    if "\t" not in text:
        return False
    _, rows = _table(text)
    return _record_column(rows) is not None


def read_tsv(text: str) -> list[Record]:
    header, rows = _table(text)
    col = _record_column(rows)
    if col is None:
        raise RecordError("no column of Trax records in the table")
    names = header or [f"column{i + 1}" for i in range(max(len(f) for _, f in rows))]
    records = []
    for number, fields in rows:
        tags = {names[i] if i < len(names) else f"column{i + 1}": v for i, v in enumerate(fields) if i != col}
        tags["line"] = str(number)
        game = GAME_OF_VARIANT.get(tags.get("variant", "").strip().lower(), DEFAULT_GAME)
        records.append(record_from_tokens(fields[col].split(), game, tags))
    return records


# -- traxgame.com style annotated games ---------------------------------------------------------
_TITLE = re.compile(r"(8x8 |loop |super)?trax", re.IGNORECASE)
_GAME_OF_TITLE = {"8x8 trax": "trax-8x8", "loop trax": "trax-loop", "trax": "trax", "supertrax": "trax"}
_MOVE_NUMBER = re.compile(r"\d+\.?")


def sniff_annotated(text: str) -> bool:
    lines = [line.split(";", 1)[0].strip() for line in text.splitlines()]
    lines = [line for line in lines if line]
    if len(lines) < 2 or not _TITLE.fullmatch(lines[0]):
        return False
    return all(
        all(_MOVE_NUMBER.fullmatch(t) or is_move_token(t) or t.upper() in RESULT_TOKENS for t in line.split())
        for line in lines[1:]
    )


def read_annotated(text: str) -> list[Record]:
    """One game: a title line (``8x8 Trax``, ``Loop Trax``, ``Trax``), then numbered moves
    with ``;`` comments, e.g. ``  1 @0/   ; a comment``; ``Resign``, ``Time`` or ``win``
    may close it (``win`` only annotates the last move: the rules decide the winner)."""
    lines = [line.split(";", 1)[0].strip() for line in text.splitlines()]
    lines = [line for line in lines if line]
    if not lines or not _TITLE.fullmatch(lines[0]):
        raise RecordError("an annotated Trax game starts with its title: Trax, 8x8 Trax or Loop Trax")
    game = _GAME_OF_TITLE[" ".join(lines[0].lower().split())]
    tokens = [t for line in lines[1:] for t in line.split() if not _MOVE_NUMBER.fullmatch(t)]
    return [record_from_tokens(tokens, game, {"title": lines[0]})]


ANNOTATED_FORMAT = RecordFormat("trax-annotated", sniff_annotated, read_annotated, None, (".txt",))
TRX_FORMAT = RecordFormat("trax-trx", sniff_trx, read_trx, write_trx, (".trx",))
TSV_FORMAT = RecordFormat("trax-tsv", sniff_tsv, read_tsv, None, (".tsv",))
