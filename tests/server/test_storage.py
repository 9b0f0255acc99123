"""Storage, the same tests on SQLite and on a real PostgreSQL server."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
import sqlalchemy as sa

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_helpers import bearer, two_humans  # noqa: E402

from qipan.server.seats import Seat  # noqa: E402
from qipan.server.storage import StaleMove, Storage, StoredGame, StoredMove, normalise_url  # noqa: E402


def new_game(gid="g1", status="active") -> StoredGame:
    seats = [
        Seat("human", "Ann", joined=True, token="t0"),
        Seat("bot", joined=True, agent="random", limits={"time": 0.5}),
    ]
    return StoredGame(gid, "toy-ttt", {"coin": False}, 2, 12345678901, status, True, seats)


def head_revision() -> str:
    from alembic.script import ScriptDirectory

    from qipan.server.migrate import alembic_config

    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def test_migrations_create_the_schema(db_url):
    storage = Storage(db_url)
    inspector = sa.inspect(storage.engine)
    assert {"games", "moves", "alembic_version"} <= set(inspector.get_table_names())
    with storage.engine.connect() as conn:
        assert (
            conn.execute(sa.text("select version_num from alembic_version")).scalar_one() == head_revision()
        )
    Storage(db_url).close()  # running them again is a no-op
    storage.close()


def test_seats_are_stored_as_dicts_of_the_old_shape(db_url):
    """Seat objects become plain dicts in the row (as every server before them wrote),
    with only the fields that are set; rows of that shape read back as the same seats."""
    storage = Storage(db_url)
    game = new_game()
    game.seats[0].invite = "code"
    storage.create_game(game)
    with storage.engine.connect() as conn:
        row = conn.execute(sa.text("select seats from games where id = 'g1'")).scalar_one()
    row = json.loads(row) if isinstance(row, str) else row
    assert row == [
        {"kind": "human", "name": "Ann", "joined": True, "token": "t0", "invite": "code"},
        {"kind": "bot", "name": None, "joined": True, "agent": "random", "limits": {"time": 0.5}},
    ]
    game.seats[1].left, game.seats[1].name = True, "level 9 (for Bob)"
    storage.update_game("g1", seats=game.seats)
    assert storage.get_game("g1").seats == game.seats
    assert Seat.from_dict({"kind": "human", "unknown": 1}) == Seat("human")  # a newer field: ignored
    storage.close()


def test_game_round_trip(db_url):
    storage = Storage(db_url)
    game = new_game()
    game.clock = {
        "mode": "total",
        "initial": 60.0,
        "increment": 1.0,
        "remaining": [60.0, 60.0],
        "running": 0,
        "since": 1.5,
    }
    storage.create_game(game)
    loaded = storage.get_game("g1")
    assert loaded.seats == game.seats and loaded.options == {"coin": False} and loaded.seed == 12345678901
    assert loaded.clock == game.clock and loaded.moves == [] and loaded.status == "active"
    assert storage.get_game("nope") is None
    storage.update_game("g1", status="over", result={"winners": [0], "scores": [1, 0], "reason": "r"})
    loaded = storage.get_game("g1")
    assert loaded.status == "over" and loaded.result["winners"] == [0]
    storage.close()


def test_moves_are_appended_by_ply_and_stale_ones_rejected(db_url):
    storage = Storage(db_url)
    storage.create_game(new_game())
    clock = {
        "mode": "move",
        "initial": 5.0,
        "increment": 0.0,
        "remaining": [5.0, 5.0],
        "running": 1,
        "since": 2.0,
    }
    storage.append_moves("g1", 0, [StoredMove(0, "a1", 0, 1.25)], "active", None, clock)
    storage.append_moves(
        "g1", 1, [StoredMove(1, "b2", 1), StoredMove(2, "X first", -1)], "active", None, clock
    )
    with pytest.raises(StaleMove):
        storage.append_moves("g1", 1, [StoredMove(1, "c3", 1)], "over", {"winners": [1]}, None)
    with pytest.raises(StaleMove):  # the whole batch is refused, including its new ply 3
        storage.append_moves("g1", 2, [StoredMove(2, "c3", 1), StoredMove(3, "a3", 0)], "over", None, None)
    game = storage.get_game("g1")
    assert [(m.ply, m.text, m.player) for m in game.moves] == [(0, "a1", 0), (1, "b2", 1), (2, "X first", -1)]
    assert game.moves[0].spent == 1.25 and game.clock == clock
    assert game.status == "active" and game.result is None  # the rejected updates did not happen
    storage.truncate_moves("g1", 1)
    assert [m.text for m in storage.get_game("g1").moves] == ["a1"]
    storage.close()


def test_unique_ply_is_enforced_by_the_database(db_url):
    storage = Storage(db_url)
    storage.create_game(new_game())
    storage.append_moves("g1", 0, [StoredMove(0, "a1", 0)], "active", None, None)
    from qipan.server.storage import moves_table

    with pytest.raises(sa.exc.IntegrityError), storage.engine.begin() as conn:
        conn.execute(moves_table.insert().values(game_id="g1", ply=0, text="b1", player=0, at=0.0))
    storage.close()


def test_lists_and_unfinished(db_url):
    storage = Storage(db_url)
    storage.create_game(new_game("a", "open"))
    storage.create_game(new_game("b", "active"))
    storage.create_game(new_game("c", "over"))
    private = new_game("d", "open")
    private.public = False
    storage.create_game(private)
    assert sorted(storage.unfinished_ids()) == ["a", "b", "d"]
    assert [g.id for g in storage.list_games(status="open", public_only=True)] == ["a"]
    assert {g.id for g in storage.list_games()} == {"a", "b", "c", "d"}
    assert len(storage.list_games(limit=2)) == 2
    storage.close()


def test_server_resumes_games_from_the_database(db_url):
    """Play half a game through the app, drop the app, start a new one on the same database."""
    from fastapi.testclient import TestClient

    from qipan.server import create_app

    with TestClient(create_app(db_url)) as client:
        gid, (ann, bob) = two_humans(client)
        for ply, (t, m) in enumerate([(ann, "a1"), (bob, "a2"), (ann, "b1")]):
            assert (
                client.post(
                    f"/api/games/{gid}/move", json={"move": m, "ply": ply}, headers=bearer(t)
                ).status_code
                == 200
            )
    with TestClient(create_app(db_url)) as client:
        s = client.get(f"/api/games/{gid}").json()
        assert [m["text"] for m in s["moves"]] == ["a1", "a2", "b1"] and s["to_move"] == 1
        r = client.post(f"/api/games/{gid}/move", json={"move": "b2", "ply": 2}, headers=bearer(bob))
        assert r.status_code == 409  # stale after the restart too
        client.post(f"/api/games/{gid}/move", json={"move": "b2", "ply": 3}, headers=bearer(bob))
        s = client.post(f"/api/games/{gid}/move", json={"move": "c1", "ply": 4}, headers=bearer(ann)).json()
        assert s["status"] == "over" and s["result"]["winners"] == [0]


def test_urls_are_normalised(tmp_path):
    assert normalise_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalise_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalise_url("postgresql+psycopg://u@h/db") == "postgresql+psycopg://u@h/db"
    path = tmp_path / "x.sqlite3"
    assert normalise_url(str(path)) == f"sqlite:///{path}"


def test_default_database_is_in_the_user_data_dir(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    from qipan.server.storage import default_url

    assert default_url() == f"sqlite:///{tmp_path / 'qipan' / 'qipan.sqlite3'}"


def test_upgrade_from_the_first_schema_keeps_games(db_url):
    from qipan.server.migrate import downgrade, upgrade

    storage = Storage(db_url)
    storage.create_game(new_game("old"))
    storage.append_moves("old", 0, [StoredMove(0, "a1", 0)], "active", None, None)
    downgrade(storage.engine, "0001")
    assert "realtime" not in {c["name"] for c in sa.inspect(storage.engine).get_columns("games")}
    storage.close()
    upgraded = Storage(db_url)  # migrates to head on start
    game = upgraded.get_game("old")
    assert game.realtime is None and [m.text for m in game.moves] == ["a1"] and game.seats == new_game().seats
    upgrade(upgraded.engine)  # idempotent
    upgraded.close()


def test_a_game_that_no_longer_replays_is_reported_not_fatal(sqlite_url):
    """A stored game of a game package that is gone: the server starts and says why."""
    from fastapi.testclient import TestClient

    from qipan.server import create_app

    storage = Storage(sqlite_url)
    gone = new_game("gone")
    gone.game = "no-such-game"
    storage.create_game(gone)
    storage.close()
    with TestClient(create_app(sqlite_url)) as client:
        r = client.get("/api/games/gone")
        assert r.status_code == 500 and "cannot be replayed" in r.json()["error"]
        assert client.get("/api/specs").status_code == 200
        assert client.get("/api/games").json()["games"] == []
