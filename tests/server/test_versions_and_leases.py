"""The pieces several processes rely on, on both backends and without Redis: a change
against an old version is refused and stores nothing, a lease is taken over from a holder
that stopped beating by exactly one claimer, and a game catches up with what another
process stored."""

from __future__ import annotations

import pytest

from qipan.server.lease import LEASE_SECONDS, Leases
from qipan.server.seats import Seat
from qipan.server.session import Session
from qipan.server.storage import GameChanged, StaleMove, Storage, StoredGame, StoredMove


def game(game_id: str = "g1", status: str = "active") -> StoredGame:
    return StoredGame(game_id, "toy-ttt", {}, 2, 1, status, True, [Seat("human"), Seat("human")])


@pytest.fixture
def storage(db_url):
    s = Storage(db_url)
    yield s
    s.close()


def test_a_change_against_an_old_version_stores_nothing(storage):
    storage.create_game(game())
    storage.append_moves("g1", 0, [StoredMove(0, "a1", 0)], "active", None, None, version=0)
    with pytest.raises(GameChanged):  # made against version 0, the game is at 1
        storage.append_moves("g1", 1, [StoredMove(1, "b1", 1)], "active", None, None, version=0)
    with pytest.raises(GameChanged):
        storage.update_game("g1", version=0, status="over")
    with pytest.raises(GameChanged):
        storage.truncate_moves("g1", 0, version=0, status="active")
    with pytest.raises(StaleMove):  # the right version, a ply already played
        storage.append_moves("g1", 0, [StoredMove(0, "b1", 1)], "active", None, None, version=1)
    stored = storage.get_game("g1")
    assert (stored.version, stored.status, [m.text for m in stored.moves]) == (1, "active", ["a1"])
    storage.append_moves(
        "g1", 1, [StoredMove(1, "b1", 1), StoredMove(2, "c1", 0)], "over", {"x": 1}, {"y": 2}, version=1
    )
    stored = storage.get_game("g1")
    assert (stored.version, stored.result, stored.clock) == (2, {"x": 1}, {"y": 2})
    assert storage.versions(["g1", "nope"]) == {"g1": 2}


def test_a_lease_goes_to_one_claimer_once_its_holder_stops_beating(storage):
    storage.create_game(game("g1"), holder="A")
    storage.create_game(game("g2", status="over"), holder="A")
    storage.create_game(game("g3"))  # no lease at all (an older server made it)
    storage.heartbeat("A", 100.0)
    storage.heartbeat("B", 100.0)
    # A beats: nothing to take but the unleased game.
    assert storage.claim_orphans("B", stale_before=100.0 - LEASE_SECONDS) == ["g3"]
    assert storage.leases_of("A") == {"g1", "g2"}
    # A stops; B and C both claim: the unfinished game goes to one of them, once.
    storage.heartbeat("B", 110.0)
    storage.heartbeat("C", 110.0)
    first = storage.claim_orphans("B", stale_before=110.0 - LEASE_SECONDS)
    second = storage.claim_orphans("C", stale_before=110.0 - LEASE_SECONDS)
    assert first == ["g1"] and second == []  # a finished game is nobody's to run
    assert storage.leases_of("B") == {"g1", "g3"}
    storage.release_lease(None, "B")
    assert storage.leases_of("B") == set()


def test_two_processes_taking_one_unleased_game_only_one_gets_it(storage):
    # Both saw the game without a lease; the second insert must lose (on PostgreSQL the
    # driver's rowcount of an INSERT ... ON CONFLICT DO NOTHING is -1, which reads as true).
    storage.create_game(game("g1"))
    with storage.engine.begin() as conn:
        assert storage._lease_new(conn, "g1", "B", 100.0)
        assert not storage._lease_new(conn, "g1", "C", 100.0)
    assert storage.leases_of("B") == {"g1"} and storage.leases_of("C") == set()


def test_a_holder_trusts_its_leases_only_while_its_heartbeat_is_fresh():
    leases = Leases("A")
    leases.held = {"g1"}
    assert leases.beat(100.0)  # the first beat: read back what is ours
    assert leases.holds("g1", 101.0)
    assert not leases.beat(101.0)  # on time
    assert not leases.holds("g1", 101.0 + LEASE_SECONDS)  # no beat since: maybe taken
    assert leases.beat(101.0 + LEASE_SECONDS)  # late
    assert leases.keep_only({"g2"}) == {"g1"}
    assert leases.held == {"g2"}


def test_a_game_catches_up_with_what_another_process_stored():
    def session(moves):
        stored = game()
        stored.moves = [StoredMove(i, m, i % 2) for i, m in enumerate(moves)]
        return Session.restore(stored)

    here = session(["a1", "b1", "a2"])
    there = game()
    there.moves = [StoredMove(i, m, i % 2) for i, m in enumerate(["a1", "b1", "c3", "c2"])]
    there.version, there.status = 7, "active"
    epoch = here.epoch
    assert here.catch_up(there)  # two moves differ: one taken back, two played
    assert [m.text for m in here.state.history] == ["a1", "b1", "c3", "c2"]
    assert here.version == 7 and here.epoch == epoch + 1
    # A change message: moves from ply 4 on, and the offers that came with it.
    step = game()
    step.moves, step.version = [StoredMove(4, "a3", 0)], 8
    step.offers = {"draw": [1], "undo": [], "undo_to": None}
    here.catch_up(step, moves_from=4)
    assert [m.text for m in here.stored.moves] == ["a1", "b1", "c3", "c2", "a3"]
    assert here.offers["draw"] == {1} and here.result is None
    assert here.state.to_move == 1
