"""The contract every game implements: a Game (rules + options) makes States."""

from __future__ import annotations

import copy as _copy
import random
import secrets
from collections.abc import Iterable
from typing import Any

from .errors import IllegalMove, NotationError, QipanError
from .move import Move
from .outcome import Outcome
from .refs import load_ref

#: ``State.to_move`` at a chance node (Tantrix draws, Pipe Mania's dispenser, ...).
CHANCE = -1


class Game:
    """A game with its options fixed. Subclasses set the class attributes and implement
    ``new_state``; everything else has a sensible default."""

    id: str = ""
    title: str = ""
    family: str = ""
    #: Allowed player counts; the first is the default.
    players: tuple[int, ...] = (2,)

    # -- declared capabilities: front ends read these, they never infer them ---------------
    #: ``state.view(player)`` hides something from ``player`` (a record of an unfinished
    #: game is then not shown to spectators).
    hides_information: bool = False
    #: Seconds per tick when the game is played in real time (None: turn-based).
    realtime_tick: float | None = None
    #: The move a seat makes by letting a real-time tick pass.
    idle_move: str | None = None
    #: ``evaluate`` and ``order_moves`` carry knowledge (alpha-beta can play the game).
    has_evaluation: bool = False
    #: ``"module:function(game, players, seed)"`` of the game's own terminal front end.
    terminal: str | None = None
    #: ``"module:function(state)"`` drawing the position for the terminal in colour (a Rich
    #: renderable; ``qipan play`` shows it instead of ``state.text()``): Trax and Tantrix tiles.
    terminal_picture: str | None = None
    #: ``"module:Class"`` of the game's scoring-match driver (see ``qipan play --match``).
    scoring_match: str | None = None
    #: Names of the agents that play this game perfectly (exact solvers).
    solved_by: tuple[str, ...] = ()
    #: ``"module:function"`` giving the exact value of a position where the game has one
    #: (perfect-play tables, a solver for small boards): ``function(state, deadline)`` ->
    #: ``{"value": "win" | "draw" | "loss" (for the side to move), "plies": int | None,
    #: "best": [move texts], "source": str}``; QipanError saying why it cannot answer
    #: (tables not built, board too large for the time). The analysis page shows it.
    perfect_value: str | None = None
    #: ``"module:function(game, progress)"`` building, once, what ``perfect_value`` reads,
    #: where that is small enough for a server to do at start in the background (the Six
    #: Men's Morris tables); it calls ``progress(done, total)`` along the way (an exception
    #: raised there stops it) and returns at once when all is built already. None: nothing to
    #: build, or too large (an operator builds those, docs/solving.md).
    perfect_build: str | None = None
    #: About how many seconds ``perfect_build`` takes (one core), shown while it runs.
    perfect_build_seconds: float = 0.0
    #: ``"module:function"`` finding forced wins by threats (Pente's threat-space search):
    #: ``function(state, deadline)`` -> ``[{"player": int, "plies": int, "line": [move texts],
    #: "to_move": bool}]``, the side to move's shortest forced win and its opponent's (as if it
    #: moved now) where found before ``deadline`` (``time.perf_counter``); QipanError when the
    #: game's options are outside the search. The analysis page and the engine protocol show it.
    forced_line: str | None = None
    #: Reference pictures a front end may show beside the game: ``(name, "module:function")``
    #: pairs, the function returning a standalone SVG (Tantrix's ``tiles``: its 56 tiles).
    pictures: tuple[tuple[str, str], ...] = ()
    #: ``"module:Class"`` of the game's ``core.actions.ActionSpace`` (``games/<family>/actions.py``):
    #: a fixed enumeration of its moves and a tensor view of its positions (``qipan.rl``).
    action_space: str | None = None
    #: ``"module:function(state)"`` -> the ``state.key()`` of the position's image under each of
    #: the board's symmetries (the position's own key first): a game database finds a position
    #: however the board was turned. None: only the position itself.
    symmetric_keys: str | None = None
    #: ``"module:NAME"`` of the game's ``core.puzzles.PuzzleFinder``: its own search proposing
    #: forced wins, from which ``qipan puzzles generate`` builds and checks puzzles.
    puzzle_finder: str | None = None
    #: ``"module:NAME"`` of the game's ``core.editing.PositionEditor``: a position editor then
    #: places and removes pieces by clicking (the position text is editable for every game).
    position_editor: str | None = None
    #: ``new_state`` draws from its ``rng`` (a random setup, a random first player). A game
    #: whose start is fixed sets it False and gets None: seeding a Random costs ~12 µs, the
    #: time of two plies of a Morris playout.
    random_setup: bool = True

    def __init__(self, **options: Any):
        self.options: dict[str, Any] = dict(options)
        #: Registry id this game was loaded under (a preset id); set by ``registry.load``.
        self.preset: str = self.id

    # -- to implement ------------------------------------------------------------------
    def new_state(self, players: int, rng: random.Random | None) -> State:
        """The start of a game; ``rng`` is None unless ``random_setup``."""
        raise NotImplementedError

    # -- public API --------------------------------------------------------------------
    def new(self, players: int | None = None, seed: int | None = None) -> State:
        """A new game for ``players`` players. ``seed`` drives any random setup."""
        if players is None:
            players = self.players[0]
        if players not in self.players:
            allowed = ", ".join(map(str, self.players))
            raise QipanError(f"{self.title} is played by {allowed} players, not {players}")
        # Unseeded: 64 bits from the OS, not Random()'s 2,500 bytes (a third of the time of a
        # new Pente game; a game database import makes two per game).
        rng = None
        if self.random_setup:
            rng = random.Random(seed if seed is not None else secrets.randbits(64))
        state = self.new_state(players, rng)
        state.seed = seed
        return state

    def parse(self, text: str, state: State) -> Move:
        """The legal move of ``state`` that ``text`` denotes. Lenient about case and spaces.

        Raises NotationError for text that is no move at all and IllegalMove for a move
        that is not legal here."""
        wanted = " ".join(str(text).split())
        if not wanted:
            raise NotationError("empty move")
        moves = state.legal_moves()
        for move in moves:
            if move.text == wanted:
                return move
        lowered = wanted.lower()
        for move in moves:
            if move.text.lower() == lowered:
                return move
        raise IllegalMove(f"{wanted!r} is not a legal move here", wanted)

    def position(self, text: str) -> State:
        """Set up a state from the game's text form (see ``State.position``)."""
        raise NotImplementedError(f"{self.title} has no position format")

    # -- knowledge for generic agents (optional) ---------------------------------------
    def evaluate(self, state: State, player: int) -> float:
        """Heuristic value of a non-terminal ``state`` for ``player`` in [-1, 1]."""
        return 0.0

    def order_moves(self, state: State, moves: list[Move]) -> list[Move]:
        """Moves in the order a search should try them (best guesses first)."""
        return moves

    def kernel(self) -> Any:
        """The compiled twin of the rules (``games/<family>/kernel.py``, ``qipan[fast]``), which
        keeps the kernel contract ``qipan.fast.Kernel``, or None (no kernel, Numba missing,
        kernels switched off, or options the kernel does not cover). A kernel lists in
        ``searches`` the generic agents' searches it runs itself (``kernel.mcts(state,
        iterations, deadline, seed, exploration, playout_cap)`` -> (move, iterations);
        ``kernel.alphabeta(state, depth, deadline)`` -> result with move, score, depth,
        nodes); the others run on the rules."""
        return None

    def actions(self) -> Any:
        """The game's ``core.actions.ActionSpace`` (a fixed enumeration of its moves and a
        tensor view of its positions), made from the declared ``action_space``; None if the
        game declares none. Made once per Game object."""
        if self.action_space is None:
            return None
        made = self.__dict__.get("_action_space")
        if made is None:
            made = self.__dict__["_action_space"] = load_ref(self.action_space)(self)
        return made

    def capabilities(self) -> dict[str, Any]:
        """The declared capabilities, as the server sends them to the lobby."""
        return {
            "hides_information": self.hides_information,
            "realtime_tick": self.realtime_tick,
            "idle_move": self.idle_move,
            "has_evaluation": self.has_evaluation,
            "terminal": self.terminal is not None,
            "scoring_match": self.scoring_match is not None,
            "solved_by": list(self.solved_by),
            "perfect_value": self.perfect_value is not None,
            "forced_line": self.forced_line is not None,
            "pictures": [name for name, _ in self.pictures],
            "symmetric_keys": self.symmetric_keys is not None,
            "puzzles": self.puzzle_finder is not None,
            "position_editor": self.position_editor is not None,
        }

    def picture(self, name: str) -> str:
        """The SVG of the declared picture ``name``; QipanError for one the game lacks."""
        ref = dict(self.pictures).get(name)
        if ref is None:
            have = ", ".join(n for n, _ in self.pictures) or "none"
            raise QipanError(f"{self.title} has no picture {name!r} (pictures: {have})")
        return load_ref(ref)()

    def describe(self) -> str:
        opts = ", ".join(f"{k}={v}" for k, v in self.options.items())
        return f"{self.title} ({opts})" if opts else self.title

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.preset} {self.options}>"


class State:
    """A position plus its history. Subclasses implement ``legal_moves``, ``_apply``,
    ``_revert``, ``key``, ``text``, ``copy`` and keep ``to_move`` and ``outcome`` current.

    ``play`` and ``undo`` are final: they keep ``history`` and the undo stack, so every
    game gets the same guarantees (an illegal move changes nothing; undo is exact)."""

    to_move: int | None
    outcome: Outcome | None

    def __init__(self, game: Game, players: int):
        self.game = game
        self.num_players = players
        self.history: list[Move] = []
        self._undo_stack: list[Any] = []
        self.seed: int | None = None

    # -- to implement ------------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        """All legal moves in a deterministic order; the chance moves at a chance node;
        empty when the game is over."""
        raise NotImplementedError

    def _apply(self, move: Move) -> Any:
        """Apply a legal move; return what ``_revert`` needs to take it back."""
        raise NotImplementedError

    def _revert(self, token: Any) -> None:
        raise NotImplementedError

    def key(self) -> Any:
        """A hashable key of the position (not the history)."""
        raise NotImplementedError

    def text(self) -> str:
        raise NotImplementedError

    def svg(self) -> str:
        raise NotImplementedError

    def position(self) -> str:
        """The position in the game's text form, readable by ``game.position``."""
        raise NotImplementedError(f"{self.game.title} has no position format")

    def chance_outcomes(self) -> list[tuple[Move, float]]:
        """At a chance node, every chance move with its probability."""
        return []

    def check_legal(self, move: Move) -> None:
        """Raise IllegalMove with the reason if ``move`` is not legal. Games may override
        with something faster or more precise than a look-up in ``legal_moves``."""
        if move not in self.legal_moves():
            raise IllegalMove(f"{move} is not a legal move here", move)

    # -- the contract ------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def is_chance(self) -> bool:
        return self.to_move == CHANCE

    @property
    def ply(self) -> int:
        return len(self.history)

    def play(self, move: Move | str) -> Move:
        """Play a move (a Move or its notation). Raises IllegalMove or NotationError and
        leaves the state unchanged if it is not legal. Returns the move played."""
        if self.outcome is not None:
            raise IllegalMove(f"the game is over ({self.outcome.reason})", move)
        if not isinstance(move, Move):
            move = self.game.parse(str(move), self)
        else:
            self.check_legal(move)
        token = self._apply(move)
        self.history.append(move)
        self._undo_stack.append(token)
        return move

    def play_unchecked(self, move: Move) -> None:
        """Play a move just taken from ``legal_moves()`` without validating it again.
        For search and playouts only: anything else goes through ``play``."""
        self._undo_stack.append(self._apply(move))
        self.history.append(move)

    def play_many(self, moves: Iterable[Move | str]) -> State:
        for move in moves:
            self.play(move)
        return self

    def undo(self) -> Move:
        """Take back the last move exactly; returns it."""
        if not self.history:
            raise QipanError("there is no move to undo")
        move = self.history.pop()
        self._revert(self._undo_stack.pop())
        return move

    def copy(self) -> State:
        """An independent copy (the Game object is shared). Games override ``_copy_parts``,
        not this, so the history and the undo stack are copied in one place."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.history = list(self.history)
        new._undo_stack = list(self._undo_stack)  # undo tokens are never changed in place
        self._copy_parts(new)
        return new

    def _copy_parts(self, new: State) -> None:
        """Give ``new`` (a shallow copy of ``self``) its own copy of every mutable part.
        The default deep-copies all of them; games override it with something faster."""
        memo = {id(self.game): self.game}
        for name, value in self.__dict__.items():
            if name not in ("game", "history", "_undo_stack"):
                setattr(new, name, _copy.deepcopy(value, memo))

    def random_move(self, rng: random.Random) -> Move:
        """One random legal move, for playouts: uniform over ``legal_moves()`` for a player,
        by probability at a chance node. Games may override it with something faster that
        keeps the same distribution (their docs say so where it differs)."""
        if self.to_move == CHANCE:
            return sample_chance(self, rng)
        return rng.choice(self.legal_moves())

    def _repr_svg_(self) -> str:
        """Jupyter draws the board."""
        return self.svg()

    def view(self, player: int) -> State:
        """What ``player`` may see. Games with hidden information override this."""
        return self.copy()

    def legal_move_texts(self) -> list[str]:
        return [m.text for m in self.legal_moves()]

    def seat_colours(self) -> list[tuple[str, str]]:
        """Each seat's colour as ``(name, CSS colour)`` as the pictures draw it, so a front
        end can say "you are Red"; empty when the seats have no colours."""
        return []

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.game.preset} ply={self.ply} to_move={self.to_move}>"


def sample_chance(state: State, rng: random.Random) -> Move:
    """A chance move of ``state`` drawn by its probability with ``rng`` (not played)."""
    outcomes = state.chance_outcomes()
    r = rng.random()
    acc = 0.0
    for move, p in outcomes:
        acc += p
        if r < acc:
            return move
    return outcomes[-1][0]


def resolve_chance(state: State, rng: random.Random) -> Move:
    """Pick a chance move by its probability with ``rng`` and play it (checked)."""
    move = sample_chance(state, rng)
    state.play(move)
    return move
