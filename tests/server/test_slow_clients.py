"""Slow clients cannot take the site down (server/connections.py): a real ``qipan serve``
started with a small open-files limit, and more half-sent requests from one address
(127.0.0.2) than it has descriptors. A visitor from another address is still served, the
half-sent requests are closed once their header deadline passes, and the server raised its
soft descriptor limit to the hard one at start."""

from __future__ import annotations

import selectors
import socket
import sys
import time
from pathlib import Path

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_helpers import ServerProcess  # noqa: E402

#: Seconds to wait for the server to close a half-sent request (its deadline is a few).
WAIT = 30.0
CAP = 64  # Limits().connections_per_address

pytestmark = [pytest.mark.slow, pytest.mark.timeout(180)]

ATTACKER = "127.0.0.2"  # all of 127.0.0.0/8 is loopback on Linux
HALF_SENT = 400
#: The server's (soft, hard) open-files limit: fewer descriptors than half-sent requests.
DESCRIPTORS = (200, 300)
PARTIAL = [
    b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slow",  # headers never finish
    b"GET /ws/games/x HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n",
]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    if sys.platform != "linux":
        pytest.skip("binds 127.0.0.2, which only Linux routes to loopback by default")
    db = f"sqlite:///{tmp_path_factory.mktemp('slow')}/slow.sqlite3"
    server = ServerProcess(db, env={"QIPAN_KERNELS": "0"}, descriptors=DESCRIPTORS).start()
    yield server
    server.kill()


def _half_sent(port: int, count: int) -> list[socket.socket]:
    """``count`` connections from ATTACKER, each with an unfinished request."""
    socks = []
    for i in range(count):
        s = socket.socket()
        s.bind((ATTACKER, 0))
        s.settimeout(5)
        try:
            s.connect(("127.0.0.1", port))
            s.sendall(PARTIAL[i % len(PARTIAL)])
        except OSError:  # refused or reset: closed already, which is fine
            pass
        socks.append(s)
    return socks


def _closed_by_server(socks: list[socket.socket], seconds: float) -> tuple[int, int]:
    """Wait (at most ``seconds``) for the server to close every socket; returns how many it
    closed and how many of those got a 408 first."""
    selector = selectors.DefaultSelector()
    for s in socks:
        s.setblocking(False)
        selector.register(s, selectors.EVENT_READ, bytearray())
    closed = timed_out = 0
    deadline = time.monotonic() + seconds
    while selector.get_map() and time.monotonic() < deadline:
        for key, _ in selector.select(timeout=0.5):
            try:
                data = key.fileobj.recv(4096)
            except ConnectionError:
                data = b""
            if data:
                key.data.extend(data)
                continue
            selector.unregister(key.fileobj)
            closed += 1
            timed_out += key.data.startswith(b"HTTP/1.1 408")
    selector.close()
    return closed, timed_out


def test_a_visitor_is_served_while_one_address_holds_half_sent_requests(server):
    socks = _half_sent(server.port, HALF_SENT)
    try:
        # More half-sent requests than the server has descriptors: without the per-address
        # cap the visitor's connection would wait in the accept queue until it timed out.
        r = httpx.get(server.base + "/healthz", timeout=10)
        assert r.status_code == 200
        r = httpx.get(server.base + "/api/games", timeout=10)
        assert r.status_code == 200
        # Bounded wait: the deadline is a few seconds; without it they stay open forever.
        closed, timed_out = _closed_by_server(socks, seconds=WAIT)
        assert closed == HALF_SENT, f"{HALF_SENT - closed} half-sent requests still open"
        # Those admitted were told why; those over the cap were dropped at once.
        assert 0 < timed_out <= CAP
    finally:
        for s in socks:
            s.close()


def _whole_response(s: socket.socket) -> bytes:
    """One response read to the end of its body: the server writes the head and the body
    separately, and a loaded machine can deliver them in two reads."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(4096)
        assert chunk, f"the server closed the connection after {data!r}"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(
        int(line.split(b":", 1)[1])
        for line in head.split(b"\r\n")
        if line.lower().startswith(b"content-length:")
    )
    while len(body) < length:
        chunk = s.recv(4096)
        assert chunk, "the server closed the connection inside a body"
        body += chunk
    assert len(body) == length, "more bytes than one response"
    return head + b"\r\n\r\n" + body


def test_a_kept_alive_connection_must_finish_its_next_request_in_time(server):
    s = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    try:
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert _whole_response(s).startswith(b"HTTP/1.1 200")
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        closed, timed_out = _closed_by_server([s], seconds=WAIT)
        assert (closed, timed_out) == (1, 1)
    finally:
        s.close()


def test_serve_raises_its_descriptor_limit_at_start(server):
    limits = Path(f"/proc/{server.proc.pid}/limits")
    if not limits.exists():
        pytest.skip("no /proc on this system")
    line = next(x for x in limits.read_text().splitlines() if x.startswith("Max open files"))
    soft, hard = (int(v) for v in line.split()[3:5])
    assert (soft, hard) == (DESCRIPTORS[1], DESCRIPTORS[1])
