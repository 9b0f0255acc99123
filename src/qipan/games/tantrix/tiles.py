"""The 56 Tantrix tiles: official numbers, edge colours, link types and rotations.

The table ships with the package (``tiles.tsv``). Edge index d = 0..5 is NE, E, SE, SW, W, NW
of a pointy-top hexagon; with rotation k (60° clockwise turns) the colour at edge d is
``edges[(d - k) % 6]``."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources
from types import MappingProxyType

COLOUR_NAMES = {"R": "red", "Y": "yellow", "G": "green", "B": "blue"}


@dataclass(frozen=True)
class Tile:
    number: int
    edges: str
    kind: str  # brid, sint, rond or chin
    back: str | None  # colour of the printed number, known for tiles 1-10 only
    #: Every rotation k -> the oriented edge string.
    oriented: tuple[str, ...]

    @property
    def colours(self) -> str:
        return "".join(sorted(set(self.edges)))

    def links(self, rotation: int = 0) -> list[tuple[str, int, int]]:
        """The three links (colour, edge a, edge b) with a < b, in the given rotation."""
        oriented = self.oriented[rotation]
        out = []
        for colour in sorted(set(oriented)):
            a, b = (d for d in range(6) if oriented[d] == colour)
            out.append((colour, a, b))
        return out


def rotate(edges: str, k: int) -> str:
    """The edge string after k clockwise 60° turns: colour at d is edges[(d - k) % 6]."""
    return "".join(edges[(d - k) % 6] for d in range(6))


def link_kind(a: int, b: int) -> str:
    gap = min((a - b) % 6, (b - a) % 6)
    return {1: "sharp", 2: "gentle", 3: "straight"}[gap]


def _load() -> dict[int, Tile]:
    text = resources.files(__package__).joinpath("tiles.tsv").read_text(encoding="utf-8")
    tiles = {}
    rows = [line.split("\t") for line in text.splitlines() if line and not line.startswith("#")]
    for row in rows[1:]:
        number, edges, kind, back = int(row[0]), row[1], row[2], row[6]
        oriented = tuple(rotate(edges, k) for k in range(6))
        # Three different colours: no tile looks the same in two rotations, so all 6 are distinct.
        tiles[number] = Tile(number, edges, kind, None if back == "?" else back, oriented)
    return tiles


TILES: dict[int, Tile] = _load()
ALL_NUMBERS: tuple[int, ...] = tuple(sorted(TILES))
#: ORIENTED[tile][rot] -> edge string, the hot-path table.
ORIENTED: dict[int, tuple[str, ...]] = {n: t.oriented for n, t in TILES.items()}


@cache
def fitting(pattern: str) -> MappingProxyType[int, tuple[int, ...]]:
    """Which tiles fit a space and in which rotations: ``pattern`` gives the colour each
    side d must show (``"."``: no neighbour there). Memoised: the agent asks this for
    every end of every position it evaluates, and the patterns are few."""
    out = {}
    for tile, turns in ORIENTED.items():
        rots = tuple(
            k for k, o in enumerate(turns) if all(p in (".", c) for p, c in zip(pattern, o, strict=True))
        )
        if rots:
            out[tile] = rots
    return MappingProxyType(out)  # shared by every caller: read-only
