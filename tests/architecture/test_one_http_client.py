"""The front end has one HTTP client: ``web/api.js``. Every request goes through it, so an
unreachable server is told apart from a refusal in one place (the banner, reconnecting)
instead of throwing the browser's "Failed to fetch" into a page."""

from __future__ import annotations

import re
from pathlib import Path

import qipan

WEB = Path(qipan.__file__).resolve().parent / "web"
RAW_REQUEST = re.compile(r"\bfetch\s*\(|\bXMLHttpRequest\b|\bEventSource\s*\(")


def test_only_api_js_calls_fetch():
    offenders = [
        f"{path.name}:{number}: {line.strip()}"
        for path in sorted(WEB.rglob("*.js"))
        if path.name != "api.js"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if RAW_REQUEST.search(line) and not line.lstrip().startswith("//")
    ]
    assert not offenders, "requests outside web/api.js:\n" + "\n".join(offenders)


def test_polls_go_through_the_outage_proof_timer():
    """A bare setInterval over a request throws on every round while the server is down."""
    offenders = []
    for path in sorted(WEB.rglob("*.js")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            match = re.search(r"setInterval\(\s*(\w+)\s*,", line)
            # api.js is the timer itself; tickClocks redraws the clocks locally, no request.
            if match and path.name != "api.js" and match.group(1) != "tickClocks":
                offenders.append(f"{path.name}:{number}: {line.strip()}")
    assert not offenders, "use every(ms, fn) from api.js:\n" + "\n".join(offenders)
