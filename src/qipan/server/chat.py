"""Chat per game in two rooms: the players' and the spectators'. Stored with the game (so
a replay shows it), text only: the page inserts it as text, never as HTML. Limits: length,
a rate per author, a number of messages per room; an account can mute another."""

from __future__ import annotations

import time
import unicodedata

import sqlalchemy as sa

from .errors import ApiError
from .sitedb import accounts, chat_messages, mutes

ROOMS = ("players", "spectators")
MAX_LENGTH = 300
MAX_PER_ROOM = 500
#: At most this many messages per author in RATE_WINDOW seconds.
RATE_COUNT, RATE_WINDOW = 5, 10.0


def clean_text(text: object) -> str:
    """The message without control characters and surrounding space; ApiError if empty,
    too long or not text."""
    if not isinstance(text, str):
        raise ApiError(400, "a chat message must be text")
    # Control and format characters (bidi overrides, zero-width joiners...) go; newlines become spaces.
    cleaned = "".join(
        " " if c in "\r\n\t" else c for c in text if unicodedata.category(c)[0] != "C" or c in "\r\n\t"
    )
    cleaned = " ".join(cleaned.split())
    if not cleaned:
        raise ApiError(400, "a chat message cannot be empty")
    if len(cleaned) > MAX_LENGTH:
        raise ApiError(400, f"a chat message has at most {MAX_LENGTH} characters")
    return cleaned


def check_room(room: object) -> str:
    if room not in ROOMS:
        raise ApiError(400, f"room must be one of {', '.join(ROOMS)}")
    return room  # type: ignore[return-value]


class Chat:
    """Chat messages and mutes in the database (blocking calls)."""

    def __init__(self, engine: sa.Engine):
        self.engine = engine

    def post(
        self, game_id: str, room: str, name: str, text: str, account_id: int | None, seat: int | None
    ) -> dict:
        now = time.time()
        with self.engine.begin() as conn:
            count = conn.execute(
                sa.select(sa.func.count())
                .select_from(chat_messages)
                .where(chat_messages.c.game_id == game_id, chat_messages.c.room == room)
            ).scalar_one()
            if count >= MAX_PER_ROOM:
                raise ApiError(409, f"this room is full ({MAX_PER_ROOM} messages)")
            result = conn.execute(
                chat_messages.insert().values(
                    game_id=game_id, room=room, name=name, text=text, account_id=account_id, seat=seat, at=now
                )
            )
            message_id = result.inserted_primary_key[0]
        return {"id": message_id, "room": room, "name": name, "text": text, "seat": seat, "at": now}

    def messages(self, game_id: str, room: str, after: int = 0, viewer: int | None = None) -> list[dict]:
        query = (
            sa.select(chat_messages)
            .where(
                chat_messages.c.game_id == game_id, chat_messages.c.room == room, chat_messages.c.id > after
            )
            .order_by(chat_messages.c.id)
            .limit(MAX_PER_ROOM)
        )
        if viewer is not None:  # leave out what the viewer's muted accounts wrote
            muted = sa.select(mutes.c.muted_id).where(mutes.c.account_id == viewer)
            query = query.where(
                sa.or_(chat_messages.c.account_id.is_(None), chat_messages.c.account_id.not_in(muted))
            )
        with self.engine.connect() as conn:
            return [
                {
                    "id": r["id"],
                    "room": r["room"],
                    "name": r["name"],
                    "text": r["text"],
                    "seat": r["seat"],
                    "at": r["at"],
                }
                for r in conn.execute(query).mappings()
            ]

    def mute(self, account_id: int, muted_id: int, muted: bool) -> None:
        with self.engine.begin() as conn:
            conn.execute(mutes.delete().where(mutes.c.account_id == account_id, mutes.c.muted_id == muted_id))
            if muted:
                conn.execute(mutes.insert().values(account_id=account_id, muted_id=muted_id))

    def muted(self, account_id: int) -> list[str]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(accounts.c.username)
                .join(mutes, mutes.c.muted_id == accounts.c.id)
                .where(mutes.c.account_id == account_id)
                .order_by(accounts.c.username)
            )
            return [r.username for r in rows]
