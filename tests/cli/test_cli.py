"""The qipan command on throw-away games (real games have their own CLI tests)."""

import json

import pytest
from click.testing import CliRunner

from qipan.cli.main import cli
from qipan.cli.session import Session

from ..toys import registered


@pytest.fixture
def toys():
    with registered():
        yield


def run(*args, input=None):
    return CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)


def test_games_lists_options(toys):
    out = run("games").output
    assert "toy-dice" in out and "target" in out and "5..100" in out
    data = json.loads(run("games", "--json").output)
    assert any(g["id"] == "toy-dice" and g["options"][0]["name"] == "target" for g in data)


def test_bad_game_and_option_are_clear_errors(toys):
    res = CliRunner().invoke(cli, ["perft", "nope", "--depth", "1"])
    assert res.exit_code == 2 and "unknown game" in res.output
    res = CliRunner().invoke(cli, ["bench", "toy-dice", "-o", "target=3", "--seconds", "0.1"])
    assert res.exit_code == 2 and "5..100" in res.output
    res = CliRunner().invoke(cli, ["perft", "toy-dice", "--depth", "1", "-o", "target"])
    assert res.exit_code == 2 and "key=value" in res.output


def test_perft_counts(toys):
    assert run("perft", "toy-ttt", "--depth", "2").output.strip() == "72"
    assert run("perft", "toy-ttt", "--depth", "3").output.strip() == "504"
    out = run("perft", "toy-ttt", "--depth", "2", "--divide").output
    assert "a1: 8" in out and out.strip().endswith("72")


def test_bench_prints_rate(toys):
    assert "actions/s" in run("bench", "toy-ttt", "--seconds", "0.2").output


def test_play_session_with_commands(toys, tmp_path):
    lines = iter(["help", "moves", "b2", "zz", "undo", "b2", f"save {tmp_path / 'g.json'}", "quit"])
    out = []
    from qipan import load

    s = Session(
        load("toy-ttt"),
        [None, __import__("qipan").agents.load("alphabeta", depth=2)],
        1,
        read=lambda prompt: next(lines),
        write=out.append,
    )
    s.run()
    text = "\n".join(map(str, out))
    assert "a1 a2 a3" in text or "a1" in text
    assert "not a legal move" in text
    assert "took back" in text
    saved = json.loads((tmp_path / "g.json").read_text())
    assert saved["moves"][0] == "b2" and len(saved["moves"]) == 2


def test_play_command_to_the_end(toys, tmp_path):
    res = run("play", "toy-ttt", "--players", "alphabeta:depth=9,alphabeta:depth=9")
    assert "Game over: 1/2-1/2" in res.output


def test_replay_single_and_rejected(toys, tmp_path):
    good = tmp_path / "good.json"
    good.write_text(json.dumps({"game": "toy-ttt", "moves": ["a1", "a2", "b1", "b2", "c1"]}))
    out = run("replay", str(good)).output
    assert "1-0" in out and "three in a row" in out
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"game": "toy-ttt", "moves": ["a1", "a1"]}))
    res = CliRunner().invoke(cli, ["replay", str(bad)])
    assert res.exit_code == 2 and "ply 2" in res.output


def test_players_errors(toys):
    res = CliRunner().invoke(cli, ["play", "toy-ttt", "--players", "human,mcts,random"])
    assert res.exit_code == 2 and "2 players" in res.output
    res = CliRunner().invoke(cli, ["play", "toy-ttt", "--players", "human,gnugo"])
    assert res.exit_code == 2 and "known agents" in res.output


def test_an_agent_that_cannot_play_the_game_is_refused_in_one_line(toys):
    for seats, words in (
        ("human,trax", "does not play Toy tic-tac-toe; agents that do:"),
        ("human,nobody", "unknown agent"),
    ):
        res = CliRunner().invoke(cli, ["play", "toy-ttt", "--players", seats])
        assert res.exit_code == 2 and words in res.output, res.output
        assert len(res.output.strip().splitlines()) == 1 and "Traceback" not in res.output


def test_agent_parameters_are_typed_and_bounded_on_the_command_line(toys):
    res = run("play", "toy-ttt", "--players", "mcts:exploration=0.5,iterations=20,random", "--seed", "1")
    assert res.exit_code == 0 and "Game over" in res.output
    for bad, name in (
        ("mcts:exploration=abc", "exploration"),
        ("mcts:time=nan", "time"),
        ("mcts:speed=1", "speed"),
    ):
        res = CliRunner().invoke(cli, ["play", "toy-ttt", "--players", f"{bad},random"])
        assert res.exit_code == 2 and name in res.output, res.output
