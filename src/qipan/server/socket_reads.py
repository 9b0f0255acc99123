"""WebSocket reads a slice at a time, so one client's burst cannot hold up the other games.

uvicorn's WebSocket protocol parses everything a read returned (up to 256 KiB: thousands of
small frames) in one event-loop callback before the app's rate limit sees the first of
them; one socket flooding 20,000 messages stalled every other game for about a second. Here
the bytes of a read are fed to the frame parser in SLICE-sized pieces: the next piece is
parsed only once the app has taken every message parsed so far, and the socket is not read
meanwhile (TCP backpressure on the sender). A connection's messages thus cost parsing only
as fast as its handler takes them, which the per-connection rate limit bounds."""

from __future__ import annotations

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

#: Bytes parsed per step: about a hundred small messages, well under a millisecond.
SLICE = 4096


class SlicedReads(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol, parsing a read's bytes SLICE at a time."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        #: Bytes read from the socket and not parsed yet.
        self.unparsed = b""

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
