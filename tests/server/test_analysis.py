"""The analysis API (server/analysis.py): uploaded records in every family's format replay
to their result, bad files and bad positions get a 400 that says why, a position shows its
board and legal moves, and the engine answers with a legal best line within its limits."""

from __future__ import annotations

import json
import random

import pytest
from tests.data import DATA

import qipan
from qipan.records import Record

TRAX = DATA / "trax"


def sample_trax_line(outcome: str = "R") -> tuple[str, int]:
    """A real 8x8 game (GnuTrax) from the sample table that ``outcome`` wins at its last ply."""
    for line in (TRAX / "trax_8x8_gnutrax_sample.tsv").read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        _, record, plies, expected, _ = line.split("\t")
        if expected == outcome:
            return record, int(plies)
    raise AssertionError(f"no sample game won by {outcome}")


def test_an_uploaded_trx_game_replays_to_its_result(client):
    record, plies = sample_trax_line("R")
    r = client.post("/api/analysis/records", json={"text": record + "\n"})
    assert r.status_code == 200, r.text
    (game,) = r.json()["games"]
    assert game["game"] == "trax-8x8" and len(game["moves"]) == plies and "error" not in game
    # The last position is the rules' end of the game: Red (the second player) has won.
    shown = client.post("/api/analysis/position", json={"game": game["game"], "moves": game["moves"]}).json()
    assert shown["result"]["winners"] == [1] and shown["legal"] == []
    assert shown["svg"].startswith("<svg") and shown["ply"] == plies


def test_a_file_of_several_games_lists_each_with_bad_ones_marked(client):
    good, _ = sample_trax_line("R")
    tokens = good.split()
    bad = " ".join(tokens[:3] + ["Z9+"])
    games = client.post("/api/analysis/records", json={"text": f"{good}\n{bad}\n"}).json()["games"]
    assert [("error" in g) for g in games] == [False, True]
    assert "ply 4" in games[1]["error"]


@pytest.mark.parametrize(
    "text, words",
    [
        ("this is not a game record at all", "no record qipan can read"),
        ("@0/ @1\\ Z9+\n", "does not replay"),
        (json.dumps({"format": "qipan-record/1", "game": "no-such-game", "moves": []}), "no-such-game"),
        ("", "send the file's content"),
    ],
)
def test_a_bad_upload_is_refused_with_its_reason(client, text, words):
    r = client.post("/api/analysis/records", json={"text": text})
    assert r.status_code == 400
    assert words in r.json()["error"]


def test_pente_org_pgn_and_qipan_records_load(client):
    pgn = (DATA / "pente" / "pente_org_sample.pgn").read_text()
    games = client.post("/api/analysis/records", json={"text": pgn}).json()["games"]
    assert games and all(g["game"].startswith("pente") for g in games)
    assert any("error" not in g and g["result_text"] for g in games)
    state = qipan.load("nine-mens-morris").new(seed=1)
    for move in ["a1", "d2", "g1"]:
        state.play(move)
    text = Record.from_state(state).to_json()
    (game,) = client.post("/api/analysis/records", json={"text": text}).json()["games"]
    assert game["moves"] == ["a1", "d2", "g1"] and game["game"] == "nine-mens-morris"


def test_a_tantrix_turn_log_replays_with_its_draws(client):
    state = qipan.load("tantrix").new(seed=4)
    rng = random.Random(4)
    while state.ply < 30:
        state.play(state.random_move(rng))
    fmt = next(f for f in qipan.records.formats() if f.name.startswith("tantrix"))
    text = fmt.write([Record.from_state(state)])
    (game,) = client.post("/api/analysis/records", json={"text": text}).json()["games"]
    # The log lists the first hands sorted, so the draws may come in another order.
    assert len(game["moves"]) == state.ply and "error" not in game
    shown = client.post(
        "/api/analysis/position", json={"game": "tantrix", "players": 2, "moves": game["moves"]}
    ).json()
    assert shown["position"] == state.position()


def test_a_position_shows_the_legal_moves_and_refuses_an_illegal_one(client):
    r = client.post("/api/analysis/position", json={"game": "nine-mens-morris", "moves": ["a1"]})
    body = r.json()
    assert body["ply"] == 1 and body["to_move"] == 1
    assert {m["text"] for m in body["legal"]} == {
        m.text for m in qipan.load("nine-mens-morris").new().play_many(["a1"]).legal_moves()
    }
    r = client.post("/api/analysis/position", json={"game": "nine-mens-morris", "moves": ["a1", "a1"]})
    assert r.status_code == 400 and "ply 2" in r.json()["error"]
    for body in (
        {"game": "nine-mens-morris", "moves": "a1"},
        {"moves": []},
        {"game": "pente", "players": "2"},
    ):
        r = client.post("/api/analysis/position", json=body)
        assert r.status_code == 400, body


def test_the_engine_gives_a_legal_best_line_and_an_evaluation(client):
    state = qipan.load("modx").new(seed=2)
    rng = random.Random(2)
    while state.ply < 9:  # the five setup jokers, then placements
        state.play(rng.choice(state.legal_moves()))
    moves = [m.text for m in state.history]
    r = client.post(
        "/api/analysis/evaluate", json={"game": "modx", "moves": moves, "seconds": 0.3, "line": 3}
    )
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["agent"] == qipan.agents.strongest_agent_name(qipan.load("modx"), 2)
    for step in body["line"]:  # every move of the line is legal in turn
        state.play(step["text"])
    assert len(body["line"]) == 3 and body["best"] == body["line"][0]["text"]
    assert -1 <= body["evaluation"] <= 1 and body["perfect"] is None


def test_the_engine_limits_are_enforced(client):
    for extra in ({"seconds": 60}, {"seconds": 0}, {"line": 99}, {"seconds": "1"}):
        r = client.post("/api/analysis/evaluate", json={"game": "nine-mens-morris", "moves": [], **extra})
        assert r.status_code == 400, extra


def test_a_black_path_position_gets_its_exact_value(client):
    r = client.post(
        "/api/analysis/evaluate",
        json={"game": "blackpath", "options": {"rows": 3, "cols": 3}, "moves": [], "seconds": 0.5, "line": 2},
    )
    assert r.status_code == 200, r.text
    perfect = r.json()["perfect"]
    from qipan.games.blackpath.solver import solve

    winner, _ = solve(3, 3)
    assert perfect["value"] == ("win" if winner == 0 else "loss")


def test_morris_reports_why_tables_cannot_answer(client, tmp_path, monkeypatch):
    monkeypatch.setenv("QIPAN_TABLES", str(tmp_path))  # an empty table directory
    r = client.post(
        "/api/analysis/evaluate", json={"game": "nine-mens-morris", "moves": [], "seconds": 0.1, "line": 1}
    )
    perfect = r.json()["perfect"]
    assert "no perfect-play tables" in perfect["error"] and str(tmp_path) not in perfect["error"]


def test_the_page_is_served(client):
    r = client.get("/analysis")
    assert r.status_code == 200 and "analysis.js" in r.text


def test_morris_positions_get_their_value_from_built_tables(client, tmp_path, monkeypatch):
    monkeypatch.setenv("QIPAN_TABLES", str(tmp_path))
    from qipan.games.morris.perfect import PerfectTables

    game = qipan.load("three-mens-morris")
    tables = PerfectTables(game)
    tables.build()
    state = game.new()
    for move in ["b2", "a1"]:
        state.play(move)
    r = client.post(
        "/api/analysis/evaluate",
        json={"game": "three-mens-morris", "moves": ["b2", "a1"], "seconds": 0.1, "line": 1},
    )
    perfect = r.json()["perfect"]
    assert (perfect["value"], perfect["plies"]) == tables.value(state)
    assert set(perfect["best"]) == {m.text for m in tables.best_moves(state)}


def test_a_busy_engine_refuses_rather_than_queueing_without_end(client, monkeypatch):
    from qipan.server import analysis

    monkeypatch.setattr(analysis, "MAX_WAITING", 0)  # as if the queue were full
    r = client.post("/api/analysis/evaluate", json={"game": "modx", "moves": [], "seconds": 0.1, "line": 1})
    assert r.status_code == 429 and "busy" in r.json()["error"]


@pytest.mark.parametrize(
    "result, status", [({"winners": [0]}, 200), ({"scores": [1]}, 400), ("won", 400), ([0], 400)]
)
def test_a_pipemania_level_record_reads_its_result_as_every_record_does(client, result, status):
    # The pipemania-level reader took its result unchecked: a 500 (KeyError, TypeError).
    # Now the core records' checks: scores may be left out, winners may not.
    from qipan.core.formats import formats

    state = qipan.load("pipemania").new(seed=3)
    rng = random.Random(3)
    for _ in range(6):
        if state.outcome is not None:
            break
        if state.to_move == qipan.CHANCE:
            qipan.resolve_chance(state, rng)
        else:
            state.play(rng.choice(state.legal_moves()))
    (fmt,) = [f for f in formats() if f.name == "pipemania-level/1"]
    data = json.loads(fmt.write([Record.from_state(state)]))
    text = json.dumps(data | {"result": result})
    r = client.post("/api/analysis/records", json={"text": text})
    assert r.status_code == status, r.text
    if status == 400:
        assert "malformed result" in r.json()["error"]
