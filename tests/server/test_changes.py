"""The concern modules change a live game without I/O and say what changed (changes.py);
bad input raises ApiError and changes nothing. The manager's storing of each kind of
change is tested through the API (test_api.py, test_concurrency.py)."""

from __future__ import annotations

import pytest

from qipan.server import moves, offers, seating
from qipan.server.changes import Played, RowChanged, TakenBack
from qipan.server.creation import new_game
from qipan.server.errors import ApiError
from qipan.server.storage import GameChanged
from qipan.server.timers import flag

HUMANS = [{"kind": "human", "name": "Ann", "join": True}, {"kind": "human", "name": "Bob", "join": True}]


def game(**body):
    return new_game({"game": "toy-ttt", "seats": HUMANS, **body})


def test_a_move_says_which_moves_it_added_and_clears_the_offers():
    session = game()
    session.offers["draw"].add(1)
    change = moves.play(session, 0, "b2")
    assert change == Played(0, change.moves) and [m.text for m in change.moves] == ["b2"]
    assert session.state.ply == 1 and not session.offers["draw"]
    with pytest.raises(ApiError) as err:
        moves.play(session, 1, "b2")
    assert err.value.status == 400 and session.state.ply == 1


def test_a_move_for_another_ply_or_out_of_turn_is_refused():
    session = game()
    with pytest.raises(ApiError, match="stale move"):
        moves.check_turn(session, 0, 3, shared=False)
    with pytest.raises(GameChanged):  # several processes: this one is behind, it catches up
        moves.check_turn(session, 0, 3, shared=True)
    with pytest.raises(ApiError, match="not your turn"):
        moves.check_turn(session, 1, 0, shared=False)
    moves.check_turn(session, 0, 0, shared=False)


def test_an_undo_agreed_by_every_seat_takes_the_moves_back():
    session = game()
    for seat, text in ((0, "a1"), (1, "b1")):
        session.stored.moves += moves.play(session, seat, text).moves
    assert offers.undo(session, 1, "offer", 0.0) == RowChanged()
    assert session.offers["undo_to"] == 1
    assert offers.undo(session, 0, "accept", 0.0) == TakenBack(1)
    assert session.state.ply == 1 and [m.text for m in session.stored.moves] == ["a1"]
    with pytest.raises(ApiError, match="action must be"):
        offers.undo(session, 0, "maybe", 0.0)


def test_a_draw_agreed_by_every_seat_ends_the_game_and_bots_never_agree():
    session = game()
    assert offers.draw(session, 0, "offer") == RowChanged() and session.status == "active"
    offers.draw(session, 1, "accept")
    assert session.status == "over" and session.result.reason == "draw agreed"
    with_bot = new_game({"game": "toy-ttt", "seats": [HUMANS[0], {"kind": "bot", "agent": "random"}]})
    with pytest.raises(ApiError, match="bots do not agree"):
        offers.draw(with_bot, 0, "offer")


def test_joining_takes_the_free_seat_and_starts_the_game():
    session = new_game({"game": "toy-ttt", "seats": [HUMANS[0], {"kind": "human"}]})
    assert session.status == "open" and seating.tickets(session.seats)[1]["invite"]
    with pytest.raises(ApiError, match="seat must be a number"):
        seating.join(session, None, 5, "Bob", None)
    ticket, change = seating.join(session, None, None, "Bob", None)
    assert ticket["seat"] == 1 and change == RowChanged()
    assert session.status == "active" and session.seats[1].name == "Bob" and session.seats[1].joined
    assert seating.bind(session, 1, "bob") == RowChanged() and seating.bind(session, 1, "bob") is None


def test_a_flag_falls_only_when_the_time_is_up():
    session = game(clock={"mode": "move", "initial": 10})
    since = session.clock.since
    assert flag(session, since + 5) is None and session.status == "active"
    assert flag(session, since + 11) == RowChanged()
    assert session.status == "over" and "ran out of time" in session.result.reason
