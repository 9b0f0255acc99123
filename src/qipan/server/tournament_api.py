"""HTTP endpoints of the tournaments (tournaments.py): list, create, join, withdraw, enter
bots, berserk, and the pages that show them."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse

from .errors import ApiError
from .ratings import time_class
from .seeks import parse_terms
from .site_api import TEXT, _object, body, current, doc, require_login, site
from .tournament_rules import parse_schedule

TOURNAMENT = {
    "type": "object",
    "required": ["kind", "name", "game", "starts"],
    "properties": {
        "kind": {"enum": ["arena", "swiss", "round_robin"]},
        "name": {"type": "string", "maxLength": 60},
        "game": {"type": "string", "description": "a game or preset id"},
        "options": {"type": ["object", "null"]},
        "players": {"type": "integer", "description": "seats per game (an arena of a 3-4 player game)"},
        "clock": {"type": ["object", "null"], "description": "{initial, increment}"},
        "rated": {"type": "boolean", "default": False},
        "starts": {"type": "number", "description": "start time, seconds since 1970 (UTC), not in the past"},
        "minutes": {"type": "number", "description": "an arena's length (1 to 1440)"},
        "rounds": {"type": "integer", "description": "a Swiss event's rounds (1 to 20)"},
        "max_entrants": {"type": "integer", "minimum": 2, "maximum": 200},
        "bots_allowed": {"type": "boolean", "default": False},
        "berserk": {
            "type": "boolean",
            "default": False,
            "description": "arena: halve your clock for a point",
        },
    },
}


def parse_tournament(data: dict) -> dict:
    """The event's settings and its games' terms (ApiError 400 saying what is wrong)."""
    schedule = parse_schedule(data)
    if data.get("days") is not None:
        raise ApiError(400, "tournaments are played live: give a clock, not days per move")
    terms = parse_terms(data, 2 if schedule["kind"] != "arena" else None)
    return schedule | {
        "game": terms["game"],
        "options": terms["options"],
        "players": terms["players"],
        "clock": terms["clock"],
        "rated": terms["rated"],
    }


def tournament_router() -> APIRouter:
    router = APIRouter()

    @router.get("/api/tournaments")
    async def list_tournaments(request: Request) -> dict:
        s = site(request)
        return {"tournaments": await s.db(s.tournaments.list)}

    @router.post("/api/tournaments", status_code=201, **doc(400, 401, 403, body=TOURNAMENT))
    async def create_tournament(request: Request) -> dict:
        login = await require_login(request)
        s = site(request)
        event = parse_tournament(await body(request))
        return {"id": await s.db(s.tournaments.create, login.account, event)}

    @router.get("/api/tournaments/{event_id}", **doc(404))
    async def get_tournament(request: Request, event_id: str) -> dict:
        s = site(request)
        event = await s.db(s.tournaments.get, event_id)
        login = await current(request)
        mine = None
        if login is not None:
            mine = next(
                (e["number"] for e in event["entrants"] if e["username"] == login.account.username), None
            )
        event["you"] = mine
        return event

    @router.post("/api/tournaments/{event_id}/join", **doc(401, 403, 404, 409))
    async def join_tournament(request: Request, event_id: str) -> dict:
        login = await require_login(request)
        s = site(request)
        event = await s.db(s.tournaments.get, event_id)
        klass = time_class(event["clock"]) or "untimed"
        rating = await s.db(s.standings.rating, login.account.id, event["game"], klass)
        return {"number": await s.db(s.tournaments.join, event_id, login.account, rating.rating)}

    @router.post("/api/tournaments/{event_id}/withdraw", **doc(401, 403, 404, 409))
    async def withdraw_tournament(request: Request, event_id: str) -> dict:
        login = await require_login(request)
        s = site(request)
        await s.db(s.tournaments.withdraw, event_id, login.account)
        return {"ok": True}

    @router.post(
        "/api/tournaments/{event_id}/bots",
        **doc(400, 401, 403, 404, 409, body=_object(level={"type": "integer", "minimum": 1, "maximum": 8})),
    )
    async def add_bot(request: Request, event_id: str) -> dict:
        login = await require_login(request)
        s = site(request)
        data = await body(request)
        return {"number": await s.db(s.tournaments.add_bot, event_id, login.account, data.get("level"))}

    @router.post(
        "/api/tournaments/{event_id}/berserk", **doc(400, 401, 403, 404, 409, body=_object(game=TEXT))
    )
    async def berserk(request: Request, event_id: str) -> dict:
        """Halve your clock in an arena game before your first move; a win then earns a
        point more."""
        login = await require_login(request)
        s = site(request)
        game_id = (await body(request)).get("game")
        if not isinstance(game_id, str):
            raise ApiError(400, 'send {"game": "<game id>"}')
        owned = await s.db(s._seats_of, game_id, login.account.id)
        if not owned:
            raise ApiError(403, "you have no seat in that game")
        seat = min(owned)
        if await s.db(s.tournaments.event_of_game, game_id) != event_id:
            raise ApiError(404, "that game is not one of this tournament's")

        def halve(session) -> None:
            if session.status != "active" or any(m.player == seat for m in session.stored.moves):
                raise ApiError(409, "berserk is before your first move")
            if session.clock is None:
                raise ApiError(409, "this game has no clock to halve")
            session.clock.remaining[seat] = session.clock.initial / 2

        await s.manager.amend(game_id, halve)
        await s.db(s.tournaments.berserk, event_id, game_id, seat)
        return {"ok": True}

    from .app import WEB

    @router.get("/tournaments", include_in_schema=False)
    async def tournaments_page() -> FileResponse:
        return FileResponse(WEB / "tournaments.html")

    @router.get("/t/{event_id}", include_in_schema=False)
    async def tournament_page(event_id: str) -> FileResponse:
        return FileResponse(WEB / "tournaments.html")

    return router
