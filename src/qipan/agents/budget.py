"""Time management: how many seconds of a clock budget one move may take.

A bot with a clock (seconds left, an increment after each of its moves, perhaps a number of
moves to the next time control) should neither flag nor leave most of its time unused. Each
move gets a *target* (a share of the remaining time plus most of the increment) and a hard
*limit* (a few targets, never more than a fraction of what is left, always short of the flag
by a reserve). An agent that searches by iterative deepening stops near the target and goes
on towards the limit only where the position is critical: when its best move changed or its
score fell at the last iteration (see ``AlphaBetaAgent``). A forced move takes no time."""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..core.errors import OptionError

#: Moves a sudden-death budget is spread over (its share shrinks as the time does, so the
#: clock is never emptied: each move takes 1/HORIZON of what is left).
HORIZON = 25
#: Seconds kept back from the flag for what the move costs beyond the search: the agent
#: noticing its deadline, the move reaching the server, the server's clock being read.
RESERVE_SECONDS = 0.05
RESERVE_SHARE = 0.05
#: Of the increment, the share spent on the move it is earned by.
INCREMENT_SHARE = 0.8
#: A critical move may take this many targets, but never more than this share of the time.
EXTENSION = 3.0
LIMIT_SHARE = 0.3
#: The shortest time an agent is given: it must still answer when the clock is nearly out.
MINIMUM_SECONDS = 0.005


@dataclass(frozen=True)
class Budget:
    """A player's clock as an agent sees it: ``remaining`` seconds (on the agents' clock),
    ``increment`` seconds added after each of its moves, ``moves_to_go`` moves until more
    time arrives (None: the rest of the game; 1: a per-move clock)."""

    remaining: float
    increment: float = 0.0
    moves_to_go: int | None = None

    def __post_init__(self):
        if not math.isfinite(self.remaining):
            raise OptionError(f"a clock budget needs a finite remaining time, not {self.remaining}")
        if not (math.isfinite(self.increment) and self.increment >= 0):
            raise OptionError(f"a clock increment must be zero or more seconds, not {self.increment}")
        if self.moves_to_go is not None and self.moves_to_go < 1:
            raise OptionError(f"moves to go must be at least 1, not {self.moves_to_go}")

    @classmethod
    def per_move(cls, seconds: float) -> Budget:
        """A clock that gives ``seconds`` for every move (nothing carries over)."""
        return cls(seconds, 0.0, 1)


@dataclass(frozen=True)
class Allotment:
    """Seconds for one move: aim for ``target``, never go beyond ``limit``."""

    target: float
    limit: float


def allot(budget: Budget, legal_moves: int = 2) -> Allotment:
    """The time one move may take out of ``budget`` when it has ``legal_moves`` choices."""
    remaining = budget.remaining
    reserve = RESERVE_SECONDS + RESERVE_SHARE * max(remaining, 0.0)
    usable = remaining - reserve
    if usable <= MINIMUM_SECONDS or legal_moves <= 1:
        # Nearly out of time, or nothing to think about: answer at once.
        return Allotment(MINIMUM_SECONDS, MINIMUM_SECONDS)
    if budget.moves_to_go == 1:
        # Time does not carry over to the next move: use most of it, keep the reserve.
        return Allotment(max(MINIMUM_SECONDS, 0.6 * usable), usable)
    moves = budget.moves_to_go or HORIZON
    target = usable / moves + INCREMENT_SHARE * budget.increment
    # The increment is earned after the move: it cannot pay for more than the clock holds now.
    ceiling = LIMIT_SHARE * usable if moves > 1 else usable
    target = max(MINIMUM_SECONDS, min(target, ceiling))
    limit = max(target, min(EXTENSION * target, ceiling))
    return Allotment(target, limit)
