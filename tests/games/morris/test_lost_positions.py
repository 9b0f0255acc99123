"""``benchmarks/morris_lost_positions.py``: the proof of positions of the games lost to the
independent engine, of the position or of each move in it."""

from __future__ import annotations

import json
import sys

import pytest
from tests.benchmark_scripts import load_script

from qipan.fast import enabled

pytestmark = pytest.mark.skipif(not enabled(), reason="the compiled kernels are off")


@pytest.fixture(scope="module")
def script():
    return load_script("morris_lost_positions")


def run(script, monkeypatch, *args):
    monkeypatch.setattr(sys, "argv", ["morris_lost_positions.py", *args])
    script.main()


def test_the_last_plies_of_a_lost_game_are_proved_lost(script, monkeypatch, tmp_path, capsys):
    # Game 11 ends at ply 41 with Black shut in: before ply 37 Black (to move) is lost in 4.
    out = tmp_path / "position.json"
    run(script, monkeypatch, "11:37", "--position", "--horizon", "5", "--out", str(out))
    record = json.loads(out.read_text())
    assert record["rows"][0] | {"cpu_s": 0} == {
        "move": "(the position)", "value": "loss", "plies": 4, "horizon": 5, "cpu_s": 0
    }  # fmt: skip
    # Each move of a position: before ply 39 Black's only slide lets White shut it in at once.
    run(script, monkeypatch, "11:39", "--horizon", "3")
    assert "d3-c3            the opponent: win in 1" in capsys.readouterr().out
    # Within too short a horizon nothing is forced.
    run(script, monkeypatch, "11:37", "--position", "--horizon", "3")
    assert "no forced result within 3 plies" in capsys.readouterr().out


@pytest.mark.parametrize(
    "args, said",
    [
        (["12:3"], "no game 12"),
        (["11:99"], "game 11 has 41 plies"),
        (["11"], "is not GAME:PLY"),
        (["11:x"], "is not GAME:PLY"),
        (["11:3", "--then", "zz"], "is not Morris notation"),
        (["11:3", "--then", "b4"], "b4 is occupied"),
    ],
)
def test_bad_input_gets_a_clear_error_and_writes_nothing(script, monkeypatch, tmp_path, capsys, args, said):
    out = tmp_path / "never.json"
    with pytest.raises(SystemExit) as stop:
        run(script, monkeypatch, *args, "--out", str(out))
    assert stop.value.code == 2 and said in capsys.readouterr().err
    assert not out.exists()
