"""What the server accepts as a request's JSON, checked once for HTTP bodies and WebSocket
messages alike, before any handler sees it: standard JSON only (finite numbers, integers of
at most MAX_DIGITS digits), at most MAX_DEPTH levels deep, every text valid UTF-8.

Python refuses to convert integers of more than 4,300 digits (a ValueError, which no handler
expects); the API's own integers (plies, seats, ratings, seconds) have a few digits, so a
long one is refused here, before it is converted, as bad input.

JSON's ``\\ud800`` escapes can smuggle lone surrogates into Python strings; such a string
cannot be written back out as UTF-8, so once stored it would break every response that
shows it. They are refused here, and scrubbed from anything stored before this check.

Below that, the fields of a game's terms (game, options, players, clock, seed, names),
checked one way for a new game, a seek and a tournament (ApiError 400 saying what is wrong)."""

from __future__ import annotations

import json
import math
from typing import Any

from ..core import Game, GameSpec, OptionError, QipanError, load, spec
from .clock import Clock, ClockError
from .errors import ApiError

#: Objects and arrays inside each other; the API's own bodies need fewer than 6.
MAX_DEPTH = 32
#: Digits of an integer (a 64-bit one has at most 20).
MAX_DIGITS = 40
#: Characters of a seat's name.
MAX_NAME = 40
#: Offers (draw, undo) are made, accepted or declined.
OFFER_ACTIONS = ("offer", "accept", "decline")


def _no_constant(name: str) -> Any:
    # NaN and Infinity are not JSON; Python's parser accepts them unless told otherwise.
    raise ApiError(400, f"{name} is not a JSON number: numbers must be finite")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e999 parses as inf
        raise ApiError(400, f"{text[:20]} is too large: numbers must be finite")
    return value


def _short_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ApiError(
            400, f"an integer of {len(text.lstrip('-'))} digits: at most {MAX_DIGITS} are accepted"
        )
    return int(text)


def parse_json(raw: bytes | str) -> Any:
    """The parsed JSON of a request, or ApiError(400) saying what is wrong with it."""
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        data = json.loads(text, parse_constant=_no_constant, parse_float=_finite_float, parse_int=_short_int)
    except UnicodeDecodeError as exc:
        raise ApiError(400, f"the request is not valid UTF-8: {exc}") from exc
    except json.JSONDecodeError as exc:
        raise ApiError(400, f"malformed JSON: {exc}") from exc
    except RecursionError:  # deeper than the parser's stack allows
        raise ApiError(400, f"the JSON is nested more than {MAX_DEPTH} levels deep") from None
    _check(data)
    return data


def _check(data: Any) -> None:
    """Refuse nesting deeper than MAX_DEPTH and any string (key or value) that is not
    valid UTF-8. Iterative, so a deep document cannot exhaust the stack here either."""
    stack = [(data, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            _require_utf8(item)
        elif isinstance(item, dict | list):
            if depth > MAX_DEPTH:
                raise ApiError(400, f"the JSON is nested more than {MAX_DEPTH} levels deep")
            if isinstance(item, dict):
                for key in item:
                    _require_utf8(key)
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))


def _require_utf8(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ApiError(400, "text in the request is not valid UTF-8 (a lone surrogate escape)") from None


def scrub(text: Any) -> Any:
    """A stored text made safe to send: lone surrogates become U+FFFD (other values pass)."""
    if not isinstance(text, str):
        return text
    return "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in text)


# -- a game's terms ----------------------------------------------------------------------
def whole(value: Any) -> bool:
    """An integer of JSON's own (true and false are not numbers here)."""
    return isinstance(value, int) and not isinstance(value, bool)


def game_and_options(data: dict) -> tuple[GameSpec, Game]:
    """The game a request names (``game``) with its ``options``."""
    name = data.get("game")
    if not isinstance(name, str) or not name:
        raise ApiError(400, 'say which game to play: {"game": "<id>"}')
    options = data.get("options")
    options = {} if options is None else options
    if not isinstance(options, dict):
        raise ApiError(400, "options must be an object")
    try:
        game_spec = spec(name)
        return game_spec, load(game_spec.id, **options)
    except (OptionError, QipanError) as exc:
        raise ApiError(400, str(exc)) from exc


def player_count(data: dict, game_spec: GameSpec, least: int = 1) -> int:
    """The request's ``players`` (the game's first count if it says none), at least ``least``."""
    players = data.get("players", game_spec.players[0])
    if not whole(players) or players not in game_spec.players or players < least:
        allowed = ", ".join(str(n) for n in game_spec.players if n >= least) or "nobody else"
        raise ApiError(400, f"{game_spec.title} is played by {allowed} players, not {players!r}")
    return players


def game_clock(raw: Any, players: int, example: str = '{"mode": "total", "initial": 300}') -> Clock | None:
    """A time control from a request (None: no clock)."""
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise ApiError(400, f"clock must be an object such as {example}")
    try:
        return Clock.from_request(raw, players)
    except ClockError as exc:
        raise ApiError(400, str(exc)) from exc


def game_seed(raw: Any) -> int | None:
    """A game's seed (None: the server draws one)."""
    if raw is not None and (not whole(raw) or not 0 <= raw < 2**62):
        raise ApiError(400, "seed must be a non-negative whole number")
    return raw


def yes_or_no(data: dict, key: str, default: bool) -> bool:
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise ApiError(400, f"{key} must be true or false")
    return value


def tick_seconds(raw: Any) -> float | None:
    """Seconds per tick of a game played in real time (None: the game's own)."""
    if raw is None:
        return None
    if isinstance(raw, bool) or not isinstance(raw, int | float) or not 0.01 <= raw <= 600:
        raise ApiError(400, "realtime is the number of seconds per tick (0.01 to 600), or null")
    return float(raw)


def seat_name(value: Any) -> str | None:
    """A seat's name: spaces folded, at most MAX_NAME characters (None or blank: none)."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise ApiError(400, "a name must be text")
    value = " ".join(value.split())
    if len(value) > MAX_NAME:
        raise ApiError(400, f"a name has at most {MAX_NAME} characters")
    return value or None


def seat_number(value: Any, players: int) -> int | None:
    """The seat a join asks for (None: any free one)."""
    if value is not None and (not whole(value) or not 0 <= value < players):
        raise ApiError(400, f"seat must be a number from 0 to {players - 1}")
    return value


def invite_code(value: Any) -> str | None:
    if value is not None and (not isinstance(value, str) or not value):
        raise ApiError(400, "invite must be the code from an invite link")
    return value


def move_text(text: Any, ply: Any) -> tuple[str, int | None]:
    """A move request: its notation and the ply it was sent for (None: not said)."""
    if not isinstance(text, str) or not text.strip():
        raise ApiError(400, 'send the move as notation text: {"move": "d2", "ply": 0}')
    if ply is not None and not whole(ply):
        raise ApiError(400, "ply must be a whole number (the number of moves played so far)")
    return text, ply


def offer_action(action: Any) -> str:
    if action not in OFFER_ACTIONS:
        raise ApiError(400, "action must be 'offer', 'accept' or 'decline'")
    return action
