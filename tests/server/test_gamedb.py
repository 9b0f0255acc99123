"""The game database (server/gamedb.py) on SQLite and PostgreSQL: the repository's Pente and
Trax records import through the rules, a record that does not replay is reported with its
ply and stored not at all, duplicates are found, every search filter matches a direct
count, a position search finds every game through the position (exactly, and under the
board's symmetries), the site's finished games enter it, and `qipan db import` works."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import sqlalchemy as sa
from tests.data import DATA

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_helpers import bearer, wait_for  # noqa: E402
from site_helpers import csrf, new_browser, signup, site_client  # noqa: E402

import qipan  # noqa: E402
from qipan.records import Record, read_records, read_records_text  # noqa: E402
from qipan.server.gamedb import (  # noqa: E402
    GameDatabase,
    db_games,
    db_positions,
    position_key,
    position_keys_after,
    symmetric_position_keys,
)
from qipan.server.storage import Storage  # noqa: E402

PENTE = DATA / "pente" / "pente_org_sample.pgn"
TRAX = DATA / "trax" / "trax_8x8_gnutrax_sample.tsv"


@pytest.fixture
def database(db_url):
    storage = Storage(db_url)
    yield GameDatabase(storage.engine)
    storage.close()


def trax_records(n: int = 60) -> list[Record]:
    return read_records(TRAX)[:n]


def rows(database, table) -> int:
    with database.engine.connect() as conn:
        return conn.execute(sa.select(sa.func.count()).select_from(table)).scalar()


def test_the_repository_records_import_and_a_second_import_finds_them_all_stored(database):
    pente = read_records(PENTE)
    trax = trax_records()
    first = database.add(pente + trax)
    refused = [i for i, r in enumerate(pente + trax, start=1) if not _replays(r)]
    assert [r.index for r in first.rejected] == refused and refused  # the sample has bad games
    assert first.added + first.duplicates + len(refused) == len(pente) + len(trax)
    assert rows(database, db_games) == first.added
    # One position row per ply and one for the last position.
    stored = {r.id: r.plies for r in _games(database)}
    assert rows(database, db_positions) == sum(p + 1 for p in stored.values())
    again = database.add(read_records(PENTE) + trax_records())
    assert (again.added, again.duplicates) == (0, len(pente) + len(trax) - len(refused))
    assert rows(database, db_games) == first.added


def _replays(record: Record) -> bool:
    try:
        record.replay()
    except qipan.QipanError:
        return False
    return True


def _games(database):
    with database.engine.connect() as conn:
        return conn.execute(sa.select(db_games.c.id, db_games.c.plies)).all()


def test_a_record_that_does_not_replay_is_reported_with_its_ply_and_not_stored(database):
    good = trax_records(2)
    bad = Record(good[0].game, good[0].options, 2, moves=good[0].moves[:3] + ["Z9+"])
    report = database.add([good[0], bad, good[1]])
    assert report.added == 2
    (rejected,) = report.rejected
    assert rejected.index == 2 and rejected.ply == 4 and "ply 4" in rejected.reason
    assert rows(database, db_games) == 2
    with database.engine.connect() as conn:
        plies = conn.execute(sa.select(sa.func.sum(db_games.c.plies + 1))).scalar()
    assert rows(database, db_positions) == plies  # nothing of the bad record


def test_an_import_replays_each_game_once_and_stores_the_results_a_settled_read_gives(database, monkeypatch):
    """``qipan db import`` reads without replaying (``settle=False``); the database's one
    replay settles each result as the reader would have (the rules' end, resignation or
    time, or the recorded result of a game that does not replay, which is refused)."""
    settled = read_records(PENTE)
    unsettled = read_records(PENTE, settle=False)
    assert all(r.settled for r in settled) and not any(r.settled for r in unsettled if r.result)
    plays = []
    original = qipan.core.game.State.play
    monkeypatch.setattr(qipan.core.game.State, "play", lambda self, m: plays.append(1) or original(self, m))
    report = database.add(unsettled)
    monkeypatch.undo()
    refused = {x.index: x.ply for x in report.rejected}
    replayed = [r for i, r in enumerate(settled, start=1) if i not in refused]
    # Each game's moves are played once (a refused one's up to its bad ply).
    expected = sum(refused.get(i) or len(r.moves) for i, r in enumerate(settled, start=1))
    assert refused and len(plays) == expected
    with database.engine.connect() as conn:
        query = sa.select(db_games.c.moves, db_games.c.result, db_games.c.reason)
        stored = {tuple(m): (result, why) for m, result, why in conn.execute(query)}
    for record in replayed:
        outcome = record.result or record.replay().outcome
        assert stored[tuple(record.moves)] == (
            (outcome.result_text(), outcome.reason) if outcome else ("*", None)
        )
    assert {why for _, why in stored.values()} >= {"resignation or time"}


def test_a_position_search_finds_every_game_through_a_position_played_in_it(database):
    records = [r for r in read_records(PENTE) + trax_records(30) if _replays(r)]
    database.add(records)
    for record in records:
        for ply in (0, len(record.moves) // 2, len(record.moves)):
            keys = position_keys_after(record.game, record.options, record.players, record.moves[:ply], False)
            found = database.search(game=record.game, keys=keys, limit=200)
            expected = sum(1 for r in records if _passes_through(r, record.game, keys[0]))
            assert found["total"] == expected
            assert str(_id(database, record)) in {g["id"] for g in found["games"]} or found["total"] > 200


def _passes_through(record: Record, game: str, key: int) -> bool:
    if record.game != game:
        return False
    state = record.new_state()
    if position_key(state) == key:
        return True
    for move in record.moves:
        state.play(move)
        if position_key(state) == key:
            return True
    return False


def _id(database, record):
    from qipan.server.gamedb import game_digest

    return game_digest(record)


MIRRORS = {"x": lambda x, y: (-x, y), "xy": lambda x, y: (y, x)}


def _mirrored(record: Record, how: str) -> Record:
    game = qipan.load(record.game, **record.options)
    state = record.new_state()
    g = game.geom
    moves = []
    for text in record.moves:
        move = state.play(text)
        i, _ = move.data
        x, y = MIRRORS[how](*g.centred(i))
        moves.append(g.name[g.from_centred(x, y)])
    return Record(record.game, record.options, 2, list(record.names), moves, tags=dict(record.tags))


def test_a_symmetric_search_finds_the_game_turned_or_mirrored_and_an_exact_one_does_not(database):
    original = read_records(PENTE)[3]
    mirrored = _mirrored(original, "x")
    database.add([original, mirrored])
    # The tournament rule keeps every opening symmetric, so the mirrored game replays too.
    state = original.replay(upto=8)
    exact = database.search(keys=[position_key(state)])
    every = database.search(keys=symmetric_position_keys(state))
    assert exact["total"] == 1 and every["total"] == 2
    assert len(symmetric_position_keys(state)) == 8


def test_morris_positions_have_the_boards_symmetries():
    state = qipan.load("nine-mens-morris").new()
    state.play_many([m.text for m in state.legal_moves()[:1]])
    keys = symmetric_position_keys(state)
    # A corner stone: its 16 images fall on the 8 corners of the outer and inner squares.
    assert len(keys) == 8
    assert position_key(state) == keys[0]


def test_search_filters_match_a_direct_count(database):
    records = [r for r in read_records(PENTE) if _replays(r)]
    database.add(records)
    every = [r for r in records]
    name = records[0].names[0]
    with_name = [r for r in every if name.lower() in (n.lower() for n in r.names)]
    assert database.search(player=name)["total"] == len(with_name)
    assert database.search(player=name[:3].upper() + "*")["total"] == sum(
        1 for r in every if any(n.lower().startswith(name[:3].lower()) for n in r.names)
    )
    wins = [r for r in every if r.result and r.result.result_text() == "1-0"]
    assert database.search(result="1-0")["total"] == len(wins)
    long = [r for r in every if len(r.moves) >= 30]
    assert database.search(min_plies=30)["total"] == len(long)
    from qipan.server.gamedb import record_date

    days = sorted(d for r in every if (d := record_date(r)))
    middle = days[len(days) // 2]
    assert database.search(date_from=middle)["total"] == sum(1 for d in days if d >= middle)
    assert database.search(date_to=middle, result="1-0")["total"] == sum(
        1 for r in wins if (d := record_date(r)) and d <= middle
    )


KEY_SCRIPT = """
import sys, qipan
from qipan.server.gamedb import position_key
out = []
for preset in sys.argv[1:]:
    state = qipan.load(preset).new(seed=3)
    import random
    rng = random.Random(5)
    for _ in range(6):
        if state.outcome is not None:
            break
        out.append(position_key(state))
        state.play(state.random_move(rng))
print(out)
"""


def test_position_keys_are_the_same_in_every_process():
    """The keys are stored: they must not depend on a process's string hashing."""
    presets = [s.id for s in qipan.specs() if not s.id.startswith("toy-")]  # the tests' own games
    results = set()
    for seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=seed, QIPAN_KERNELS="0")
        done = subprocess.run(
            [sys.executable, "-c", KEY_SCRIPT, *presets], capture_output=True, text=True, env=env, check=True
        )
        results.add(done.stdout)
    assert len(results) == 1


def test_the_api_searches_by_position_and_refuses_bad_filters(db_url):
    with site_client(db_url) as client:
        records = [r for r in read_records(PENTE) if _replays(r)]
        client.app.state.gamedb.add(records)
        record = records[5]
        position = {"game": record.game, "options": record.options, "moves": record.moves[:6]}
        found = client.post("/api/db/search", json={"position": position}).json()
        assert str(_id(None, record)) in {g["id"] for g in found["games"]}
        one = client.get(f"/api/db/games/{found['games'][0]['id']}").json()
        assert one["moves"][:6] == record.moves[:6]
        for body, words in (
            ({"date_from": "yesterday"}, "date_from"),
            ({"limit": 0}, "limit"),
            ({"game": "no-such-game"}, "no-such-game"),
            ({"position": {"game": "pente", "moves": ["K10", "Z99"]}}, "Z99"),
            ({"position": "K10"}, "position must be"),
        ):
            r = client.post("/api/db/search", json=body)
            assert r.status_code == 400 and words in r.json()["error"], (body, r.text)
        assert client.get("/api/db/games/123").status_code == 404
        assert client.get("/api/db/stats").json()["total"] == len(records) - _duplicates(records)


def _duplicates(records):
    from qipan.server.gamedb import game_digest

    return len(records) - len({game_digest(r) for r in records})


def test_only_operators_import_through_the_site(db_url, monkeypatch):
    monkeypatch.setenv("QIPAN_OPERATORS", "ops")
    with site_client(db_url) as client:
        text = PENTE.read_text()
        visitor = new_browser(client)
        token = signup(visitor, "visitor")
        assert visitor.post("/api/db/import", json={"text": text}, headers=csrf(token)).status_code == 403
        ops = new_browser(client)
        token = signup(ops, "ops")
        r = ops.post("/api/db/import", json={"text": text}, headers=csrf(token))
        assert r.status_code == 200, r.text
        answer = r.json()
        refused = [i for i, r in enumerate(read_records(PENTE), start=1) if not _replays(r)]
        assert answer["added"] + answer["duplicates"] + len(refused) == 20
        assert [r["game"] for r in answer["rejected"]] == refused
        bad = ops.post("/api/db/import", json={"text": "not a record"}, headers=csrf(token))
        assert bad.status_code == 400


def test_a_game_finished_on_the_site_enters_the_database(db_url):
    with site_client(db_url) as client:
        created = client.post(
            "/api/games",
            json={
                "game": "toy-ttt",
                "seats": [{"kind": "human", "join": True}, {"kind": "human", "join": True}],
            },
        ).json()
        tokens = {s["seat"]: s["token"] for s in created["seats"]}
        for ply, move in enumerate(["a1", "a2", "b1", "b2", "c1"]):
            seat = client.get(f"/api/games/{created['id']}").json()["to_move"]
            r = client.post(
                f"/api/games/{created['id']}/move",
                json={"move": move, "ply": ply},
                headers=bearer(tokens[seat]),
            )
            assert r.status_code == 200, r.text
        db = client.app.state.gamedb
        wait_for(lambda: db.search(source="site")["total"] == 1)
        (game,) = db.search(source="site")["games"]
        assert game["site_game"] == created["id"] and game["plies"] == 5 and game["result"] == "1-0"


def test_qipan_db_import_reports_skipped_games_and_duplicates(tmp_path):
    from click.testing import CliRunner

    from qipan.cli.main import cli

    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    good = trax_records(3)
    lines = [" ".join(r.moves) for r in good] + [" ".join(good[0].moves[:3] + ["Z9+"])]
    path = tmp_path / "games.trx"
    path.write_text("\n".join(lines) + "\n")
    runner = CliRunner()
    first = runner.invoke(cli, ["db", "import", str(path), "--db", url])
    assert first.exit_code == 1, first.output
    said = " ".join(first.output.split())  # the console wraps long lines
    assert "3 added" in said and "game 4 skipped: ply 4" in said
    second = runner.invoke(cli, ["db", "import", str(PENTE), "--db", url])
    assert "20 games" in " ".join(second.output.split())
    third = runner.invoke(cli, ["db", "import", str(PENTE), "--db", url])
    assert "0 added" in " ".join(third.output.split())
    found = runner.invoke(cli, ["db", "search", "--db", url, "--game", "pente", "--moves", "K10", "--json"])
    assert found.exit_code == 0, found.output


def test_read_records_text_and_files_agree():
    assert len(read_records_text(PENTE.read_text())) == len(read_records(PENTE)) == 20


def _direct_explorer(records, key):
    """The explorer's table for ``key``, counted by replaying every record."""
    table: dict[str, dict] = {}
    for record in records:
        state = record.new_state()
        outcome = record.replay().outcome or record.result
        for move in record.moves:
            if position_key(state) == key:
                mover = state.to_move
                row = table.setdefault(move, {"games": 0, "wins": 0, "draws": 0, "losses": 0, "ratings": []})
                row["games"] += 1
                if outcome is not None:
                    if not outcome.winners:
                        row["draws"] += 1
                    elif outcome.winners == (mover,):
                        row["wins"] += 1
                    else:
                        row["losses"] += 1
                rating = record.tags.get(f"Player {mover + 1} Rating")
                if rating:
                    row["ratings"].append(float(rating))
            state.play(move)
    return {
        m: {
            "games": r["games"],
            "wins": r["wins"],
            "draws": r["draws"],
            "losses": r["losses"],
            "rating": round(sum(r["ratings"]) / len(r["ratings"])) if r["ratings"] else None,
        }
        for m, r in table.items()
    }


def test_the_explorer_counts_match_a_direct_count(database):
    from qipan.server.explorer import explore

    records = [r for r in read_records(DATA / "pente" / "pente_org_games.pgn")[:300] if _replays(r)]
    database.add(records)
    for moves in ([], ["K10"], ["K10", "L9"], records[7].moves[:4]):
        game = "pente-tournament" if moves else "pente"
        key = position_keys_after("pente", records[7].options, 2, moves, False)[0]
        shown = {row.pop("move"): row for row in explore(database.engine, key)}
        assert shown == _direct_explorer(records, key), moves
        assert shown, game
    # The rated site games are counted apart: none yet, then the one stored.
    start = position_keys_after("pente", records[0].options, 2, [], False)[0]
    assert explore(database.engine, start, rated_site_only=True) == []
    site = Record("pente", records[0].options, 2, ["ann", "bob"], records[0].moves[:9])
    assert database.add_site_game(site, "g1", True, {0: 1612.0, 1: 1500.0})
    (row,) = explore(database.engine, start, rated_site_only=True)
    assert (row["move"], row["games"], row["rating"]) == (records[0].moves[0], 1, 1612)
    assert not database.add_site_game(site, "g1", True, {})  # once


def test_the_explorer_api_answers_for_two_player_games_only(client):
    client.app.state.gamedb.add(read_records(PENTE)[:3])
    answer = client.post("/api/explorer", json={"game": "pente-tournament", "moves": []}).json()
    assert answer["to_move"] == 0 and "database" in answer and "rated" in answer
    r = client.post("/api/explorer", json={"game": "pente-4", "moves": []})
    assert r.status_code == 400 and "two-player" in r.json()["error"]
