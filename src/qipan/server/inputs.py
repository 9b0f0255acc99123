"""What the server accepts as a request's JSON, checked once for HTTP bodies and WebSocket
messages alike, before any handler sees it: standard JSON only, every text valid UTF-8.

JSON's ``\\ud800`` escapes can smuggle lone surrogates into Python strings; such a string
cannot be written back out as UTF-8, so once stored it would break every response that
shows it. They are refused here, and scrubbed from anything stored before this check."""

from __future__ import annotations

import json
import math
from typing import Any

from .errors import ApiError


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
    _check_texts(data)
    return data


def _check_texts(data: Any) -> None:
    """Refuse any string (key or value) that is not valid UTF-8. Iterative: a deep body
    must not exhaust the stack."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            _require_utf8(item)
        elif isinstance(item, dict):
            for key, value in item.items():
                _require_utf8(key)
                stack.append(value)
        elif isinstance(item, list):
            stack.extend(item)


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
