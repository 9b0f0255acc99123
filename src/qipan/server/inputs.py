"""What the server accepts as a request's JSON, checked once for HTTP bodies and WebSocket
messages alike, before any handler sees it: standard JSON only (finite numbers), at most MAX_DEPTH levels deep, every text valid UTF-8.

JSON's ``\\ud800`` escapes can smuggle lone surrogates into Python strings; such a string
cannot be written back out as UTF-8, so once stored it would break every response that
shows it. They are refused here, and scrubbed from anything stored before this check."""

from __future__ import annotations

import json
import math
from typing import Any

from .errors import ApiError

#: Objects and arrays inside each other; the API's own bodies need fewer than 6.
MAX_DEPTH = 32


def _no_constant(name: str) -> Any:
    # NaN and Infinity are not JSON; Python's parser accepts them unless told otherwise.
    raise ApiError(400, f"{name} is not a JSON number: numbers must be finite")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e999 parses as inf
        raise ApiError(400, f"{text[:20]} is too large: numbers must be finite")
    return value


def parse_json(raw: bytes | str) -> Any:
    """The parsed JSON of a request, or ApiError(400) saying what is wrong with it."""
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        data = json.loads(text, parse_constant=_no_constant, parse_float=_finite_float)
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
