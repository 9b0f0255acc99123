"""The qipan command on real games."""

import json

from click.testing import CliRunner

from qipan.cli.main import cli


def run(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_perft_nine_mens_morris():
    assert run("perft", "nine-mens-morris", "--depth", "3").output.strip() == "12144"


def test_pente_match_to_21(tmp_path):
    path = tmp_path / "match.json"
    out = run(
        "play", "pente", "--match", "21", "--players", "random,random", "--seed", "1", "--save", str(path)
    ).output
    assert "Match won by player" in out
    data = json.loads(path.read_text())
    assert data["target"] == 21 and len(data["games"]) >= 2
    from qipan.games.pente.match import Match

    again = Match.from_dict(data)  # replays every game and checks the scores
    assert again.over and max(again.side_scores()) >= 21


def test_pente_match_to_an_agreed_target_first_player_by_lot(tmp_path):
    path = tmp_path / "match.json"
    args = ["play", "pente", "--match", "8", "--by-lot", "--players", "random,random", "--seed", "4"]
    out = run(*args, "--save", str(path)).output
    assert "Match won by player" in out
    data = json.loads(path.read_text())
    assert data["target"] == 8 and data["first_player"] in (0, 1)
    res = CliRunner().invoke(cli, ["play", "pente", "--by-lot", "--players", "random,random"])
    assert res.exit_code == 2 and "give --match" in res.output


def test_match_refused_for_other_games():
    res = CliRunner().invoke(cli, ["play", "nine-mens-morris", "--match", "21", "--players", "random,random"])
    assert res.exit_code == 2 and "has no scoring matches" in res.output


def test_play_and_save_a_full_game(tmp_path):
    path = tmp_path / "g.json"
    out = run(
        "play", "six-mens-morris", "--players", "random,random", "--seed", "3", "--save", str(path)
    ).output
    assert "Game over" in out
    out = run("replay", str(path)).output
    assert "result:" in out
