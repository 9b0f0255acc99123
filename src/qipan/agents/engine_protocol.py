"""The qipan engine protocol (docs/engine-protocol.md): a line protocol on stdin/stdout
modelled on UCI and Piskvork, spoken by ``qipan engine GAME`` (``EngineLoop`` below) and
driven by the ``engine`` agent (``agents/engine.py``).

Moves may contain spaces (``F 12@1,-1r3``), so move lists are separated by ``;``."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from ..core.errors import QipanError
from ..core.game import Game, State
from ..core.refs import load_ref
from ..core.registry import load as load_game
from .base import agent_spec, strongest_agent_name
from .base import load as load_agent

PROTOCOL = "qpi"
#: The questions a client may ask about the game (answered by ``engine_queries``).
QUERIES = ("legal", "result", "tomove")
SEPARATOR = ";"


def join_moves(moves) -> str:
    return f"{SEPARATOR} ".join(str(m) for m in moves)


def split_moves(text: str) -> list[str]:
    return [m.strip() for m in text.split(SEPARATOR) if m.strip()]


@dataclass
class Limits:
    time: float | None = None
    depth: int | None = None
    iterations: int | None = None


def parse_go(words: list[str]) -> Limits:
    """``go time 2.5 depth 4 iterations 1000`` (any subset, any order)."""
    limits = Limits()
    kinds = {"time": float, "depth": int, "iterations": int}
    if len(words) % 2:
        raise QipanError(f"go: expected pairs like 'time 2', not {' '.join(words)!r}")
    for key, value in zip(words[::2], words[1::2], strict=True):
        if key not in kinds:
            raise QipanError(f"go: unknown limit {key!r} (time, depth, iterations)")
        try:
            parsed = kinds[key](value)
        except ValueError:
            raise QipanError(f"go: {key} {value!r} is not a number") from None
        if not parsed > 0:
            raise QipanError(f"go: {key} must be positive, not {value}")
        setattr(limits, key, parsed)
    return limits


def value_for(state: State, player: int) -> float:
    """The position's value for ``player`` in [-1, 1]: the outcome, else the evaluation."""
    if state.outcome is not None:
        return 2 * state.outcome.reward(player) - 1
    return state.game.evaluate(state, player)


class EngineLoop:
    """The engine side: reads commands, writes answers through ``write`` (one line each).
    Searches run in a worker thread so ``stop`` and ``isready`` are answered meanwhile."""

    def __init__(self, game: str, write: Callable[[str], None], agent: str | None = None, version: str = ""):
        self.preset, self.write, self.version = game, write, version
        self.agent_name, self.agent_params = agent, {}
        self.lock = threading.Lock()
        self.game: Game = load_game(game)
        self.players = self.game.players[0]
        self.seed: int | None = None
        self.state: State = self.game.new(self.players)
        self.search: dict | None = None  # the running search: best move so far, answered?
        self.worker: threading.Thread | None = None
        self.warming = self._warm_up(self.game, self.state)

    # -- reading -------------------------------------------------------------------------
    def handle(self, line: str) -> bool:
        """Handle one command line; False after ``quit``."""
        words = line.split()
        if not words:
            return True
        command, rest = words[0], line.strip()[len(words[0]) :].strip()
        try:
            if command == "quit":
                self.stop()
                return False
            handler = {
                PROTOCOL: self.hello,
                "isready": self.isready,
                "setoption": self.setoption,
                "newgame": self.newgame,
                "position": self.position,
                "go": self.go,
                "stop": lambda _: self.stop(),
                **self._queries(),
            }.get(command)
            if handler is None:
                raise QipanError(f"unknown command {command!r}")
            handler(rest)
        except (QipanError, ValueError) as exc:
            self.say(f"error {exc}")
        return True

    def say(self, text: str) -> None:
        with self.lock:
            self.write(text)

    # -- commands ------------------------------------------------------------------------
    def hello(self, _rest: str) -> None:
        self.say(f"id name qipan {self.version}".rstrip())
        self.say(f"id game {self.preset}")
        self.say("option name agent type string default " + (self.agent_name or "ai"))
        for option in self._agent_spec().options:
            self.say(f"option name {option.name} type {option.type.__name__} default {option.default}")
        self.say(f"{PROTOCOL}ok")

    def _agent_spec(self):
        name = self.agent_name or strongest_agent_name(self.game, self.players)
        return agent_spec(name)

    def setoption(self, rest: str) -> None:
        words = rest.split()
        if len(words) < 4 or words[0] != "name" or words[2] != "value":
            raise QipanError("setoption: expected 'setoption name <name> value <value>'")
        name, value = words[1], " ".join(words[3:])
        if name == "agent":
            agent_spec(value)  # an unknown agent is refused now, not at the next go
            self.agent_name, self.agent_params = value, {}
        else:
            self._agent_spec().parse({name: value})  # typed and bounded, or a clear error
            self.agent_params[name] = value

    def newgame(self, rest: str) -> None:
        options: dict[str, str] = {}
        for pair in rest.split():
            key, eq, value = pair.partition("=")
            if not eq:
                raise QipanError(f"newgame: expected key=value, not {pair!r}")
            options[key] = value
        preset = options.pop("game", self.preset)
        players = options.pop("players", None)
        seed = options.pop("seed", None)
        game = load_game(preset, **options)
        count = game.players[0] if players is None else int(players)
        state = game.new(count, seed=None if seed in (None, "none") else int(seed))
        self.stop()
        self.warming = self._warm_up(game, state)  # at once when its kernels are warm already
        self.preset, self.game, self.players, self.state = preset, game, count, state
        self.seed = state.seed

    def position(self, rest: str) -> None:
        if not rest:  # the query: the position in the game's text form
            self.answer_query("position")
            return
        head, _, moves = rest.partition("moves")
        if head.strip() != "start":
            raise QipanError("position: expected 'position start [moves m1; m2; ...]'")
        state = self.game.new(self.players, seed=self.seed)
        for ply, text in enumerate(split_moves(moves), start=1):
            try:
                state.play(text)
            except QipanError as exc:
                raise QipanError(f"position: move {ply} {text!r}: {exc}") from None
        self.stop()
        self.state = state

    def go(self, rest: str) -> None:
        limits = parse_go(rest.split())
        state = self.state
        if state.outcome is not None:
            raise QipanError(f"go: the game is over ({state.outcome.reason})")
        if state.is_chance:
            raise QipanError("go: a chance move comes next; send it in the position")
        self.stop()
        first = self.game.order_moves(state, state.legal_moves())[0]
        search = self.search = {"best": first, "answered": False}
        self.worker = threading.Thread(target=self._search, args=(state.copy(), limits, search), daemon=True)
        self.worker.start()

    def stop(self) -> None:
        """Answer the running search at once with its best completed move."""
        search = self.search
        if search is not None:
            search["stop"] = True
            self._answer(search)
        self.search = None

    # -- warming up: compile the game's kernels before readyok, not in the first go ------
    def _warm_up(self, game: Game, state: State) -> threading.Thread:
        """Compile (or load from Numba's disk cache) ``game``'s kernels in the background, so
        that the first ``go`` keeps its time limit; ``isready`` waits for it."""

        def run() -> None:
            try:
                kernel = game.kernel()
                if kernel is not None:
                    kernel.warm_up(state.copy())
            except Exception as exc:  # noqa: BLE001 - the reference rules still play
                self.say(f"info string the fast engine could not start ({exc}); playing on the rules")

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        return thread

    def isready(self, _rest: str) -> None:
        self.warming.join()
        self.say("readyok")

    # -- queries about the game (agents/engine_queries.py) -------------------------------
    def _queries(self) -> dict:
        queries = {name: (lambda _rest, name=name: self.answer_query(name)) for name in QUERIES}
        return {**queries, "undo": self.undo}

    def answer_query(self, name: str) -> None:
        from . import engine_queries

        lines = getattr(engine_queries, f"{name}_lines")(self.state)
        with self.lock:
            for line in lines:
                self.write(line)

    def undo(self, _rest: str) -> None:
        """Take back the last move (a chance move too); an error at the start."""
        if not self.state.history:
            raise QipanError("undo: there is no move to undo")
        self.stop()
        self.state.undo()

    # -- searching -----------------------------------------------------------------------
    def _agent(self, **limits):
        name = self.agent_name or strongest_agent_name(self.game, self.players)
        params = {**self.agent_params, **{k: v for k, v in limits.items() if v is not None}}
        return load_agent(name, game=self.game, players=self.players, **params)

    def _answer(self, search: dict) -> None:
        with self.lock:
            if not search["answered"]:
                search["answered"] = True
                self.write(f"bestmove {search['best']}")

    # -- forced wins (a game that declares ``forced_line``) --------------------------------------
    #: Share of ``go time`` (or seconds without one) spent looking for forced wins first.
    FORCED_SHARE, FORCED_SECONDS = 0.25, 0.5

    def _say_forced_wins(self, state: State, limits: Limits) -> None:
        """``info forced player <p> plies <n> [now] pv <line>``: the side to move's forced win
        (``now``) and its opponent's as if it moved next, where the game can search them."""
        if state.game.forced_line is None:
            return
        seconds = self.FORCED_SECONDS if limits.time is None else limits.time * self.FORCED_SHARE
        try:
            wins = load_ref(state.game.forced_line)(state, time.perf_counter() + seconds)
        except QipanError:
            return  # options outside the search: nothing to say
        for win in wins:
            now = " now" if win["to_move"] else ""
            self.say(
                f"info forced player {win['player'] + 1} plies {win['plies']}{now} pv {join_moves(win['line'])}"
            )

    def _search(self, state: State, limits: Limits, search: dict) -> None:
        if self.warming.is_alive():  # a go without isready on a first start: compile first
            self.say(f"info string compiling the fast engine of {self.preset} (first start)")
            self.warming.join()
        start = time.perf_counter()
        self._say_forced_wins(state, limits)
        mover = state.to_move
        # With a depth: deepen one ply at a time, so a stop gets the deepest finished move.
        depths = range(1, limits.depth + 1) if limits.depth else [None]
        try:
            for depth in depths:
                left = None if limits.time is None else limits.time - (time.perf_counter() - start)
                if search.get("stop") or (left is not None and left <= 0):
                    break
                move = self._agent(
                    time=left, depth=depth, iterations=limits.iterations, seed=self.seed
                ).choose(state.copy())
                after = state.copy()
                after.play(move)
                ms = int((time.perf_counter() - start) * 1000)
                with self.lock:
                    if search["answered"]:
                        return
                    search["best"] = move
                    self.write(
                        f"info depth {depth or 0} score {value_for(after, mover):.4f} time {ms} pv {move}"
                    )
        except QipanError as exc:
            self.say(f"error {exc}")
        self._answer(search)
