"""What a game provides to be solved: an indexed position space.

A space is a list of *segments* (sub-databases), each with a perfect index 0 .. size-1, and a
grouping of the segments into *components*: segments that moves lead back and forth between
(in Morris, the two sides to move of the same stone counts) are solved together; every other
move leads into a component solved earlier, so the components form a DAG.

``expand(key)`` lists the successors of every position of one segment in CSR form:
``start`` (size + 1 offsets), and for each move the destination segment number (the order of
``segments()``) and index, or :data:`WIN_NOW` / :data:`DRAW_NOW` for a move that ends the game
at once; ``terminal`` marks positions without moves (1: the side to move has lost, 2: drawn)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from .jit import np

#: Destination of a move that wins at once (the opponent is left lost, distance 0).
WIN_NOW = -2
#: Destination of a move that ends the game drawn at once.
DRAW_NOW = -3


@dataclass(frozen=True)
class Segment:
    key: tuple
    label: str  # file-name safe, unique in the space
    size: int


@dataclass
class Expansion:
    start: np.ndarray  # int64[size + 1]
    dest_segment: np.ndarray  # int32 or int64[moves]: segment number, WIN_NOW or DRAW_NOW
    dest_index: np.ndarray  # int32 or int64[moves]
    terminal: np.ndarray  # int8[size]: 0 = has moves, 1 = lost, 2 = drawn


class PositionSpace(Protocol):
    def describe(self) -> dict:
        """JSON data naming the game, its rules and the index layout (goes in the manifest;
        two spaces with the same description have the same tables)."""

    def segments(self) -> list[Segment]: ...

    def components(self) -> list[tuple[tuple, ...]]:
        """Segment keys grouped into components (any order)."""

    def dependencies(self, key: tuple) -> set[tuple]:
        """Keys of the segments a move from segment ``key`` can lead into."""

    def expand(self, key: tuple) -> Expansion: ...
