"""The contract: Game, State, Move, Outcome, errors, registry and records."""

from .errors import IllegalMove, NotationError, OptionError, QipanError, RecordError, SearchTimeout
from .game import CHANCE, Game, State, resolve_chance, sample_chance
from .move import Move
from .outcome import Outcome
from .registry import GameSpec, Option, load, register, spec, specs

__all__ = [
    "CHANCE",
    "Game",
    "GameSpec",
    "IllegalMove",
    "Move",
    "NotationError",
    "Option",
    "OptionError",
    "Outcome",
    "QipanError",
    "RecordError",
    "State",
    "load",
    "register",
    "resolve_chance",
    "sample_chance",
    "SearchTimeout",
    "spec",
    "specs",
]
