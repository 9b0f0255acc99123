"""Offers the seats agree on: a draw, and taking moves back. Each action is checked
against the game as it is now (the caller holds the game's lock), changes the session and
returns what changed; the manager stores it (manager.py)."""

from __future__ import annotations

from ..core import Outcome
from .changes import RowChanged, TakenBack
from .errors import ApiError
from .inputs import offer_action
from .session import Session, no_offers


def draw(session: Session, seat: int, action: object) -> RowChanged:
    """Offer, accept or decline a draw: agreed once every human seat offered it. Bots do
    not agree to draws."""
    session.require_active()
    action = offer_action(action)
    offers = session.offers["draw"]
    if action == "decline":
        offers.clear()
        return RowChanged()
    offers.add(seat)
    if session.bot_seats():
        offers.clear()
        raise ApiError(409, "bots do not agree to draws; resign or play on")
    if set(session.human_seats()) <= offers:
        session.finish(Outcome.draw(session.stored.players, "draw agreed"))
    return RowChanged()


def undo(session: Session, seat: int, action: object, now: float) -> RowChanged | TakenBack:
    """Offer, accept or decline taking back moves: to just before the asking seat's last
    move, once every human seat agrees (bots always do)."""
    session.require_active()
    action = offer_action(action)
    offers = session.offers
    if action == "decline":
        offers["undo"].clear()
        offers["undo_to"] = None
        return RowChanged()
    if offers["undo_to"] is None:
        mine = [m.ply for m in session.stored.moves if m.player == seat]
        if not mine:
            raise ApiError(409, "you have no move to take back")
        offers["undo_to"] = mine[-1]
    offers["undo"].add(seat)
    if not set(session.human_seats()) <= offers["undo"]:
        return RowChanged()
    keep = offers["undo_to"]
    session.take_back(session.state.ply - keep)
    session.stored.moves = session.stored.moves[:keep]
    session.offers = no_offers()  # the store clears them with the undo
    session.epoch += 1
    session.turn_started = now
    return TakenBack(keep)
