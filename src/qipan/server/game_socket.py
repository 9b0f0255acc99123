"""One client's WebSocket on one game, past its frames (app.py reads them and applies the
rate limits): what it listens as (a seat, or a spectator) and one dispatcher for every
message it sends. A reply goes back for errors, pings and, when the message has an
``id``, an acknowledgement; the new state reaches every listener anyway."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from .errors import ApiError
from .inputs import parse_json
from .listeners import Connection
from .manager import Manager
from .session import Session

#: Messages that act on the game: only a seat's token may send them.
ACTIONS = ("move", "resign", "abort", "draw", "undo")


class GameSocket:
    def __init__(
        self, manager: Manager, send: Callable[[str], Awaitable[None]], session: Session, token: str | None
    ):
        self.manager, self.send, self.session, self.token = manager, send, session, token
        self.conn = Connection(send, session.seat_of(token))

    async def start(self) -> None:
        """Listen: the seat (``hello``), then the whole state; the others see this seat
        come online."""
        first = self.manager.listeners.subscribe(self.session, self.conn)
        await self.send(json.dumps({"type": "hello", "seat": self.conn.seat}))
        await self.send(first)
        if self.conn.seat is not None:
            self.manager._spawn(self.manager.listeners.broadcast(self.session))

    def close(self) -> None:
        self.manager.listeners.unsubscribe(self.session.id, self.conn)

    async def handle(self, raw: str) -> None:
        """Run one message (JSON text) and send the sender its reply, if any."""
        request_id = None
        try:
            data = parse_json(raw)
            if not isinstance(data, dict):
                raise ApiError(400, 'send a JSON object such as {"type": "move", "move": "d2", "ply": 0}')
            request_id = data.get("id")
            kind = data.get("type")
            handler = _HANDLERS.get(kind) if isinstance(kind, str) else None
            if handler is None:
                raise ApiError(400, "type must be move, resign, abort, draw, undo, ping, auth or resync")
            if kind in ACTIONS and not self.token:
                raise ApiError(401, "spectators cannot act: connect with a seat's token")
            reply = await handler(self, data)
        except ApiError as exc:
            reply = {"type": "error", "status": exc.status, "error": exc.message, "id": request_id}
        if reply is not None:
            await self.send(json.dumps(reply))

    async def _ping(self, data: dict) -> dict:
        return {"type": "pong", "id": data.get("id")}

    async def _auth(self, data: dict) -> None:
        """Listen as the seat of the token sent (browsers cannot set headers)."""
        if not isinstance(data.get("token"), str):
            raise ApiError(400, 'send {"type": "auth", "token": "<the seat token>"}')
        seat = self.session.seat_of(data["token"])
        self.token = data["token"]
        self.close()
        self.conn = Connection(self.send, seat)
        first = self.manager.listeners.subscribe(self.session, self.conn)
        await self.send(json.dumps({"type": "hello", "seat": seat}))
        await self.send(first)
        self.manager._spawn(self.manager.listeners.broadcast(self.session))

    async def _resync(self, _data: dict) -> None:
        """The client lost track: the whole state again."""
        await self.manager.get(self.session.id)  # a change being stored is finished first
        await self.send(self.manager.listeners.full_state(self.session, self.conn))

    async def _act(self, data: dict) -> dict | None:
        manager, game_id, token, kind = self.manager, self.session.id, self.token, data["type"]
        if kind == "move":
            await manager.move(game_id, token, data.get("move"), data.get("ply"))
        elif kind == "resign":
            await manager.resign(game_id, token)
        elif kind == "abort":
            await manager.abort(game_id, token)
        elif kind == "draw":
            await manager.draw(game_id, token, data.get("action", "offer"))
        else:
            await manager.undo(game_id, token, data.get("action", "offer"))
        return {"type": "ok", "id": data["id"]} if data.get("id") is not None else None


_HANDLERS: dict[str, Callable[[GameSocket, dict], Awaitable[Any]]] = {
    "ping": GameSocket._ping,
    "auth": GameSocket._auth,
    "resync": GameSocket._resync,
    **{kind: GameSocket._act for kind in ACTIONS},
}
