"""HTTP endpoints of the game site: accounts, seeks and quick pairing, ratings and
leaderboards, profiles, chat, and the pages that show them.

A logged-in browser holds the session cookie (HttpOnly); every change it asks for with the
cookie must carry the session's CSRF token in ``X-CSRF-Token`` (a page of another site can
send the cookie but cannot read the token). Seat tokens (``Authorization: Bearer``) need no
CSRF token: a browser never sends them by itself."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse

from .. import agents as _agents
from ..core import specs
from . import openapi
from .accounts import (
    COOKIE,
    CSRF_HEADER,
    SESSION_SECONDS,
    LoginSession,
    check_password,
    check_username,
    csrf_ok,
)
from .chat import check_room, clean_text
from .errors import ApiError
from .i18n import LANGUAGES, negotiate, table
from .ratings import TIME_CLASSES
from .rules_pages import page as rules_page
from .seeks import lapsed, parse_seek
from .site import Site, bots

#: What each error means on the site's routes (for the OpenAPI document).
WHY = {
    400: "bad input: a username, password, seek, message or parameter that breaks the rules",
    401: "not logged in, a wrong password, or a token that is no seat of this game",
    403: "a missing or wrong CSRF token, a foreign origin, or not allowed (rating range, room)",
    404: "no such game, seek or account",
    409: "taken or already done: a username, a seek accepted or cancelled, a seat, a full room",
    415: "login and sign-up take JSON only",
    429: "too many attempts or messages: wait and try again",
}
CREDENTIALS = {
    "type": "object",
    "required": ["username", "password"],
    "properties": {"username": {"type": "string"}, "password": {"type": "string"}},
}
SEEK = {
    "type": "object",
    "required": ["game"],
    "properties": {
        "game": {"type": "string", "description": "a two-player game or preset id"},
        "options": {"type": ["object", "null"]},
        "clock": {"type": ["object", "null"], "description": "{initial, increment} or {mode: move, initial}"},
        "days": {"enum": [1, 3, 7, 14, None], "description": "correspondence: days per move"},
        "rated": {"type": "boolean", "default": False},
        "rating_min": {"type": ["integer", "null"], "minimum": 0, "maximum": 4000},
        "rating_max": {"type": ["integer", "null"], "minimum": 0, "maximum": 4000},
    },
}


def doc(*errors: int, body: dict | None = None) -> dict[str, Any]:
    """Route decorator arguments as ``openapi.doc`` makes them, with the site's meanings."""
    out = openapi.doc(body=body)
    out["responses"] = {code: {"description": WHY[code]} for code in errors}
    return out


TEXT = {"type": "string"}


def _object(**properties: dict) -> dict:
    return {"type": "object", "required": list(properties), "properties": properties}


def site(request: Request) -> Site:
    return request.app.state.site


async def body(request: Request, allow_empty: bool = False) -> dict[str, Any]:
    from .app import _body  # the app module imports this one

    return await _body(request, allow_empty=allow_empty)


async def current(request: Request) -> LoginSession | None:
    token = request.cookies.get(COOKIE)
    if not token:
        return None
    if not hasattr(request.state, "login"):
        request.state.login = await site(request).db(site(request).accounts.session, token)
    return request.state.login


async def require_login(request: Request, csrf: bool = True) -> LoginSession:
    login = await current(request)
    if login is None:
        raise ApiError(401, "log in first")
    if csrf and not csrf_ok(login, request.headers.get(CSRF_HEADER)):
        raise ApiError(403, f"missing or wrong CSRF token (send it in {CSRF_HEADER})")
    return login


def _bearer(request: Request) -> str | None:
    from .app import _token

    return _token(request)


def _client(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def _same_origin_json(request: Request) -> None:
    """Login and signup have no session yet to hold a CSRF token: they only take JSON (a
    form of another site cannot send it without CORS) from this site's own pages."""
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise ApiError(415, "send JSON (Content-Type: application/json)")
    origin = request.headers.get("origin")
    if origin and origin.split("://", 1)[-1] != request.headers.get("host", ""):
        raise ApiError(403, "cross-site request refused")


def _logged_in(request: Request, response: JSONResponse, token: str) -> JSONResponse:
    secure = request.url.scheme == "https" or request.headers.get("x-forwarded-proto") == "https"
    response.set_cookie(
        COOKIE, token, max_age=SESSION_SECONDS, httponly=True, samesite="lax", secure=secure, path="/"
    )
    return response


def _too_many(wait: float) -> ApiError:
    return ApiError(429, f"too many attempts: try again in {max(1, round(wait))} s")


def site_router() -> APIRouter:
    router = APIRouter()

    # -- accounts ----------------------------------------------------------------------
    @router.post("/api/account/signup", status_code=201, **doc(400, 403, 409, 415, 429, body=CREDENTIALS))
    async def signup(request: Request) -> JSONResponse:
        _same_origin_json(request)
        s = site(request)
        data = await body(request)
        reserved = frozenset(a.name.lower() for a in _agents.agent_specs())
        username = check_username(data.get("username"), reserved)
        password = check_password(data.get("password"), username)
        wait = await s.signups_by_ip.blocked(_client(request))
        if wait:
            raise _too_many(wait)
        await s.signups_by_ip.hit(_client(request))
        hashed = await asyncio.to_thread(s.accounts.hash, password)
        account = await s.db(s.accounts.create, username, hashed)
        await s.db(s.addresses.seen, account.id, _client(request), True)
        token, csrf = await s.db(s.accounts.open_session, account)
        return _logged_in(
            request, JSONResponse({"username": account.username, "csrf": csrf}, status_code=201), token
        )

    @router.post("/api/account/login", **doc(400, 401, 403, 415, 429, body=CREDENTIALS))
    async def login(request: Request) -> JSONResponse:
        _same_origin_json(request)
        s = site(request)
        data = await body(request)
        username, password = data.get("username"), data.get("password")
        if not isinstance(username, str) or not isinstance(password, str) or not username or not password:
            raise ApiError(400, 'send {"username": "...", "password": "..."}')
        key, address = username.lower()[:40], _client(request)
        wait = max(await s.login_by_ip.blocked(address), await s.login_failures.wait(key, address))
        if wait:
            raise _too_many(wait)
        await s.login_by_ip.hit(address)
        found = await s.db(s.accounts.find, username) if len(username) <= 20 else None
        # A missing account is checked against a dummy hash: failing takes as long either way.
        ok = await asyncio.to_thread(s.accounts.verify, found[1] if found else None, password[:256])
        if not ok or found is None:
            await s.login_failures.failed(key, address)
            raise ApiError(401, "wrong username or password")
        await s.login_failures.succeeded(key, address)
        await s.db(s.addresses.seen, found[0].id, address)
        token, csrf = await s.db(s.accounts.open_session, found[0])
        return _logged_in(request, JSONResponse({"username": found[0].username, "csrf": csrf}), token)

    @router.post("/api/account/logout", **doc(401, 403))
    async def logout(request: Request) -> JSONResponse:
        login = await require_login(request)
        await site(request).db(site(request).accounts.close_session, login.token_hash)
        response = JSONResponse({"ok": True})
        response.delete_cookie(COOKIE, path="/")
        return response

    @router.get("/api/account/me")
    async def me(request: Request) -> dict:
        login = await current(request)
        if login is None:
            return {"account": None}
        return {
            "account": {"username": login.account.username},
            "csrf": login.csrf,
            "your_turn": await site(request).your_turn(login.account.id),
            # the same games with what the notices need (web/notices.js)
            "waiting": await site(request).waiting(login.account.id),
        }

    @router.post("/api/account/password", **doc(400, 401, 403, 429, body=_object(old=TEXT, new=TEXT)))
    async def change_password(request: Request) -> dict:
        login = await require_login(request)
        s = site(request)
        data = await body(request)
        old = data.get("old")
        new = check_password(data.get("new"), login.account.username)
        if not isinstance(old, str):
            raise ApiError(400, "send the current password as old")
        key, address = login.account.username.lower(), _client(request)
        wait = await s.login_failures.wait(key, address)
        if wait:
            raise _too_many(wait)
        found = await s.db(s.accounts.find, login.account.username)
        if not await asyncio.to_thread(s.accounts.verify, found[1] if found else None, old[:256]):
            await s.login_failures.failed(key, address)
            raise ApiError(401, "the current password is wrong")
        hashed = await asyncio.to_thread(s.accounts.hash, new)
        await s.db(s.accounts.set_password, login.account.id, hashed, login.token_hash)
        return {"ok": True}

    @router.get("/api/account/games", **doc(401))
    async def my_games(request: Request) -> dict:
        login = await require_login(request, csrf=False)
        return {"games": await site(request).games_of(login.account.id, 100)}

    @router.post("/api/account/seats", **doc(400, 401, 403, 404, 409, body=_object(game=TEXT, token=TEXT)))
    async def link_seat(request: Request) -> dict:
        """Make a seat (proved by its token) this account's: it then shows in "my games"
        on every device."""
        login = await require_login(request)
        data = await body(request)
        game_id, token = data.get("game"), data.get("token")
        if not isinstance(game_id, str) or not isinstance(token, str):
            raise ApiError(400, 'send {"game": "<id>", "token": "<seat token>"}')
        seat = await site(request).link_seat(login.account, game_id, token)
        return {"game": game_id, "seat": seat}

    @router.get("/api/account/games/{game_id}/seats", **doc(401, 404))
    async def my_seats(request: Request, game_id: str) -> dict:
        login = await require_login(request, csrf=False)
        return {"seats": await site(request).my_seats(login.account, game_id)}

    @router.get("/api/account/seeks", **doc(401))
    async def my_seeks(request: Request) -> dict:
        login = await require_login(request, csrf=False)
        s = site(request)
        now = time.time()
        mine = await s.db(s.seeks.of_account, login.account.id)
        return {"seeks": [_seek(x) | ({"status": "lapsed"} if lapsed(x, now) else {}) for x in mine]}

    @router.get("/api/account/mutes", **doc(401))
    async def list_mutes(request: Request) -> dict:
        login = await require_login(request, csrf=False)
        return {"muted": await site(request).db(site(request).chat.muted, login.account.id)}

    @router.post("/api/account/mutes", **doc(400, 401, 403, 404, body=_object(username=TEXT)))
    async def mute(request: Request) -> dict:
        login = await require_login(request)
        s = site(request)
        data = await body(request)
        name, muted = data.get("username"), data.get("muted", True)
        if not isinstance(name, str) or not isinstance(muted, bool):
            raise ApiError(400, 'send {"username": "...", "muted": true|false}')
        found = await s.db(s.accounts.find, name) if len(name) <= 20 else None
        if found is None:
            raise ApiError(404, f"there is no account {name!r}")
        if found[0].id == login.account.id:
            raise ApiError(400, "you cannot mute yourself")
        await s.db(s.chat.mute, login.account.id, found[0].id, muted)
        return {"muted": await s.db(s.chat.muted, login.account.id)}

    # -- seeks and pairing -------------------------------------------------------------
    @router.get("/api/seeks")
    async def list_seeks(request: Request) -> dict:
        s = site(request)
        out = []
        for seek in await s.db(s.seeks.open):
            rating = await s.db(s.standings.rating, seek["account_id"], seek["game"], seek["time_class"])
            out.append(_seek(seek) | {"rating": round(rating.rating), "provisional": rating.provisional})
        return {"seeks": out}

    @router.post("/api/seeks", status_code=201, **doc(400, 401, 403, 409, body=SEEK))
    async def post_seek(request: Request) -> dict:
        login = await require_login(request)
        s = site(request)
        seek = parse_seek(await body(request))
        await s.db(s.addresses.seen, login.account.id, _client(request))
        return {"id": await s.db(s.seeks.post, login.account, seek)}

    @router.delete("/api/seeks/{seek_id}", **doc(401, 403, 404, 409))
    async def cancel_seek(request: Request, seek_id: str) -> dict:
        login = await require_login(request)
        s = site(request)
        await s.db(s.seeks.cancel, seek_id, login.account)
        return {"ok": True}

    @router.post("/api/seeks/{seek_id}/accept", **doc(401, 403, 404, 409))
    async def accept_seek(request: Request, seek_id: str) -> dict:
        login = await require_login(request)
        return await site(request).accept(login.account, seek_id, _client(request))

    @router.post("/api/quick", **doc(400, 401, 403, 409, body=SEEK))
    async def quick_pairing(request: Request) -> dict:
        login = await require_login(request)
        return await site(request).quick(login.account, parse_seek(await body(request)), _client(request))

    @router.get("/api/bots", **doc(400))
    async def list_bots(game: str | None = None) -> dict:
        """Levels 1-8 with their ratings on ``game`` (default: the featured game), the same
        ratings as the game's levels in ``/api/specs``."""
        return {"bots": bots(game)}

    # -- translations ------------------------------------------------------------------
    @router.get("/api/i18n", **doc(400))
    async def translations(request: Request, lang: str | None = None) -> JSONResponse:
        """Every catalogue of one language merged (web/locales/*.<lang>.json): the one asked
        for (the page's switch), else the best for the browser's Accept-Language."""
        if lang is None:
            lang = negotiate(request.headers.get("accept-language"))
        elif lang not in LANGUAGES:
            raise ApiError(400, f"unknown language {lang!r}: one of {', '.join(LANGUAGES)}")
        # The answer depends on the header when no lang is given: caches must key on it.
        return JSONResponse(table(lang), headers={"Vary": "Accept-Language", "Cache-Control": "no-cache"})

    @router.get("/api/rules/{preset}", **doc(400, 404))
    def rules(request: Request, preset: str, lang: str | None = None) -> dict:
        """A game's rules page: its text in one language with the diagrams (SVG) inlined, its
        history and the family's other presets. Not async: the first request of a page plays
        its diagrams' moves, in a worker thread rather than the event loop."""
        return rules_page(preset, lang or negotiate(request.headers.get("accept-language")))

    # -- ratings and profiles ----------------------------------------------------------
    @router.get("/api/leaderboard", **doc(400))
    async def leaderboard(
        request: Request, family: str | None = None, time_class: str | None = None, variant: str | None = None
    ) -> dict:
        """The best ratings of one variant (a preset id), or of every variant of a family
        (each row names its variant): variants are rated apart, families group them."""
        if family is not None and family not in {g.family for g in specs()}:
            raise ApiError(400, f"unknown game family {family!r}")
        if variant is not None and variant not in {g.id for g in specs()}:
            raise ApiError(400, f"unknown variant {variant!r}")
        if time_class is not None and time_class not in TIME_CLASSES:
            raise ApiError(400, f"time_class must be one of {', '.join(TIME_CLASSES)}")
        s = site(request)
        return {"players": await s.db(s.standings.leaderboard, family, time_class, 50, variant)}

    @router.get("/api/users/{username}", **doc(404))
    async def profile(request: Request, username: str) -> dict:
        s = site(request)
        found = await s.db(s.accounts.find, username) if len(username) <= 20 else None
        if found is None:
            raise ApiError(404, f"there is no account {username!r}")
        account = found[0]
        return {
            "username": account.username,
            "ratings": await s.db(s.standings.of_account, account.id),
            # 3-4 player and team games (OpenSkill, skill.py), beside the Glicko-2 ones
            "skills": await s.db(s.standings.skills_of, account.id),
            "history": await s.db(s.standings.history, account.id),
            "games": await s.games_of(account.id, 50),
        }

    @router.get("/api/games/{game_id}/terms", **doc(404))
    async def game_terms(request: Request, game_id: str) -> dict:
        return await site(request).game_terms(game_id)

    # -- chat --------------------------------------------------------------------------
    @router.get("/api/games/{game_id}/chat", **doc(400, 401, 403, 404))
    async def read_chat(request: Request, game_id: str, room: str = "players", after: int = 0) -> dict:
        s = site(request)
        check_room(room)
        session = await s.manager.get(game_id)
        login = await current(request)
        if room == "players" and session.status != "over":
            seat = session.seat_of(_bearer(request))
            owned = await s.db(s._seats_of, game_id, login.account.id) if login else {}
            if seat is None and not owned:
                raise ApiError(403, "the players' room is open to the players until the game ends")
        messages = await s.db(
            s.chat.messages, game_id, room, max(0, after), login.account.id if login else None
        )
        return {"messages": messages}

    @router.post(
        "/api/games/{game_id}/chat",
        status_code=201,
        **doc(
            400, 401, 403, 404, 409, 429, body=_object(room={"enum": ["players", "spectators"]}, text=TEXT)
        ),
    )
    async def write_chat(request: Request, game_id: str) -> dict:
        s = site(request)
        data = await body(request)
        room = check_room(data.get("room", "players"))
        text = clean_text(data.get("text"))
        session = await s.manager.get(game_id)
        token = _bearer(request)
        login = None
        if room == "players":
            seat = session.seat_of(token) if token else None
            if seat is None:  # an account's own seat, without the token
                login = await require_login(request)
                owned = await s.db(s._seats_of, game_id, login.account.id)
                if not owned:
                    raise ApiError(403, "only the players write in the players' room")
                seat = min(owned)
            accounts = await s.seat_accounts(game_id)
            account_id = accounts.get(seat)
            name = session.name(seat)
        else:
            login = await require_login(request)
            owned = await s.db(s._seats_of, game_id, login.account.id)
            if owned and session.status != "over":
                raise ApiError(403, "players write in the players' room while the game is on")
            seat, account_id, name = None, login.account.id, login.account.username
        await s.chat_allowed(f"{game_id}:{seat}" if account_id is None else f"a{account_id}")
        return await s.db(s.chat.post, game_id, room, name, text, account_id, seat)

    # -- pages -------------------------------------------------------------------------
    from .app import WEB

    @router.get("/account", include_in_schema=False)
    async def account_page() -> FileResponse:
        return FileResponse(WEB / "account.html")

    @router.get("/rules", include_in_schema=False)
    async def rules_index_page() -> FileResponse:
        return FileResponse(WEB / "rules.html")

    @router.get("/rules/{preset}", include_in_schema=False)
    async def rules_game_page(preset: str) -> FileResponse:
        return FileResponse(WEB / "rules.html")

    @router.get("/u/{username}", include_in_schema=False)
    async def profile_page(username: str) -> FileResponse:
        return FileResponse(WEB / "profile.html")

    return router


def _seek(seek: dict) -> dict:
    return {
        "id": seek["id"],
        "username": seek["username"],
        "game": seek["game"],
        "options": seek["options"],
        "clock": seek["clock"],
        "days": seek["days"],
        "time_class": seek["time_class"],
        "rated": seek["rated"],
        "rating_min": seek["rating_min"],
        "rating_max": seek["rating_max"],
        "status": seek["status"],
        "game_id": seek["game_id"],
        "created": seek["created"],
    }
