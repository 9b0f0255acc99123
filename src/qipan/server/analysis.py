"""The analysis API behind the analysis page (``/analysis``): open a record, show any
position of it or of a branch, and ask the strongest agent (and the perfect-play tables or
solver where the game has them) about it.

Stateless: the client sends the game, its options, the player count and the moves from the
start (chance moves included, as in every record), and the server replays them through the
rules. So a position is a URL (the page puts the same fields in its address) and nothing is
stored. The thinking runs in a worker thread, one position at a time, with the time capped
(``MAX_SECONDS``); requests beyond ``MAX_WAITING`` queued ones are refused with 429."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse

from .. import agents as _agents
from ..core import QipanError, load
from ..core.errors import RecordError
from ..core.formats import read_records_text
from ..core.outcome import Outcome
from ..core.records import Record
from ..core.refs import load_ref
from .errors import ApiError
from .inputs import parse_json
from .openapi import doc
from .table_builds import TableBuilds

#: Games listed from one uploaded file, moves per position, and characters of an upload.
MAX_GAMES = 500
MAX_MOVES = 4000
#: Seconds of thinking a request may ask for, plies of the best line shown.
MAX_SECONDS = 5.0
DEFAULT_SECONDS = 1.0
MAX_LINE = 8
DEFAULT_LINE = 4
#: Analyses waiting for the one running: more are refused, not queued without end.
MAX_WAITING = 4

WEB = Path(__file__).resolve().parent.parent / "web"


def analysis_router() -> APIRouter:
    router = APIRouter()
    thinking = asyncio.Semaphore(1)  # one analysis at a time: the bots share these cores
    waiting = 0

    @router.get("/analysis", include_in_schema=False)
    async def analysis_page() -> FileResponse:
        return FileResponse(WEB / "analysis.html")

    @router.post("/api/analysis/records", **doc(400))
    async def read_upload(request: Request) -> dict:
        """Every game of an uploaded file (qipan JSON or PGN-like, pente.org PGN, Trax
        ``.trx`` or tables of them, Tantrix turn logs), each replayed through the rules."""
        data = await _json(request)
        text = data.get("text")
        if not isinstance(text, str) or not text.strip():
            raise ApiError(400, 'send the file\'s content as text: {"text": "..."}')
        return {"games": await asyncio.to_thread(read_upload_text, text)}

    @router.post("/api/analysis/position", **doc(400))
    async def show_position(request: Request) -> dict:
        """The board, legal moves and result after ``moves`` from the start. ``result``: the
        record's own result (as ``/api/analysis/records`` gave it), sent at the record's last
        ply: a game that ended off the board (resigned, lost on time, agreed) shows it there."""
        data = await _json(request)
        ended = _record_result(data.get("result"), data)
        return await asyncio.to_thread(lambda: describe(replay(data), ended))  # replaying takes time too

    @router.post("/api/analysis/evaluate", **doc(400, 429))
    async def evaluate_position(request: Request) -> dict:
        """The strongest agent's choice, best line and evaluation for the position after
        ``moves``, thinking ``seconds`` (at most ``MAX_SECONDS``); the exact value where the
        game has one."""
        nonlocal waiting
        data = await _json(request)
        seconds = _number(data.get("seconds", DEFAULT_SECONDS), "seconds", 0.05, MAX_SECONDS)
        plies = int(_number(data.get("line", DEFAULT_LINE), "line", 1, MAX_LINE))
        state = await asyncio.to_thread(replay, data)
        if waiting >= MAX_WAITING:
            raise ApiError(429, "the analysis engine is busy: try again in a few seconds")
        waiting += 1
        try:
            async with thinking:
                out = await asyncio.to_thread(analyse, state, seconds, plies)
        finally:
            waiting -= 1
        build = _builds(request).pending(state.game)
        if build is not None and out["perfect"] is not None and "error" in out["perfect"]:
            seconds_left = build.about_seconds()
            out["perfect"] = {"building": True, "about_seconds": seconds_left}
        return out

    @router.get("/api/analysis/tables")
    async def table_builds(request: Request) -> dict:
        """The perfect-play tables this server builds at start (``table_builds.py``): each
        preset's ``state`` (waiting, building, ready, failed) and ``about_seconds`` left."""
        return {"builds": _builds(request).status()}

    return router


def _builds(request: Request) -> TableBuilds:
    return getattr(request.app.state, "table_builds", None) or TableBuilds(False)


async def _json(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if not raw.strip():
        raise ApiError(400, "the request needs a JSON body")
    data = parse_json(raw)
    if not isinstance(data, dict):
        raise ApiError(400, "the body must be a JSON object")
    return data


def _number(value: Any, name: str, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise ApiError(400, f"{name} must be a number from {low:g} to {high:g}, not {str(value)[:40]}")
    return float(value)


# -- records ------------------------------------------------------------------------------
def read_upload_text(text: str) -> list[dict]:
    """The games of a file, each with its moves and result, or the first bad ply's reason.
    A file of which no game replays is refused as a whole (ApiError 400)."""
    try:
        records = read_records_text(text)
    except RecordError as exc:
        raise ApiError(400, f"this file is no record qipan can read: {exc}") from exc
    except QipanError as exc:
        raise ApiError(400, f"this file is no record qipan can read: {exc}") from exc
    if not records:
        raise ApiError(400, "the file holds no game")
    games, errors = [], []
    for index, record in enumerate(records[:MAX_GAMES]):
        entry = _record_entry(index, record)
        games.append(entry)
        if "error" in entry:
            errors.append(entry["error"])
    if len(errors) == len(games):
        first = errors[0]
        more = f" (and {len(errors) - 1} more games like it)" if len(errors) > 1 else ""
        raise ApiError(400, f"the record does not replay: {first}{more}")
    return games


def _record_entry(index: int, record: Record) -> dict:
    entry: dict[str, Any] = {
        "index": index,
        "game": record.game,
        "options": record.options,
        "players": record.players,
        "seed": record.seed,
        "names": record.names,
        "moves": list(record.moves),
        "tags": record.tags,
        "result": record.result.to_dict() if record.result else None,
    }
    try:
        if len(record.moves) > MAX_MOVES:
            raise RecordError(f"{len(record.moves)} moves is more than the {MAX_MOVES} analysed")
        state = record.replay()
    except QipanError as exc:
        entry["error"] = str(exc)
        return entry
    entry["title"] = state.game.title
    outcome = record.result or state.outcome
    entry["result_text"] = f"{outcome.result_text()} ({outcome.reason})" if outcome else None
    if record.tags.get("solutions"):
        entry["solutions"] = _solutions(state, record.tags["solutions"])
    return entry


def _solutions(state, text: str) -> list[dict]:
    """A puzzle's solutions (the ``solutions`` tag: the moves after `` - `` on a GnuTrax
    puzzle line), each checked against the puzzle's position: ``{text, legal}`` and the
    reason where it is not legal, so the page shows them and none is dropped unread."""
    out = []
    for move in text.split():
        trial = state.copy()
        try:
            trial.play(move)
        except QipanError as exc:
            out.append({"text": move, "legal": False, "error": str(exc)})
            continue
        out.append({"text": move, "legal": True})
    return out


# -- positions ----------------------------------------------------------------------------
def replay(data: dict) -> Any:
    """The state after ``data["moves"]`` in the game ``data["game"]`` with ``options``,
    ``players`` and ``seed``; ApiError naming the bad ply if a move is not legal."""
    moves = data.get("moves", [])
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise ApiError(400, "moves must be a list of moves in notation")
    if len(moves) > MAX_MOVES:
        raise ApiError(400, f"at most {MAX_MOVES} moves, not {len(moves)}")
    game_id = data.get("game")
    if not isinstance(game_id, str) or not game_id:
        raise ApiError(400, "game must be the id of a game or preset (GET /api/specs lists them)")
    options = data.get("options") or {}
    if not isinstance(options, dict):
        raise ApiError(400, "options must be an object of option values")
    players = data.get("players")
    seed = data.get("seed")
    if players is not None and (isinstance(players, bool) or not isinstance(players, int)):
        raise ApiError(400, "players must be a whole number")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise ApiError(400, "seed must be a whole number")
    position = data.get("position")
    if position is not None:  # a position set up in the editor, then the moves from it
        from .editor import replay_from

        return replay_from(game_id, options, players, position, moves)
    try:
        record = Record(
            game_id, options, players or load(game_id, **options).players[0], moves=moves, seed=seed
        )
        return record.replay()
    except QipanError as exc:
        raise ApiError(400, str(exc)) from exc


def _record_result(raw: Any, data: dict) -> Outcome | None:
    """The record's result sent with its last position, checked; None if none was sent."""
    if raw is None:
        return None
    players = data.get("players")
    try:
        outcome = Outcome.from_dict(raw)
        count = len(outcome.scores)
        if not isinstance(outcome.reason, str) or not all(
            isinstance(w, int) and 0 <= w < count for w in outcome.winners
        ):
            raise ValueError
    except (KeyError, TypeError, ValueError, AttributeError):
        raise ApiError(400, "result must be a record's result: {winners, scores, reason}") from None
    if players is not None and count != players:
        raise ApiError(400, f"result has {count} scores for a game of {players} players")
    return outcome


def describe(state, ended: Outcome | None = None) -> dict:
    """What the page draws: the board, the legal moves (their click paths), the result (the
    rules' own, else ``ended``: the record's result at its last ply, when the game ended off
    the board) with the cells that decided it (a winning line or loop) for the page to mark."""
    game = state.game
    outcome = state.outcome
    if outcome is None and ended is not None:
        outcome = ended
    legal = (
        [] if outcome is not None else [{"text": m.text, "path": list(m.path)} for m in state.legal_moves()]
    )
    return {
        "game": game.preset,
        "title": game.title,
        "family": game.family,
        "ply": state.ply,
        "to_move": "chance" if state.is_chance else state.to_move,
        "svg": _render(state.svg),
        "text": _render(state.text),
        "position": _render(state.position),
        "legal": legal,
        "result": (
            {
                "text": outcome.result_text(),
                "reason": outcome.reason,
                "winners": list(outcome.winners),
                "cells": list(outcome.cells),
            }
            if outcome is not None
            else None
        ),
        "capabilities": {
            "has_evaluation": game.has_evaluation,
            "perfect_value": game.perfect_value is not None,
            "forced_line": game.forced_line is not None,
        },
    }


def _render(method) -> str:
    try:
        return method()
    except NotImplementedError:
        return ""


# -- thinking -----------------------------------------------------------------------------
def analyse(state, seconds: float, plies: int) -> dict:
    """The strongest agent's best line from ``state`` (``seconds`` shared over its plies, the
    first move getting half), the game's evaluation for the side to move before and after
    it, and the exact value where the game declares one. Chance nodes end the line: no agent
    predicts a draw from the bag."""
    if state.outcome is not None:
        raise ApiError(400, "the game is over: there is nothing to analyse")
    if state.is_chance:
        raise ApiError(400, "the next move is chance (a draw): choose it to analyse the position after it")
    game = state.game
    mover = state.to_move
    players = state.num_players
    name = _agents.strongest_agent_name(game, players)
    started = time.thread_time()  # this worker thread's CPU, not the whole server's
    line, work = [], state.copy()
    first = seconds / 2 if plies > 1 else seconds
    rest = (seconds - first) / max(1, plies - 1)
    for i in range(plies):
        if work.outcome is not None or work.is_chance:
            break
        agent = _agents.load(name, game=game, players=players, time=first if i == 0 else rest, seed=i)
        move = agent.choose(work)
        line.append({"text": move.text, "player": work.to_move})
        work.play(move)
    out: dict[str, Any] = {
        "agent": name,
        "to_move": mover,
        "best": line[0]["text"] if line else None,
        "line": line,
        "cpu_seconds": round(time.thread_time() - started, 3),
        "evaluation": None,
        "evaluation_after_line": None,
        "perfect": None,
        "forced": None,
    }
    if game.has_evaluation:
        out["evaluation"] = round(float(game.evaluate(state, mover)), 4)
        if work.outcome is not None:
            out["evaluation_after_line"] = 2 * work.outcome.reward(mover) - 1
        elif not work.is_chance:
            out["evaluation_after_line"] = round(float(game.evaluate(work, mover)), 4)
    if game.perfect_value is not None:
        out["perfect"] = perfect(state, seconds)
    if game.forced_line is not None:
        out["forced"] = forced_wins(state, seconds / 2)
    return out


def forced_wins(state, seconds: float) -> dict:
    """Forced wins by threats (the game's declared ``forced_line``) for the side to move and
    for its opponent, found within ``seconds``: ``{"wins": [...]}``, or ``{"error": why}``."""
    try:
        return {"wins": load_ref(state.game.forced_line)(state, time.perf_counter() + seconds)}
    except QipanError as exc:
        return {"error": str(exc)}


def perfect(state, seconds: float) -> dict:
    """The game's exact value of ``state`` (its declared ``perfect_value``), or why not."""
    try:
        probe = load_ref(state.game.perfect_value)
        return probe(state, time.perf_counter() + seconds)
    except QipanError as exc:
        return {"error": str(exc)}
