"""Who sits where: the seats a new game starts with (from its request), taking a seat (by
its token, an invite link or as the next free one) and binding a seat to an account. The
changes of a live game are checked against it as it is now (the caller holds its lock) and
say what changed; the manager stores them (manager.py)."""

from __future__ import annotations

import time
from typing import Any

from .. import agents as _agents
from ..core import Game, OptionError, QipanError
from .changes import RowChanged
from .errors import ApiError
from .inputs import seat_name, seat_number
from .seats import Seat
from .session import Session, bot_limits, bot_name, bot_request, new_token


def new_seats(raw: Any, players: int, game: Game) -> list[Seat]:
    """The seats a request asks for (every seat a free human one if it says nothing)."""
    if raw is None:
        raw = [{"kind": "human"} for _ in range(players)]
    if not isinstance(raw, list) or len(raw) != players:
        raise ApiError(400, f"seats must be a list of {players} seats")
    known = {a.name: a for a in _agents.agent_specs()}
    seats = []
    for i, s in enumerate(raw):
        if not isinstance(s, dict):
            raise ApiError(400, f"seat {i + 1} must be an object")
        kind = s.get("kind", "human")
        name = seat_name(s.get("name"))
        if kind == "human":
            joined = bool(s.get("join"))
            # The invite is not the seat's token: whoever uses it gets a fresh one.
            seats.append(Seat("human", name, joined, new_token(), None if joined else new_token()))
        elif kind == "bot":
            agent, raw_limits = bot_request(s)
            if agent not in known:
                raise ApiError(400, f"unknown agent {agent!r}; known agents: {', '.join(sorted(known))}")
            why = known[agent].refusal(game, players)
            if why is not None:
                able = ", ".join(a.name for a in _agents.agents_for(game, players))
                raise ApiError(400, f"{why}; agents that do: {able}")
            limits = bot_limits(known[agent], raw_limits)
            try:
                _agents.load(agent, **limits)
            except (OptionError, QipanError) as exc:
                raise ApiError(400, str(exc)) from exc
            seats.append(Seat("bot", name or bot_name(agent, limits), True, agent=agent, limits=limits))
        else:
            raise ApiError(400, f"seat {i + 1}: kind must be 'human' or 'bot', not {kind!r}")
    return seats


def tickets(seats: list[Seat]) -> list[dict]:
    """What the creator of a game learns of its human seats: a seat taken at creation gets
    its token, a free seat only its one-time invite."""
    return [
        {"seat": i, "token": s.token if s.joined else None, "joined": s.joined}
        | ({"invite": s.invite} if s.invite else {})
        for i, s in enumerate(seats)
        if s.human
    ]


def join(
    session: Session, token: str | None, seat: Any, name: str | None, invite: str | None
) -> tuple[dict, RowChanged]:
    """Take a seat: one's own (``token``, to rename it), the one an invite link is for, or
    a free seat of a public game (``seat`` or the first). Returns the seat and its token."""
    if token:
        index = session.require_seat(token)
        account = session.seats[index].account
        if account and name and name != account:
            raise ApiError(409, f"seat {index + 1} belongs to the account {account}: it keeps that name")
        if session.status == "over" and name and name != session.seats[index].name:
            raise ApiError(409, "the game is over: its seat names are final")
        return _take(session, index, name)
    if invite is not None:
        index = session.seat_of_invite(invite)
        if session.seats[index].joined:
            raise ApiError(409, f"seat {index + 1} is taken: this invite link was used already")
    else:
        if session.status != "open":
            raise ApiError(409, "this game has no free seat")
        if not session.stored.public:
            raise ApiError(403, "this game is private: join it through its invite link")
        free = [i for i in session.human_seats() if not session.seats[i].joined]
        if seat_number(seat, session.stored.players) is not None:
            if seat not in free:
                raise ApiError(409, f"seat {seat + 1} is not free")
            free = [seat]
        if not free:
            raise ApiError(409, "this game has no free seat")
        index = free[0]
    # A fresh token for the person taking the seat: nobody else (not even whoever holds the
    # invite link) knows it.
    session.seats[index].token = new_token()
    return _take(session, index, name)


def _take(session: Session, index: int, name: str | None) -> tuple[dict, RowChanged]:
    entry = session.seats[index]
    entry.joined = True
    if name:
        entry.name = name
    if session.status == "open" and all(s.joined for s in session.seats):
        session.stored.status = "active"
        session.turn_started = time.time()
    return {"seat": index, "token": entry.token}, RowChanged()


def bind(session: Session, seat: int, username: str) -> RowChanged | None:
    """The seat belongs to the account ``username``: it carries that name for good (a
    rename is refused: ``join``). None if it did already."""
    entry = session.seats[seat]
    if entry.account == username and entry.name == username:
        return None
    entry.account = entry.name = username
    return RowChanged()
