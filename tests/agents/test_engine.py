"""The engine protocol both ways: ``EngineLoop`` (what ``qipan engine`` speaks) answers
the documented commands, and the ``engine`` agent drives a real ``qipan engine`` process
through whole games, with clean errors when the program dies mid-search or hangs."""

from __future__ import annotations

import os
import random
import subprocess
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


def test_the_queries_answer_what_a_client_needs_to_follow_a_game():
    out = Recorder()
    loop = EngineLoop("three-mens-morris", out)
    loop.handle("legal")
    assert out.lines[-1].startswith("legal a1; ") and len(split_moves(out.lines[-1][6:])) == 9
    loop.handle("tomove")
    assert out.lines[-1] == "tomove 0"
    loop.handle("position start moves a1; b1; a2; c1; a3")
    for query in ("tomove", "result", "legal"):
        loop.handle(query)
    assert out.lines[-3:] == [
        "tomove none",
        "result over winners 0 scores 1,0 reason three in a line",
        "legal",
    ]
    out.lines.clear()
    loop.handle("position")
    assert out.lines[-1] == "positionok"
    text = "\n".join(line[len("position ") :] for line in out.lines[:-1])
    assert loop.game.position(text).position() == loop.state.position()
    loop.handle("undo")
    loop.handle("result")
    loop.handle("tomove")
    assert out.lines[-2:] == ["result ongoing", "tomove 0"]
    assert [m.text for m in loop.state.history] == ["a1", "b1", "a2", "c1"]


def test_undo_at_the_start_is_an_error_and_changes_nothing():
    out = Recorder()
    loop = EngineLoop("pente", out)
    loop.handle("undo")
    assert out.lines == ["error undo: there is no move to undo"]
    assert loop.state.ply == 0


def test_the_queries_name_the_chance_side_and_scores():
    out = Recorder()
    loop = EngineLoop("tantrix", out)
    loop.handle("newgame seed=3")
    loop.handle("tomove")
    loop.handle("legal")
    assert out.lines[0] == "tomove chance"
    assert all(m.startswith("+") for m in split_moves(out.lines[1][len("legal ") :]))


def _cpu_seconds(pid: int) -> float:
    """The CPU time (user + system, every thread) of process ``pid`` so far (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Client:
    """An engine client written from docs/engine-protocol.md alone: it keeps no rules,
    asking the engine for the legal moves, the side to move and the result."""

    def __init__(self, cmd: list[str]):
        self.process = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def send(self, line: str) -> None:
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def until(self, prefix: str) -> list[str]:
        """The lines up to and including the first that starts with ``prefix``."""
        lines = []
        while True:
            line = self.process.stdout.readline()
            assert line, f"the engine exited; it said {lines}"
            lines.append(line.rstrip("\n"))
            assert not line.startswith("error"), lines
            if line.startswith(prefix):
                return lines

    def ask(self, query: str) -> str:
        self.send(query)
        return self.until(query)[-1][len(query) :].strip()

    def quit(self) -> None:
        self.send("quit")
        self.process.wait(timeout=30)


#: 21 random plies of Nine Men's Morris: the agent searches (no opening book).
OUT_OF_BOOK = (
    "f4; c5; d5; g7; f2; a1; e5; d1; a7; c4; b6; c3xa7; d7; e3; d6xg7; b4; f6xa1; d2; d7-g7; d2-d3xg7; e5-e4"
).split("; ")


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the engine's CPU time in /proc")
def test_the_first_go_keeps_its_time_limit_once_the_engine_said_readyok(monkeypatch):
    monkeypatch.setenv("QIPAN_KERNELS", "1")  # the kernels' start-up is under test here
    cmd = [PYTHON, "-m", "qipan.cli.main", "engine", "nine-mens-morris"]
    warm = Client(cmd)  # fills Numba's disk cache if this checkout has not yet
    warm.send("isready")
    warm.until("readyok")
    warm.quit()
    engine = Client(cmd)
    engine.send("qpi")
    engine.until("qpiok")
    engine.send("isready")
    engine.until("readyok")
    before = _cpu_seconds(engine.process.pid)  # what the client waits for after readyok:
    engine.send(f"position start moves {join_moves(OUT_OF_BOOK)}")  # (building the kernel too)
    engine.send("go time 0.2")
    best = engine.until("bestmove")[-1]
    spent = _cpu_seconds(engine.process.pid) - before
    engine.quit()
    assert qipan.load("nine-mens-morris").new().play_many(OUT_OF_BOOK).play(best.split(" ", 1)[1])
    assert spent < 0.2 + 0.5, f"the first go took {spent:.2f} CPU seconds"


def test_a_client_plays_a_whole_game_with_the_queries_alone():
    engine = Client([PYTHON, "-m", "qipan.cli.main", "engine", "three-mens-morris-kurna", "--agent", "mcts"])
    engine.send("qpi")
    engine.until("qpiok")
    engine.send("isready")
    engine.until("readyok")
    engine.send("newgame")
    moves: list[str] = []
    rng = random.Random(4)
    while engine.ask("result") == "ongoing" and len(moves) < 60:
        seat = engine.ask("tomove")
        if seat == "0":  # the engine plays seat 0, the client picks a random legal move
            engine.send("go iterations 50")
            move = engine.until("bestmove")[-1][len("bestmove ") :]
        else:
            move = rng.choice(split_moves(engine.ask("legal")))
        moves.append(move)
        engine.send(f"position start moves {join_moves(moves)}")
    engine.send("position")
    board = engine.until("positionok")
    if moves:  # take the last move back and check the position moved back too
        engine.send("undo")
        assert engine.ask("result") == "ongoing"
    engine.quit()
    state = qipan.load("three-mens-morris-kurna").new().play_many(moves)
    assert "\n".join(line[len("position ") :] for line in board[:-1]) == state.position()
    assert state.is_over or len(moves) == 60
