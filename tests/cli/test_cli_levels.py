"""``qipan play --level N`` and ``qipan arena --levels``."""

import json

import pytest
from click.testing import CliRunner

from qipan.agents import LevelAgent, clock
from qipan.cli.main import cli
from qipan.cli.players import parse_players


@pytest.fixture(autouse=True)
def reference_rules(monkeypatch):
    monkeypatch.setenv("QIPAN_KERNELS", "0")


def test_level_makes_the_ai_seats_that_level():
    import qipan

    game = qipan.load("three-mens-morris")
    seats = parse_players(None, game, None, 0.05, 1, level=3)
    assert seats[0] is None and isinstance(seats[1], LevelAgent) and seats[1].level.number == 3
    assert seats[1].time == 0.05  # --time is the full level's time
    # Named agents keep their names; an explicit level in the seat wins.
    seats = parse_players("level:level=2,mcts:iterations=5", game, None, 0.05, 1, level=7)
    assert seats[0].level.number == 2 and seats[1].name == "mcts"


def test_play_against_a_level_to_the_end():
    res = CliRunner().invoke(
        cli,
        ["play", "three-mens-morris", "--players", "ai,ai", "--level", "2", "--time", "0.05", "--seed", "3"],
        catch_exceptions=False,
    )
    assert res.exit_code == 0 and "Game over" in res.output, res.output


def test_a_bad_level_is_refused_in_one_line():
    res = CliRunner().invoke(cli, ["play", "three-mens-morris", "--level", "9"])
    assert res.exit_code == 2 and "9" in res.output


def test_arena_levels_rates_each_level(tmp_path, monkeypatch):
    monkeypatch.setenv("QIPAN_AGENT_CLOCK", "wall")
    out = tmp_path / "ladder.json"
    try:
        res = CliRunner().invoke(
            cli,
            [
                "arena",
                "three-mens-morris",
                "--levels",
                "1,8",
                "--level-time",
                "0.02",
                "--cpu-clock",
                "--rounds",
                "1",
                "--json",
                str(out),
            ],
            catch_exceptions=False,
        )
    finally:
        clock.use_cpu_clock(False)
    assert res.exit_code == 0, res.output
    data = json.loads(out.read_text())
    assert data["entrants"] == ["level:level=1,time=0.02", "level:level=8,time=0.02"]
    assert len(data["games"]) == 2 and len(data["ratings"]) == 2


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--levels", "1"], "at least two levels"),
        (["--levels", "0-3"], "1 to 8"),
        ([], "at least two entrants"),
    ],
)
def test_arena_refuses_bad_levels(args, words):
    res = CliRunner().invoke(cli, ["arena", "three-mens-morris", *args])
    assert res.exit_code == 2 and words in res.output, res.output
