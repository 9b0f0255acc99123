"""qipan (棋盤): rules, AI and play for Black Path, Trax, Pipe Mania, Tantrix, the Morris
family, Pente and MOD X.

    >>> import qipan
    >>> state = qipan.load("nine-mens-morris").new()
    >>> state.play("d2")
"""

from . import agents  # noqa: E402  (qipan.agents.load works right after import qipan)
from .core import (
    CHANCE,
    Game,
    GameSpec,
    IllegalMove,
    Move,
    NotationError,
    Option,
    OptionError,
    Outcome,
    QipanError,
    RecordError,
    State,
    load,
    resolve_chance,
    spec,
    specs,
)

__version__ = "0.1.0"


def games() -> list[GameSpec]:
    """Every registered game and preset."""
    return specs()


__all__ = [
    "CHANCE",
    "agents",
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
    "games",
    "load",
    "resolve_chance",
    "spec",
    "specs",
]
