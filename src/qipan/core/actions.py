"""A fixed enumeration of a game's moves and a tensor view of its positions, for programs
that want integers and arrays instead of Moves (reinforcement learning, OpenSpiel).

A game package declares one in its ``actions.py`` and returns it from ``Game.actions()``;
only the package knows its moves, so nothing here names a game. Stdlib only: observations
are flat lists of floats in row-major order of ``observation_shape``; the adapters in
``qipan.rl`` turn them into arrays."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import IllegalMove, QipanError

if TYPE_CHECKING:
    from .game import Game, State
    from .move import Move


class ActionSpace:
    """Action index <-> Move for one game with its options fixed.

    Subclasses set ``size`` and ``description`` and implement ``index``,
    ``observation_shape`` and ``observe``. ``index`` must give different legal moves of one
    state different indices; it may return None for a move outside a bounded window (an
    unbounded board), and such a move is then not offered. Chance moves get no index: the
    drivers resolve chance with their own seeded generator."""

    #: Number of actions: every index is in ``range(size)``.
    size: int = 0
    #: How the indices are laid out, for users (docs and ``qipan.rl``).
    description: str = ""
    #: The most chance moves a chance node can have (0: the game has no chance nodes).
    chance_outcomes: int = 0
    #: An upper bound on a game's plies, chance moves included, where the rules give one
    #: (OpenSpiel asks for one); the default says no smaller bound is known.
    max_game_length: int = 100_000
    #: ``"module:Class"`` of a batched twin (B games stepped at once in compiled code:
    #: ``init(seed)``, ``step(actions)``, ``observe()``, ``legal_action_mask()``), or None.
    batched: str | None = None

    def __init__(self, game: Game):
        self.game = game

    # -- to implement ------------------------------------------------------------------
    def index(self, state: State, move: Move) -> int | None:
        """The action index of the legal move ``move`` of ``state`` (None: not representable)."""
        raise NotImplementedError

    def observation_shape(self, players: int) -> tuple[int, ...]:
        """Shape of ``observe``'s tensor for a game of ``players`` players (planes first)."""
        raise NotImplementedError

    def observe(self, state: State, player: int) -> list[float]:
        """The position as ``player`` sees it, flattened row-major; values in [0, 1]."""
        raise NotImplementedError

    # -- provided ------------------------------------------------------------------------
    def legal(self, state: State) -> dict[int, Move]:
        """Action index -> legal move of a player's turn (empty at a chance node or the end)."""
        if state.outcome is not None or state.is_chance:
            return {}
        out: dict[int, Move] = {}
        for move in state.legal_moves():
            a = self.index(state, move)
            if a is None:
                continue
            if not 0 <= a < self.size:
                raise QipanError(f"{self.game.preset}: action {a} of {move} is outside 0..{self.size - 1}")
            if a in out:
                raise QipanError(f"{self.game.preset}: {out[a]} and {move} share action {a}")
            out[a] = move
        return out

    def legal_actions(self, state: State) -> list[int]:
        return sorted(self.legal(state))

    def move(self, state: State, action: int) -> Move:
        """The legal move ``action`` stands for in ``state``; IllegalMove if there is none."""
        found = self.legal(state).get(action)
        if found is None:
            raise IllegalMove(f"action {action} is not a legal move here", action)
        return found


class Planes:
    """A zeroed (channels, rows, cols) tensor as a flat list, filled by ``set``."""

    def __init__(self, channels: int, rows: int, cols: int):
        self.shape = (channels, rows, cols)
        self.rows, self.cols = rows, cols
        self.data = [0.0] * (channels * rows * cols)

    def set(self, channel: int, row: int, col: int, value: float = 1.0) -> None:
        self.data[(channel * self.rows + row) * self.cols + col] = value

    def fill(self, channel: int, value: float) -> None:
        start = channel * self.rows * self.cols
        self.data[start : start + self.rows * self.cols] = [value] * (self.rows * self.cols)


def seat_order(player: int, players: int) -> list[int]:
    """The players as ``player`` sees them: itself first, then the others in turn order,
    so an observation is the same for every seat."""
    return [(player + k) % players for k in range(players)]
