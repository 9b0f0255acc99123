"""Game state that must hold across serving processes and restarts: draw and undo offers,
real-time moves sent to a process that does not run the ticks.

"Processes" here are Managers in one test process, each with its own process id, storage
connections and Redis subscription, on the machine's PostgreSQL and Redis (fast to start);
tests/server/test_processes.py runs real server processes."""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

import pytest
import sqlalchemy as sa

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cluster_helpers import on_postgres, serving, tick_gaps_around, two_player_game, until  # noqa: E402

from qipan.server.errors import ApiError  # noqa: E402
from qipan.server.lease import served  # noqa: E402
from qipan.server.storage import Storage, processes_table  # noqa: E402


# -- offers ------------------------------------------------------------------------------
@on_postgres
def test_a_draw_offered_through_one_process_is_accepted_through_another(db_url, redis_url):
    async def scenario():
        async with serving(db_url, redis_url) as a, serving(db_url, redis_url) as b:
            game_id, tokens = await two_player_game(a)
            await a.move(game_id, tokens[0], "a1", 0)
            await a.draw(game_id, tokens[0], "offer")
            # B reads the game from the store only now: the offer is there.
            seen = (await b.get(game_id)).describe()
            assert seen["offers"]["draw"] == [0]
            await b.draw(game_id, tokens[1], "accept")
            assert (await b.get(game_id)).result.reason == "draw agreed"
            await until(lambda: a.sessions[game_id].status == "over")
            assert a.sessions[game_id].result.reason == "draw agreed"

    asyncio.run(scenario())


@on_postgres
def test_an_undo_asked_through_one_process_is_agreed_through_another(db_url, redis_url):
    async def scenario():
        async with serving(db_url, redis_url) as a, serving(db_url, redis_url) as b:
            game_id, tokens = await two_player_game(a)
            await b.get(game_id)  # B holds the game and hears of every change
            await a.move(game_id, tokens[0], "a1", 0)
            await a.move(game_id, tokens[1], "b1", 1)
            await a.undo(game_id, tokens[1], "offer")  # Bob takes back b1
            await until(lambda: b.sessions[game_id].offers["undo"] == {1})
            b.sessions.pop(game_id)  # and B reloads it (e.g. it was dropped from the cache)
            await b.undo(game_id, tokens[0], "accept")
            assert [m.text for m in (await b.get(game_id)).state.history] == ["a1"]
            await until(lambda: a.sessions[game_id].state.ply == 1)
            assert a.sessions[game_id].offers["undo"] == set()

    asyncio.run(scenario())


def test_offers_outlive_a_restart_and_a_move_ends_them(db_url):
    async def scenario():
        async with serving(db_url) as first:
            game_id, tokens = await two_player_game(first)
            other_id, other_tokens = await two_player_game(first)
            await first.move(game_id, tokens[0], "a1", 0)
            await first.move(game_id, tokens[1], "b1", 1)
            await first.draw(game_id, tokens[0], "offer")
            await first.undo(game_id, tokens[1], "offer")
            await first.draw(other_id, other_tokens[1], "offer")
            await first.move(other_id, other_tokens[0], "a1", 0)  # a move ends the offer
        async with serving(db_url) as second:  # the server restarted
            session = await second.get(game_id)
            assert session.offers == {"draw": {0}, "undo": {1}, "undo_to": 1}
            assert (await second.get(other_id)).describe()["offers"] == {"draw": [], "undo": []}
            await second.undo(game_id, tokens[0], "accept")
            assert [m.text for m in session.state.history] == ["a1"]
            assert session.offers["draw"] == set()  # the undo ended the draw offer too
            await second.draw(game_id, tokens[0], "offer")
        async with serving(db_url) as third:
            await third.draw(game_id, tokens[1], "accept")
            assert (await third.get(game_id)).result.reason == "draw agreed"

    asyncio.run(scenario())


def test_a_declined_offer_stays_declined_after_a_restart(db_url):
    async def scenario():
        async with serving(db_url) as first:
            game_id, tokens = await two_player_game(first)
            await first.draw(game_id, tokens[0], "offer")
            await first.draw(game_id, tokens[1], "decline")
        async with serving(db_url) as second:
            assert (await second.get(game_id)).offers["draw"] == set()
            await second.draw(game_id, tokens[1], "offer")  # one seat agreeing is no draw
            assert (await second.get(game_id)).status == "active"
            with pytest.raises(ApiError) as refused:
                await second.draw(game_id, tokens[1], "maybe")
            assert refused.value.status == 400
            assert (await second.get(game_id)).offers["draw"] == {1}

    asyncio.run(scenario())


# -- real-time moves sent to the process that does not tick --------------------------------
TICK = 0.4


@on_postgres
def test_a_real_time_move_sent_to_another_process_is_played_at_the_holders_next_tick(db_url, redis_url):
    async def scenario():
        async with serving(db_url, redis_url) as a, serving(db_url, redis_url) as b:
            session, tickets = await a.create(
                {
                    "game": "toy-ticker",
                    "options": {"tick": TICK, "ticks": 1000},
                    "seats": [{"kind": "human", "join": True}],
                }
            )
            game_id, token = session.id, tickets[0]["token"]
            assert game_id in a.cluster.leases.held and game_id not in b.cluster.leases.held
            await until(lambda: a.sessions[game_id].state.ply >= 2)
            there = await b.get(game_id)
            await until(lambda: there.state.ply >= 3)
            before = there.state.ply
            await b.move(game_id, token, "go", None)  # B leaves it for A's next tick
            assert "go" not in [m.text for m in there.state.history]  # not played at once
            here = a.sessions[game_id]
            await until(lambda: "go" in [m.text for m in here.state.history], timeout=10 * TICK + 10)
            played_at = here.state.history.index(next(m for m in here.state.history if m.text == "go"))
            assert played_at <= before + 3  # one of the next ticks (a busy machine delays the notice)
            await until(lambda: here.state.ply >= played_at + 3)
            await until(lambda: "go" in [m.text for m in there.state.history])
            # It was played as a tick: the ticks around it keep their pace.
            stored_at, gaps = tick_gaps_around(db_url, game_id, "go")
            assert stored_at == played_at and min(gaps) >= TICK * 0.95, gaps
            engine = sa.create_engine(db_url)
            with engine.connect() as conn:
                left = conn.execute(sa.text("SELECT count(*) FROM queued_moves")).scalar()
            engine.dispose()
            assert left == 0  # taken by the holder
            # A move that is not legal now is refused by B at once, and left nowhere.
            with pytest.raises(ApiError) as refused:
                await b.move(game_id, token, "jump", None)
            assert refused.value.status == 400

    asyncio.run(scenario())


# -- clocks across a restart of every process ----------------------------------------------
def test_a_clock_is_charged_only_for_the_time_some_process_served(db_url):
    """Every process was down 20 s; one process has just started (it has not taken the
    game yet) when another starts and resumes the game: the clock is charged for the time
    before the outage, not for the outage (the first process's heartbeat is no sign that
    the server ran meanwhile)."""

    async def scenario():
        async with serving(db_url) as first:
            game_id, tokens = await two_player_game(first, clock={"mode": "total", "initial": 300})
            await first.move(game_id, tokens[0], "a1", 0)  # Bob's time runs
            process = first.process
        now = time.time()
        storage = Storage(db_url)
        stored = storage.get_game(game_id)
        # Bob's turn began 40 s ago; the server went down 10 s later and was down 20 s...
        clock = dict(stored.clock, since=now - 40.0)
        storage.update_game(game_id, clock=clock)
        with storage.engine.begin() as conn:
            conn.execute(
                processes_table.update().where(processes_table.c.id == process).values(alive=now - 30.0)
            )
            # ...then a process started 10 s ago and beats, and another one starts now.
            conn.execute(processes_table.insert().values(id="just-started", started=now - 10.0, alive=now))
        storage.close()
        async with serving(db_url) as second:
            session = await second.get(game_id)
            left = session.clock.left(1, time.time())
            # Charged: 10 s before the outage, and at most the 10 s the new process ran.
            assert 280.0 - 1.5 <= left <= 290.0 + 1.5, left

    asyncio.run(scenario())


def test_served_time_counts_each_moment_once_and_no_outage():
    # Two processes overlapping, an outage, one process again; the turn began at 40.
    periods = [(0.0, 50.0), (45.0, 55.0), (70.0, 80.0)]
    assert served(40.0, 90.0, periods) == 15.0 + 10.0
    assert served(40.0, 75.0, periods) == 15.0 + 5.0  # up to now only
    assert served(60.0, 90.0, periods) == 10.0  # the turn began in the outage
    assert served(40.0, 90.0, []) == 0.0


# -- seats: invite links once, names final, across processes -------------------------------
@on_postgres
def test_an_invite_link_used_through_two_processes_at_once_seats_one_person(db_url, redis_url):
    async def scenario():
        async with serving(db_url, redis_url) as a, serving(db_url, redis_url) as b:
            session, tickets = await a.create(
                {
                    "game": "toy-ttt",
                    "seats": [{"kind": "human", "name": "Ann", "join": True}, {"kind": "human"}],
                }
            )
            invite = next(t["invite"] for t in tickets if t["seat"] == 1)
            await b.get(session.id)  # both processes hold the game
            answers = await asyncio.gather(
                a.join(session.id, None, None, "Bob", invite),
                b.join(session.id, None, None, "Eve", invite),
                return_exceptions=True,
            )
            seated = [r for r in answers if isinstance(r, dict)]
            refused = [r for r in answers if isinstance(r, ApiError)]
            assert len(seated) == 1 and len(refused) == 1, answers
            assert refused[0].status == 409 and "used already" in refused[0].message
            winner = "Bob" if answers[0] is seated[0] else "Eve"
            token = seated[0]["token"]
            for manager in (a, b):  # both agree who sits there, and the link is spent
                await until(lambda m=manager: m.sessions[session.id].status == "active")
                there = await manager.get(session.id)
                assert there.name(1) == winner and there.seat_of(token) == 1
                with pytest.raises(ApiError) as again:
                    await manager.join(session.id, None, None, "Mallory", invite)
                assert again.value.status == 409

    asyncio.run(scenario())


@on_postgres
def test_seat_names_are_final_in_every_process_once_the_game_is_over(db_url, redis_url):
    async def scenario():
        async with serving(db_url, redis_url) as a, serving(db_url, redis_url) as b:
            game_id, tokens = await two_player_game(a)
            await b.get(game_id)  # B heard of the game before it ended
            await a.resign(game_id, tokens[0])
            for manager in (b, a):
                with pytest.raises(ApiError) as refused:
                    await manager.join(game_id, tokens[1], None, "Bobby")
                assert refused.value.status == 409
            b.sessions.pop(game_id)  # and read afresh from the store
            with pytest.raises(ApiError):
                await b.join(game_id, tokens[1], None, "Bobby")
            assert (await b.get(game_id)).name(1) == "Bob"

    asyncio.run(scenario())


@on_postgres
def test_ticks_skipped_while_the_lease_was_unconfirmed_go_on_after_the_next_heartbeat(db_url, redis_url):
    """A holder whose heartbeat is late does not trust its leases (another process may have
    taken them) and skips a tick; once a heartbeat confirms the lease, the ticks go on and
    the move sent meanwhile is played."""

    async def scenario():
        async with serving(db_url, redis_url) as a:
            session, tickets = await a.create(
                {
                    "game": "toy-ticker",
                    "options": {"tick": 0.1, "ticks": 100000},
                    "seats": [{"kind": "human", "join": True}],
                }
            )
            await until(lambda: session.state.ply >= 2)
            a.cluster.leases.fresh_until = 0.0  # as after a heartbeat that came too late
            # A move meanwhile is left for the holder, which is this process after all.
            await a.move(session.id, tickets[0]["token"], "go", None)
            await until(lambda: session.id not in a.timers.handles)  # a tick came and was skipped
            skipped_at = session.state.ply
            await until(lambda: session.state.ply >= skipped_at + 5, timeout=10)
            await until(lambda: "go" in [m.text for m in session.state.history], timeout=10)

    asyncio.run(scenario())
