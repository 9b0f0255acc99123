"""The clients listening to each live game (a seat's player or a spectator) and what they
are sent: the whole state first, then after every stored change an update against the
state each one holds (updates.py), one text shared by the listeners in step."""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING

from . import updates
from .session import Session

if TYPE_CHECKING:
    from .manager import Manager

#: JSON without the spaces after "," and ":" (a tenth of a per-move message).
COMPACT = (",", ":")


class Connection:
    """A client listening to one game: a seat's player or a spectator (seat None)."""

    def __init__(self, send, seat: int | None):
        self.send = send
        self.seat = seat
        #: The state this client holds (the last one sent), which updates are made against.
        self.last: dict | None = None


class Listeners:
    def __init__(self, manager: Manager):
        self.manager = manager
        self.of_game: dict[str, set[Connection]] = {}

    def watched(self, game_id: str) -> bool:
        return bool(self.of_game.get(game_id))

    def subscribe(self, session: Session, conn: Connection) -> str:
        """Add a listener; returns the state to send it first. Call it right after
        ``Manager.get`` (no await between), so that state is a stored one."""
        self.of_game.setdefault(session.id, set()).add(conn)
        if conn.seat is not None:
            session.online[conn.seat] = session.online.get(conn.seat, 0) + 1
        self.manager.cluster.online_here(session)
        return self.full_state(session, conn)

    def full_state(self, session: Session, conn: Connection) -> str:
        """The whole state for ``conn`` (on connect and resync); later changes go to it as
        updates against this one."""
        viewer = conn.seat if session.game.hides_information else None
        conn.last = session.describe(viewer)
        return json.dumps(conn.last, ensure_ascii=False, separators=COMPACT)

    def unsubscribe(self, game_id: str, conn: Connection) -> None:
        self.of_game.get(game_id, set()).discard(conn)
        session = self.manager.sessions.get(game_id)
        if session and conn.seat is not None:
            session.online[conn.seat] = max(0, session.online.get(conn.seat, 0) - 1)
            self.manager._spawn(self.broadcast(session))
        if session:
            self.manager.cluster.online_here(session)

    async def broadcast(self, session: Session) -> None:
        """Tell every listener of the game its state as stored now."""
        if not self.of_game.get(session.id):
            return
        await self.manager._settled(session.id)
        # Every text is made before the first send (an await), from one stored state: an
        # update against what each connection holds (listeners in step share one text).
        conns = list(self.of_game.get(session.id, ()))
        now = time.time()
        hidden = session.game.hides_information
        states: dict[int | None, dict] = {}
        texts: dict[tuple, str] = {}
        patches: dict = {}
        out = []
        for conn in conns:
            viewer = conn.seat if hidden else None
            if viewer not in states:
                states[viewer] = session.describe(viewer, now)
            new = states[viewer]
            mover = conn.seat is not None and conn.seat == new["to_move"]
            key = (viewer, id(conn.last), mover)
            if key not in texts:
                message = new if conn.last is None else updates.update(conn.last, new, patches, mover)
                texts[key] = json.dumps(message, ensure_ascii=False, separators=COMPACT)
            out.append((conn, texts[key]))
        for conn, _ in out:
            conn.last = states[conn.seat if hidden else None]
        for conn, text in out:
            try:
                await conn.send(text)
            except Exception:  # a closed socket; its handler unsubscribes it
                self.of_game.get(session.id, set()).discard(conn)
