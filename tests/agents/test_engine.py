"""The engine protocol both ways: ``EngineLoop`` (what ``qipan engine`` speaks) answers
the documented commands, and the ``engine`` agent drives a real ``qipan engine`` process
through whole games, with clean errors when the program dies mid-search or hangs."""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

import pytest

import qipan
from qipan.agents import load as load_agent
from qipan.agents.arena import play_game
from qipan.agents.engine import EngineError, allow_programs
from qipan.agents.engine_protocol import EngineLoop, join_moves, split_moves
from qipan.core import QipanError

PYTHON = sys.executable
MISBEHAVING = Path(__file__).with_name("misbehaving_engine.py")


class Recorder:
    def __init__(self):
        self.lines: list[str] = []
        self.event = threading.Condition()

    def __call__(self, line: str) -> None:
        with self.event:
            self.lines.append(line)
            self.event.notify_all()

    def wait_for(self, prefix: str, seconds: float = 30) -> str:
        deadline = time.monotonic() + seconds
        with self.event:
            while True:
                found = [line for line in self.lines if line.startswith(prefix)]
                if found:
                    return found[-1]
                left = deadline - time.monotonic()
                assert left > 0, f"no {prefix!r} in {self.lines}"
                self.event.wait(left)


@pytest.fixture(autouse=True)
def programs_allowed(monkeypatch):
    # The protocol is under test, not the compiled kernels: pure rules here and in the
    # engine processes (they inherit the environment).
    monkeypatch.setenv("QIPAN_KERNELS", "0")
    allow_programs()
    yield
    allow_programs(False)


def test_handshake_lists_the_agent_options():
    out = Recorder()
    loop = EngineLoop("three-mens-morris", out, agent="mcts", version="9")
    loop.handle("qpi")
    assert out.lines[:2] == ["id name qipan 9", "id game three-mens-morris"]
    assert "option name exploration type float default 1.4" in out.lines
    assert out.lines[-1] == "qpiok"
    loop.handle("isready")
    assert out.lines[-1] == "readyok"


def test_go_with_depth_reports_each_depth_and_a_legal_best_move():
    out = Recorder()
    loop = EngineLoop("three-mens-morris", out, agent="alphabeta")
    loop.handle("position start moves a1; b1; a2; c1")
    loop.handle("go depth 3")
    best = out.wait_for("bestmove")
    infos = [line for line in out.lines if line.startswith("info")]
    assert [line.split()[2] for line in infos] == ["1", "2", "3"]
    assert all(" score " in line and " pv " in line for line in infos)
    assert best == "bestmove a3"  # the line is completed at once
    assert infos[-1].split(" score ")[1].split()[0] == "1.0000"


def test_bad_commands_get_an_error_and_change_nothing():
    out = Recorder()
    loop = EngineLoop("pente", out)
    loop.handle("position start moves K10")
    before = loop.state.position()
    for bad in (
        "position start moves K10; K10",
        "newgame board_size=2",
        "go time -1",
        "go depth x",
        "setoption name width value 0",
        "setoption name agent value nosuchagent",
        "frobnicate",
    ):
        out.lines.clear()
        loop.handle(bad)
        assert len(out.lines) == 1 and out.lines[0].startswith("error "), (bad, out.lines)
        assert loop.state.position() == before
    out.lines.clear()
    loop.handle("position start moves K10; K10")
    assert "K10 is occupied" in out.lines[0]


def test_stop_answers_at_once_with_the_best_move_so_far():
    out = Recorder()
    loop = EngineLoop("pente", out, agent="mcts")
    loop.handle("position start moves K10")
    loop.handle("go time 30")
    loop.handle("stop")
    best = out.wait_for("bestmove", seconds=2)
    assert qipan.load("pente").new().play_many(["K10"]).play(best.split(" ", 1)[1])


def test_move_lists_round_trip_moves_with_spaces():
    moves = ["F 12@1,-1r3", "C3 {C3 D4 E5 F6 G7}", "a1-a4xb2"]
    assert split_moves(join_moves(moves)) == moves


def _engine(game: str, agent: str = "alphabeta", **params):
    cmd = f"{PYTHON} -m qipan.cli.main engine {game} --agent {agent}"
    # A loaded CI machine can starve the engine's process for more than the default 10 s;
    # these tests are about the protocol, the timeout tests below set their own.
    params.setdefault("timeout", 60)
    return load_agent("engine", cmd=cmd, **params)


def test_the_engine_agent_plays_whole_games_against_itself():
    game = qipan.load("three-mens-morris-kurna")
    white, black = _engine("three-mens-morris-kurna", depth=2), _engine("three-mens-morris-kurna", depth=1)
    try:
        state = play_game(game, [white, black], seed=1, max_plies=40)
    finally:
        white.close()
        black.close()
    assert state.ply > 4
    again = game.new().play_many([m.text for m in state.history])  # every move was legal
    assert again.position() == state.position()


def test_the_engine_agent_passes_options_seed_and_chance_moves():
    game = qipan.load("tantrix", setup="tournament")
    engine = _engine("tantrix", agent="random")
    try:
        state = play_game(game, [engine, load_agent("random", seed=2)], seed=5, max_plies=30)
    finally:
        engine.close()
    assert any(m.text.startswith("+") for m in state.history)  # draws went through the position


def test_a_crash_mid_search_is_a_clean_error():
    agent = load_agent("engine", cmd=f"{PYTHON} {MISBEHAVING} three-mens-morris crash 2", iterations=50)
    state = qipan.load("three-mens-morris").new()
    state.play(agent.choose(state))  # the first search is fine
    state.play(state.legal_moves()[0])
    agent.iterations, agent.time = None, 30.0  # the second search runs until the process dies
    with pytest.raises(EngineError, match=r"died during the search \(exit status 3\).*segmentation fault"):
        agent.choose(state)
    assert agent.process is None


def test_an_engine_that_hangs_times_out():
    agent = load_agent(
        "engine", cmd=f"{PYTHON} {MISBEHAVING} three-mens-morris hang 1", time=0.2, timeout=0.5
    )
    with pytest.raises(EngineError, match="did not answer within 0.7 s"):
        agent.choose(qipan.load("three-mens-morris").new())
    assert agent.process is None


def test_a_program_that_does_not_exist_is_a_clean_error():
    agent = load_agent("engine", cmd="/nonexistent/engine")
    with pytest.raises(EngineError, match="cannot start"):
        agent.choose(qipan.load("pente").new())


def test_the_engine_reports_its_errors_to_the_agent():
    agent = _engine("pente", agent="alphabeta")  # alpha-beta plays two players, not four
    try:
        with pytest.raises(EngineError, match="the engine says: .*2 players, not 4"):
            agent.choose(qipan.load("pente-4").new())
    finally:
        agent.close()


def test_the_engine_agent_is_off_unless_a_local_front_end_allows_it():
    allow_programs(False)
    with pytest.raises(QipanError, match="local front ends"):
        load_agent("engine", cmd="qipan engine pente")
    spec = qipan.agents.agent_spec("engine")
    assert not spec.default_ai and spec.local_only
    assert "engine" not in {a.name for a in qipan.agents.agents_for(qipan.load("pente"), 2)}
