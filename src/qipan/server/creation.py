"""A new game from a request: its terms checked (inputs.py), its seats (seating.py), the
chance moves it opens with and its clock started. Nothing is stored here: the manager
stores the game and tells everyone (manager.py)."""

from __future__ import annotations

import random
import time

from ..core import QipanError
from . import seating
from .editor import set_up_position
from .errors import ApiError
from .inputs import game_and_options, game_clock, game_seed, player_count, tick_seconds, yes_or_no
from .session import Session, new_game_id, start_state
from .storage import StoredGame
from .timers import settle


def new_game(data: dict) -> Session:
    """The game a request asks for (ApiError 400 saying what is wrong), its opening chance
    moves played (``stored.moves``) and its clock running if every seat is taken."""
    game_spec, game = game_and_options(data)
    players = player_count(data, game_spec)
    seed = game_seed(data.get("seed"))
    seed = random.randrange(2**31) if seed is None else seed
    seats = seating.new_seats(data.get("seats"), players, game)
    clock = game_clock(data.get("clock") or None, players)
    public = yes_or_no(data, "public", True)
    position = set_up_position(game, data.get("position"), players)  # the editor's, or None
    try:
        state = start_state(game, players, seed, position)
    except QipanError as exc:
        raise ApiError(400, str(exc)) from exc
    realtime = tick_seconds(data.get("realtime"))
    status = "active" if all(s.joined for s in seats) else "open"
    stored = StoredGame(
        new_game_id(),
        game_spec.id,
        dict(game.options),
        players,
        seed,
        status,
        public,
        seats,
        realtime=realtime,
        position=position,
    )
    session = Session(stored, game, state, clock)
    opening = session.resolve_chance()
    if session.realtime_tick and state.to_move is not None and state.to_move >= 0:
        try:
            game.parse(session.idle_move, state)
        except QipanError as exc:
            raise ApiError(
                400,
                f"{game.title} cannot be played in real time: a player cannot pass "
                f"with {session.idle_move!r} ({exc})",
            ) from exc
    settle(session, time.time())
    stored.clock, stored.result, stored.moves = session.stored_clock(), session.stored_result(), opening
    return session
