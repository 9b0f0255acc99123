"""HTTP endpoints of the study tools: the game database (search, one game, import by an
operator), the opening explorer, and their pages.

Operators are the accounts named in ``QIPAN_OPERATORS`` (comma-separated usernames): they
import record files through the database page; everyone may search."""

from __future__ import annotations

import asyncio
import os
from datetime import date
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse

from ..core import QipanError, load
from ..core.formats import read_records_text
from .analysis import replay
from .editor import edit
from .errors import ApiError
from .explorer import explore
from .gamedb import MAX_RESULTS, GameDatabase, position_key, symmetric_position_keys
from .puzzles import Puzzles, judge, public
from .site_api import body, current, doc, require_login

#: Records one upload may hold.
MAX_IMPORT = 5000


def database(request: Request) -> GameDatabase:
    return request.app.state.gamedb


def puzzle_store(request: Request) -> Puzzles:
    return request.app.state.puzzles


def operators() -> set[str]:
    return {name.strip().lower() for name in os.environ.get("QIPAN_OPERATORS", "").split(",") if name.strip()}


def study_router() -> APIRouter:
    from .app import WEB

    router = APIRouter()

    @router.get("/database", include_in_schema=False)
    async def database_page() -> FileResponse:
        return FileResponse(WEB / "database.html")

    @router.post("/api/db/search", **doc(400))
    async def search(request: Request) -> dict:
        """Games matching every filter given: ``player``, ``opponent`` (names, ``*`` for any
        characters), ``game``, ``result``, ``date_from``/``date_to`` (YYYY-MM-DD),
        ``min_plies``/``max_plies``, ``position`` (``{game, options, players, seed, moves}``:
        games through the position after those moves; with ``symmetric`` under the board's
        symmetries too), ``limit``, ``offset``."""
        data = await body(request)
        filters = _filters(data)
        position = data.get("position")
        if position is not None:
            if not isinstance(position, dict):
                raise ApiError(400, "position must be an object {game, options, players, seed, moves}")
            state = await asyncio.to_thread(replay, position)
            symmetric = data.get("symmetric", False)
            if not isinstance(symmetric, bool):
                raise ApiError(400, "symmetric must be true or false")
            filters["keys"] = symmetric_position_keys(state) if symmetric else [position_key(state)]
            filters["game"] = filters.get("game") or state.game.preset
        db = database(request)
        return await asyncio.to_thread(db.search, **filters)

    @router.get("/api/db/games/{game_id}", **doc(404))
    async def one_game(request: Request, game_id: str) -> dict:
        if not game_id.lstrip("-").isdigit() or len(game_id) > 20:
            raise ApiError(404, f"there is no game {game_id[:40]!r} in the database")
        found = await asyncio.to_thread(database(request).get, int(game_id))
        if found is None:
            raise ApiError(404, f"there is no game {game_id!r} in the database")
        return found

    @router.get("/api/db/stats")
    async def stats(request: Request) -> dict:
        return await asyncio.to_thread(database(request).count)

    @router.post("/api/db/import", **doc(400, 401, 403))
    async def import_text(request: Request) -> dict:
        """An operator's upload: every game of the file replayed and stored; the games that do
        not replay are listed with their ply, duplicates counted."""
        login = await require_login(request)
        if login.account.username.lower() not in operators():
            raise ApiError(403, "only the site's operators import games")
        data = await body(request)
        text = data.get("text")
        if not isinstance(text, str) or not text.strip():
            raise ApiError(400, 'send the file\'s content as text: {"text": "..."}')
        try:
            records = await asyncio.to_thread(read_records_text, text)
        except QipanError as exc:
            raise ApiError(400, f"this file is no record qipan can read: {exc}") from exc
        if len(records) > MAX_IMPORT:
            raise ApiError(400, f"at most {MAX_IMPORT} games per upload, not {len(records)}")
        report = await asyncio.to_thread(database(request).add, records)
        return {
            "games": len(records),
            "added": report.added,
            "duplicates": report.duplicates,
            "rejected": [{"game": r.index, "ply": r.ply, "reason": r.reason} for r in report.rejected],
        }

    @router.post("/api/explorer", **doc(400))
    async def explorer(request: Request) -> dict:
        """The moves played from the position after ``moves`` (``{game, options, players,
        seed, moves}``), in every stored game and in the site's rated games."""
        data = await body(request)
        state = await asyncio.to_thread(replay, data)
        if state.num_players != 2:
            raise ApiError(400, "the explorer covers two-player games")
        key = position_key(state)
        engine = database(request).engine
        every, rated = await asyncio.gather(
            asyncio.to_thread(explore, engine, key), asyncio.to_thread(explore, engine, key, True)
        )
        return {"to_move": state.to_move, "database": every, "rated": rated}

    # -- the position editor -------------------------------------------------------------
    @router.get("/editor", include_in_schema=False)
    async def editor_page() -> FileResponse:
        return FileResponse(WEB / "editor.html")

    @router.post("/api/editor/position", **doc(400))
    async def edit_position(request: Request) -> dict:
        """Read a position text (``{game, options, players, position}``) after an optional
        edit (``action``: ``place`` with ``target`` and ``piece``, ``mover``, ``hands``): the
        board, the legal moves and the position text, or the reader's reason it is impossible."""
        data = await body(request)
        return await asyncio.to_thread(edit, data)

    # -- puzzles -------------------------------------------------------------------------
    @router.get("/puzzles", include_in_schema=False)
    async def puzzles_page() -> FileResponse:
        return FileResponse(WEB / "puzzles.html")

    @router.get("/puzzles/{puzzle_id}", include_in_schema=False)
    async def one_puzzle_page(puzzle_id: str) -> FileResponse:
        return FileResponse(WEB / "puzzles.html")

    @router.get("/api/puzzles/next", **doc(404))
    async def next_puzzle(
        request: Request, game: str | None = None, theme: str | None = None, after: str | None = None
    ) -> dict:
        """A puzzle to solve: for a logged-in solver one not tried yet, rated nearest its
        puzzle rating; for a guest the next after ``after``. ``game`` and ``theme`` narrow it."""
        login = await current(request)
        account = login.account.id if login else None
        found = await asyncio.to_thread(puzzle_store(request).next_for, account, game, theme, after)
        return public(found)

    @router.get("/api/puzzles/daily", **doc(404))
    async def daily_puzzle(request: Request) -> dict:
        return public(await asyncio.to_thread(puzzle_store(request).daily))

    @router.get("/api/puzzles/themes")
    async def puzzle_themes(request: Request) -> dict:
        return {"themes": await asyncio.to_thread(puzzle_store(request).themes)}

    @router.get("/api/puzzles/me")
    async def my_puzzle_rating(request: Request) -> dict:
        login = await current(request)
        if login is None:
            return {"rating": None}
        store = puzzle_store(request)
        rating = await asyncio.to_thread(store.rating, login.account.id)
        tried = await asyncio.to_thread(store.attempts_of, login.account.id)
        return {"rating": round(rating.rating), "provisional": rating.provisional, "attempts": tried}

    @router.get("/api/puzzles/{puzzle_id}", **doc(404))
    async def get_puzzle(request: Request, puzzle_id: str) -> dict:
        return public(await asyncio.to_thread(puzzle_store(request).get, puzzle_id))

    @router.post("/api/puzzles/{puzzle_id}/move", **doc(400, 403, 404))
    async def puzzle_move(request: Request, puzzle_id: str) -> dict:
        """Judge the solver's last move of ``line`` (the puzzle's moves so far, the defences
        as given): right or wrong, the defence that follows, the solution after a miss. A
        logged-in solver's first finish or miss of a puzzle is rated (Glicko-2 both ways)."""
        data = await body(request)
        store = puzzle_store(request)
        puzzle = await asyncio.to_thread(store.get, puzzle_id)
        verdict = await asyncio.to_thread(judge, puzzle, data.get("line"))
        login = await current(request)
        if login is not None and verdict["done"]:
            from .accounts import CSRF_HEADER, csrf_ok

            if not csrf_ok(login, request.headers.get(CSRF_HEADER)):
                raise ApiError(403, f"missing or wrong CSRF token (send it in {CSRF_HEADER})")
            change = await asyncio.to_thread(store.attempt, login.account.id, puzzle_id, verdict["correct"])
            verdict["rating"] = change
        return verdict

    return router


def _filters(data: dict) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in ("player", "opponent", "game", "result", "source"):
        value = data.get(name)
        if value is None or value == "":
            continue
        if not isinstance(value, str) or len(value) > 80:
            raise ApiError(400, f"{name} must be a text of at most 80 characters")
        out[name] = value
    if "game" in out:
        try:
            load(out["game"])
        except QipanError as exc:
            raise ApiError(400, str(exc)) from exc
    for name in ("date_from", "date_to"):
        value = data.get(name)
        if value:
            try:
                out[name] = date.fromisoformat(value) if isinstance(value, str) else None
            except ValueError:
                out[name] = None
            if out[name] is None:
                raise ApiError(400, f"{name} must be a date YYYY-MM-DD, not {str(value)[:20]!r}")
    for name, low, high in (("min_plies", 0, 100_000), ("max_plies", 0, 100_000), ("limit", 1, MAX_RESULTS)):
        value = data.get(name)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ApiError(400, f"{name} must be a whole number from {low} to {high}")
        out[name] = value
    offset = data.get("offset", 0)
    if isinstance(offset, bool) or not isinstance(offset, int) or offset < 0:
        raise ApiError(400, "offset must be a whole number, 0 or more")
    out["offset"] = offset
    return out
