"""WebSocket reads a slice at a time, so one client's burst cannot hold up the other games.

uvicorn's WebSocket protocol parses everything a read returned (up to 256 KiB: thousands of
small frames) in one event-loop callback before the app's rate limit sees the first of
them; one socket flooding 20,000 messages stalled every other game for about a second. Here
the bytes of a read are fed to the frame parser in SLICE-sized pieces: the next piece is
parsed only once the app has taken every message parsed so far, and the socket is not read
meanwhile (TCP backpressure on the sender). A connection's messages thus cost parsing only
as fast as its handler takes them, which the per-connection rate limit bounds.

The same protocol sets a new connection up only in its address's turn (socket_pace.py),
closes a connection whose WebSocket handshake has not completed within
``header_timeout`` seconds of the upgrade, gives its connection back to the per-address
count (connections.py) when it closes, and turns a send after the connection closed (a
reply to a message read before an over-size frame closed it) into the disconnect the app
handles, not an "Exception in ASGI application" traceback."""

from __future__ import annotations

import asyncio

from uvicorn.protocols.utils import ClientDisconnected
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from .connections import OpenConnections
from .socket_pace import SetupPace

#: Bytes parsed per step: about a hundred small messages, well under a millisecond.
SLICE = 4096


class SlicedReads(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol, parsing a read's bytes SLICE at a time.
    ``connections.guarded`` sets the shared count and the deadline on a subclass."""

    open_connections: OpenConnections | None = None
    header_timeout: float | None = None
    pace: SetupPace | None = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        #: Bytes read from the socket and not parsed yet.
        self.unparsed = b""
        self.handshake_deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        if self.header_timeout is not None:
            self.handshake_deadline = self.loop.call_later(self.header_timeout, self._handshake_late)

    def _handshake_late(self) -> None:
        self.handshake_deadline = None
        if not self.handshake_complete and not self.transport.is_closing():
            self.transport.abort()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.handshake_deadline is not None:
            self.handshake_deadline.cancel()
        if self.open_connections is not None:
            self.open_connections.release(self.transport)
        super().connection_lost(exc)

    async def run_asgi(self) -> None:
        """The app, once this address's turn has come (socket_pace.py)."""
        if self.pace is not None and not await self._turn():
            return
        await super().run_asgi()

    async def _turn(self) -> bool:
        """Wait for this connection's turn to be set up; False if it was refused (429) or
        closed meanwhile."""
        address = self.client[0] if self.client else "unknown"
        if self.open_connections is not None and address in self.open_connections.uncapped:
            return True  # the reverse proxy: it paces each of its visitors
        wait = self.pace.turn(address)
        if wait is None:  # beyond the longest wait: hold it that long, then refuse
            await asyncio.sleep(self.pace.longest_wait)
            if not self.transport.is_closing():
                response = self.conn.reject(
                    429, "too many new connections from this address: try again later\n"
                )
                self.conn.send_response(response)
                self.transport.write(b"".join(self.conn.data_to_send()))
                self.transport.close()
            self.handshake_complete = self.close_sent = True
            return False
        if wait:
            await asyncio.sleep(wait)
        return not self.transport.is_closing()

    async def send(self, message) -> None:
        if self.close_sent and message["type"] in ("websocket.send", "websocket.close"):
            raise ClientDisconnected()  # Starlette reports it to the app as WebSocketDisconnect
        await super().send(message)

    def data_received(self, data: bytes) -> None:
        self.unparsed += data
        self._parse_some()

    def _parse_some(self) -> None:
        """Parse slices until a message is waiting for the app (or nothing is left), and
        stop reading the socket while unparsed bytes remain."""
        while self.unparsed and self.queue.empty() and not self.transport.is_closing():
            piece, self.unparsed = self.unparsed[:SLICE], self.unparsed[SLICE:]
            super().data_received(piece)
        if self.unparsed and not self.read_paused:
            self.read_paused = True
            self.transport.pause_reading()

    async def receive(self):
        message = await self.queue.get()
        if self.queue.empty():
            if self.unparsed:
                self._parse_some()
            if self.read_paused and self.queue.empty() and not self.unparsed:
                self.read_paused = False
                self.transport.resume_reading()
        return message
