"""The pente.org PGN-like record format: tags, numbered movetext, implicit captures, a
result token. A file may hold many games.

Each game becomes a qipan Record of ``pente`` with the tournament rule on when the game
is rated (pente.org plays every rated game under it). Its result is the rules' outcome
when the replay ends the game the same way; a game the rules do not end (resignation or
time, about 10% of the corpus) keeps the recorded result as a meta result. A record the
rules contradict keeps the recorded result too, so ``Record.replay`` reports the bad ply.
Options pente.org cannot express are kept in a ``[Qipan Options "{json}"]`` tag.
Registered as the record format ``pente.org`` (``FORMAT``).

The seed's own movetext (``notation.seed_movetext``: numbered rounds of centred ``(x,y)``
placements, each followed by the stones it captured marked ``*``) is the record format
``pente-seed`` (``SEED_FORMAT``), recognised by its form: nothing but move numbers and
``(x,y)`` points."""

from __future__ import annotations

import json
import re

from ...core.errors import QipanError, RecordError
from ...core.formats import RecordFormat
from ...core.outcome import Outcome
from ...core.records import RECORDED, Record, escape_tag, parse_json, wrap_movetext

_TAG = re.compile(r'\[([A-Za-z0-9 _]+?)\s+"((?:[^"\\]|\\.)*)"\]')
_GAME_TAG = re.compile(r'^\s*\[Game\s+"[^"]*Pente[^"]*"\]', re.MULTILINE | re.IGNORECASE)
_MOVE_NUMBER = re.compile(r"\d+\.")
_POINT_MOVE = re.compile(
    r"(?:[A-HJ-Ta-hj-t]\d{1,2}|\(-?\d+,-?\d+\))(?:x(?:[A-HJ-Ta-hj-t]\d{1,2}|\(-?\d+,-?\d+\)))*"
)
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
_UNESCAPE = re.compile(r"\\(.)")
#: Move tokens already read as Pente moves, so a file's thousands of games match each
#: point's pattern once; bounded, as a hostile file could make every token different.
_POINTS: set[str] = set()
_MAX_POINTS = 4096
OPTIONS_TAG = "Qipan Options"
TAG_ORDER = (
    "Game",
    "Site",
    "Event",
    "Round",
    "Section",
    "Date",
    "Time",
    "TimeControl",
    "Rated",
    "Player 1 Name",
    "Player 2 Name",
    "Player 1 Rating",
    "Player 2 Rating",
    "Player 1 Type",
    "Player 2 Type",
)


def sniff(text: str) -> bool:
    """A ``[Game "...Pente..."]`` tag and none of qipan's own ``[Players ...]`` tag."""
    return bool(_GAME_TAG.search(text)) and not re.search(r'^\s*\[Players\s+"', text, re.MULTILINE)


def _split_games(text: str) -> list[tuple[list[str], list[str]]]:
    games: list[tuple[list[str], list[str]]] = []
    tags: list[str] = []
    body: list[str] = []
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        if stripped.startswith("["):
            if body:
                games.append((tags, body))
                tags, body = [], []
            tags.append(stripped)
        else:
            body.append(stripped)
    if tags or body:
        games.append((tags, body))
    return games


def _winners(result: str) -> tuple[int, ...] | None:
    return {"1-0": (0,), "0-1": (1,), "1/2-1/2": ()}.get(result)


def read(text: str, settle: bool = True) -> list[Record]:
    """Every game in a pente.org file as a Record. Raises RecordError if malformed. With
    ``settle`` false the games are not replayed: their results stay as written
    (``Record.settled`` false) for a caller that replays them anyway."""
    records = []
    for number, (tag_lines, body) in enumerate(_split_games(text), start=1):
        try:
            records.append(_read_game(tag_lines, body, settle))
        except RecordError as exc:
            raise RecordError(f"game {number}: {exc}") from exc
    if not records:
        raise RecordError("no game found in the pente.org file")
    return records


def _read_game(tag_lines: list[str], body: list[str], settle: bool) -> Record:
    tags: dict[str, str] = {}
    for line in tag_lines:
        m = _TAG.fullmatch(line)
        if not m:
            raise RecordError(f"malformed tag line: {line!r}")
        value = m.group(2)
        tags[m.group(1)] = _UNESCAPE.sub(r"\1", value) if "\\" in value else value
    name = tags.pop("Game", None)
    if name is None:
        raise RecordError('a pente.org game needs a [Game "Pente"] tag')
    if name.strip().lower() != "pente":
        raise RecordError(
            f"unsupported game {name!r}: only Pente is implemented (not Keryo-, G-, D-Pente...)"
        )
    moves: list[str] = []
    token_result = None
    for tok in " ".join(body).split():
        known = tok in _POINTS  # most tokens: a point read before (a file has a few hundred)
        if not known:
            if _MOVE_NUMBER.fullmatch(tok):
                continue
            if tok in RESULTS:
                if token_result is not None:
                    raise RecordError(f"a second result token {tok!r}")
                token_result = tok
                continue
        if token_result is not None:
            raise RecordError(f"{tok!r} after the result token")
        if not known:
            if not _POINT_MOVE.fullmatch(tok):
                raise RecordError(f"{tok!r} is not a Pente move", len(moves) + 1)
            if len(_POINTS) < _MAX_POINTS:
                _POINTS.add(tok)
        moves.append(tok)
    tag_result = tags.pop("Result", None)
    if tag_result is not None and tag_result not in RESULTS:
        raise RecordError(f"unknown result {tag_result!r}")
    if tag_result and token_result and tag_result != token_result:
        raise RecordError(f"the Result tag says {tag_result} but the movetext ends {token_result}")
    result_text = tag_result or token_result or "*"
    options: dict = {}
    if tags.get("Rated", "").strip().upper() == "Y":
        options["tournament"] = True
    if OPTIONS_TAG in tags:
        extra = parse_json(tags.pop(OPTIONS_TAG), f"the {OPTIONS_TAG} tag")
        if not isinstance(extra, dict):
            raise RecordError(f"the {OPTIONS_TAG} tag must hold a JSON object")
        options.update(extra)
    names = [tags.pop("Player 1 Name", ""), tags.pop("Player 2 Name", "")]
    names = names if any(names) else []
    record = Record(game="pente", options=options, players=2, names=names, moves=moves, tags=tags)
    winners = _winners(result_text)
    if winners is not None:
        record.result = Outcome.win(winners, 2, RECORDED) if winners else Outcome.draw(2, RECORDED)
        record.settled = False
        if settle:
            record.settle(_replay_quietly(record))
    return record


def _replay_quietly(record: Record):
    """The state after every move, or None where a move is refused."""
    state = record.new_state()
    try:
        for text in record.moves:
            state.play(text)
    except QipanError:
        return None
    return state


def write(records: list[Record]) -> str:
    """Records of 2-player Pente games in pente.org's format, one after another."""
    return "\n".join(_write_game(r) for r in records)


def _write_game(record: Record) -> str:
    from ...core.registry import spec

    try:
        game_spec = spec(record.game)
    except QipanError as exc:
        raise RecordError(str(exc)) from exc
    if game_spec.family != "pente" or record.players != 2:
        raise RecordError(
            f"pente.org records hold 2-player Pente games, not {record.game} with {record.players}"
        )
    options = game_spec.resolve(**record.options)
    defaults = spec("pente").default_options()
    extra = {k: v for k, v in options.items() if k != "tournament" and v != defaults[k]}
    result = record.result.result_text() if record.result else "*"
    tags = {
        "Game": "Pente",
        "Site": record.tags.get("Site", "qipan"),
        "Event": record.tags.get("Event", "-"),
        "Round": record.tags.get("Round", "-"),
        "Section": record.tags.get("Section", "-"),
        "Date": record.tags.get("Date", "-"),
        "Time": record.tags.get("Time", "-"),
        "TimeControl": record.tags.get("TimeControl", "-"),
        "Rated": "Y" if options.get("tournament") else "N",
    }
    for i, name in enumerate(record.names[:2]):
        tags[f"Player {i + 1} Name"] = name
    for key, value in record.tags.items():
        tags.setdefault(key, value)
    if extra:
        tags[OPTIONS_TAG] = json.dumps(extra, sort_keys=True)
    tags["Result"] = result
    ordered = [k for k in TAG_ORDER if k in tags] + [k for k in tags if k not in TAG_ORDER and k != "Result"]
    lines = [f'[{k} "{escape_tag(str(tags[k]))}"]' for k in ordered + ["Result"]]
    tokens = []
    for ply, move in enumerate(record.moves):
        if ply % 2 == 0:
            tokens.append(f"{ply // 2 + 1}.")
        tokens.append(move)
    tokens.append(result)
    return "\n".join(lines) + "\n\n" + wrap_movetext(tokens, 80) + "\n"


FORMAT = RecordFormat(
    "pente.org", sniff, read, write, (".pgn",), read_unsettled=lambda text: read(text, settle=False)
)


# -- the seed's movetext ------------------------------------------------------------------
# Each token owns the white space after it (none before): a text that fails is refused in
# linear time (spaces on both sides of a repeated group backtracked exponentially).
_SEED_TEXT = re.compile(r"\s*(?:(?:\d+\.|\(\s*[+-]?\d+\s*,\s*[+-]?\d+\s*\)\**)\s*)+")


def sniff_seed(text: str) -> bool:
    """Only move numbers and ``(x,y)`` points (some marked ``*``), at least one point."""
    return "(" in text and _SEED_TEXT.fullmatch(text) is not None


def read_seed(text: str) -> list[Record]:
    """The two-player games of a file in the seed's notation (games apart by a blank line),
    as ``pente``; moves are stored in pente.org's notation where the game replays, else as
    written (so ``Record.replay`` names the bad ply)."""
    from . import notation
    from .rules import PenteGame

    records = []
    for block in re.split(r"\n\s*\n", text.strip()):
        items = [" ".join(m.group().split()) for m in notation._SEED_ITEM.finditer(block)]
        try:
            state = notation.read_seed_movetext(PenteGame(), block)
            moves = [m.text for m in state.history]
        except QipanError:
            moves = items
        records.append(Record(game="pente", players=2, moves=moves, tags={"notation": "seed"}))
    return records


def write_seed(records: list[Record]) -> str:
    from .notation import seed_movetext

    return "\n\n".join(seed_movetext(record.replay()) for record in records) + "\n"


SEED_FORMAT = RecordFormat("pente-seed", sniff_seed, read_seed, write_seed, (".seed",))
