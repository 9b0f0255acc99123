"""Perfect play out of the box (issue 37, item 5): on a fresh server (an empty tables
directory, no command run first) Three Men's Morris gets its exact values from the in-memory
solver and Six Men's Morris from the tables the server builds at start in the background
(the page says "building, about N s" meanwhile); no answer shows a server path or a command;
``morris-perfect`` is offered only where its tables are installed."""

from __future__ import annotations

import json
import time

import pytest
from tests.data import DATA

import qipan

THREE_VALUES = json.loads((DATA / "morris" / "three_mens_morris_values.json").read_text())["results"]
SIX_VALUES = json.loads((DATA / "morris" / "six_mens_morris_values.json").read_text())["results"]
VALUE = {1: "win", 0: "draw", -1: "loss"}


@pytest.fixture
def fresh_server(tmp_path, monkeypatch, sqlite_url):
    from fastapi.testclient import TestClient

    from qipan.server import create_app

    monkeypatch.setenv("QIPAN_TABLES", str(tmp_path / "tables"))  # nothing built
    with TestClient(create_app(sqlite_url, build_tables=True)) as client:
        yield client


def perfect(client, game: str, moves: list[str]) -> dict:
    r = client.post("/api/analysis/evaluate", json={"game": game, "moves": moves, "seconds": 0.1, "line": 1})
    assert r.status_code == 200, r.text
    return r.json()["perfect"]


def assert_nothing_for_the_operator(answer: dict) -> None:
    text = json.dumps(answer)
    assert "qipan " not in text and "/tables" not in text and ".cache" not in text, text


def wait_for_the_tables(client, preset: str) -> dict:
    """Until the server reports the build of ``preset`` finished (through its API)."""
    while True:
        builds = {b["game"]: b for b in client.get("/api/analysis/tables").json()["builds"]}
        build = builds[preset]
        if build["state"] not in ("waiting", "building"):
            return build
        assert isinstance(build["about_seconds"], int) and build["about_seconds"] > 0
        time.sleep(0.5)  # the build's own thread is working; ask again


def test_three_and_six_mens_morris_show_perfect_values_on_a_fresh_server(fresh_server):
    client = fresh_server
    # Three Men's Morris (Kurna): the first player wins, only by taking the centre.
    kurna = THREE_VALUES["kurna_3each_diagonal_board_adjacent_moves"]
    start = perfect(client, "three-mens-morris-kurna", [])
    assert start["value"] == VALUE[kurna["start"]] and start["plies"] > 0
    assert start["best"] == [m for m, v in kurna["first_move"].items() if v == 1]
    for first, value in kurna["first_move"].items():  # after each first move, for the other side
        answer = perfect(client, "three-mens-morris-kurna", [first])
        assert answer["value"] == VALUE[-value], first
        assert_nothing_for_the_operator(answer)
    simple = perfect(client, "three-mens-morris", ["b2"])
    assert (
        simple["value"] == VALUE[THREE_VALUES["simple_4each_placement_only_no_diagonals"]["first_move"]["b2"]]
    )

    # morris-perfect is not offered where it would build tables inside a game.
    agents = {g["id"]: g["agents"] for g in client.get("/api/specs").json()["games"]}
    assert "morris-perfect" not in agents["nine-mens-morris"]  # endgame tables: an operator's job
    seats = [{"kind": "human"}, {"kind": "bot", "agent": "morris-perfect"}]
    r = client.post("/api/games", json={"game": "nine-mens-morris", "seats": seats})
    assert r.status_code == 400 and "morris-perfect" in r.json()["error"]
    assert_nothing_for_the_operator(r.json())

    # Six Men's Morris: building at start, or built already; never a path or a command.
    early = perfect(client, "six-mens-morris", [])
    assert_nothing_for_the_operator(early)
    assert early.get("building") or early.get("value") == "draw", early
    if early.get("building"):
        assert isinstance(early["about_seconds"], int) and early["about_seconds"] > 0
    assert wait_for_the_tables(client, "six-mens-morris")["state"] == "ready"
    seed_default = SIX_VALUES["flying_at_3__mill_protection_with_fallback (seed default)"]
    start = perfect(client, "six-mens-morris", [])
    assert start["value"] == seed_default["start"] and start["plies"] is None
    assert len(start["best"]) == 16  # all_16_first_moves: draw
    assert_nothing_for_the_operator(start)
    agents = {g["id"]: g["agents"] for g in client.get("/api/specs").json()["games"]}
    assert "morris-perfect" in agents["six-mens-morris"]  # its tables are there now


def test_a_server_without_table_builds_says_the_tables_are_missing_in_plain_words(
    client, tmp_path, monkeypatch
):
    monkeypatch.setenv("QIPAN_TABLES", str(tmp_path))
    answer = perfect(client, "six-mens-morris", ["a1"])
    assert "no perfect-play tables" in answer["error"]
    assert_nothing_for_the_operator(answer)
    assert client.get("/api/analysis/tables").json() == {"builds": []}


def test_the_three_mens_probe_that_docs_suggested_now_explains_the_hands():
    game = qipan.load("three-mens-morris")
    with pytest.raises(qipan.core.errors.NotationError, match="hands:4,4"):
        game.position("W: B: hands:3,3 to:W")
    assert game.position("W: B: hands:4,4 to:W").legal_moves()
