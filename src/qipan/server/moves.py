"""A seat's own acts on its game: a move, a resignation, an abort. Each is checked against
the game as it is now (the caller holds the game's lock), changes the session and returns
what changed; the manager stores it (manager.py)."""

from __future__ import annotations

import time

from .changes import Played, RowChanged
from .errors import ApiError
from .session import Session, no_offers
from .storage import GameChanged


def play(session: Session, seat: int, text: str, taken: list[int] | None = None) -> Played:
    """Play ``seat``'s move (ApiError 400 if it is no legal move; nothing changes then).
    ``taken``: the real-time queued moves (row ids) this tick plays or drops."""
    first = session.state.ply
    played = session.play(seat, text, time.time())
    session.offers = no_offers()  # the store clears them with the move
    return Played(first, played, list(taken or ()))


def check_turn(session: Session, seat: int, ply: int | None, shared: bool) -> None:
    """Refuse a move sent for another ply than the game's, or out of turn. ``shared``:
    several processes serve the game, so a later ply means this one is behind."""
    if ply is not None and ply > session.state.ply and shared:
        # The client saw a later position (through another process) than we have heard of
        # yet: the manager catches up from the store and checks again.
        raise GameChanged(f"the client is at ply {ply}, this process at {session.state.ply}")
    if ply is not None and ply != session.state.ply:
        raise ApiError(
            409, f"stale move: it was sent for ply {ply} but the game is at ply {session.state.ply}"
        )
    if session.state.to_move != seat:
        raise ApiError(403, f"it is not your turn: {session.name(session.state.to_move)} is to move")


def resign(session: Session, seat: int, rated: bool) -> RowChanged:
    """The others win; a rated game resigned before each side has moved is aborted
    (fair_play.py)."""
    session.require_active()
    if rated and not session.every_side_moved():
        session.finish(session.aborted(seat))
    else:
        session.finish(session.others_win(seat, f"{session.name(seat)} resigned"))
    return RowChanged()


def abort(session: Session, seat: int) -> RowChanged:
    """Call the game off: either player may, until each side has made a move."""
    session.require_active()
    if session.every_side_moved():
        raise ApiError(409, "each side has moved: the game can no longer be aborted (resign instead)")
    session.finish(session.aborted(seat))
    return RowChanged()
