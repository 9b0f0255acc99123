"""The ``engine`` agent: drives an external program that speaks the qipan engine protocol
(docs/engine-protocol.md), e.g. ``--players engine:cmd=qipan engine pente,human``.

The program is started at the first move and kept for the next ones. Every answer has a
deadline (the move's time plus ``timeout``); a program that dies, answers ``error`` or
misses its deadline raises EngineError with what it said, and is stopped.

The agent runs a command line, so it is off unless a local front end (the CLI, the arena)
turns it on with ``allow_programs()``: a server that makes bots from requests refuses it."""

from __future__ import annotations

import queue
import shlex
import subprocess
import threading
import time

from ..core.errors import QipanError
from ..core.game import State
from ..core.move import Move
from ..core.registry import spec
from .base import Agent
from .engine_protocol import PROTOCOL, join_moves


class EngineError(QipanError):
    """The external engine died, refused a command or did not answer in time."""


_ALLOWED = {"programs": False}
#: Seconds a program may take to start (an interpreter importing its libraries) on top of
#: ``timeout`` before it answers the handshake.
STARTUP = 10.0
#: Seconds a program may take to answer ``readyok`` after starting or a new game: a qipan
#: engine compiles its game's kernels then, minutes on a cold first start, seconds later.
READY = 600.0


def allow_programs(allowed: bool = True) -> None:
    """Let engine agents start programs in this process (local front ends only)."""
    _ALLOWED["programs"] = allowed


class EngineAgent(Agent):
    name = "engine"

    def __init__(self, cmd: str = "", timeout: float = 10.0, **limits):
        super().__init__(**limits)
        if not _ALLOWED["programs"]:
            raise EngineError(
                "the engine agent runs a program on this machine: only local front ends "
                "(qipan play, qipan arena) offer it"
            )
        if not cmd.strip():
            raise EngineError("the engine agent needs cmd=<command line of the engine program>")
        self.cmd, self.timeout = cmd, timeout
        self.process: subprocess.Popen | None = None
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.game_key: tuple | None = None

    # -- the process ---------------------------------------------------------------------
    def _start(self) -> None:
        try:
            self.process = subprocess.Popen(
                shlex.split(self.cmd),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                bufsize=1,
            )
        except OSError as exc:
            raise EngineError(f"cannot start the engine {self.cmd!r}: {exc}") from None
        threading.Thread(target=self._read, args=(self.process,), daemon=True).start()
        self._send(PROTOCOL)
        self._expect(f"{PROTOCOL}ok", self.timeout + STARTUP)

    def _ready(self) -> None:
        self._send("isready")
        self._expect("readyok", self.timeout + READY)

    def _read(self, process: subprocess.Popen) -> None:
        for line in process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)  # end of output: the program is gone

    def _send(self, line: str) -> None:
        try:
            self.process.stdin.write(line + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            self._died("while being sent a command")

    def _died(self, when: str):
        process = self.process
        try:
            code = process.wait(timeout=1)
        except subprocess.TimeoutExpired:
            code = None
        stderr = (process.stderr.read() or "").strip().splitlines()[-3:] if code is not None else []
        self.close()
        said = f": {' | '.join(stderr)}" if stderr else ""
        raise EngineError(f"the engine {self.cmd!r} died {when} (exit status {code}){said}")

    def _expect(self, prefix: str, seconds: float) -> str:
        """Lines until one starting with ``prefix``; ``info`` lines are kept as ``self.info``."""
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            try:
                line = self.lines.get(timeout=max(0.0, left))
            except queue.Empty:
                self.close()
                raise EngineError(f"the engine {self.cmd!r} did not answer within {seconds:g} s") from None
            if line is None:
                self._died("during the search" if prefix == "bestmove" else f"before answering {prefix}")
            if line.startswith("error"):
                raise EngineError(f"the engine says: {line[5:].strip()}")
            if line.startswith("info"):
                self.info = line
            if line.split(" ", 1)[0] == prefix:
                return line

    def close(self) -> None:
        """Stop the program (quit, then kill if it does not go)."""
        process, self.process = self.process, None
        self.game_key = None
        self.lines = queue.Queue()
        if process is None:
            return
        try:
            if process.poll() is None:
                process.stdin.write("quit\n")
                process.stdin.flush()
                process.wait(timeout=2)
        except (OSError, ValueError, subprocess.TimeoutExpired):
            process.kill()
            process.wait()

    def __del__(self):
        try:
            self.close()
        except Exception:  # noqa: BLE001 - never raise from a finaliser
            pass

    # -- a move --------------------------------------------------------------------------
    def select(self, state: State) -> Move:
        if self.process is None:
            self._start()
        game = state.game
        defaults = spec(game.preset).default_options()
        changed = {k: v for k, v in game.options.items() if k not in defaults or v != defaults[k]}
        key = (game.preset, tuple(sorted(changed.items())), state.num_players, state.seed)
        if key != self.game_key:
            pairs = " ".join(f"{k}={'none' if v is None else v}" for k, v in sorted(changed.items()))
            seed = "none" if state.seed is None else state.seed
            self._send(f"newgame game={game.preset} players={state.num_players} seed={seed} {pairs}".rstrip())
            self._ready()  # the engine warms up for this game before the clock runs
            self.game_key = key
        self._send(f"position start moves {join_moves(state.history)}" if state.history else "position start")
        limits = [f"{k} {v}" for k, v in (("time", self.time), ("depth", self.depth)) if v is not None]
        if self.iterations is not None:
            limits.append(f"iterations {self.iterations}")
        self._send(" ".join(["go", *limits]))
        line = self._expect("bestmove", (self.time or 0) + self.timeout)
        return game.parse(line[len("bestmove") :].strip(), state)
