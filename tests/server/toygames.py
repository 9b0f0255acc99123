"""Tiny games on the contract, for server tests only (never registered by src).

``toy-ttt``: tic-tac-toe on a1..c3. With ``coin=True`` a chance move ("X first" or
"O first") is played before the first move, so the server's chance resolution is tested."""

from __future__ import annotations

from qipan.core import CHANCE, Game, GameSpec, Move, Option, Outcome, State, registry

CELLS = [f"{c}{r}" for r in "123" for c in "abc"]
LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
MOVES = [Move(c, (c,), i) for i, c in enumerate(CELLS)]
COIN = [Move("X first", (), 0), Move("O first", (), 1)]


class ToyGame(Game):
    id = "toy-ttt"
    title = "Toy tic-tac-toe"
    family = "toy"
    players = (2,)

    def new_state(self, players, rng):
        return ToyState(self, players)


class ToyState(State):
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

    def _apply(self, move):
        token = (self.to_move, self.outcome)
        if self.to_move == CHANCE:
            self.to_move = move.data
            return token
        self.board[move.data] = self.to_move
        for line in LINES:
            if all(self.board[i] == self.to_move for i in line):
                self.outcome = Outcome.win([self.to_move], 2, "three in a row")
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


class HiddenToyState(ToyState):
    """Tic-tac-toe that claims hidden information (each seat gets its own view)."""

    def view(self, player):
        return self.copy()


class HiddenToyGame(ToyGame):
    id = "toy-hidden"
    hides_information = True

    def new_state(self, players, rng):
        return HiddenToyState(self, players)


TICK_MOVES = [Move("-", ("-",)), Move("go", ("go",))]


class TickerGame(Game):
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


SPEC = GameSpec(
    "toy-ttt",
    "Toy tic-tac-toe",
    "toy",
    lambda **o: ToyGame(**o),
    options=(Option("coin", bool, False, "toss a coin for who starts"),),
)


HIDDEN_SPEC = GameSpec("toy-hidden", "Toy hidden tic-tac-toe", "toy", lambda **o: HiddenToyGame(**o))
TICKER_SPEC = GameSpec(
    "toy-ticker",
    "Toy ticker",
    "toy",
    lambda **o: TickerGame(**o),
    options=(Option("tick", float, 0.05, "seconds per tick", minimum=0.01), Option("ticks", int, 6, "ticks")),
    players=(1,),
)


def register_toys() -> None:
    for spec in (SPEC, HIDDEN_SPEC, TICKER_SPEC):
        if registry._SPECS.get(spec.id) is not spec:
            registry._SPECS.pop(spec.id, None)
            registry.register(spec)
