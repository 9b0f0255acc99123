"""The Tantrix board as data: the hex grid, the 56 tiles, the tracks they form and the
tiles on the table. Everything else in the package builds on this module (rules, notation,
rendering, the evaluation and the solvers import from here, never the other way).

Grid: pointy-top hexagons in axial coordinates (q, r). Direction d = 0..5 clockwise from
the upper right: NE, E, SE, SW, W, NW; the opposite edge of d is (d + 3) % 6.

Tiles: the table ships with the package (``tiles.tsv``). Edge index d is the direction
above; with rotation k (60° clockwise turns) the colour at edge d is ``edges[(d - k) % 6]``.

Tracks: maximal chains of same-coloured links, open (lines) or closed (loops). Each tile
holds at most one link of a colour, so a track visits a tile at most once. A line is worth
1 per tile, a loop 2 per tile (rules 4.3, "End and scoring")."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources
from types import MappingProxyType

#: The phases of a game (start-order draws, dealing, play) and the free step of a turn
#: (step 1: forced fills, 2: the free placement, 3: forced fills again).
ORDER, DEAL, PLAY = "order", "deal", "play"
FREE = 2

# -- the hex grid ----------------------------------------------------------------------
DIRECTIONS = ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))
DIRECTION_NAMES = ("NE", "E", "SE", "SW", "W", "NW")
#: The Flower puzzle's cells: the centre and the six around it.
FLOWER_CELLS = ((0, 0),) + DIRECTIONS

Cell = tuple[int, int]


def neighbour(cell: Cell, d: int) -> Cell:
    dq, dr = DIRECTIONS[d]
    return (cell[0] + dq, cell[1] + dr)


@cache
def neighbours(cell: Cell) -> tuple[Cell, ...]:
    """The six neighbours in direction order (memoised: the closure test and every random
    playout ask for them constantly, over a bounded set of cells)."""
    q, r = cell
    return tuple((q + dq, r + dr) for dq, dr in DIRECTIONS)


def side_pattern(edges: dict[Cell, str], cell: Cell) -> str:
    """The colour each neighbour shows towards ``cell``, side by side ("." where empty):
    neighbour d shows its side (d + 3) % 6 (written out: every fits memo miss asks)."""
    get = edges.get
    n0, n1, n2, n3, n4, n5 = neighbours(cell)
    e0, e1, e2, e3, e4, e5 = get(n0), get(n1), get(n2), get(n3), get(n4), get(n5)
    return (
        ("." if e0 is None else e0[3])
        + ("." if e1 is None else e1[4])
        + ("." if e2 is None else e2[5])
        + ("." if e3 is None else e3[0])
        + ("." if e4 is None else e4[1])
        + ("." if e5 is None else e5[2])
    )


def distance(a: Cell, b: Cell) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


def rotate_cell(cell: Cell, k: int) -> Cell:
    """The cell turned k × 60° clockwise about the origin (maps direction d to d + k)."""
    q, r = cell
    for _ in range(k % 6):
        # In cube coordinates (x, y, z) = (q, -q - r, r) a clockwise turn is (-z, -x, -y).
        q, r = -r, q + r
    return (q, r)


def mismatch(edges: dict[Cell, str]) -> tuple[Cell, Cell] | None:
    """The first two touching tiles whose touching edges show different colours, or None."""
    for (q, r), e in edges.items():
        for d in (0, 1, 2):  # NE, E, SE: every touching pair is looked at once
            dq, dr = DIRECTIONS[d]
            other = edges.get((q + dq, r + dr))
            if other is not None and other[d + 3] != e[d]:
                return (q, r), (q + dq, r + dr)
    return None


def neighbour_counts(occupied) -> dict[Cell, int]:
    """For every empty cell next to an occupied one: how many occupied neighbours it has."""
    counts: dict[Cell, int] = {}
    for cell in occupied:
        for nb in neighbours(cell):
            if nb not in occupied:
                counts[nb] = counts.get(nb, 0) + 1
    return counts


def three_in_a_row(cell: Cell, occupied) -> bool:
    """Do three consecutive sides of ``cell`` touch tiles (``occupied``: a container of
    cells)? The seed's forced space, "a notch formed by three consecutive sides"
    (option ``forced_space=consecutive``, rules 4.5.1)."""
    taken = [nb in occupied for nb in neighbours(cell)]
    return any(taken[d] and taken[(d + 1) % 6] and taken[(d + 2) % 6] for d in range(6))


class AnyOf:
    """Membership in either of two containers (the tiles and the virtually filled cells)."""

    def __init__(self, a, b):
        self.a, self.b = a, b

    def __contains__(self, item) -> bool:
        return item in self.a or item in self.b


def geometry_allows(occupied, counts: dict[Cell, int], cell: Cell, consecutive: bool = False) -> bool:
    """The colour-blind closure test of R2 + R3 (rules 4.5.4) for placing at ``cell``.
    ``consecutive``: a forced space is the seed's (three consecutive sides), not any three.

    ``occupied`` holds the occupied cells, ``counts`` their empty neighbours' counts.
    Virtually fill forced spaces one at a time, the lowest first; the placement is illegal
    as soon as an empty cell would have four occupied neighbours or two forced spaces touch.

    It runs for every space of every table a playout or an evaluation asks about, so:
    a virtually filled cell's count is set far below any count (six more neighbours
    cannot bring it to 3), and two forced spaces touching is checked when a space
    becomes forced (they touch from then until one is filled, which fails anyway)."""
    get = counts.get
    virtual = {cell}
    around = AnyOf(occupied, virtual) if consecutive else None
    forced = {c for c, n in counts.items() if n >= 3 and c != cell}
    if consecutive:
        forced = {c for c in forced if three_in_a_row(c, occupied)}
    touching = any(nb in forced for f in forced for nb in neighbours(f))
    extra = {cell: _VIRTUAL}  # virtually filled cells and the empty ones they touch
    filled = cell
    while True:
        for nb in neighbours(filled):
            if nb in occupied:
                continue
            k = extra.get(nb, 0) + 1
            extra[nb] = k
            total = get(nb, 0) + k
            if total >= 3:
                if total >= 4:
                    return False
                if consecutive and not three_in_a_row(nb, around):
                    continue  # three tiles, not on consecutive sides: no forced space
                if not touching:
                    touching = any(other in forced for other in neighbours(nb))
                forced.add(nb)
        if not forced:
            return True
        if touching:
            return False
        filled = min(forced)
        forced.discard(filled)
        extra[filled] = _VIRTUAL
        virtual.add(filled)


#: ``geometry_allows``' extra count of a virtually filled cell: never forced again.
_VIRTUAL = -7


# -- the tiles -------------------------------------------------------------------------
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


#: COLOUR_SIDES[tile][rot][colour]: the sides (bit d) where that turn of the tile shows it.
COLOUR_SIDES: dict[int, tuple[dict[str, int], ...]] = {
    n: tuple({c: sum(1 << d for d in range(6) if o[d] == c) for c in "RYGB"} for o in turns)
    for n, turns in ORIENTED.items()
}
#: Every (tile, rotation) as a bit (tile order, then rotation), and for each side d and
#: colour the bits of those that show that colour there: a pattern's fits are the AND of
#: its sides' masks, so a pattern not met before costs a few integer operations.
_TURNS: tuple[tuple[int, int], ...] = tuple((t, k) for t in ALL_NUMBERS for k in range(6))
_SHOWS: dict[tuple[int, str], int] = {}
for _bit, (_tile, _k) in enumerate(_TURNS):
    for _d, _colour in enumerate(ORIENTED[_tile][_k]):
        _SHOWS[_d, _colour] = _SHOWS.get((_d, _colour), 0) | 1 << _bit
_ALL_TURNS = (1 << len(_TURNS)) - 1


@cache
def fitting(pattern: str) -> MappingProxyType[int, tuple[int, ...]]:
    """Which tiles fit a space and in which rotations (tile order, rotations ascending):
    ``pattern`` gives the colour each side d must show (``"."``: no neighbour there).
    Memoised: the agent asks this for every end of every position it evaluates."""
    mask = _ALL_TURNS
    for d, colour in enumerate(pattern):
        if colour != ".":
            mask &= _SHOWS.get((d, colour), 0)
    out: dict[int, tuple[int, ...]] = {}
    while mask:
        low = mask & -mask
        tile, k = _TURNS[low.bit_length() - 1]
        out[tile] = out.get(tile, ()) + (k,)
        mask ^= low
    return MappingProxyType(out)  # shared by every caller: read-only


# -- tracks ----------------------------------------------------------------------------
#: Oriented edge string -> colour -> the two edges of that colour's link.
_ENDS: dict[str, dict[str, tuple[int, int]]] = {}


def link_ends(oriented: str, colour: str) -> tuple[int, int] | None:
    ends = _ENDS.get(oriented)
    if ends is None:
        ends = _ENDS[oriented] = {}
        for c in set(oriented):
            a, b = (d for d in range(6) if oriented[d] == c)
            ends[c] = (a, b)
    return ends.get(colour)


#: Oriented edge string -> for each edge d, the other edge of the link that leaves by d.
_EXIT: dict[str, tuple[int, ...]] = {}
for _turns in ORIENTED.values():
    for _o in _turns:
        _EXIT[_o] = tuple(next(x for x in range(6) if x != d and _o[x] == _o[d]) for d in range(6))


def tracks(edges: dict[Cell, str], colour: str) -> list[tuple[list[Cell], bool]]:
    """Every track of ``colour``: (cells in order along it, is_loop), by their first cell
    in (q, r) order."""
    seen: set[Cell] = set()
    out = []
    for start in sorted(edges):
        if start in seen or colour not in edges[start]:
            continue
        track = walk_track(edges, start, colour)
        seen.update(track[0])
        out.append(track)
    return out


def walk_track(edges: dict[Cell, str], start: Cell, colour: str) -> tuple[list[Cell], bool]:
    """The track of ``colour`` through ``start`` (which shows it), as ``tracks`` lists it
    when ``start`` is the track's first cell in (q, r) order: a loop from ``start``, a line
    from the end its lower-numbered exit leads to (the incremental evaluation relies on
    that order being the same)."""
    oriented = edges[start]
    first = oriented.find(colour)
    directions = DIRECTIONS
    halves = []
    for exit_edge in (first, _EXIT[oriented][first]):
        half = []
        (q, r), d = start, exit_edge
        while True:
            dq, dr = directions[d]
            nxt = (q + dq, r + dr)
            e = edges.get(nxt)
            if e is None:
                break
            if nxt == start:
                return [start] + half, True
            half.append(nxt)
            (q, r), d = nxt, _EXIT[e][(d + 3) % 6]
        halves.append(half)
    return list(reversed(halves[0])) + [start] + halves[1], False


def track_value(cells: list[Cell], loop: bool) -> int:
    return 2 * len(cells) if loop else len(cells)


def best_tracks(edges: dict[Cell, str], colour: str) -> tuple[int, int]:
    """The best and the second-best track value of ``colour`` (0 where there is none)."""
    values = sorted((track_value(c, loop) for c, loop in tracks(edges, colour)), reverse=True)
    values += [0, 0]
    return values[0], values[1]


# -- the tiles on the table ------------------------------------------------------------
class Layout:
    """Mixin of the game's and the solitaire puzzles' states: ``board`` (cell -> (tile,
    rotation)), ``edges`` (cell -> oriented edge colours) and ``counts`` (every space, an
    empty cell next to a tile -> the number of tiles touching it), kept current tile by tile."""

    board: dict[Cell, tuple[int, int]]
    edges: dict[Cell, str]
    counts: dict[Cell, int]
    #: ``geometry_allows`` by space for the table as it is; a fresh dict (never cleared in
    #: place, so copies that share one see only answers for their own table) at every change.
    _geometry: dict[Cell, bool] | None = None
    #: Forced spaces are the seed's, three consecutive sides (``forced_space=consecutive``).
    consecutive_forced: bool = False

    #: The tiles that fit each space (``fitting`` of its sides) for the table as it is: a
    #: fresh dict at every change, keeping the spaces the change does not touch (the new
    #: tile's cell and neighbours are looked at again), so copies may share one.
    _fits: dict | None = None

    def space_fits(self, cell: Cell) -> MappingProxyType[int, tuple[int, ...]]:
        """``fitting(side_pattern(self.edges, cell))``, remembered per space."""
        known = self._fits
        if known is None:
            known = self._fits = {}
        fit = known.get(cell)
        if fit is None:
            fit = known[cell] = fitting(side_pattern(self.edges, cell))
        return fit

    def _sides_changed(self, cell: Cell) -> None:
        known = self._fits
        if known:
            known = self._fits = dict(known)  # a fresh dict: copies may share the old one
            known.pop(cell, None)
            for nb in neighbours(cell):
                known.pop(nb, None)

    def is_forced(self, cell: Cell, touching: int) -> bool:
        """Whether the space ``cell`` with ``touching`` tiles around it is a forced space:
        three or more tiles (official), on three consecutive sides (the seed's option)."""
        if touching < 3:
            return False
        return not self.consecutive_forced or three_in_a_row(cell, self.edges)

    def geometry_ok(self, cell: Cell) -> bool:
        """``geometry_allows`` on this table, remembered until a tile is placed or taken
        away: the draws and the steps of a turn ask again for the same spaces."""
        known = self._geometry
        if known is None:
            known = self._geometry = {}
        ok = known.get(cell)
        if ok is None:
            ok = known[cell] = geometry_allows(self.edges, self.counts, cell, self.consecutive_forced)
        return ok

    def _copy_parts(self, new) -> None:
        """The table's part of ``State.copy``: the state's own parts are copied by its class."""
        new.board, new.edges, new.counts = dict(self.board), dict(self.edges), dict(self.counts)

    def _place(self, tile: int, cell: Cell, rot: int) -> None:
        self._geometry = None
        self._sides_changed(cell)
        self.board[cell] = (tile, rot)
        self.edges[cell] = ORIENTED[tile][rot]
        self.counts.pop(cell, None)
        for nb in neighbours(cell):
            if nb not in self.edges:
                self.counts[nb] = self.counts.get(nb, 0) + 1

    def _unplace(self, cell: Cell) -> int:
        """Take the tile off ``cell``; returns its number."""
        self._geometry = None
        self._sides_changed(cell)
        tile, _ = self.board.pop(cell)
        del self.edges[cell]
        k = 0
        for nb in neighbours(cell):
            if nb in self.edges:
                k += 1
            else:
                left = self.counts[nb] - 1
                if left:
                    self.counts[nb] = left
                else:
                    del self.counts[nb]
        if k:
            self.counts[cell] = k
        return tile
