"""HTTP endpoints around a game's end: rematch offers (rematch.py) and abandoned seats
(leavers.py)."""

from __future__ import annotations

import time

from fastapi import APIRouter, Request

from .errors import ApiError
from .rematch import turned
from .site_api import _bearer, _object, body, doc, site

ACTION = _object(action={"enum": ["offer", "decline"]})
CLAIM = _object(action={"enum": ["win", "draw"]})


def play_router() -> APIRouter:
    router = APIRouter()

    @router.get("/api/games/{game_id}/rematch", **doc(400, 404))
    async def rematch_state(request: Request, game_id: str) -> dict:
        """Who offered a rematch, and once it started its game (with your new seat's
        token when you send your old one)."""
        s = site(request)
        session = await s.manager.get(game_id)
        state = await s.db(s.rematches.state, game_id)
        seat = session.seat_of(_bearer(request))
        if state["game"] and seat is not None:
            new = await s.manager.get(state["game"])
            mine = turned(seat, session.stored.players)
            state |= {"seat": mine, "token": new.seats[mine].token}
        return state

    @router.post("/api/games/{game_id}/rematch", **doc(400, 401, 404, 409, body=ACTION))
    async def rematch(request: Request, game_id: str) -> dict:
        s = site(request)
        action = (await body(request, allow_empty=True)).get("action", "offer")
        if action not in ("offer", "decline"):
            raise ApiError(400, "action must be 'offer' or 'decline'")
        return await s.rematch(game_id, _bearer(request), action)

    @router.get("/api/games/{game_id}/presence", **doc(404))
    async def presence(request: Request, game_id: str) -> dict:
        """The game's grace period (seconds; null: correspondence) and for how long each
        player without a connection has been gone."""
        s = site(request)
        session = await s.manager.get(game_id)
        gone = s.leavers.gone_for(session, time.time()) if session.status == "active" else {}
        return {"grace": s.leavers.grace_of(session), "gone": {str(k): round(v, 1) for k, v in gone.items()}}

    @router.post("/api/games/{game_id}/abandoned", **doc(400, 401, 404, 409, body=CLAIM))
    async def claim(request: Request, game_id: str) -> dict:
        """Your opponent left (gone longer than the grace period): end the game as a win
        or a draw."""
        s = site(request)
        action = (await body(request)).get("action")
        session = await s.leavers.claim(game_id, _bearer(request), action)
        return session.describe(session.seat_of(_bearer(request)))

    return router
