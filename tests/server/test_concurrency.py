"""Storage runs in threads off the event loop: one game's changes still happen one at a
time, in ply order, and a failed write leaves the live game as it was. The manager is
driven directly on an event loop, on SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
import threading

import pytest

from qipan.server.errors import ApiError
from qipan.server.manager import Manager
from qipan.server.storage import Storage

HUMANS = [{"kind": "human", "name": "Ann", "join": True}, {"kind": "human", "name": "Bob", "join": True}]


async def new_game(manager: Manager, **body) -> tuple[str, list[str]]:
    session, tickets = await manager.create({"game": "toy-ttt", "seats": HUMANS, **body})
    return session.id, [t["token"] for t in tickets]


class WatchedLock(asyncio.Lock):
    """A game's lock that counts the changes and readers waiting for it."""

    def __init__(self):
        super().__init__()
        self.waiting = 0
        self.changed = asyncio.Condition()

    async def acquire(self):
        await self._count(1)
        try:
            return await super().acquire()
        finally:
            await self._count(-1)

    async def _count(self, step: int) -> None:
        async with self.changed:
            self.waiting += step
            self.changed.notify_all()

    async def until_waiting(self, count: int) -> None:
        async with self.changed:
            await asyncio.wait_for(self.changed.wait_for(lambda: self.waiting == count), 10)


async def started(event: threading.Event) -> None:
    """Until a storage thread set ``event`` (its write is under way)."""
    assert await asyncio.to_thread(event.wait, 10), "the write never started"


def run(db_url: str, scenario, db_workers: int = 4):
    """Run ``scenario(manager)`` on a fresh event loop with several storage threads."""

    async def main():
        storage = Storage(db_url)
        manager = Manager(storage, db_workers=db_workers)
        await manager.start()
        try:
            return await scenario(manager)
        finally:
            await manager.stop()
            storage.close()

    return asyncio.run(main())


def test_two_submissions_of_one_ply_store_exactly_one_move(db_url):
    async def scenario(manager):
        gid, (ann, _bob) = await new_game(manager)
        results = await asyncio.gather(
            manager.move(gid, ann, "a1", 0), manager.move(gid, ann, "b1", 0), return_exceptions=True
        )
        refused = [r for r in results if isinstance(r, ApiError)]
        assert len(refused) == 1 and refused[0].status == 409 and "stale move" in refused[0].message
        session = manager.sessions[gid]
        assert session.state.ply == 1 and [m.text for m in session.state.history] == ["a1"]
        stored = manager.storage.get_game(gid)
        assert [(m.ply, m.text, m.player) for m in stored.moves] == [(0, "a1", 0)]
        return gid

    run(db_url, scenario)


def test_moves_of_many_games_at_once_are_stored_in_ply_order(db_url):
    """Both seats of ten games send every move at once, each twice; every game ends up
    with its moves stored once each, in order, and the live games match storage."""
    line = ["a1", "a2", "b1", "b2", "c1"]

    async def play(manager, gid, tokens):
        for ply, text in enumerate(line):
            token = tokens[ply % 2]
            results = await asyncio.gather(
                manager.move(gid, token, text, ply),
                manager.move(gid, token, text, ply),
                return_exceptions=True,
            )
            assert sorted(isinstance(r, ApiError) and r.status for r in results) == [False, 409]

    async def scenario(manager):
        games = [await new_game(manager) for _ in range(10)]
        await asyncio.gather(*(play(manager, gid, tokens) for gid, tokens in games))
        for gid, _ in games:
            stored = manager.storage.get_game(gid)
            assert [m.text for m in stored.moves] == line and [m.ply for m in stored.moves] == list(range(5))
            assert stored.status == "over" and stored.result["winners"] == [0]
            assert manager.sessions[gid].state.ply == 5

    run(db_url, scenario)


class Broken(Exception):
    pass


def test_a_failed_move_write_leaves_the_game_unchanged(db_url, monkeypatch):
    async def scenario(manager):
        gid, (ann, bob) = await new_game(manager, clock={"mode": "total", "initial": 300, "increment": 5})
        await manager.move(gid, ann, "a1", 0)
        session = manager.sessions[gid]
        before = session.describe(now=1.0)
        stored_before = manager.storage.get_game(gid)

        def fail(*_args, **_kwargs):
            raise Broken("disk full")

        monkeypatch.setattr(manager.storage, "append_moves", fail)
        with pytest.raises(ApiError) as err:
            await manager.move(gid, bob, "b2", 1)
        assert err.value.status == 503 and "nothing was changed" in err.value.message
        assert session.describe(now=1.0) == before
        assert len(session.spent) == 1 and len(session.stored.moves) == 1
        assert manager.storage.get_game(gid).moves == stored_before.moves
        monkeypatch.undo()
        await manager.move(gid, bob, "b2", 1)  # the same move goes through once storage works
        assert [m.text for m in manager.storage.get_game(gid).moves] == ["a1", "b2"]

    run(db_url, scenario)


def test_failed_resign_and_undo_writes_leave_the_game_unchanged(db_url, monkeypatch):
    async def scenario(manager):
        gid, (ann, bob) = await new_game(manager)
        await manager.move(gid, ann, "a1", 0)
        await manager.move(gid, bob, "b2", 1)
        session = manager.sessions[gid]
        before = session.describe(now=1.0)

        def fail(*_args, **_kwargs):
            raise Broken("connection lost")

        monkeypatch.setattr(manager.storage, "update_game", fail)
        monkeypatch.setattr(manager.storage, "truncate_moves", fail)
        with pytest.raises(ApiError) as err:
            await manager.resign(gid, ann)
        assert err.value.status == 503 and session.status == "active"
        with pytest.raises(ApiError):  # an offer is stored with the game row: it fails too
            await manager.undo(gid, ann, "offer")
        assert session.describe(now=1.0) == before
        monkeypatch.undo()
        await manager.undo(gid, ann, "offer")
        monkeypatch.setattr(manager.storage, "truncate_moves", fail)
        with pytest.raises(ApiError) as err:
            await manager.undo(gid, bob, "accept")
        assert err.value.status == 503
        assert session.state.ply == 2 and [m.text for m in session.stored.moves] == ["a1", "b2"]
        assert session.offers["undo"] == {0}
        assert [m.text for m in manager.storage.get_game(gid).moves] == ["a1", "b2"]

    run(db_url, scenario)


def test_a_move_waits_for_the_one_being_stored_and_a_failed_one_lets_nothing_through(db_url):
    """Bob's reply arrives while Ann's move is being written; the write fails. Bob's move
    must wait and then be refused (the game is back at ply 0), and nothing is stored: no
    move at ply 1 without a ply 0."""

    async def scenario(manager):
        gid, (ann, bob) = await new_game(manager)
        writing, release = threading.Event(), threading.Event()
        append = manager.storage.append_moves
        lock = manager.locks[gid] = WatchedLock()

        def slow_then_fail(game_id, first_ply, *args):
            if first_ply == 0:
                writing.set()
                release.wait(10)
                raise Broken("write failed")
            return append(game_id, first_ply, *args)

        manager.storage.append_moves = slow_then_fail
        ann_move = asyncio.ensure_future(manager.move(gid, ann, "a1", 0))
        await started(writing)  # Ann's write is under way in a storage thread
        bob_move = asyncio.ensure_future(manager.move(gid, bob, "b2", 1))
        reader = asyncio.ensure_future(manager.get(gid))
        await lock.until_waiting(2)  # both wait for Ann's change
        assert not bob_move.done() and not reader.done()
        release.set()
        results = await asyncio.gather(ann_move, bob_move, return_exceptions=True)
        assert [r.status for r in results] == [503, 409]
        assert (await reader).state.ply == 0
        assert manager.storage.get_game(gid).moves == []
        assert manager.sessions[gid].state.ply == 0

    run(db_url, scenario)


def test_readers_never_see_a_move_before_it_is_stored(db_url):
    async def scenario(manager):
        gid, (ann, _bob) = await new_game(manager)
        writing, release = threading.Event(), threading.Event()
        append = manager.storage.append_moves
        lock = manager.locks[gid] = WatchedLock()

        def slow(*args):
            writing.set()
            release.wait(10)
            return append(*args)

        manager.storage.append_moves = slow
        move = asyncio.ensure_future(manager.move(gid, ann, "a1", 0))
        await started(writing)
        readers = [asyncio.ensure_future(manager.get(gid)), asyncio.ensure_future(manager.list(None, 10))]
        await lock.until_waiting(2)  # both readers wait for the move being stored
        assert not any(r.done() for r in readers)
        release.set()
        await move
        session, listed = await asyncio.gather(*readers)
        assert session.state.ply == 1 and listed[0]["ply"] == 1
        assert [m.text for m in manager.storage.get_game(gid).moves] == ["a1"]

    run(db_url, scenario)


def test_a_failed_join_write_leaves_the_seat_free(db_url, monkeypatch):
    async def scenario(manager):
        session, tickets = await manager.create(
            {"game": "toy-ttt", "seats": [{"kind": "human", "join": True}, {"kind": "human"}]}
        )

        def fail(*_args, **_kwargs):
            raise Broken("connection lost")

        monkeypatch.setattr(manager.storage, "update_game", fail)
        with pytest.raises(ApiError) as err:
            await manager.join(session.id, None, None, "Bob")
        assert err.value.status == 503
        assert session.status == "open" and not session.seats[1].joined and not session.seats[1].name
        monkeypatch.undo()
        assert (await manager.join(session.id, None, None, "Bob"))["seat"] == 1
        stored = manager.storage.get_game(session.id)
        assert stored.status == "active" and stored.seats[1].name == "Bob"

    run(db_url, scenario)
