"""One record format for every game: JSON (``qipan-record/1``) and a PGN-like text form.

A record holds the game id and options, the player count and names, every move in
notation (chance moves included, so it replays without the seed), the result and
timestamps. Loading replays the moves through the rules; a record that breaks them is
rejected with the ply and the reason."""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .errors import QipanError, RecordError
from .game import State
from .outcome import Outcome

FORMAT = "qipan-record/1"

# Bounds on every count a record states, so that a hostile record is refused at once
# rather than looping over 10**20 players or replaying millions of moves.
MAX_PLAYERS = 16
MAX_MOVES = 100_000
MAX_TEXT = 16 * 1024 * 1024
#: Objects and arrays inside each other in a JSON record or an Options tag.
MAX_DEPTH = 32


def now_iso() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat()


#: The reason of a result taken from a file as written: the rules end the game otherwise,
#: or its moves do not replay (``Record.replay`` then names the bad ply).
RECORDED = "recorded result"


def settled_result(recorded: Outcome | None, state: State | None) -> Outcome | None:
    """A file's result checked against the replay ``state`` (None: the moves do not
    replay): the rules' outcome where they end the game the same way; where the rules do
    not end it, the recorded result as resignation or time (a draw: agreed); otherwise the
    recorded result as it is (reason ``RECORDED``)."""
    if recorded is None or state is None:
        return recorded
    if state.outcome is None:
        if not recorded.winners:
            return Outcome.draw(state.num_players, "draw agreed")
        return Outcome.win(recorded.winners, state.num_players, "resignation or time")
    if tuple(state.outcome.winners) == tuple(recorded.winners):
        return state.outcome
    return recorded


#: The tag holding the position text a record's moves start from (None: the rules' start).
POSITION_TAG = "Position"


@dataclass
class Record:
    game: str
    options: dict = field(default_factory=dict)
    players: int = 2
    names: list[str] = field(default_factory=list)
    moves: list[str] = field(default_factory=list)
    #: The final result: the rules' outcome, or a meta result (resignation, agreement, time).
    result: Outcome | None = None
    seed: int | None = None
    started: str | None = None
    ended: str | None = None
    #: Seconds spent on each move, where known.
    times: list[float] | None = None
    tags: dict[str, str] = field(default_factory=dict)
    #: False while ``result`` is the result as the file wrote it, not yet checked against
    #: how the rules end the game: a reader asked not to replay (``read_records(...,
    #: settle=False)``) leaves that to the caller who replays anyway (``settle``).
    settled: bool = field(default=True, compare=False, repr=False)

    def settle(self, state: State | None) -> None:
        """Settle an unsettled result from ``state``, the replay of every move (None if
        the moves do not replay): see ``settled_result``."""
        if not self.settled:
            self.result = settled_result(self.result, state)
            self.settled = True

    # -- replay ------------------------------------------------------------------------
    def new_state(self) -> State:
        """The state the moves are played from: the rules' start, or the position of the
        ``Position`` tag (a game set up in the position editor, as PGN's ``FEN`` tag)."""
        from .registry import load

        try:
            game = load(self.game, **self.options)
            text = self.tags.get(POSITION_TAG)
            if text is not None:
                state = game.position(text)
                if state.num_players != self.players:
                    raise QipanError(f"the position is for {state.num_players} players, not {self.players}")
                return state
            return game.new(players=self.players, seed=self.seed)
        except NotImplementedError as exc:
            raise RecordError(f"{self.game} has no position format for the Position tag") from exc
        except QipanError as exc:
            raise RecordError(str(exc)) from exc

    def replay(self, upto: int | None = None) -> State:
        """The state after the record's moves (or the first ``upto`` of them).

        Raises RecordError naming the first bad ply (1-based) and why, and if the rules
        end the game differently from the recorded result."""
        state = self.new_state()
        moves = self.moves if upto is None else self.moves[:upto]
        for ply, text in enumerate(moves, start=1):
            try:
                state.play(text)
            except QipanError as exc:
                reason = str(exc) if text in str(exc) else f"{text!r}: {exc}"
                raise RecordError(reason, ply) from exc
        if upto is None:
            self.settle(state)
        if upto is None and self.result is not None and state.outcome is not None:
            if tuple(state.outcome.winners) != tuple(self.result.winners):
                raise RecordError(
                    f"the rules end the game as {state.outcome.result_text()} "
                    f"({state.outcome.reason}), the record says {self.result.result_text()}"
                )
        return state

    # -- JSON --------------------------------------------------------------------------
    def to_dict(self) -> dict:
        return {
            "format": FORMAT,
            "game": self.game,
            "options": self.options,
            "players": self.players,
            "names": self.names,
            "moves": self.moves,
            "result": self.result.to_dict() if self.result else None,
            "seed": self.seed,
            "started": self.started,
            "ended": self.ended,
            "times": self.times,
            "tags": self.tags,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=1)

    @classmethod
    def from_dict(cls, data: Any) -> Record:
        """A record from its JSON object, every field checked for type and bounds."""
        if not isinstance(data, dict):
            raise RecordError("a record must be a JSON object")
        if data.get("format", FORMAT) != FORMAT:
            raise RecordError(f"unknown record format {str(data.get('format'))[:40]!r}; expected {FORMAT}")
        if "game" not in data:
            raise RecordError("malformed record: it names no game")
        game = _text(data["game"], "game")
        players = check_players(data.get("players", 2))
        moves = data.get("moves", [])
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise RecordError("malformed record: moves must be a list of strings")
        check_moves(moves)
        options = data.get("options") or {}
        if not isinstance(options, dict):
            raise RecordError("malformed record: options must be an object")
        names = data.get("names") or []
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise RecordError("malformed record: names must be a list of strings")
        if len(names) > players:
            raise RecordError(f"malformed record: {len(names)} names for {players} players")
        seed = data.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise RecordError("malformed record: seed must be a whole number")
        times = data.get("times")
        if times is not None and (
            not isinstance(times, list)
            or len(times) > len(moves)
            or not all(
                isinstance(t, int | float) and not isinstance(t, bool) and math.isfinite(t) for t in times
            )
        ):
            raise RecordError("malformed record: times must be a list of seconds, one per move")
        tags = data.get("tags") or {}
        if not isinstance(tags, dict) or not all(isinstance(v, str) for v in tags.values()):
            raise RecordError("malformed record: tags must be an object of strings")
        result = data.get("result")
        return cls(
            game=game,
            options=options,
            players=players,
            names=list(names),
            moves=moves,
            result=outcome_from_dict(result, players) if result else None,
            seed=seed,
            started=_text(data.get("started"), "started", optional=True),
            ended=_text(data.get("ended"), "ended", optional=True),
            times=times,
            tags=dict(tags),
        )

    @classmethod
    def from_json(cls, text: str) -> Record:
        return cls.from_dict(parse_json(text))

    # -- PGN-like text -----------------------------------------------------------------
    def to_pgn(self) -> str:
        tags = {
            "Game": self.game,
            "Players": str(self.players),
            **{f"Player {i + 1}": n for i, n in enumerate(self.names)},
            **({"Options": json.dumps(self.options, sort_keys=True)} if self.options else {}),
            **({"Seed": str(self.seed)} if self.seed is not None else {}),
            **({"Started": self.started} if self.started else {}),
            **({"Ended": self.ended} if self.ended else {}),
            "Result": self.result.result_text() if self.result else "*",
            **({"Reason": self.result.reason} if self.result else {}),
            **({"Scores": " ".join(f"{s:g}" for s in self.result.scores)} if self.result else {}),
            **self.tags,
        }
        lines = [f'[{k} "{escape_tag(str(v))}"]' for k, v in tags.items()]
        tokens = []
        n = max(self.players, 1)
        for i, move in enumerate(self.moves):
            if i % n == 0:
                tokens.append(f"{i // n + 1}.")
            tokens.append(_quote_move(move))
        result = self.result.result_text() if self.result else "*"
        # Results that are not one PGN token (n players) go in a comment; the tag has them.
        tokens.append(result if result in _RESULT_TOKENS else "{" + result + "}")
        return "\n".join(lines) + "\n\n" + wrap_movetext(tokens) + "\n"

    @classmethod
    def from_pgn(cls, text: str) -> Record:
        tags: dict[str, str] = {}
        body_lines = []
        for line in text.split("\n"):  # not splitlines(): a tag value may hold U+2028
            stripped = line.strip()
            m = _TAG.fullmatch(stripped)
            if m:
                tags[m.group(1)] = _unescape(m.group(2))
            elif stripped.startswith("["):
                raise RecordError(f"malformed tag line: {stripped!r}")
            else:
                body_lines.append(line)
        if "Game" not in tags:
            raise RecordError('a PGN-like record needs a [Game "..."] tag')
        options = parse_json(tags.pop("Options", "{}"), "the Options tag")
        if not isinstance(options, dict):
            raise RecordError("malformed tag value: Options must be a JSON object")
        players = check_players(_integer(tags.pop("Players", "2"), "Players"))
        seed = tags.pop("Seed", None)
        seed = _integer(seed, "Seed") if seed is not None else None
        names = [tags.pop(f"Player {i + 1}") for i in range(players) if f"Player {i + 1}" in tags]
        moves = []
        result_token = "*"
        for tok in _MOVETEXT.findall(" ".join(body_lines)):
            if tok.startswith("{"):
                continue
            if tok.startswith('"'):
                moves.append(_unescape(tok[1:-1]))
            elif _MOVE_NUMBER.fullmatch(tok):
                continue
            elif tok in _RESULT_TOKENS:
                result_token = tok
            else:
                moves.append(tok)
        check_moves(moves)
        game = tags.pop("Game")
        result_text = tags.pop("Result", result_token)
        reason = tags.pop("Reason", None)
        scores_text = tags.pop("Scores", None)
        started, ended = tags.pop("Started", None), tags.pop("Ended", None)
        result = None
        if result_text != "*" and reason is not None:
            try:
                scores = tuple(float(s) for s in scores_text.split()) if scores_text else ()
            except ValueError as exc:
                raise RecordError(f"malformed Scores tag: {exc}") from exc
            result = outcome_from_dict(
                {"winners": _winners_from_text(result_text), "scores": scores, "reason": reason}, players
            )
        return cls(game, options, players, names, moves, result, seed, started, ended, None, tags)

    # -- files -------------------------------------------------------------------------
    @classmethod
    def from_state(cls, state: State, names: list[str] | None = None, **kw: Any) -> Record:
        game = state.game
        return cls(
            game=game.preset,
            options=dict(game.options),
            players=state.num_players,
            names=list(names or []),
            moves=[m.text for m in state.history],
            result=state.outcome,
            seed=state.seed,
            **kw,
        )


_TAG = re.compile(r'\[([A-Za-z0-9 _]+?)\s+"((?:[^"\\]|\\.)*)"\]')
_MOVETEXT = re.compile(r'"(?:[^"\\]|\\.)*"|\{[^}]*\}|\S+')
_RESULT_TOKENS = ("1-0", "0-1", "1/2-1/2", "*")
_MOVE_NUMBER = re.compile(r"\d+\.(\.\.)?")


def escape_tag(s: str) -> str:
    """A tag value with backslashes and quotes escaped."""
    return s.replace("\\", "\\\\").replace('"', '\\"')


def _unescape(s: str) -> str:
    return re.sub(r"\\(.)", r"\1", s)


def _quote_move(move: str) -> str:
    # Moves with spaces, or that look like move numbers or results, are quoted.
    if (
        not move
        or any(c.isspace() for c in move)
        or move[0] in '"{['
        or _MOVE_NUMBER.fullmatch(move)
        or move in _RESULT_TOKENS
    ):
        return '"' + escape_tag(move) + '"'
    return move


def wrap_movetext(tokens: list[str], width: int = 79) -> str:
    """Movetext tokens joined into lines of at most ``width`` characters."""
    lines, line = [], ""
    for tok in tokens:
        if line and len(line) + 1 + len(tok) > width:
            lines.append(line)
            line = tok
        else:
            line = f"{line} {tok}" if line else tok
    if line:
        lines.append(line)
    return "\n".join(lines)


def _winners_from_text(text: str) -> tuple[int, ...]:
    if text == "1-0":
        return (0,)
    if text == "0-1":
        return (1,)
    if text in ("1/2-1/2", "draw", "lost"):
        return ()
    if text == "won":
        return (0,)
    if text.startswith("winners "):
        parts = text[len("winners ") :].split(",")
        if len(parts) <= MAX_PLAYERS and all(p.strip().isdigit() and len(p.strip()) <= 3 for p in parts):
            return tuple(int(p) - 1 for p in parts)
    raise RecordError(f"unknown result {text[:40]!r}")


def check_players(players: Any) -> int:
    """A record's player count: a whole number from 1 to MAX_PLAYERS."""
    if isinstance(players, bool) or not isinstance(players, int) or not 1 <= players <= MAX_PLAYERS:
        raise RecordError(f"the player count must be a whole number from 1 to {MAX_PLAYERS}")
    return players


def check_moves(moves: list) -> None:
    if len(moves) > MAX_MOVES:
        raise RecordError(f"a record holds at most {MAX_MOVES:,} moves, this one {len(moves):,}")


def outcome_from_dict(data: Any, players: int) -> Outcome:
    """A recorded result, checked: winners are seats of the game, scores finite numbers."""
    if not isinstance(data, dict):
        raise RecordError("malformed result: it must be an object")
    winners, scores, reason = data.get("winners"), data.get("scores", ()), data.get("reason", "")
    if not isinstance(winners, list | tuple) or not all(
        isinstance(w, int) and not isinstance(w, bool) and 0 <= w < players for w in winners
    ):
        raise RecordError(f"malformed result: winners must be seat numbers from 0 to {players - 1}")
    if (
        not isinstance(scores, list | tuple)
        or len(scores) > players
        or not all(
            isinstance(x, int | float) and not isinstance(x, bool) and math.isfinite(x) for x in scores
        )
    ):
        raise RecordError("malformed result: scores must be finite numbers, one per player")
    cells = data.get("cells", ())
    if not isinstance(cells, list | tuple) or not all(isinstance(c, str) and len(c) <= 40 for c in cells):
        raise RecordError("malformed result: cells must be a list of cell names")
    reason = _text(reason, "result reason")
    return Outcome(tuple(winners), tuple(float(x) for x in scores), reason, tuple(cells[:MAX_MOVES]))


def parse_json(text: str, what: str = "the record") -> Any:
    """JSON with a depth bound and finite numbers only; RecordError otherwise."""
    if len(text) > MAX_TEXT:
        raise RecordError(f"{what} is larger than {MAX_TEXT // (1024 * 1024)} MiB")
    try:
        data = json.loads(text, parse_constant=_not_a_number, parse_float=_finite)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{what} is not valid JSON: {exc}") from exc
    except RecursionError:
        raise RecordError(f"{what} is nested more than {MAX_DEPTH} levels deep") from None
    except ValueError as exc:  # _not_a_number, or an integer with too many digits
        raise RecordError(f"{what}: {exc}") from exc
    stack = [(data, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth > MAX_DEPTH:
                raise RecordError(f"{what} is nested more than {MAX_DEPTH} levels deep")
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return data


def _not_a_number(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e999 parses as inf
        raise ValueError(f"{text[:20]} is not a finite number")
    return value


def _integer(text: str, tag: str) -> int:
    stripped = text.strip()
    if not stripped.lstrip("-").isdigit() or len(stripped) > 20:
        raise RecordError(f"malformed tag value: {tag} must be a whole number, not {text[:40]!r}")
    return int(stripped)


def _text(value: Any, what: str, optional: bool = False) -> Any:
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise RecordError(f"malformed record: {what} must be a string")
    return value


def loads(text: str) -> Record:
    """A record from JSON or PGN-like text (told apart by the first character)."""
    if len(text) > MAX_TEXT:
        raise RecordError(f"a record is at most {MAX_TEXT // (1024 * 1024)} MiB")
    stripped = text.lstrip()
    if stripped.startswith("{"):
        return Record.from_json(text)
    if stripped.startswith("["):
        return Record.from_pgn(text)
    raise RecordError("not a qipan record: expected JSON ({...}) or PGN-like tags ([Game ...])")


def load(path: str | Path, validate: bool = True) -> Record:
    """Read a record file; with ``validate`` it is replayed and rejected if illegal."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"cannot read {path}: {exc}") from exc
    record = loads(text)
    if validate:
        record.replay()
    return record


def save(record: Record | State, path: str | Path, names: list[str] | None = None) -> Record:
    """Write a record (or a state's record) as JSON, or as PGN-like text for ``.pgn``."""
    if isinstance(record, State):
        record = Record.from_state(record, names=names, ended=now_iso())
    path = Path(path)
    text = record.to_pgn() if path.suffix.lower() == ".pgn" else record.to_json() + "\n"
    path.write_text(text, encoding="utf-8")
    return record
