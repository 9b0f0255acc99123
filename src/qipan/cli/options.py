"""``--option key=value`` pairs from the command line."""

from __future__ import annotations

from ..core.errors import OptionError


def parse_options(pairs: tuple[str, ...]) -> dict[str, str]:
    out = {}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if not eq or not key.strip():
            raise OptionError(f"bad option {pair!r}: expected key=value, e.g. -o flying=false")
        out[key.strip().replace("-", "_")] = value.strip()
    return out
