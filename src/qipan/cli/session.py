"""An interactive game in the terminal: people type moves, agents answer.

Input and output are functions, so tests drive a session with a list of lines."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

from ..agents import Agent, strongest_agent_name
from ..agents import load as load_agent
from ..core.errors import QipanError
from ..core.game import CHANCE, Game, State, resolve_chance
from ..records import Record, now_iso, save

HELP = """Type a move in the game's notation, or a command:
  moves        list the legal moves          hint    ask the AI for a move
  undo         take back your last move      board   show the board again
  save FILE    save the game (.json or .pgn) resign  give up
  help         this text                     quit    leave without a result"""


class Session:
    def __init__(
        self,
        game: Game,
        seats: list[Agent | None],
        seed: int | None,
        read: Callable[[str], str],
        write: Callable[[str], None],
        show_board: Callable[[State], None] | None = None,
        hint_time: float = 1.0,
        state: State | None = None,
    ):
        self.game = game
        self.seats = seats
        self.state = state if state is not None else game.new(players=len(seats), seed=seed)
        self.rng = random.Random(seed)
        self.read = read
        self.write = write
        self.show_board = show_board or (lambda s: write(s.text()))
        self.hint_time = hint_time
        self.started = now_iso()
        self.result_note: str | None = None
        #: The player who resigned, if one did; ``quit`` leaves both None.
        self.resigned: int | None = None

    def names(self) -> list[str]:
        return ["human" if a is None else a.describe() for a in self.seats]

    def run(self) -> State:
        state = self.state
        self.show_board(state)
        while state.outcome is None:
            if state.to_move == CHANCE:
                move = resolve_chance(state, self.rng)
                self.write(f"chance: {move}")
                continue
            agent = self.seats[state.to_move]
            if agent is not None:
                mover = state.to_move
                move = state.play(agent.choose(state))
                self.write(f"Player {mover + 1} ({agent.name}) plays {move}")
                self.show_board(state)
                continue
            if not self._human_turn():
                return state
        self.write(f"Game over: {state.outcome.result_text()} ({state.outcome.reason})")
        return state

    def _human_turn(self) -> bool:
        """Handle one line of input; False when the session ends."""
        state = self.state
        try:
            line = self.read(f"Player {state.to_move + 1} to move> ").strip()
        except EOFError:
            self.write("input closed: leaving the game")
            return False
        command, _, arg = line.partition(" ")
        command = command.lower()
        if command in ("quit", "exit"):
            self.write("left the game")
            return False
        if command == "resign":
            self.resigned = state.to_move
            self.result_note = f"player {state.to_move + 1} resigned"
            self.write(self.result_note)
            return False
        if command == "help" or command == "?":
            self.write(HELP)
        elif command == "moves":
            self.write(" ".join(m.text for m in state.legal_moves()))
        elif command == "board":
            self.show_board(state)
        elif command == "hint":
            agent = load_agent(
                strongest_agent_name(self.game, state.num_players), time=self.hint_time, seed=0
            )
            self.write(f"hint: {agent.choose(state.copy())}")
        elif command == "undo":
            self._undo()
        elif command == "save":
            self._save(arg.strip())
        else:
            try:
                move = state.play(line)
            except QipanError as exc:
                self.write(f"{exc} (type 'moves' for the legal moves, 'help' for commands)")
                return True
            self.write(f"played {move}")
            self.show_board(state)
        return True

    def _undo(self) -> None:
        state = self.state
        if not any(a is None for a in self.seats):
            return
        undone = []
        # Take back moves until it is a person's turn again, after at least one move of theirs.
        while state.history:
            undone.append(state.undo())
            if state.to_move != CHANCE and self.seats[state.to_move] is None:
                break
        if not undone:
            self.write("there is no move to undo")
            return
        self.write("took back " + ", ".join(str(m) for m in reversed(undone)))
        self.show_board(state)

    def _save(self, path: str) -> None:
        if not path:
            self.write("usage: save FILE (.json or .pgn)")
            return
        record = Record.from_state(self.state, names=self.names(), started=self.started, ended=now_iso())
        try:
            save(record, Path(path))
        except OSError as exc:
            self.write(f"cannot save to {path}: {exc}")
            return
        self.write(f"saved {len(record.moves)} moves to {path}")
