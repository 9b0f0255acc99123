"""Two throw-away games on the contract, for testing the machinery above the rules:
tic-tac-toe (deterministic) and a dice race with chance nodes."""

from __future__ import annotations

from qipan.core import CHANCE, Game, GameSpec, IllegalMove, Move, Option, Outcome, State

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
CELLS = [f"{'abc'[i % 3]}{i // 3 + 1}" for i in range(9)]


class TicTacToe(Game):
    id = "toy-tictactoe"
    title = "Tic-tac-toe"
    family = "toy"
    moves = [Move(c, (c,), i) for i, c in enumerate(CELLS)]

    def new_state(self, players, rng):
        return TicTacToeState(self, players)

    def evaluate(self, state, player):
        return 0.0


class TicTacToeState(State):
    def __init__(self, game, players):
        super().__init__(game, players)
        self.board = [None] * 9
        self.to_move = 0
        self.outcome = None

    def legal_moves(self):
        if self.outcome is not None:
            return []
        return [m for m in self.game.moves if self.board[m.data] is None]

    def check_legal(self, move):
        if self.board[move.data] is not None:
            raise IllegalMove(f"{move} is occupied", move)

    def _apply(self, move):
        p = self.to_move
        self.board[move.data] = p
        if any(all(self.board[i] == p for i in line) for line in LINES):
            self.outcome = Outcome.win((p,), 2, "three in a row")
            self.to_move = None
        elif None not in self.board:
            self.outcome = Outcome.draw(2, "board full")
            self.to_move = None
        else:
            self.to_move = 1 - p
        return (move.data, p)

    def _revert(self, token):
        cell, p = token
        self.board[cell] = None
        self.to_move = p
        self.outcome = None

    def key(self):
        return (tuple(self.board), self.to_move)

    def text(self):
        rows = []
        for r in range(2, -1, -1):
            rows.append(" ".join("XO"[v] if v is not None else "." for v in self.board[r * 3 : r * 3 + 3]))
        return "\n".join(rows)

    def svg(self):
        cells = "".join(
            f'<rect data-target="{c}" x="{(i % 3) * 10}" y="{(2 - i // 3) * 10}" width="10" height="10"/>'
            for i, c in enumerate(CELLS)
        )
        return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 30 30">{cells}</svg>'

    def copy(self):
        twin = TicTacToeState(self.game, self.num_players)
        twin.board = list(self.board)
        twin.to_move, twin.outcome = self.to_move, self.outcome
        twin.history = list(self.history)
        twin._undo_stack = list(self._undo_stack)
        return twin


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
        self.rolling = True
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


TOY_SPECS = (
    GameSpec("toy-tictactoe", "Tic-tac-toe", "toy", TicTacToe),
    GameSpec(
        "toy-dice",
        "Dice race",
        "toy",
        DiceRace,
        players=(2, 3),
        options=(Option("target", int, 20, "points to win", minimum=5, maximum=100),),
    ),
)
