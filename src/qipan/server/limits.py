"""Limits on what one client may make the server do: request body size and read time.

A pure ASGI middleware, so it covers every route (also the ones other modules add) before
the route runs: a body announced larger than the limit is refused without reading it, a
streamed body is refused as soon as it passes the limit, and a body that stops arriving
is refused after ``body_timeout`` seconds rather than holding its connection forever."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    #: Largest request body in bytes (the API's own bodies are well under 1 KiB).
    max_body: int = 64 * 1024
    #: Seconds a client has to send the whole body once the headers are in.
    body_timeout: float = 10.0


class BodyLimit:
    def __init__(self, app, limits: Limits):
        self.app = app
        self.limits = limits

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limits.max_body
        announced = _content_length(scope)
        if announced is not None and announced > limit:
            await _refuse(send, 413, f"the request body is larger than {limit // 1024} KiB")
            return
        chunks, size = [], 0
        try:
            async with asyncio.timeout(self.limits.body_timeout):
                while True:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        return
                    chunk = message.get("body", b"")
                    size += len(chunk)
                    if size > limit:
                        await _refuse(send, 413, f"the request body is larger than {limit // 1024} KiB")
                        return
                    chunks.append(chunk)
                    if not message.get("more_body", False):
                        break
        except TimeoutError:
            await _refuse(send, 408, f"the request body did not arrive within {self.limits.body_timeout:g} s")
            return
        body = b"".join(chunks)
        replayed = False

        async def replay():
            # The route reads the body we already have; after that, the real channel
            # (which reports a disconnect).
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


def _content_length(scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None  # the HTTP server itself refuses a malformed length
    return None


async def _refuse(send, status: int, message: str) -> None:
    body = json.dumps({"error": message}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            # The unread rest of the body must not be taken for the next request.
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
