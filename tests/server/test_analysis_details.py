"""The analysis page's details (issue 37, item 6), through its API: a record that ended by
resignation shows its result at its last ply (not "Player 1 to move"); an uploaded Trax game's
winning loop is named for the page to mark; a GnuTrax puzzle file's solutions are read and
checked, not dropped; the seed's Pente notation ``(x,y)`` with ``*`` is read by the upload and
by ``qipan replay``. (The board's marks are the game page's BoardView: tests/e2e.)"""

from __future__ import annotations

import re

from click.testing import CliRunner
from tests.data import DATA

import qipan
from qipan.cli.main import cli
from qipan.games.pente.notation import seed_movetext

TRAX = DATA / "trax"


def sample_lines(outcome: str) -> list[tuple[str, int]]:
    """Games of the GnuTrax sample table with the given expected outcome (R, W, resign-W...)."""
    out = []
    for line in (TRAX / "trax_8x8_gnutrax_sample.tsv").read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        _, record, plies, expected, _ = line.split("\t")
        if expected == outcome:
            out.append((record, int(plies)))
    assert out, outcome
    return out


def upload(client, text: str) -> list[dict]:
    r = client.post("/api/analysis/records", json={"text": text})
    assert r.status_code == 200, r.text
    return r.json()["games"]


def position(client, game: dict, ply: int | None = None, **extra) -> dict:
    moves = game["moves"] if ply is None else game["moves"][:ply]
    body = {"game": game["game"], "options": game["options"], "players": game["players"], "moves": moves}
    r = client.post("/api/analysis/position", json=body | extra)
    assert r.status_code == 200, r.text
    return r.json()


def test_a_resigned_record_shows_its_result_at_its_last_ply(client):
    record, plies = sample_lines("resign-W")[0]
    (game,) = upload(client, record + "\n")
    assert game["result"]["winners"] == [1] and "resignation" in game["result"]["reason"]
    on_the_board = position(client, game)
    assert on_the_board["result"] is None and on_the_board["to_move"] == 0  # the rules do not end it
    shown = position(client, game, result=game["result"])
    assert shown["result"]["winners"] == [1] and "resignation" in shown["result"]["reason"]
    assert shown["legal"] == [] and shown["ply"] == plies
    # A bad result is refused, and the rules' own result always wins over a sent one.
    for bad in ({"winners": [5], "scores": [0, 1], "reason": "x"}, {"reason": "x"}, "1-0"):
        r = client.post(
            "/api/analysis/position", json={"game": "trax-8x8", "moves": game["moves"], "result": bad}
        )
        assert r.status_code == 400, bad
    won, _ = sample_lines("R")[0]
    (finished,) = upload(client, won + "\n")
    draw = {"winners": [], "scores": [0.5, 0.5], "reason": "draw agreed"}
    assert position(client, finished, result=draw)["result"]["winners"] == [1]


def test_an_uploaded_trax_games_winning_loop_is_named_for_the_page(client):
    record, plies = sample_lines("R")[0]
    (game,) = upload(client, record + "\n")
    shown = position(client, game)
    cells = shown["result"]["cells"]
    assert cells, shown["result"]
    named = set(re.findall(r'data-(?:cell|target)="([^"]+)"', shown["svg"]))
    assert set(cells) <= named  # BoardView.markResult finds every one on the picture
    state = qipan.load("trax-8x8").new().play_many(game["moves"])
    assert sorted(cells) == sorted(state.outcome.cells)


def test_a_gnutrax_puzzle_files_solutions_are_read_and_checked(client):
    text = (TRAX / "trax_puzzles_gnutrax_easy.trx").read_text()
    games = upload(client, text)
    written = [line.split(" - ")[1].split() for line in text.splitlines() if " - " in line]
    assert len(games) == len(written) == 5
    for game, solutions in zip(games, written, strict=True):
        assert [s["text"] for s in game["solutions"]] == solutions
        assert all(s["legal"] for s in game["solutions"]), game["solutions"]
    # A solution the position refuses is shown with its reason, not dropped.
    (game,) = upload(client, "@0/ @1\\ - A0/ Z9+\n")
    assert [s["legal"] for s in game["solutions"]] == [True, False]
    assert game["solutions"][1]["error"]


def seed_game() -> tuple[str, list[str]]:
    state = qipan.load("pente").new()
    state.play_many(["(0,0)", "(1,0)", "(0,5)", "(2,0)", "(3,0)", "(5,5)", "(-1,0)"])
    return seed_movetext(state), [m.text for m in state.history]


def test_the_seeds_pente_notation_uploads_and_replays(client, tmp_path):
    text, moves = seed_game()
    assert "(1,0)* (2,0)*" in text
    (game,) = upload(client, text)
    assert game["game"] == "pente" and game["moves"] == moves and "error" not in game
    assert position(client, game)["ply"] == len(moves)
    path = tmp_path / "game.txt"
    path.write_text(text)
    out = CliRunner().invoke(cli, ["replay", str(path), "--quiet"])
    assert out.exit_code == 0 and f"{len(moves)} moves" in out.output, out.output
    # A wrong capture mark is refused with its ply, by both.
    bad = text.replace("(1,0)* (2,0)*", "(1,0)*")
    r = client.post("/api/analysis/records", json={"text": bad})
    assert r.status_code == 400 and "ply 5" in r.json()["error"]
    path.write_text(bad)
    out = CliRunner().invoke(cli, ["replay", str(path), "--quiet"])
    assert out.exit_code != 0 and "ply 5" in out.stderr


def test_only_the_seeds_form_is_read_as_the_seeds_notation():
    from qipan.games.pente.records import sniff_seed

    text, _ = seed_game()
    assert sniff_seed(text) and sniff_seed("(0,0) (1,0)")
    for other in ("@0/ @1\\\n", "a1 d2 g1", "1. K10 L10", "(0,0) hello", "", "1. 2."):
        assert not sniff_seed(other), other
