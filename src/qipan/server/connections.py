"""The server's own socket layer against slow and numerous clients: a deadline for a
request's headers (and, in socket_reads.py, for the WebSocket handshake), a cap on the
connections one address holds open, and a descriptor limit raised at start.

Without them a client that opens connections and never finishes its headers holds each
one forever: the app never sees such a request, so its rate limits cannot count it, and
about a thousand of them use up an ordinary ``ulimit -n 1024``, after which every new
visitor's connection is dropped. A connection over its address's cap is dropped at once
(its descriptor is free again before the next accept); one whose headers have not arrived
within ``header_timeout`` seconds gets a 408 and is closed.

Connections from the reverse proxy (the addresses uvicorn trusts for X-Forwarded-For,
127.0.0.1 and ::1 unless ``--forwarded-allow-ips`` says otherwise) are not capped: they
carry many visitors, and the proxy caps each of those (deploy/nginx/qipan.conf)."""

from __future__ import annotations

import asyncio
import logging
import resource

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.utils import get_remote_addr

from .socket_pace import SetupPace

log = logging.getLogger("qipan.server")

REQUEST_TIMEOUT = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"content-length: 35\r\nconnection: close\r\n\r\nthe request headers came too slowly"
)


class OpenConnections:
    """The open connections of each address in this process (a transport is counted once,
    from its first protocol, HTTP, until it closes, also after an upgrade to WebSocket)."""

    def __init__(self, cap: int | None, uncapped: frozenset[str]):
        self.cap, self.uncapped = cap, uncapped
        self.counts: dict[str, int] = {}
        self.addresses: dict[int, str] = {}  # id(transport) -> its address

    def admit(self, transport: asyncio.BaseTransport) -> bool:
        """Count the transport's connection, or False if its address holds the cap already."""
        peer = get_remote_addr(transport)  # type: ignore[arg-type]
        address = peer[0] if peer else "unknown"
        count = self.counts.get(address, 0)
        if self.cap is not None and count >= self.cap and address not in self.uncapped:
            return False
        self.counts[address] = count + 1
        self.addresses[id(transport)] = address
        return True

    def release(self, transport: asyncio.BaseTransport) -> None:
        """The transport closed (safe to call more than once)."""
        address = self.addresses.pop(id(transport), None)
        if address is not None:
            left = self.counts[address] - 1
            if left:
                self.counts[address] = left
            else:
                del self.counts[address]


def trusted_proxies(forwarded_allow_ips: str | list[str]) -> frozenset[str]:
    """The literal addresses in uvicorn's forwarded_allow_ips (networks and "*" exempt
    nothing from the cap)."""
    items = forwarded_allow_ips.split(",") if isinstance(forwarded_allow_ips, str) else forwarded_allow_ips
    return frozenset(i.strip() for i in items if i.strip() and i.strip() != "*" and "/" not in i)


class GuardedHttp(HttpToolsProtocol):
    """uvicorn's httptools protocol with a header deadline and the per-address cap.
    ``open_connections`` and ``header_timeout`` are set on the subclass ``guarded`` makes."""

    open_connections: OpenConnections
    header_timeout: float

    def connection_made(self, transport) -> None:  # type: ignore[override]
        if not self.open_connections.admit(transport):
            transport.abort()  # no response: it would need the descriptor a while longer
            return
        self.header_deadline: asyncio.TimerHandle | None = None
        super().connection_made(transport)
        self._arm()

    def _arm(self) -> None:
        if self.header_deadline is not None:
            self.header_deadline.cancel()
        self.header_deadline = self.loop.call_later(self.header_timeout, self._headers_late)

    def _disarm(self) -> None:
        if self.header_deadline is not None:
            self.header_deadline.cancel()
            self.header_deadline = None

    def _headers_late(self) -> None:
        self.header_deadline = None
        if not self.transport.is_closing():
            self.transport.write(REQUEST_TIMEOUT)
            self.transport.close()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self.header_deadline is None:  # the next request on a kept-alive connection
            self._arm()

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.transport is None:  # refused in connection_made
            return
        self._disarm()
        self.open_connections.release(self.transport)
        super().connection_lost(exc)


def guarded(
    http: type,
    ws: type,
    cap: int | None,
    header_timeout: float,
    uncapped: frozenset[str],
    pace: SetupPace | None = None,
):
    """Subclasses of the HTTP and WebSocket protocols sharing one count of open connections
    (one per server); ``pace``: the WebSocket setups' pace per address (socket_pace.py)."""
    shared = OpenConnections(cap, uncapped)
    settings = {"open_connections": shared, "header_timeout": header_timeout}
    ws_settings = {**settings, "pace": pace}
    return type(http.__name__, (http,), settings), type(ws.__name__, (ws,), ws_settings)


def raise_descriptor_limit() -> int:
    """Raise this process's soft limit on open files to its hard limit (each connection is a
    descriptor; 1024, a common default, is a few hundred visitors). Returns the new limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY:
        hard = max(soft, 1 << 20)
    if soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError) as exc:
            log.warning("could not raise the open-files limit from %d: %s", soft, exc)
    return soft
