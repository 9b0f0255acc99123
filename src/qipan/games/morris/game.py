"""The Morris Game: registry options -> MorrisRules -> states."""

from __future__ import annotations

import random
from dataclasses import fields

from ...core.errors import OptionError
from ...core.game import Game
from ...core.move import Move
from . import evaluate as _evaluate
from . import notation
from .rules import MorrisRules, tables_for
from .state import MorrisState

_RULE_FIELDS = {f.name for f in fields(MorrisRules)}
#: Registry option name -> MorrisRules field, where they differ.
_RENAMED = {"diagonal_mills": "diagonals", "diagonal_lines": "diagonals"}


class MorrisGame(Game):
    family = "morris"

    def __init__(self, variant: dict, **options):
        super().__init__(**options)
        self.id = variant["id"]
        self.title = variant["title"]
        params = dict(variant["rules"])
        for name, value in options.items():
            field = _RENAMED.get(name, name)
            if field not in _RULE_FIELDS:
                raise OptionError(f"{self.id} has no option {name!r}")
            params[field] = value
        rules = MorrisRules(**params)
        points = {"nine": 24, "twelve": 24, "six": 16, "three": 9}[rules.board]
        if 2 * rules.stones > points:
            raise OptionError(f"stones={rules.stones} is too many for a {points}-point board")
        self.rules = rules
        self.tables = tables_for(rules)

    def new_state(self, players: int, rng: random.Random) -> MorrisState:
        first = {"white": 0, "black": 1}.get(self.rules.first_player)
        if first is None:
            first = rng.randrange(2)  # first_player=random: the seed decides (the seed's die)
        return MorrisState(self, players, first)

    def parse(self, text: str, state: MorrisState) -> Move:
        return notation.parse(state, text)

    def position(self, text: str) -> MorrisState:
        return notation.read_position(self, text)

    has_evaluation = True

    def evaluate(self, state: MorrisState, player: int) -> float:
        return _evaluate.evaluate(state, player)

    def order_moves(self, state: MorrisState, moves: list[Move]) -> list[Move]:
        return _evaluate.order_moves(state, moves)
