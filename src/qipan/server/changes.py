"""What one change of a live game did, as the modules of the game's concerns (moves.py,
offers.py, seating.py, timers.py) return it: the manager stores it in the matching write,
publishes it and tells the listeners (manager.py). Nothing here does I/O."""

from __future__ import annotations

from dataclasses import dataclass, field

from .storage import StoredMove


@dataclass(frozen=True)
class Played:
    """Moves added at the end of the record from ply ``first``: a seat's move and the
    chance moves after it."""

    first: int
    moves: list[StoredMove]
    #: The real-time moves (queued rows) this tick plays or drops, deleted in the same write.
    taken: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class TakenBack:
    """Moves taken back by agreement: the record keeps its first ``keep``."""

    keep: int


@dataclass(frozen=True)
class RowChanged:
    """The game row changed (seats, status, result, clock or offers), no move."""


#: None: nothing but what settling the game changes (a finish, a clock to start).
Change = Played | TakenBack | RowChanged | None
