"""Traditional record formats of each family (pente.org PGN, Trax ``.trx`` lines, ...).

A game package registers a RecordFormat; ``read_records`` picks the format that
recognises a file and otherwise reads qipan's own JSON or PGN-like record."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .errors import RecordError
from .records import Record, loads


@dataclass(frozen=True)
class RecordFormat:
    name: str
    #: True if the text is in this format (checked before qipan's own formats).
    sniff: Callable[[str], bool]
    #: Every game in the text as a Record (not yet replayed). Raise RecordError if malformed.
    read: Callable[[str], list[Record]]
    #: Writes records in this format, where the family has a writer.
    write: Callable[[list[Record]], str] | None = None
    suffixes: tuple[str, ...] = ()
    #: Where ``read`` replays every game to settle its result: the same games, not replayed
    #: (``Record.settled`` false), for a caller that replays them anyway (the game database).
    read_unsettled: Callable[[str], list[Record]] | None = None


_FORMATS: list[RecordFormat] = []


def register_format(fmt: RecordFormat) -> None:
    if all(f.name != fmt.name for f in _FORMATS):
        _FORMATS.append(fmt)


def formats() -> list[RecordFormat]:
    from .registry import specs

    specs()  # importing the game packages registers their formats
    return list(_FORMATS)


def read_records(path: str | Path, settle: bool = True) -> list[Record]:
    """Every game record in a file, in any registered format or qipan's own (``settle``:
    see ``read_records_text``)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"cannot read {path}: {exc}") from exc
    return read_records_text(text, settle)


def read_records_text(text: str, settle: bool = True) -> list[Record]:
    """Every game record in ``text``. ``settle`` false: a format that replays its games
    to settle their results leaves them as written, for a caller that replays anyway
    (``Record.settle``)."""
    for fmt in formats():
        if fmt.sniff(text):
            if not settle and fmt.read_unsettled is not None:
                return fmt.read_unsettled(text)
            return fmt.read(text)
    return [loads(text)]
