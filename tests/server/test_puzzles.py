"""Puzzles (core/puzzles.py, server/puzzles.py): generated from the game database with the
games' own searches, every solution tree checked through the rules; a tree the rules
contradict is refused; the shipped starter set holds; the API judges each move without
giving the solution away and rates a logged-in solver's first try (Glicko-2 both ways)."""

from __future__ import annotations

import copy
import json
import random
import sys
from pathlib import Path

import pytest
from tests.data import DATA

sys.path.insert(0, str(Path(__file__).resolve().parent))
from site_helpers import csrf, new_browser, signup, site_client  # noqa: E402

import qipan  # noqa: E402
from qipan.core.puzzles import PuzzleError, check_solution, main_line, solution_tree  # noqa: E402
from qipan.records import Record, read_records  # noqa: E402
from qipan.server.gamedb import GameDatabase  # noqa: E402
from qipan.server.puzzles import STARTER, Puzzles, check_puzzle, find_puzzle, puzzle_at  # noqa: E402
from qipan.server.storage import Storage  # noqa: E402

TRAX = DATA / "trax" / "trax_8x8_gnutrax_sample.tsv"
PENTE = DATA / "pente" / "pente_org_games.pgn"


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """Fifty puzzles from the repository's GnuTrax games, found by the Trax threat search."""
    storage = Storage(f"sqlite:///{tmp_path_factory.mktemp('puzzles') / 'db.sqlite3'}")
    GameDatabase(storage.engine).add(read_records(TRAX)[:200])
    found = Puzzles(storage.engine).generate_from_db(limit=50, max_moves=2)
    storage.close()
    return found


def test_fifty_generated_puzzles_each_pass_their_solution_tree_check(generated):
    assert len(generated) == 50
    assert len({p["id"] for p in generated}) == 50
    for puzzle in generated:
        assert check_puzzle(puzzle) == puzzle["plies"]
    # Both kinds of Trax win, and wins in one and in two moves.
    assert {p["theme"] for p in generated} == {"loop", "line"}
    assert {p["plies"] for p in generated} == {1, 2}


def _position(puzzle):
    record = Record(puzzle["game"], puzzle["options"], puzzle["players"], moves=puzzle["moves"])
    return record.replay()


def test_a_solution_tree_the_rules_contradict_is_refused(generated):
    deep = next(p for p in generated if p["plies"] == 2)
    state = _position(deep)
    tree = deep["solution"]
    missing = copy.deepcopy(tree)
    missing["replies"].pop(next(iter(missing["replies"])))
    with pytest.raises(PuzzleError, match="missing"):
        check_solution(state, missing)
    not_winning = copy.deepcopy(tree)
    other = next(m.text for m in state.legal_moves() if m.text != tree["move"])
    not_winning["move"] = other
    with pytest.raises(PuzzleError):
        check_solution(state, not_winning)
    illegal = {"move": "Z9+"}
    with pytest.raises(PuzzleError, match="not legal"):
        check_solution(state, illegal)
    stops_early = copy.deepcopy(tree)
    stops_early.pop("replies")
    with pytest.raises(PuzzleError, match="does not end the game"):
        check_solution(state, stops_early)
    # The state is as it was after every refusal.
    assert state.ply == len(deep["moves"]) and check_solution(state, tree) == 2


def test_three_mens_morris_puzzles_come_from_the_solver():
    """A game of random moves on the 3x3 board: the solver finds a win in it, and its tree holds."""
    game = qipan.load("three-mens-morris")
    rng = random.Random(4)
    for _ in range(20):
        state = game.new()
        while state.outcome is None and state.ply < 40:
            state.play(state.random_move(rng))
        record = Record.from_state(state)
        puzzle = find_puzzle(record, max_moves=3, last_plies=40)
        if puzzle is not None:
            break
    assert puzzle is not None and puzzle["theme"] in {"line", "blocked", "mill"}
    assert check_puzzle(puzzle) == puzzle["plies"]


@pytest.fixture(scope="module")
def pente_games():
    return read_records(PENTE)[:500]


def test_pente_puzzles_are_the_wins_the_pente_org_players_missed(pente_games):
    """Game 76, ply 23: Black had a win in two moves by threats (J9) and played N14. The
    threat search proposes, the tree answers every legal defence, and the check holds."""
    record = pente_games[76]
    assert record.moves[23] == "N14"
    puzzle = puzzle_at(record, 23, missed=True)
    assert puzzle is not None and puzzle["solution"]["move"] == "J9"
    assert puzzle["plies"] == 2 and puzzle["theme"] in {"five", "captures"}
    assert puzzle["source"].endswith("(missed)")
    state = _position(puzzle)
    state.play("J9")  # every legal defence is answered, not only those that stop the threat
    assert set(puzzle["solution"]["replies"]) == {m.text for m in state.legal_moves()}
    state.undo()
    assert check_puzzle(puzzle) == 2
    # The tree the rules contradict is refused for Pente too: one defence left out.
    missing = copy.deepcopy(puzzle["solution"])
    missing["replies"].pop(next(iter(missing["replies"])))
    with pytest.raises(PuzzleError, match="missing"):
        check_solution(state, missing)


def test_a_win_the_player_found_is_no_missed_win(pente_games):
    """Game 0, ply 23: White played M10, the win in two itself."""
    record = pente_games[0]
    assert record.moves[23] == "M10"
    assert puzzle_at(record, 23, missed=True) is None
    found = puzzle_at(record, 23)
    assert (
        found is not None and found["solution"]["move"] == "M10" and not found["source"].endswith("(missed)")
    )
    assert check_puzzle(found) == 2
    with pytest.raises(qipan.QipanError, match="outside"):
        puzzle_at(record, len(record.moves))


def test_pente_declares_its_finder_only_where_the_threat_search_is_exact():
    assert qipan.load("pente").puzzle_finder == "qipan.games.pente.puzzles:FINDER"
    assert qipan.load("pente", exact_five=True).capabilities()["puzzles"]
    assert qipan.load("pente", double_tria=True).puzzle_finder is None
    state = qipan.load("pente-4").new(players=4)
    state.play(state.legal_moves()[0])
    assert find_puzzle(Record.from_state(state)) is None


def test_a_game_without_a_puzzle_finder_gives_none():
    state = qipan.load("blackpath").new(seed=1)
    state.play(state.legal_moves()[0])
    assert find_puzzle(Record.from_state(state)) is None


def test_the_shipped_starter_set_holds():
    puzzles = json.loads(STARTER.read_text(encoding="utf-8"))["puzzles"]
    assert len(puzzles) >= 50
    for puzzle in puzzles:
        assert check_puzzle(puzzle) == puzzle["plies"]
    # Every family whose game declares a finder has puzzles in the set.
    finders = {s.family for s in qipan.specs() if qipan.load(s.id).puzzle_finder is not None}
    assert finders >= {"trax", "morris", "pente"}
    assert finders <= {qipan.load(p["game"]).family for p in puzzles}
    pente = [p for p in puzzles if p["game"] == "pente"]
    assert len(pente) >= 30 and all(p["source"].endswith("(missed)") for p in pente)


def _solve(client, puzzle_id, headers, wrong_first=False):
    """Play the puzzle through the API, following the server's defences."""
    info = client.get(f"/api/puzzles/{puzzle_id}").json()
    assert "solution" not in info
    store = client.app.state.puzzles
    tree = store.get(puzzle_id)["solution"]
    line = []
    while True:
        if wrong_first:
            state = _position(store.get(puzzle_id))
            for m in line:
                state.play(m)
            wrong = next(
                m.text for m in state.legal_moves() if m.text != tree["move"] and not _wins(state, m)
            )
            r = client.post(f"/api/puzzles/{puzzle_id}/move", json={"line": [*line, wrong]}, headers=headers)
            return r.json()
        line.append(tree["move"])
        r = client.post(f"/api/puzzles/{puzzle_id}/move", json={"line": line}, headers=headers)
        assert r.status_code == 200, r.text
        verdict = r.json()
        assert verdict["correct"]
        if verdict["done"]:
            return verdict
        line.append(verdict["reply"])
        tree = tree["replies"][verdict["reply"]]


def _wins(state, move):
    state.play(move)
    try:
        return state.outcome is not None
    finally:
        state.undo()


def test_solving_through_the_api_rates_the_first_try_only(db_url, generated):
    with site_client(db_url) as client:
        store = client.app.state.puzzles
        store._starter_checked = True  # this test's puzzles only
        store.add(generated[:6])
        deep = [p["id"] for p in generated[:6] if p["plies"] == 2]
        assert deep, "the first puzzles hold a win in two"
        # A guest solves without a rating.
        guest = _solve(client, deep[0], {})
        assert guest == {"correct": True, "done": True}
        solver = new_browser(client)
        token = signup(solver, "solver")
        solved = _solve(solver, deep[0], csrf(token))
        assert solved["rating"]["after"] > solved["rating"]["before"] == 1500
        puzzle_after = store.get(deep[0])
        assert puzzle_after["attempts"] == 1 and puzzle_after["rating"] < generated[0]["rating"] + 1000
        again = _solve(solver, deep[0], csrf(token))
        assert "rating" in again and again["rating"] is None  # a second try changes nothing
        missed = _solve(
            solver, deep[-1] if len(deep) > 1 else generated[1]["id"], csrf(token), wrong_first=True
        )
        assert missed["correct"] is False and missed["solution"]
        assert missed["rating"]["after"] < missed["rating"]["before"]
        me = solver.get("/api/puzzles/me").json()
        assert me["attempts"] == 2 and me["rating"] == missed["rating"]["after"]
        # Without the CSRF token a logged-in finish is refused, and nothing is rated.
        quick = next(p for p in generated[:6] if p["plies"] == 1)
        r = solver.post(f"/api/puzzles/{quick['id']}/move", json={"line": [quick["solution"]["move"]]})
        assert r.status_code == 403 and "CSRF" in r.json()["error"]
        assert solver.get("/api/puzzles/me").json()["attempts"] == 2


def test_puzzle_requests_that_make_no_sense_are_refused(db_url, generated):
    with site_client(db_url) as client:
        store = client.app.state.puzzles
        store._starter_checked = True
        store.add(generated[:2])
        pid = generated[0]["id"]
        for body, words in (
            ({}, "line must be"),
            ({"line": "A1/"}, "line must be"),
            ({"line": [generated[0]["solution"]["move"], "x"]}, "end with your move"),
            ({"line": ["Z9+"]}, "Z9+"),
        ):
            r = client.post(f"/api/puzzles/{pid}/move", json=body)
            assert r.status_code == 400 and words in r.json()["error"], (body, r.text)
        assert client.get("/api/puzzles/nope").status_code == 404
        assert client.get("/api/puzzles/next", params={"game": "pente"}).status_code == 404
        themes = client.get("/api/puzzles/themes").json()["themes"]
        assert sum(t["puzzles"] for t in themes) == 2
        daily = client.get("/api/puzzles/daily").json()
        assert daily["id"] in {p["id"] for p in generated[:2]}
        assert client.get("/api/puzzles/daily").json()["id"] == daily["id"]  # the same all day
        first = client.get("/api/puzzles/next").json()
        second = client.get("/api/puzzles/next", params={"after": first["id"]}).json()
        assert first["id"] != second["id"]


def test_a_new_site_has_the_starter_set(client):
    themes = client.get("/api/puzzles/themes").json()["themes"]
    shipped = json.loads(STARTER.read_text(encoding="utf-8"))["puzzles"]
    assert sum(t["puzzles"] for t in themes) == len(shipped)


def test_main_line_follows_the_first_defence_that_goes_on(generated):
    deep = next(p for p in generated if p["plies"] == 2)
    line = main_line(deep["solution"])
    assert len(line) == 3 and line[0] == deep["solution"]["move"]
    state = _position(deep)
    for text in line:
        state.play(text)
    assert state.outcome is not None and state.outcome.winners == (deep["solver"],)
    assert solution_tree(_position(deep), 1, lambda s, n: None) is None
