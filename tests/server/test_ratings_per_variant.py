"""Ratings per variant (preset) and time class: migration 0009b turns each family rating
into the rating of every variant of that family the player played, and new games move
only their own variant's rating."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest
import sqlalchemy as sa

sys.path.insert(0, str(Path(__file__).resolve().parent))

from qipan.server.migrate import downgrade, upgrade  # noqa: E402


def _rows(engine, sql):
    with engine.connect() as conn:
        return [tuple(r) for r in conn.execute(sa.text(sql))]


@pytest.fixture
def engine(db_url):
    engine = sa.create_engine(db_url)
    yield engine
    engine.dispose()


def test_the_migration_seeds_each_variant_played_with_the_family_rating(engine):
    upgrade(engine, "0009")  # the schema before ratings per variant
    now = time.time()
    with engine.begin() as conn:
        for i, name in ((1, "ann"), (2, "bob"), (3, "cid")):
            conn.execute(
                sa.text("insert into accounts (id, username, username_key, password_hash, created) values (:i, :n, :n, 'x', 0)"),
                {"i": i, "n": name},
            )  # fmt: skip
        games = [  # id, preset, family, time class, rated, applied
            ("g1", "nine-mens-morris", "morris", "blitz", True, now),
            ("g2", "zhiqi", "morris", "blitz", True, now),
            ("g3", "nine-mens-morris", "morris", "rapid", True, now),
            ("g4", "three-mens-morris", "morris", "blitz", False, None),  # casual: not rated
            ("g5", "trax", "trax", "blitz", True, now),
        ]
        for gid, preset, family, klass, rated, applied in games:
            conn.execute(
                sa.text("insert into games (id, game, options, players, seed, status, public, seats, created, updated, version)"
                        " values (:id, :g, '{}', 2, 1, 'over', true, '[]', 0, 0, 1)"),
                {"id": gid, "g": preset},
            )  # fmt: skip
            conn.execute(
                sa.text("insert into site_games (game_id, family, time_class, rated, days, rating_applied)"
                        " values (:id, :f, :c, :r, null, :a)"),
                {"id": gid, "f": family, "c": klass, "r": rated, "a": applied},
            )  # fmt: skip
            for seat, account in ((0, 1), (1, 2)):
                conn.execute(
                    sa.text("insert into game_accounts (game_id, seat, account_id) values (:g, :s, :a)"),
                    {"g": gid, "s": seat, "a": account},
                )
        old = [  # account, family, class, rating, rd, volatility, games
            (1, "morris", "blitz", 1612.5, 80.0, 0.059, 2),
            (2, "morris", "blitz", 1387.5, 81.0, 0.061, 2),
            (1, "morris", "rapid", 1550.0, 200.0, 0.06, 1),
            (2, "morris", "rapid", 1450.0, 200.0, 0.06, 1),
            (1, "trax", "blitz", 1662.3, 290.0, 0.06, 1),
            (2, "trax", "blitz", 1337.7, 290.0, 0.06, 1),
        ]
        for a, f, c, r, rd, v, n in old:
            conn.execute(
                sa.text("insert into ratings (account_id, family, time_class, rating, rd, volatility, games, updated)"
                        " values (:a, :f, :c, :r, :rd, :v, :n, :u)"),
                {"a": a, "f": f, "c": c, "r": r, "rd": rd, "v": v, "n": n, "u": now},
            )  # fmt: skip
        conn.execute(
            sa.text("insert into rating_history (account_id, family, time_class, game_id, rating, rd, at)"
                    " values (1, 'morris', 'blitz', 'g2', 1612.5, 80.0, :u)"),
            {"u": now},
        )  # fmt: skip
    upgrade(engine)
    got = _rows(engine, "select account_id, variant, time_class, family, rating, rd, volatility, games from ratings"
                        " order by account_id, variant, time_class")  # fmt: skip
    assert got == [
        (1, "nine-mens-morris", "blitz", "morris", 1612.5, 80.0, 0.059, 1),
        (1, "nine-mens-morris", "rapid", "morris", 1550.0, 200.0, 0.06, 1),
        (1, "trax", "blitz", "trax", 1662.3, 290.0, 0.06, 1),
        (1, "zhiqi", "blitz", "morris", 1612.5, 80.0, 0.059, 1),
        (2, "nine-mens-morris", "blitz", "morris", 1387.5, 81.0, 0.061, 1),
        (2, "nine-mens-morris", "rapid", "morris", 1450.0, 200.0, 0.06, 1),
        (2, "trax", "blitz", "trax", 1337.7, 290.0, 0.06, 1),
        (2, "zhiqi", "blitz", "morris", 1387.5, 81.0, 0.061, 1),
    ]  # three-mens-morris was only played casual: no rating; cid played nothing
    assert _rows(engine, "select variant from site_games order by game_id") == [
        ("nine-mens-morris",), ("zhiqi",), ("nine-mens-morris",), ("three-mens-morris",), ("trax",)
    ]  # fmt: skip
    assert _rows(engine, "select variant from rating_history") == [("zhiqi",)]
    # And back: one rating per family again.
    downgrade(engine, "0009")
    assert len(_rows(engine, "select * from ratings where family = 'morris'")) == 4
    upgrade(engine)


def test_a_rated_game_moves_only_its_own_variant(db_url):
    from server_helpers import bearer, wait_for
    from site_helpers import paired, site_client

    with site_client(db_url) as site:
        game_id, tokens, names = paired(site)
        for ply, move in enumerate(("a1", "b2")):  # before each side moved, a game is aborted
            site.post(
                f"/api/games/{game_id}/move", json={"move": move, "ply": ply}, headers=bearer(tokens[ply])
            )
        loser = next(seat for seat, name in names.items() if name == "bob")
        site.post(f"/api/games/{game_id}/resign", headers=bearer(tokens[loser]))
        rated = lambda name: site.get(f"/api/users/{name}").json()["ratings"]  # noqa: E731
        wait_for(lambda: rated("ann"))
        assert [(r["variant"], r["family"], r["time_class"], r["games"]) for r in rated("ann")] == [
            ("toy-ttt", "toy", "blitz", 1)
        ]
        assert site.get("/api/users/ann").json()["history"][0]["variant"] == "toy-ttt"
        board = site.get("/api/leaderboard?family=toy&time_class=blitz").json()["players"]
        assert [(p["username"], p["variant"]) for p in board] == [("ann", "toy-ttt"), ("bob", "toy-ttt")]
        assert site.get("/api/leaderboard?variant=toy-ttt").json()["players"][0]["username"] == "ann"
        assert site.get("/api/leaderboard?variant=nope").status_code == 400
