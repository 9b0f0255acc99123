"""The HTTP + WebSocket API and the static front-end.

Errors are JSON ``{"error": "..."}`` with a 4xx status: 400 bad input (malformed JSON,
unknown game or option, text that is no move, an illegal move), 401 no or wrong token,
403 not your turn / not allowed, 404 unknown game id, 409 stale ply or wrong game phase."""

from __future__ import annotations

import asyncio
import gc
import json
import logging
import os
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Literal

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.websockets import WebSocketDisconnected

from .. import agents as _agents
from ..agents.levels import describe_levels
from ..core import QipanError, load, specs
from ..fast import warm_up
from ..kernel_warmup import Background
from .analysis import analysis_router
from .errors import ApiError
from .game_socket import GameSocket
from .gamedb import FinishedGames, GameDatabase
from .i18n import LANGUAGES, negotiate, translate_svg
from .inputs import parse_json
from .limits import AddressRate, BodyLimit, Limits, RateLimit, TokenBuckets
from .manager import Manager
from .openapi import CREATE, JOIN, MOVE, OFFER, doc, document
from .play_api import play_router
from .puzzles import Puzzles
from .site import Site
from .site_api import current as current_login
from .site_api import site_router
from .storage import Storage
from .study_api import study_router
from .table_builds import TableBuilds
from .tournament_api import tournament_router

WEB = Path(__file__).resolve().parent.parent / "web"
log = logging.getLogger("qipan.server")


def create_app(
    db_url: str | None = None,
    bot_workers: int = 2,
    limits: Limits | None = None,
    redis_url: str | None = None,
    settle_heap: bool = False,
    kernels: Literal["now", "background"] = "now",
    build_tables: bool = False,
) -> FastAPI:
    """The app; ``db_url`` is a SQLAlchemy URL (SQLite by default, or PostgreSQL); ``limits``
    bound what one client may send (``Limits()`` by default); ``redis_url`` (``redis://``)
    makes this one of several processes serving the same database (docs/server.md);
    ``settle_heap``: tune the garbage collector for serving once started (``_settle_heap``;
    the serving process does, tests that start apps in their own process do not);
    ``kernels``: load the compiled kernels before serving ("now"), or serve at once and
    compile them in the background, bots on the reference rules until then ("background",
    what ``qipan serve`` does: a first start compiles for minutes); ``build_tables``: build
    the perfect-play tables small enough to build at start, in the background
    (``table_builds.py``; ``qipan serve`` does)."""

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        _load_games()
        app.state.table_builds = TableBuilds(build_tables).start()  # in a thread of its own
        compiling = None
        if kernels == "background":
            compiling = Background(say=_say)
            compiling.start()
        else:
            log.info("compiled kernels ready (CPU s): %s", warm_up())  # not on a player's first move
        app.state.kernels = compiling
        storage = Storage(db_url)
        manager = Manager(storage, bot_workers=bot_workers, redis_url=redis_url)
        app.state.manager = manager
        app.state.site = Site(manager)  # before start: resumed games that end get rated
        app.state.gamedb = GameDatabase(storage.engine)
        FinishedGames(manager, app.state.gamedb)  # finished games enter the game database
        app.state.puzzles = Puzzles(storage.engine)
        shared = None
        if redis_url:  # the per-address rates count over every process
            from .pubsub import redis_client

            shared = redis_client(redis_url, timeout=0.5)
            prefix = f"qipan:{storage.engine.url.database or 'default'}:rate"
            for rate in (http_rate, socket_addresses):
                rate.share(shared, prefix)
        await manager.start()
        await app.state.site.start()
        if settle_heap:
            _settle_heap()
        try:
            yield
        finally:
            app.state.table_builds.stop()
            if compiling is not None:
                compiling.stop()
            await manager.stop()
            storage.close()
            if shared is not None:
                await shared.aclose()

    app = FastAPI(title="qipan", lifespan=lifespan, docs_url="/api/docs", openapi_url="/api/openapi.json")
    limits = limits or Limits()
    # HTTP requests, and WebSocket messages over all of an address's connections.
    http_rate = AddressRate(limits.http_rate, limits.http_burst, "http")
    socket_addresses = AddressRate(limits.ws_address_rate, limits.ws_address_burst, "ws")
    app.add_middleware(BodyLimit, limits=limits)
    app.add_middleware(RateLimit, rate=http_rate)  # added last, so it runs first

    @app.exception_handler(ApiError)
    async def api_error(_request: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse({"error": exc.message}, status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def bad_parameter(_request: Request, exc: RequestValidationError) -> JSONResponse:
        # FastAPI's own check of query and path parameters, answered in the API's format.
        where = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()[:3])
        return JSONResponse({"error": ApiError(400, f"bad parameter: {where}").message}, status_code=400)

    def manager(request: Request) -> Manager:
        return request.app.state.manager

    app.include_router(site_router())  # accounts, seeks, ratings, chat (site_api.py)
    app.include_router(tournament_router())  # arenas, Swiss events, round robins
    app.include_router(play_router())  # rematches, abandoned seats
    app.include_router(analysis_router())  # the analysis page and its API (analysis.py)
    app.include_router(study_router())  # game database, explorer, puzzles (study_api.py)

    # -- registry ----------------------------------------------------------------------
    @app.get("/api/specs")
    async def get_specs() -> dict:
        games = []
        for game_spec in specs():
            entry = game_spec.to_dict()
            # The agents that play it (each agent's own "players" narrows by player count).
            entry["agents"] = [a.name for a in _agents.agents_for(load(game_spec.id))]
            # "Play the computer": levels 1-8 (the level agent), with their measured ratings.
            entry["levels"] = describe_levels(game_spec.id)
            games.append(entry)
        featured = next((g["id"] for g in games if g["featured"]), games[0]["id"] if games else None)
        return {
            "games": games,
            "agents": [a.to_dict() for a in _agents.agent_specs()],
            "featured": featured,
        }

    @app.get("/api/specs/{preset}/pictures/{name}", **doc(400, 404))
    async def get_picture(request: Request, preset: str, name: str, lang: str | None = None) -> Response:
        """A reference picture the game declares (``Game.pictures``, listed in its
        capabilities), its texts in ``lang`` (the page's switch), else the browser's language."""
        if lang is not None and lang not in LANGUAGES:
            raise ApiError(400, f"unknown language {lang!r}: one of {', '.join(LANGUAGES)}")
        try:
            svg = load(preset).picture(name)
        except QipanError as exc:
            raise ApiError(404, str(exc)) from exc
        lang = lang or negotiate(request.headers.get("accept-language"))
        headers = {"Vary": "Accept-Language"}
        return Response(translate_svg(svg, lang), media_type="image/svg+xml", headers=headers)

    # -- games -------------------------------------------------------------------------
    @app.post("/api/games", status_code=201, **doc(400, body=CREATE))
    async def create_game(request: Request) -> dict:
        data = await _body(request)
        seats = data.get("seats")
        for seat in seats if isinstance(seats, list) else ():
            if isinstance(seat, dict) and seat.get("kind", "human") == "human":
                await _check_guest_name(request, seat.get("name"))
        session, tickets = await manager(request).create(data)
        for t in tickets:
            if "invite" in t:  # a free seat's one-time link (the fragment never reaches a log)
                t["invite"] = f"/g/{session.id}#seat={t['seat']}&invite={t['invite']}"
        return {"id": session.id, "seats": tickets, "state": session.describe()}

    @app.get("/api/games", **doc(400))
    async def list_games(
        request: Request,
        status: Literal["open", "active", "over"] | None = None,
        limit: int = 30,
        ids: str | None = None,
    ):
        limit = max(1, min(limit, 200))
        id_list = [i for i in ids.split(",") if i] if ids else None
        return {"games": await manager(request).list(status, limit, id_list)}

    @app.get("/api/games/{game_id}", **doc(400, 401, 404))
    async def get_game(request: Request, game_id: str) -> dict:
        session = await manager(request).get(game_id)
        seat = session.seat_of(_token(request))
        return {**session.describe(seat, with_text=True), "you": seat}

    @app.post("/api/games/{game_id}/join", **doc(400, 401, 403, 404, 409, body=JOIN, body_required=False))
    async def join(request: Request, game_id: str) -> dict:
        data = await _body(request, allow_empty=True)
        session = await manager(request).get(game_id)
        seat = session.seat_of(_token(request))
        if seat is None or data.get("name") != session.seats[seat].account:  # else its own name
            await _check_guest_name(request, data.get("name"))
        return await manager(request).join(
            game_id, _token(request), data.get("seat"), data.get("name"), data.get("invite")
        )

    @app.post("/api/games/{game_id}/move", **doc(400, 401, 403, 404, 409, body=MOVE))
    async def move(request: Request, game_id: str) -> dict:
        data = await _body(request)
        session = await manager(request).move(game_id, _token(request), data.get("move"), data.get("ply"))
        return session.describe(session.seat_of(_token(request)))

    @app.post("/api/games/{game_id}/resign", **doc(400, 401, 404, 409))
    async def resign(request: Request, game_id: str) -> dict:
        return (await manager(request).resign(game_id, _token(request))).describe()

    @app.post("/api/games/{game_id}/abort", **doc(400, 401, 404, 409))
    async def abort(request: Request, game_id: str) -> dict:
        """Call the game off, unrated: either player may until each side has made a move."""
        return (await manager(request).abort(game_id, _token(request))).describe()

    @app.post("/api/games/{game_id}/draw", **doc(400, 401, 404, 409, body=OFFER, body_required=False))
    async def draw(request: Request, game_id: str) -> dict:
        data = await _body(request, allow_empty=True)
        return (await manager(request).draw(game_id, _token(request), data.get("action", "offer"))).describe()

    @app.post("/api/games/{game_id}/undo", **doc(400, 401, 404, 409, body=OFFER, body_required=False))
    async def undo(request: Request, game_id: str) -> dict:
        data = await _body(request, allow_empty=True)
        return (await manager(request).undo(game_id, _token(request), data.get("action", "offer"))).describe()

    @app.get("/api/games/{game_id}/record", **doc(400, 404))
    async def record(request: Request, game_id: str, format: str = "json") -> Response:
        session = await manager(request).get(game_id)
        rec = session.record()
        if format == "json":
            body, media, suffix = rec.to_json() + "\n", "application/json", "json"
        elif format == "pgn":
            body, media, suffix = rec.to_pgn(), "text/plain; charset=utf-8", "pgn"
        else:
            raise ApiError(400, "format must be json or pgn")
        name = f"{session.stored.game}-{session.id}.{suffix}"
        return Response(
            body, media_type=media, headers={"Content-Disposition": f'attachment; filename="{name}"'}
        )

    @app.get("/api/games/{game_id}/preview", **doc(400, 401, 403, 404))
    async def preview(request: Request, game_id: str, move: str) -> dict:
        """The board as it would be after ``move`` (nothing is played), or the rules'
        reason why it is not legal (400)."""
        session = await manager(request).get(game_id)
        if len(move) > 200:
            raise ApiError(400, "a move is at most 200 characters")
        return session.preview(session.seat_of(_token(request)), move)

    @app.get("/api/games/{game_id}/position", **doc(400, 403, 404))
    async def position(request: Request, game_id: str, ply: int) -> dict:
        """The board after the first ``ply`` moves, for the replay viewer."""
        session = await manager(request).get(game_id)
        if not 0 <= ply <= session.state.ply:
            raise ApiError(400, f"ply must be between 0 and {session.state.ply}")
        if session.status != "over" and session.game.hides_information:
            raise ApiError(403, "this game hides information: replay it when it is over")
        state = session.state.copy()
        while state.ply > ply:
            state.undo()
        return {
            "ply": ply,
            "svg": state.svg(),
            "text": state.text(),
            "move": session.state.history[ply - 1].text if ply else None,
        }

    # -- WebSocket ---------------------------------------------------------------------
    @app.websocket("/ws/games/{game_id}")
    async def game_socket(ws: WebSocket, game_id: str) -> None:
        """A seat's token comes in an Authorization header or in the first message,
        ``{"type": "auth", "token": ...}`` (browsers cannot set headers), never in the URL:
        URLs end up in access logs."""
        mgr: Manager = ws.app.state.manager
        await ws.accept()
        address = ws.client.host if ws.client else "unknown"
        own = TokenBuckets(limits.ws_rate, limits.ws_burst)
        try:
            if "token" in ws.query_params:
                raise ApiError(400, TOKEN_IN_URL + ' (or a first message {"type": "auth", "token": ...})')
            token = _bearer(ws.headers.get("authorization", ""))
            socket = GameSocket(mgr, ws.send_text, await mgr.get(game_id), token)
        except ApiError as exc:
            await ws.send_text(json.dumps({"type": "error", "status": exc.status, "error": exc.message}))
            await ws.close(code=4000 + exc.status)
            return
        try:
            await socket.start()
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                raw = message.get("text")
                if raw is None:  # a binary frame: read it as UTF-8 JSON too
                    raw = (message.get("bytes") or b"").decode("utf-8", "replace")
                # A message costs by size on its connection (limits.py), one on its address.
                cost = 1 + len(raw) // limits.ws_bytes_per_token
                wait = own.wait(None, cost=cost) or await socket_addresses.wait(address)
                if wait:  # refused unread; the connection stays open
                    reply = {"type": "error", "status": 429, "error": f"too many messages: wait {wait:.1f} s"}
                    reply["id"] = _message_id(raw)
                    await ws.send_text(json.dumps(reply))
                    # Read nothing more from this socket until its bucket has a token: its
                    # sender waits (TCP backpressure) instead of the other games.
                    await asyncio.sleep(wait)
                    continue
                await asyncio.sleep(0)  # messages already buffered must not starve other sockets
                await socket.handle(raw)
        except (WebSocketDisconnect, WebSocketDisconnected):  # closed while we read or sent
            pass
        finally:
            socket.close()

    # -- front-end ---------------------------------------------------------------------
    app.mount("/static", StaticFiles(directory=WEB), name="static")

    @app.get("/", include_in_schema=False)
    async def lobby() -> FileResponse:
        return FileResponse(WEB / "index.html")

    @app.get("/g/{game_id}", include_in_schema=False)
    async def game_page(game_id: str) -> FileResponse:
        return FileResponse(WEB / "game.html")

    @app.get("/replay/{game_id}", include_in_schema=False)
    async def replay_page(game_id: str) -> FileResponse:
        return FileResponse(WEB / "game.html")

    @app.get("/healthz", include_in_schema=False)
    async def health() -> PlainTextResponse:
        return PlainTextResponse("ok")

    @app.get("/api/status")
    async def status(request: Request) -> dict:
        """What the server is doing besides serving: the fast engines (compiled kernels) of
        which game families are loaded, and whether they are still being compiled."""
        compiling = request.app.state.kernels
        return {"kernels": compiling.status() if compiling is not None else {"compiling": False}}

    document(app)
    return app


def _say(text: str) -> None:
    """A line for the person who started the server (the console, not the log's format)."""
    import sys

    print(f"qipan: {text}", file=sys.stderr, flush=True)


#: Allocations between two young-generation collections while serving (700 by default).
GC_YOUNG = 10_000


def _settle_heap() -> None:
    """Once the server is up: everything made so far (modules, compiled kernels, resumed
    games) moves out of the collector's sight, and the young generation is collected less
    often. A move allocates about a thousand short-lived containers (the legal list, the
    messages), so with Python's defaults the collector ran about twice per move and
    walked the whole heap every few hundred moves: 2.8 of 11.2 CPU s (25%) of a Pente load
    test's server (benchmarks/results/server.md). Cycles among the objects frozen here are
    never collected: a one-time set, made at start. ``QIPAN_GC=default`` keeps the defaults."""
    if os.environ.get("QIPAN_GC") == "default":
        return
    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_YOUNG, *gc.get_threshold()[1:])


def _load_games() -> None:
    """Import every game package now; one broken game package must not stop the server."""
    try:
        specs()
    except Exception:
        log.exception("a game package failed to import; the other games are served")


async def _check_guest_name(request: Request, name: Any) -> None:
    """Seat names: no invisible characters, reserved words or other accounts' usernames
    (Site.check_guest_name); one's own username is fine when logged in."""
    if name is None:
        return
    login = await current_login(request)
    await request.app.state.site.check_guest_name(name, login.account.username if login else None)


TOKEN_IN_URL = "send the seat token in an Authorization: Bearer header, not in the URL"


def _token(request: Request) -> str | None:
    if "token" in request.query_params:  # URLs are logged; a token there is leaked
        raise ApiError(400, TOKEN_IN_URL)
    return _bearer(request.headers.get("authorization", ""))


def _bearer(header: str) -> str | None:
    if header.lower().startswith("bearer "):
        return header[7:].strip() or None
    return None


def _message_id(raw: str) -> Any:
    """The id of a refused message, if it is cheap to read (short and well formed)."""
    if len(raw) > 1024:
        return None
    try:
        data = parse_json(raw)
    except ApiError:
        return None
    return data.get("id") if isinstance(data, dict) else None


async def _body(request: Request, allow_empty: bool = False) -> dict[str, Any]:
    raw = await request.body()
    if not raw.strip():
        if allow_empty:
            return {}
        raise ApiError(400, "the request needs a JSON body")
    data = parse_json(raw)
    if not isinstance(data, dict):
        raise ApiError(400, "the body must be a JSON object")
    return data
