"""Throw-away games on the contract, for testing the machinery above the rules (the core,
the CLI, the agents and the server); never registered by src.

- ``toy-ttt``: tic-tac-toe on a1..c3. With ``coin=True`` a chance move ("X first" or
  "O first") comes before the first move, so chance resolution is tested.
- ``toy-hidden``: the same, claiming hidden information (each seat gets its own view).
- ``toy-ticker``: a one-player real-time game (the server plays "-" when a tick passes).
- ``toy-dice``: a dice race for 2-3 players with chance nodes.

The core and CLI tests register ``TOY_SPECS`` for a test (``registered``); the server's
tests and their server processes (tests/server/serve_toys.py) ``register_toys()``."""

from __future__ import annotations

import contextlib

from qipan.core import CHANCE, Game, GameSpec, IllegalMove, Move, Option, Outcome, State, registry

CELLS = [f"{c}{r}" for r in "123" for c in "abc"]
LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
MOVES = [Move(c, (c,), i) for i, c in enumerate(CELLS)]
COIN = [Move("X first", (), 0), Move("O first", (), 1)]


class TicTacToe(Game):
    id = "toy-ttt"
    title = "Toy tic-tac-toe"
    family = "toy"
    players = (2,)

    def new_state(self, players, rng):
        return TicTacToeState(self, players)

    def evaluate(self, state, player):
        return 0.0


class TicTacToeState(State):
    def __init__(self, game, players):
        super().__init__(game, players)
        self.board = [None] * 9
        self.to_move = CHANCE if game.options.get("coin") else 0
        self.outcome = None

    def legal_moves(self):
        if self.outcome is not None:
            return []
        if self.to_move == CHANCE:
            return list(COIN)
        return [m for m in MOVES if self.board[m.data] is None]

    def chance_outcomes(self):
        return [(COIN[0], 0.5), (COIN[1], 0.5)]

    def check_legal(self, move):
        if self.to_move != CHANCE and move in MOVES and self.board[move.data] is not None:
            raise IllegalMove(f"{move} is occupied", move)
        super().check_legal(move)

    def _apply(self, move):
        token = (self.to_move, self.outcome)
        if self.to_move == CHANCE:
            self.to_move = move.data
            return token
        self.board[move.data] = self.to_move
        for line in LINES:
            if all(self.board[i] == self.to_move for i in line):
                self.outcome = Outcome.win((self.to_move,), 2, "three in a row")
        if self.outcome is None and all(v is not None for v in self.board):
            self.outcome = Outcome.draw(2, "board full")
        self.to_move = None if self.outcome else 1 - self.to_move
        return token + (move.data,)

    def _revert(self, token):
        self.to_move, self.outcome = token[0], token[1]
        if len(token) > 2:
            self.board[token[2]] = None

    def key(self):
        return (tuple(self.board), self.to_move)

    def text(self):
        rows = []
        for r in range(2, -1, -1):
            rows.append(" ".join("." if v is None else "XO"[v] for v in self.board[r * 3 : r * 3 + 3]))
        return "\n".join(rows)

    def svg(self):
        parts = ['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 300" width="300" height="300">']
        for i, cell in enumerate(CELLS):
            x, y = (i % 3) * 100, (2 - i // 3) * 100
            parts.append(
                f'<rect x="{x}" y="{y}" width="100" height="100" fill="#eed" stroke="#333" '
                f'data-target="{cell}"/>'
            )
            if self.board[i] is not None:
                parts.append(
                    f'<text x="{x + 50}" y="{y + 65}" font-size="48" text-anchor="middle">'
                    f"{'XO'[self.board[i]]}</text>"
                )
        parts.append("</svg>")
        return "".join(parts)


class HiddenTicTacToeState(TicTacToeState):
    """Tic-tac-toe that claims hidden information (each seat gets its own view)."""

    def view(self, player):
        return self.copy()


class HiddenTicTacToe(TicTacToe):
    id = "toy-hidden"
    hides_information = True

    def new_state(self, players, rng):
        return HiddenTicTacToeState(self, players)


TICK_MOVES = [Move("-", ("-",)), Move("go", ("go",))]


class Ticker(Game):
    """A one-player real-time toy: each tick the player passes ("-") or scores ("go");
    the game ends after ``ticks`` ticks. The server plays "-" when a tick goes by."""

    id = "toy-ticker"
    title = "Toy ticker"
    family = "toy"
    players = (1,)

    idle_move = "-"

    @property
    def realtime_tick(self):
        return self.options["tick"]

    def new_state(self, players, rng):
        return TickerState(self, players)


class TickerState(State):
    def __init__(self, game, players):
        super().__init__(game, players)
        self.score = 0
        self.to_move = 0
        self.outcome = None

    def legal_moves(self):
        return [] if self.outcome else list(TICK_MOVES)

    def _apply(self, move):
        token = (self.score, self.outcome)
        self.score += move.text == "go"
        if self.ply + 1 >= self.game.options["ticks"]:
            self.outcome = Outcome((0,), (float(self.score),), "time is up")
            self.to_move = None
        return token

    def _revert(self, token):
        self.score, self.outcome = token
        self.to_move = 0 if self.outcome is None else None

    def key(self):
        return (self.ply, self.score)

    def text(self):
        return f"tick {self.ply}, score {self.score}"

    def svg(self):
        return (
            '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 100">'
            '<rect x="0" y="0" width="100" height="100" fill="#cde" data-target="go"/>'
            f'<text x="150" y="60">{self.score}</text></svg>'
        )


class DiceRace(Game):
    """Players alternate: roll a die (chance), then 'stop' to bank the roll or 'go' to
    roll again (a 1 loses the turn's total). First to ``target`` wins."""

    id = "toy-dice"
    title = "Dice race"
    family = "toy"
    players = (2, 3)

    def new_state(self, players, rng):
        return DiceState(self, players)


ROLLS = [Move(f"roll{i}", (), i) for i in range(1, 7)]
STOP, GO = Move("stop", ("stop",)), Move("go", ("go",))


class DiceState(State):
    def __init__(self, game, players):
        super().__init__(game, players)
        self.scores = [0] * players
        self.turn_total = 0
        self.player = 0
        self.to_move = CHANCE
        self.outcome = None

    def chance_outcomes(self):
        return [(m, 1 / 6) for m in ROLLS] if self.to_move == CHANCE else []

    def legal_moves(self):
        if self.outcome is not None:
            return []
        if self.to_move == CHANCE:
            return list(ROLLS)
        return [STOP, GO]

    def _apply(self, move):
        token = (self.player, list(self.scores), self.turn_total, self.to_move, self.outcome)
        if move in ROLLS:
            if move.data == 1:
                self.turn_total = 0
                self.player = (self.player + 1) % self.num_players
                self.to_move = CHANCE
            else:
                self.turn_total += move.data
                self.to_move = self.player
        elif move == STOP:
            self.scores[self.player] += self.turn_total
            self.turn_total = 0
            if self.scores[self.player] >= self.game.options.get("target", 20):
                self.outcome = Outcome.win((self.player,), self.num_players, "target reached")
                self.to_move = None
            else:
                self.player = (self.player + 1) % self.num_players
                self.to_move = CHANCE
        else:
            self.to_move = CHANCE
        return token

    def _revert(self, token):
        self.player, self.scores, self.turn_total, self.to_move, self.outcome = token

    def key(self):
        return (tuple(self.scores), self.turn_total, self.player, self.to_move)

    def text(self):
        return f"scores {self.scores} turn {self.player + 1} total {self.turn_total}"

    def svg(self):
        return (
            '<svg xmlns="http://www.w3.org/2000/svg"><text data-target="stop">stop</text>'
            '<text data-target="go">go</text></svg>'
        )


TIC_TAC_TOE = GameSpec(
    "toy-ttt",
    "Toy tic-tac-toe",
    "toy",
    lambda **o: TicTacToe(**o),
    options=(Option("coin", bool, False, "toss a coin for who starts"),),
)
HIDDEN = GameSpec("toy-hidden", "Toy hidden tic-tac-toe", "toy", lambda **o: HiddenTicTacToe(**o))
TICKER = GameSpec(
    "toy-ticker",
    "Toy ticker",
    "toy",
    lambda **o: Ticker(**o),
    options=(Option("tick", float, 0.05, "seconds per tick", minimum=0.01), Option("ticks", int, 6, "ticks")),
    players=(1,),
)
DICE = GameSpec(
    "toy-dice",
    "Dice race",
    "toy",
    DiceRace,
    players=(2, 3),
    options=(Option("target", int, 20, "points to win", minimum=5, maximum=100),),
)
#: The toys of the core and CLI tests.
TOY_SPECS = (TIC_TAC_TOE, DICE)
#: The toys of the server tests.
SERVER_SPECS = (TIC_TAC_TOE, HIDDEN, TICKER)


def register_toys(specs=SERVER_SPECS) -> None:
    """Register the toys for good (a server's games)."""
    for spec in specs:
        if registry._SPECS.get(spec.id) is not spec:
            registry._SPECS.pop(spec.id, None)
            registry.register(spec)


@contextlib.contextmanager
def registered(specs=TOY_SPECS):
    """The toys registered while the block runs; those registered before stay."""
    registry.specs()
    added = [spec for spec in specs if spec.id not in registry._SPECS]
    registry.register(*added)
    try:
        yield {spec.id: spec for spec in specs}
    finally:
        for spec in added:
            registry.unregister(spec.id)
