"""A WebSocket client's burst is parsed a slice at a time (server/socket_reads.py): while the
app has not taken the messages parsed so far, nothing more is parsed, and every message
still arrives, in order. Real uvicorn on a loopback port; the burst is written in one
send, so the server's first reads hold thousands of frames."""

from __future__ import annotations

import asyncio
import socket

import uvicorn
from websockets.frames import Frame, Opcode

from qipan.server import socket_reads
from qipan.server.socket_reads import SLICE, SlicedReads

MESSAGES = 3000
HANDSHAKE = (
    b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
)


def test_a_burst_is_parsed_only_as_fast_as_the_app_takes_it(monkeypatch):
    waiting_after_reads: list[int] = []
    parse = socket_reads.WebSocketsSansIOProtocol.data_received
    pieces: list[int] = []

    def parse_piece(self, data):
        pieces.append(len(data))
        parse(self, data)

    sliced_read = SlicedReads.data_received

    def read(self, data):  # what SlicedReads leaves queued after each read of the socket
        sliced_read(self, data)
        waiting_after_reads.append(self.queue.qsize())

    monkeypatch.setattr(socket_reads.WebSocketsSansIOProtocol, "data_received", parse_piece)
    monkeypatch.setattr(SlicedReads, "data_received", read)
    received: list[str] = []
    sent = asyncio.Event()  # the client's whole burst is in the socket (handed to the kernel)

    async def app(scope, receive, send):
        assert scope["type"] == "websocket"
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})
        await asyncio.wait_for(sent.wait(), 30)  # the whole burst is in the socket before we read
        while len(received) < MESSAGES:
            message = await receive()
            assert message["type"] == "websocket.receive"
            received.append(message["text"])
        await send({"type": "websocket.close", "code": 1000})

    async def main():
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        config = uvicorn.Config(app, ws=SlicedReads, lifespan="off", log_level="warning")
        server = uvicorn.Server(config)
        serving = asyncio.create_task(server.serve(sockets=[sock]))
        while not server.started:
            await asyncio.sleep(0.01)
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(HANDSHAKE)
        assert b" 101 " in await reader.readuntil(b"\r\n\r\n")
        burst = b"".join(
            Frame(Opcode.TEXT, f'{{"type": "ping", "id": {i}}}'.encode()).serialize(mask=True)
            for i in range(MESSAGES)
        )
        writer.transport.set_write_buffer_limits(high=0)  # drain: until every byte is in the socket
        writer.write(burst)
        await writer.drain()
        sent.set()
        await asyncio.wait_for(reader.read(), timeout=60)  # the close frame, then EOF
        writer.close()
        server.should_exit = True
        await serving

    asyncio.run(main())
    assert received == [f'{{"type": "ping", "id": {i}}}' for i in range(MESSAGES)]
    frames_per_slice = SLICE // len(b'\x81\x80....{"type": "ping", "id": 0}') + 1
    assert max(pieces) <= SLICE
    # Thousands of frames came in few reads, yet no read left more than one slice's worth.
    assert len(waiting_after_reads) < MESSAGES / 10
    assert max(waiting_after_reads) <= frames_per_slice
