"""Pipe Mania as a deterministic tick-based game (rules file §3).

One tick = one action (place / pass / hurry) by each playing player in turn, then the
flow update. The dispenser's random refills are chance moves ``+<piece>``, so a record
replays exactly without its seed. Player data live in lists indexed by player; a board
is one grid (one for 1 player and the shared mode, one per player in the race mode)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ...core import CHANCE, IllegalMove, Move, OptionError, Outcome, State
from ...core.game import Game
from .board import BY_ID, CHANCE_MOVES, HURRY, PASS, PIPE_IDS, Piece, opposite
from .level import Level, build_level, generated_level, parse_layout, speed


def _pieces_list(text: str, what: str) -> list[str]:
    items = [t.strip().upper() for t in (text or "").replace(" ", ",").split(",") if t.strip()]
    bad = [t for t in items if t not in BY_ID]
    if bad:
        raise ValueError(f"{what}: unknown pieces {bad}; pieces are {', '.join(PIPE_IDS)}")
    return items


class PipeManiaGame(Game):
    id = "pipemania"
    title = "Pipe Mania"
    family = "pipemania"
    action_space = "qipan.games.pipemania.actions:PipeManiaActions"
    players = (1, 2)
    #: The real-time terminal front-end (``qipan play pipemania``).
    terminal = "qipan.games.pipemania.terminal:run"
    #: Played in real time, a tick lasts half a second: level 1's countdown of 30 ticks is
    #: then 15 s and its flow steps every 4 s, time for a newcomer to read the queue and lay a
    #: first line (at a quarter of a second a first game was over in about 10 s).
    realtime_tick = 0.5
    #: A seat that lets a tick pass passes: "-" is legal for every player at every tick
    #: (the only action during ticks lost to a replacement).
    idle_move = PASS.text

    def __init__(self, **options):
        super().__init__(**options)
        try:
            self._configure({**DEFAULTS, **options})
        except ValueError as exc:  # a bad layout, wrap, piece list or weights: say which
            raise OptionError(str(exc)) from exc

    def _configure(self, o: dict) -> None:
        self.o = o
        self.mode = o["mode"]
        self.supply = o["supply"]
        self.choice = o["choice"]
        self.queue_len = o["queue_len"]
        self.weights = [float(w) for w in str(o["weights"]).split(",")]
        if len(self.weights) != 7 or any(w < 0 for w in self.weights) or sum(self.weights) <= 0:
            raise ValueError("weights: seven non-negative numbers, one per piece H,V,WS,ES,NE,NW,X")
        self.sequence = _pieces_list(o["sequence"], "sequence")
        fixed = _pieces_list(o["fixed"], "fixed")
        self.fixed_stock = {p: fixed.count(p) for p in PIPE_IDS} if fixed else {p: 3 for p in PIPE_IDS}
        self.layout = parse_layout(o["layout"]) if o["layout"] else None
        self._levels: dict[int, Level] = {}
        self.first_level = o["level"]
        self.last_level = o["level"] + o["levels"] - 1
        self.level(self.first_level)  # fail early on a bad layout
        self._moves: dict = {}

    # -- levels --------------------------------------------------------------------------
    def level(self, number: int) -> Level:
        if number not in self._levels:
            o = self.o
            timing = speed(number, o["start_delay"], o["flow_period"], o["delay_step"], o["period_step"])
            if self.layout is not None:
                cols, rows, cells = self.layout
                self._levels[number] = build_level(
                    number, cols, rows, cells, o["goal"], o["min_length"], timing, o["wrap"]
                )
            else:
                self._levels[number] = generated_level(
                    number,
                    o["cols"],
                    o["rows"],
                    o["goal"],
                    o["min_length"],
                    timing,
                    o["wrap"],
                    o["layout_seed"],
                )
        return self._levels[number]

    # -- moves -----------------------------------------------------------------------------
    def place_move(self, cell: int, cols: int, piece: str | None, target_prefix: str) -> Move:
        key = (cell, cols, piece, target_prefix)
        move = self._moves.get(key)
        if move is None:
            r, c = divmod(cell, cols)
            target = f"{target_prefix}{r},{c}"
            if piece is None:
                move = Move(f"p{r},{c}", (target,), ("place", cell, None))
            elif piece.startswith("@"):
                move = Move(f"p{r},{c}{piece}", (target, piece), ("place", cell, piece))
            else:
                move = Move(f"p{r},{c}:{piece}", (target, piece), ("place", cell, piece))
            self._moves[key] = move
        return move

    def new_state(self, players: int, rng: random.Random) -> PipeManiaState:
        return PipeManiaState(self, players)

    def parse(self, text: str, state: State) -> Move:
        return parse_move(state, text)

    def position(self, text: str) -> PipeManiaState:
        from .position import read_position

        return read_position(self, text)

    has_evaluation = True

    def evaluate(self, state: State, player: int) -> float:
        from .evaluation import evaluate

        return evaluate(state, player)

    def order_moves(self, state: State, moves: list[Move]) -> list[Move]:
        from .evaluation import order_moves

        return order_moves(state, moves)


DEFAULTS = {
    "cols": 10,
    "rows": 7,
    "layout": "",
    "wrap": "",
    "layout_seed": 1,
    "level": 1,
    "levels": 1,
    "goal": "connect",
    "min_length": 0,
    "start_delay": 30,
    "flow_period": 8,
    "delay_step": 4,
    "period_step": 1,
    "supply": "queue",
    "choice": "free",
    "queue_len": 5,
    "weights": "1,1,1,1,1,1,1",
    "sequence": "",
    "fixed": "",
    "replace_penalty": 50,
    "replace_delay": 2,
    "hurry": True,
    "reservoir_factor": 3,
    "channel_points": 50,
    "long_points": 100,
    "crossover_points": 500,
    "crossover_bonus": 5000,
    "crossover_bonus_count": 5,
    "bonus_points": 500,
    "unused_penalty": 100,
    "full_bonus": 10000,
    "mode": "shared",
}


@dataclass
class Board:
    level: Level
    players: tuple[int, ...]
    cells: list = field(default_factory=list)
    owner: list = field(default_factory=list)
    flooded: list = field(default_factory=list)
    tick: int = 0
    start_delay: int = 0
    flow_period: int = 1
    started: bool = False
    head: tuple | None = None
    hold: int = 0
    length: int = 0
    crossovers: int = 0
    reached: bool = False
    over: bool = False
    total_length: int = 0
    #: (level number, succeeded, length, reason) of every finished level.
    results: list = field(default_factory=list)

    def load(self, level: Level) -> None:
        self.level = level
        self.cells = list(level.cells)
        self.owner = [-1] * len(level.cells)
        self.flooded = [0] * len(level.cells)
        self.tick, self.start_delay, self.flow_period = 0, level.start_delay, level.flow_period
        self.started, self.head, self.hold = False, None, 0
        self.length = self.crossovers = 0
        self.reached = False

    def clone(self) -> Board:
        b = Board.__new__(Board)
        b.__dict__.update(self.__dict__)
        b.cells, b.owner, b.flooded, b.results = (
            list(self.cells),
            list(self.owner),
            list(self.flooded),
            list(self.results),
        )
        return b

    def key(self):
        return (
            self.level.number,
            tuple(p.id if p else "." for p in self.cells),
            tuple(self.owner),
            tuple(self.flooded),
            self.tick,
            self.start_delay,
            self.flow_period,
            self.started,
            self.head,
            self.hold,
            self.length,
            self.crossovers,
            self.reached,
            self.over,
            self.total_length,
        )

    def cell_name(self, cell: int) -> str:
        r, c = divmod(cell, self.level.cols)
        return f"{r},{c}"


class PipeManiaState(State):
    game: PipeManiaGame

    def __init__(self, game: PipeManiaGame, players: int = 1):
        super().__init__(game, players)
        level = game.level(game.first_level)
        if players == 2 and game.mode == "race":
            self.boards = [Board(level, (0,)), Board(level, (1,))]
        else:
            self.boards = [Board(level, tuple(range(players)))]
        for b in self.boards:
            b.load(level)
        self.board_of = [next(i for i, b in enumerate(self.boards) if p in b.players) for p in range(players)]
        self.scores = [0] * players
        self.lost = [0] * players
        self.replacements = [0] * players
        # Dispensers: [sequence index, pieces used]. Race mode: both players share one sequence.
        stacks = 2 if game.supply == "choice" and game.choice == "two_stacks" else 1
        self.sequences: list[list[str]] = []
        self.dispensers: list[list[list[int]]] = []
        for p in range(players):
            own = []
            for _ in range(stacks):
                if game.mode == "race" and p > 0:
                    seq = len(own) + 0  # the same sequences as player 1
                else:
                    self.sequences.append(list(game.sequence))
                    seq = len(self.sequences) - 1
                own.append([seq, 0])
            self.dispensers.append(own)
        self.pools = [dict(game.fixed_stock) for _ in range(players)]
        self.actors: list[int] = []
        self.actor_i = 0
        self.pending: int | None = None
        self.outcome = None
        self._start_tick()
        self._settle()

    # -- supply ------------------------------------------------------------------------------
    def uses_queue(self) -> bool:
        return self.game.supply == "queue" or (
            self.game.supply == "choice" and self.game.choice == "two_stacks"
        )

    def queue(self, player: int, stack: int = 0) -> list[str]:
        seq, pos = self.dispensers[player][stack]
        return self.sequences[seq][pos : pos + self.game.queue_len]

    def _refill_needed(self) -> int | None:
        if not self.uses_queue():
            return None
        for p in range(self.num_players):
            if self.boards[self.board_of[p]].over:
                continue
            for seq, pos in self.dispensers[p]:
                if len(self.sequences[seq]) < pos + self.game.queue_len:
                    return seq
        return None

    def _settle(self) -> None:
        """Set ``to_move``: a chance refill first, else the next actor of the tick."""
        if self.outcome is not None:
            self.to_move = None
            return
        self.pending = self._refill_needed()
        self.to_move = CHANCE if self.pending is not None else self.actors[self.actor_i]

    def chance_outcomes(self) -> list[tuple[Move, float]]:
        if self.to_move != CHANCE:
            return []
        total = sum(self.game.weights)
        return [
            (CHANCE_MOVES[p], w / total) for p, w in zip(PIPE_IDS, self.game.weights, strict=True) if w > 0
        ]

    # -- moves -------------------------------------------------------------------------------
    def _target_prefix(self, player: int) -> str:
        return f"{player + 1}:" if len(self.boards) > 1 else ""

    def placeable(self, board: Board, cell: int) -> bool:
        piece = board.cells[cell]
        return piece is None or (piece.replaceable and board.flooded[cell] == 0)

    def legal_moves(self) -> list[Move]:
        if self.outcome is not None:
            return []
        if self.to_move == CHANCE:
            return [m for m, _ in self.chance_outcomes()]
        p = self.to_move
        if self.lost[p] > 0:
            return [PASS]
        board = self.boards[self.board_of[p]]
        moves = [PASS]
        if self.game.o["hurry"] and not (board.started and board.flow_period == 1):
            moves.append(HURRY)
        choices = self._piece_choices(p)
        cols, prefix = board.level.cols, self._target_prefix(p)
        for cell in range(len(board.cells)):
            if self.placeable(board, cell):
                for piece in choices:
                    moves.append(self.game.place_move(cell, cols, piece, prefix))
        return moves

    def _piece_choices(self, p: int) -> list:
        g = self.game
        if g.supply == "queue":
            return [None]
        if g.supply == "fixed":
            return [k for k in PIPE_IDS if self.pools[p][k] > 0]
        if g.choice == "two_stacks":
            return ["@1", "@2"]
        return list(PIPE_IDS)

    def check_legal(self, move: Move) -> None:
        """The rules of §3.2 directly, without listing every legal move."""
        if self.to_move == CHANCE:
            if move.data is None or move.data[0] != "draw" or CHANCE_MOVES.get(move.data[1]) != move:
                raise IllegalMove(f"the dispenser is drawing a piece: expected +<piece>, not {move}", move)
            if self.game.weights[PIPE_IDS.index(move.data[1])] <= 0:
                raise IllegalMove(f"the dispenser never draws {move.data[1]}", move)
            return
        if move.data is None or move.data[0] == "draw" or move.text.startswith("+"):
            raise IllegalMove(f"{move} is a draw of the dispenser, not a player's action", move)
        p = self.to_move
        if move == PASS:
            return
        if self.lost[p] > 0 or move == HURRY:
            if move not in self.legal_moves():
                raise IllegalMove(self.why_illegal(move.text), move)
            return
        _, cell, piece = move.data
        board = self.boards[self.board_of[p]]
        expected = self.game.place_move(cell, board.level.cols, piece, self._target_prefix(p))
        if expected != move or not self.placeable(board, cell) or piece not in self._piece_choices(p):
            raise IllegalMove(self.why_illegal(move.text.lower()), move)

    def why_illegal(self, text: str) -> str:
        """Why the action ``text`` is not legal here (see ``notation.why_illegal``)."""
        from .notation import why_illegal

        return why_illegal(self, text)

    def _apply(self, move: Move):
        token = self._save()
        if self.to_move == CHANCE:
            self.sequences[self.pending].append(move.text[1:])
            self._settle()
            return token
        p = self.to_move
        kind = move.data[0]
        board = self.boards[self.board_of[p]]
        if kind == "pass":
            if self.lost[p] > 0:
                self.lost[p] -= 1
        elif kind == "hurry":
            if not board.started:
                board.start_delay = board.tick
            board.flow_period = 1
        else:
            self._place(p, board, move.data[1], move.data[2])
        self.actor_i += 1
        if self.actor_i == len(self.actors):
            for b in self.boards:
                if not b.over:
                    self._flow(b)
            self._start_tick()
        self._settle()
        return token

    def _place(self, p: int, board: Board, cell: int, choice) -> None:
        g = self.game
        if g.supply == "queue" or (choice or "").startswith("@"):
            stack = int(choice[1]) - 1 if choice else 0
            seq, pos = self.dispensers[p][stack]
            piece_id = self.sequences[seq][pos]
            self.dispensers[p][stack] = [seq, pos + 1]
        else:
            piece_id = choice
            if g.supply == "fixed":
                self.pools[p] = {**self.pools[p], piece_id: self.pools[p][piece_id] - 1}
        if board.cells[cell] is not None:  # a replacement ("bombing")
            self.scores[p] -= g.o["replace_penalty"]
            self.lost[p] = g.o["replace_delay"]
            self.replacements[p] += 1
        board.cells[cell] = BY_ID[piece_id]
        board.owner[cell] = p

    def _start_tick(self) -> None:
        self.actors = [p for p in range(self.num_players) if not self.boards[self.board_of[p]].over]
        self.actor_i = 0
        if not self.actors:
            self._finish()

    # -- the flow ----------------------------------------------------------------------------
    def _award(self, board: Board, owner: int, points: int) -> None:
        """Points of a placed piece go to its owner; of the grid itself to its players."""
        for p in (owner,) if owner >= 0 else board.players:
            self.scores[p] += points

    def _flow(self, b: Board) -> None:
        level = b.level
        if not b.started:
            if b.tick >= b.start_delay:
                b.started = True
                b.flooded[level.start[0]] = 1
                b.head = level.start
            b.tick += 1
            return
        if (b.tick - b.start_delay) % b.flow_period != 0:
            b.tick += 1
            return
        if b.hold > 0:
            b.hold -= 1
            b.tick += 1
            return
        cell, side = b.head
        nxt = level.neighbour(cell, side)
        if nxt is None:
            return self._end_level(b, f"the flow spills out of the grid at {b.cell_name(cell)}")
        piece: Piece | None = b.cells[nxt]
        entry = opposite(side)
        where = b.cell_name(nxt)
        if piece is None:
            return self._end_level(b, f"the flow spills into the empty cell {where}")
        if piece.kind == "drain":
            if piece.channels[0][0] == entry:
                b.flooded[nxt] = 1
                b.reached = True
                return self._end_level(b, f"the flow reaches the drain at {where}")
            return self._end_level(b, f"the flow spills against the closed side of the drain at {where}")
        ch = piece.channel_at(entry) if piece.kind not in ("blocked", "start") else None
        if ch is None or b.flooded[nxt] >> ch & 1 or (piece.kind == "oneway" and entry != piece.entry):
            return self._end_level(b, f"the flow spills at {where}: no open channel there")
        g = self.game.o
        b.flooded[nxt] |= 1 << ch
        b.length += 1
        owner = b.owner[nxt]
        self._award(b, owner, g["channel_points"] if b.length <= level.min_length else g["long_points"])
        if len(piece.channels) == 2 and b.flooded[nxt] == 3:
            b.crossovers += 1
            self._award(b, owner, g["crossover_points"])
        if piece.kind in ("reservoir", "bonus"):
            self._award(b, owner, g["bonus_points"])
        if piece.kind == "reservoir":
            b.hold = g["reservoir_factor"] - 1
        b.head = (nxt, piece.other_end(ch, entry))
        b.tick += 1

    def _end_level(self, b: Board, reason: str) -> None:
        g = self.game.o
        level = b.level
        success = b.length >= level.min_length and (level.goal == "length" or b.reached)
        if b.crossovers >= g["crossover_bonus_count"]:
            self._award(b, -1, g["crossover_bonus"])
        for cell, owner in enumerate(b.owner):
            if owner >= 0 and b.flooded[cell] == 0:
                self.scores[owner] -= g["unused_penalty"]
        if all(p is not None and (p.kind == "blocked" or b.flooded[i]) for i, p in enumerate(b.cells)):
            self._award(b, -1, g["full_bonus"])
        verdict = "succeeds" if success else "fails"
        b.results.append((level.number, success, b.length, f"level {level.number} {verdict}: {reason}"))
        b.total_length += b.length
        if success and level.number < self.game.last_level:
            b.load(self.game.level(level.number + 1))
            for p in b.players:
                self.pools[p] = dict(self.game.fixed_stock)
        else:
            b.over = True
            b.tick += 1

    def _finish(self) -> None:
        self.outcome = self._result().with_cells(self._flowed_cells())

    def _result(self) -> Outcome:
        last = [b.results[-1][3] for b in self.boards]
        scores = tuple(self.scores)
        if self.num_players == 1:
            won = self.boards[0].results[-1][1]
            return Outcome((0,) if won else (), scores, last[0])
        if self.scores[0] != self.scores[1]:
            winner = 0 if self.scores[0] > self.scores[1] else 1
            return Outcome((winner,), scores, f"player {winner + 1} scores more; " + "; ".join(last))
        if len(self.boards) == 2 and self.boards[0].total_length != self.boards[1].total_length:
            winner = 0 if self.boards[0].total_length > self.boards[1].total_length else 1
            return Outcome((winner,), scores, f"equal scores; player {winner + 1} has the longer pipeline")
        return Outcome((), scores, "equal scores: a draw; " + "; ".join(last))

    def _flowed_cells(self) -> list[str]:
        """The cells the flow went through on each grid's last level, start and drain
        included, named as the moves name them (``r,c``; ``2:r,c`` on player 2's race grid)."""
        out = []
        for b in self.boards:
            prefix = self._target_prefix(b.players[0])
            out += [prefix + b.cell_name(cell) for cell, wet in enumerate(b.flooded) if wet]
        return out

    # -- undo, copy, key -----------------------------------------------------------------------
    def _save(self):
        return (
            [b.clone() for b in self.boards],
            list(self.scores),
            list(self.lost),
            list(self.replacements),
            [len(s) for s in self.sequences],
            [[list(d) for d in own] for own in self.dispensers],
            [dict(pl) for pl in self.pools],
            list(self.actors),
            self.actor_i,
            self.to_move,
            self.pending,
            self.outcome,
        )

    def _revert(self, token) -> None:
        # The token is copied again: copies of a state share their undo tokens.
        (boards, scores, lost, repl, lengths, disp, pools, actors, actor_i, to_move, pending, outcome) = token
        self.boards = [b.clone() for b in boards]
        self.scores, self.lost, self.replacements = list(scores), list(lost), list(repl)
        for seq, n in zip(self.sequences, lengths, strict=True):
            del seq[n:]
        self.dispensers = [[list(d) for d in own] for own in disp]
        self.pools = [dict(pl) for pl in pools]
        self.actors, self.actor_i = list(actors), actor_i
        self.to_move, self.pending, self.outcome = to_move, pending, outcome

    def _copy_parts(self, new: PipeManiaState) -> None:
        new.boards = [b.clone() for b in self.boards]
        new.scores, new.lost, new.replacements = list(self.scores), list(self.lost), list(self.replacements)
        new.sequences = [list(s) for s in self.sequences]
        new.dispensers = [[list(d) for d in own] for own in self.dispensers]
        new.pools = [dict(pl) for pl in self.pools]
        new.actors = list(self.actors)

    def key(self):
        visible = tuple(
            tuple(tuple(self.sequences[seq][pos:]) for seq, pos in own) for own in self.dispensers
        )
        return (
            tuple(b.key() for b in self.boards),
            tuple(self.scores),
            tuple(self.lost),
            visible,
            tuple(tuple(sorted(pl.items())) for pl in self.pools),
            self.actor_i,
            self.to_move,
        )

    # -- views --------------------------------------------------------------------------------
    def seat_colours(self) -> list[tuple[str, str]]:
        if self.num_players == 1:
            return []
        from .render import _COLOURS

        return [(name, _COLOURS[p]) for p, name in enumerate(("Red", "Blue"))]

    def text(self) -> str:
        from .render import text

        return text(self)

    def svg(self) -> str:
        from .render import svg

        return svg(self)

    def position(self) -> str:
        from .position import write_position

        return write_position(self)


# The notation reads States but imports only board.py (and rules.py only for type hints),
# so it is imported last, once: parsing is on the path of every played text.
from .notation import parse_move  # noqa: E402
