"""The solitaire puzzles as one-player games (rules/tantrix.md 4.4): the rules of the
``tantrix-solitaire`` presets, a Game and State of their own beside ``rules.py`` (the 2-4
player game): they share the board (``board.Layout``) and the notation, not the turns,
draws, restrictions or scoring.

* Discovery (DEFAULT solo mode): place tiles 1..n, all touching edges matching, to make one
  loop of the puzzle colour (tile n's back colour) through every tile without a hole.
* Flower (option ``puzzle=flower``): 7 tiles drawn from the bag (chance moves), one in the
  centre and six around it, every edge matching.

The player wins by solving the puzzle; the game ends unsolved when the tiles are all
placed without a solution or no tile fits anywhere."""

from __future__ import annotations

import random
from bisect import insort

from ...core import CHANCE, Game, IllegalMove, Move, Outcome, QipanError, State
from .board import (
    ALL_NUMBERS,
    COLOUR_NAMES,
    FLOWER_CELLS,
    TILES,
    Cell,
    Layout,
    fitting,
    side_pattern,
    tracks,
)
from .notation import draw_move, explain_illegal, parse_move, placement_move
from .solver import discovery_colour, discovery_solutions, is_discovery_solution


class SolitaireGame(Game):
    id = "tantrix-solitaire"
    title = "Tantrix solitaire"
    family = "tantrix"
    action_space = "qipan.games.tantrix.actions:TantrixActions"
    players = (1,)
    pictures = (("tiles", "qipan.games.tantrix.render:gallery_svg"),)  # the 56 tiles by number
    #: The agent places from a solution whenever one extends the board (test_solitaire.py).
    solved_by = ("tantrix",)

    def __init__(self, **options):
        options.setdefault("puzzle", "discovery")
        options.setdefault("n", 3)
        options.setdefault("colour", "")
        super().__init__(**options)
        colour = self.options["colour"].upper()
        n = self.options["n"]
        if self.options["puzzle"] == "discovery":
            colour = colour or discovery_colour(n)
            if colour not in "".join(TILES[t].edges for t in range(1, n + 1)) or len(colour) != 1:
                raise QipanError(f"colour={colour!r}: the tiles 1..{n} have no such colour (R, Y, B)")
            self.title = f"Tantrix Discovery puzzle ({n} tiles, {COLOUR_NAMES[colour]} loop)"
        else:
            self.title = "Tantrix Flower puzzle"
        self.colour = colour

    def new_state(self, players: int, rng: random.Random) -> SolitaireState:
        return SolitaireState(self)

    def parse(self, text: str, state: State) -> Move:
        return parse_move(state, text)

    def position(self, text: str) -> SolitaireState:
        from .position import read_position

        return read_position(self, text)


class SolitaireState(Layout, State):
    def __init__(self, game: SolitaireGame):
        super().__init__(game, 1)
        self.flower = game.options["puzzle"] == "flower"
        self.board: dict[Cell, tuple[int, int]] = {}
        self.edges: dict[Cell, str] = {}
        self.counts: dict[Cell, int] = {}
        self.hand: list[int] = [] if self.flower else list(range(1, game.options["n"] + 1))
        self.bag: set[int] = set(ALL_NUMBERS) if self.flower else set()
        self.outcome = None
        self._settle()

    @property
    def hands(self) -> list[list[int]]:
        return [self.hand]

    @property
    def dealing(self) -> bool:
        return self.flower and len(self.hand) + len(self.board) < 7

    def _settle(self) -> None:
        if self.dealing:
            self.to_move, self._moves = CHANCE, [draw_move(t) for t in sorted(self.bag)]
            return
        if not self.hand:
            solved = self._solved()
            reason = "solved" if solved else "all tiles placed, but this is not a solution"
            cells = tuple(f"{q},{r}" for q, r in self._solution_cells()) if solved else ()
            self.outcome = Outcome((0,) if solved else (), (1.0 if solved else 0.0,), reason, cells)
            self.to_move, self._moves = None, []
            return
        moves = self._placements()
        if not moves:
            self.outcome = Outcome((), (0.0,), "no tile in hand fits anywhere")
            self.to_move, self._moves = None, []
            return
        self.to_move, self._moves = 0, moves

    def _solved(self) -> bool:
        if self.flower:
            return len(self.board) == 7
        return is_discovery_solution(self.board, self.game.colour)

    def _solution_cells(self) -> list[Cell]:
        """What a solution shows: the full flower, or the Discovery loop in its order."""
        if self.flower:
            return sorted(self.board)
        return tracks(self.edges, self.game.colour)[0][0]

    def _placements(self) -> list[Move]:
        if self.flower:
            cells = [c for c in sorted(FLOWER_CELLS) if c not in self.edges]
        elif not self.edges:
            cells = [(0, 0)]
        else:
            cells = sorted(self.counts)
        out = []
        for cell in cells:
            fit = fitting(side_pattern(self.edges, cell))
            for tile in self.hand:
                for rot in fit.get(tile, ()):
                    out.append(placement_move(tile, cell, rot, False))
        return out

    def legal_moves(self) -> list[Move]:
        return list(self._moves)

    def chance_outcomes(self) -> list[tuple[Move, float]]:
        if self.to_move != CHANCE:
            return []
        return [(m, 1.0 / len(self._moves)) for m in self._moves]

    def check_legal(self, move: Move) -> None:
        if move not in self._moves:
            raise IllegalMove(explain_illegal(self, move), move)

    def _apply(self, move: Move):
        saved = (self.to_move, self.outcome, self._moves)
        if move.data[0] == "draw":
            tile = move.data[1]
            self.bag.remove(tile)
            insort(self.hand, tile)
        else:
            _, tile, cell, rot, _ = move.data
            self.hand.remove(tile)
            self._place(tile, cell, rot)
        self._settle()
        return move.data, saved

    def _revert(self, token) -> None:
        data, (self.to_move, self.outcome, self._moves) = token
        if data[0] == "draw":
            self.hand.remove(data[1])
            self.bag.add(data[1])
            return
        insort(self.hand, self._unplace(data[2]))

    def solutions(self) -> list[list[tuple[Cell, int, int]]]:
        """For the Discovery puzzle from the start: every solution (placements), tile 1 at
        the origin in rotation 0."""
        if self.flower:
            from .solver import flower_solutions

            return list(flower_solutions(sorted(self.hand + [t for t, _ in self.board.values()])))
        return list(discovery_solutions(self.game.options["n"], self.game.colour))

    def key(self):
        return (frozenset(self.board.items()), tuple(self.hand), frozenset(self.bag), self.to_move)

    def _copy_parts(self, new: SolitaireState) -> None:
        super()._copy_parts(new)  # the table: board, edges, counts
        new.hand, new.bag = list(self.hand), set(self.bag)

    def _spaces(self) -> dict[Cell, int]:
        """The empty cells a tile may go to, for the pictures."""
        if self.flower:
            return {c: 0 for c in FLOWER_CELLS if c not in self.edges}
        return dict(self.counts) if self.edges else {(0, 0): 0}

    def text(self) -> str:
        from .render import solitaire_text

        return solitaire_text(self)

    def svg(self) -> str:
        from .render import solitaire_svg

        return solitaire_svg(self)

    def position(self) -> str:
        from .position import write_position

        return write_position(self)
