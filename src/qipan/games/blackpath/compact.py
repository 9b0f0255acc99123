"""A compact exact solver for the Black Path Game: the search of ``solver.py`` compiled with
Numba, its memo a fixed table of 10 bytes a slot (``qipan[solve]``).

**The key** is the whole board, written as the tiles in the order they were placed: placing
tile t (1..3) turns key k into 3k + t (bijective base 3). Every cell is filled the first time
the path reaches it and the path is followed the same way every time, so the order of the
placements is the order in which the path from the start first meets the cells: the board
gives back the sequence and the sequence the board. The key is therefore exactly every
cell's state, as in ``solver.py`` (2 bits a cell), in fewer bits: ``log2 3`` a filled cell
instead of 2 for every cell. Fewer fields (filled cells, end cell, entry side) would not be
enough: two positions can fill the same cells and end alike yet leave different free segments
for a later re-entry. The free end and the player to move follow from the tiles.

Slots hold the key by *quotienting*: the low 64 key bits are multiplied by an odd constant
(a bijection of 64-bit words); the top ``table_bits`` bits of the product choose the home
slot and need not be stored, the other bits and the key's high bits are. A slot is a 64-bit
word plus a 16-bit word: remainder, occupied flag, value, and the distance from the home slot
(linear probing, at most 15). When all 16 slots of a key are taken the last is overwritten:
the table is a cache, so memory stays fixed and results stay exact (a lost entry is searched
again). A key fits while it has at most 74 + ``table_bits`` bits: 8x8 (62 tiles before the
last free end, 99 bits) with 2**25 slots or more.

``cpu_seconds`` caps a search: past it the search unwinds without storing anything and the
answer is "not decided" (``analyse`` reports which replies were decided before the cap)."""

from __future__ import annotations

import time

from ...core.errors import QipanError
from ...solve.jit import njit, np, objmode
from .board import CROSS, PAIR, N, W, cell_name, neighbours

MULTIPLIER = np.uint64(0x9E3779B97F4A7C15)  # odd: multiplication is a bijection mod 2**64
PROBES = 16
#: stats: positions searched, slots used, entries overwritten, 1 once the CPU cap was hit.
SEARCHED, USED, OVERWRITTEN, CAPPED = 0, 1, 2, 3
#: The clock is read every 2**20 positions searched (about half a CPU second).
CLOCK_MASK = (1 << 20) - 1


def key_bits(rows: int, cols: int, variant: str) -> int:
    """Bits of the largest key: positions with every fillable cell but the free end filled."""
    tiles = rows * cols - (1 if variant == "seed" else 0) - 1
    return (3 * (3**tiles - 1) // 2).bit_length()


@njit
def _append(lo, hi, tile):
    """The key after placing ``tile``: 3 * key + tile on a 128-bit (lo, hi) pair."""
    double = lo << np.uint64(1)
    carry = lo >> np.uint64(63)
    triple = double + lo
    if triple < double:
        carry += np.uint64(1)
    out = triple + np.uint64(tile)
    if out < triple:
        carry += np.uint64(1)
    return out, hi * np.uint64(3) + carry


@njit
def _follow(tiles, neigh, pair, goal, cell, entry, tile):
    """Put ``tile`` on ``cell`` (entered through ``entry``) and follow the path: returns
    (0 open | 1 border | 2 goal, next cell, its entry side). The tile stays."""
    tiles[cell] = tile
    exit_side = pair[tile, entry]
    cur = cell
    while True:
        nxt = neigh[cur, exit_side]
        if nxt < 0:
            return 1, -1, -1
        if nxt == goal:
            return 2, nxt, -1
        side = (exit_side + 2) & 3
        t = tiles[nxt]
        if t == 0:
            return 0, nxt, side
        exit_side = pair[t, side]
        cur = nxt


@njit
def _slot_parts(lo, hi, bits):
    m = lo * np.uint64(0x9E3779B97F4A7C15)
    home = np.int64(m >> np.uint64(64 - bits))
    low = m & ((np.uint64(1) << np.uint64(64 - bits)) - np.uint64(1))
    word = low | ((hi & ((np.uint64(1) << np.uint64(bits)) - np.uint64(1))) << np.uint64(64 - bits))
    top = np.uint16(hi >> np.uint64(bits))
    return home, word, top


@njit
def _lookup(lo, hi, bits, words, aux):
    home, word, top = _slot_parts(lo, hi, bits)
    mask = (1 << bits) - 1
    for d in range(16):
        i = (home + d) & mask
        a = aux[i]
        if a & 1 == 0:
            return -1
        if (a >> 2) & 15 == d and a >> 6 == top and words[i] == word:
            return (a >> 1) & 1
    return -1


@njit
def _store(lo, hi, value, bits, words, aux, stats):
    home, word, top = _slot_parts(lo, hi, bits)
    mask = (1 << bits) - 1
    for d in range(16):
        i = (home + d) & mask
        if aux[i] & 1 == 0 or d == 15:
            if aux[i] & 1 == 0:
                stats[1] += 1  # slots in use
            else:
                stats[2] += 1  # overwritten
            words[i] = word
            aux[i] = np.uint16(1 | value << 1 | d << 2 | (np.int64(top) << 6))
            return


@njit(nogil=False)
def _clock_passed(cpu_limit):
    """Whether the process CPU clock passed ``cpu_limit`` (read in plain Python)."""
    with objmode(now="float64"):
        now = time.process_time()
    return now > cpu_limit


@njit
def _mover_wins(tiles, neigh, pair, goal, cell, entry, lo, hi, bits, words, aux, stats, cpu_limit):
    """True if the player about to fill ``cell`` (entered through ``entry``) can force a win;
    after the CPU cap (``stats[3]`` set) the answer means nothing and nothing is stored."""
    known = _lookup(lo, hi, bits, words, aux)
    if known >= 0:
        return known == 1
    stats[0] += 1
    if cpu_limit > 0 and stats[0] & CLOCK_MASK == 0 and _clock_passed(cpu_limit):
        stats[3] = 1
    if stats[3]:
        return False
    kids_tile = np.zeros(3, dtype=np.int64)
    kids_cell = np.zeros(3, dtype=np.int64)
    kids_side = np.zeros(3, dtype=np.int64)
    nkids = 0
    for tile in range(1, 4):
        kind, nxt, side = _follow(tiles, neigh, pair, goal, cell, entry, tile)
        if kind == 2:
            tiles[cell] = 0
            _store(lo, hi, 1, bits, words, aux, stats)
            return True
        if kind == 0:
            kids_tile[nkids] = tile
            kids_cell[nkids] = nxt
            kids_side[nkids] = side
            nkids += 1
    tiles[cell] = 0
    result = False
    for k in range(nkids):
        tile = kids_tile[k]
        tiles[cell] = tile
        lo2, hi2 = _append(lo, hi, tile)
        opponent = _mover_wins(
            tiles, neigh, pair, goal, kids_cell[k], kids_side[k], lo2, hi2, bits, words, aux, stats, cpu_limit
        )
        tiles[cell] = 0
        if stats[3]:
            return False
        if not opponent:
            result = True
            break
    _store(lo, hi, 1 if result else 0, bits, words, aux, stats)
    return result


class CompactSolver:
    """``CompactSolver(rows, cols, variant, start_arm, table_bits).solve()`` -> (winner,
    first move), the same answer as ``solver.solve``; ``stats`` after a solve: positions
    searched, slots used, entries overwritten, capped; ``table_bytes`` the memo's fixed size.
    ``cpu_seconds``: stop a search after that much CPU time of this process (``solve``
    raises, ``analyse`` reports what was decided)."""

    def __init__(
        self,
        rows: int,
        cols: int,
        variant: str = "seed",
        start_arm: str = "horizontal",
        table_bits: int = 25,
        cpu_seconds: float | None = None,
    ):
        if rows < 1 or cols < 1:
            raise QipanError("a board has at least one row and one column")
        if variant not in ("seed", "ww"):
            raise QipanError(f"unknown variant {variant!r}")
        if variant == "seed" and rows * cols < 2:
            raise QipanError("the seed variant needs a start cell and a goal cell")
        if not 8 <= table_bits <= 32:
            raise QipanError("table_bits must be between 8 and 32")
        if cpu_seconds is not None and cpu_seconds <= 0:
            raise QipanError("cpu_seconds must be positive")
        bits = key_bits(rows, cols, variant)
        if bits > 74 + table_bits:
            raise QipanError(
                f"a {rows}x{cols} key ({bits} bits) does not fit a 10-byte slot with 2**{table_bits} slots"
                f" (at most {74 + table_bits} bits)"
            )
        self.rows, self.cols, self.variant = rows, cols, variant
        self.start_side = W if start_arm == "horizontal" else N
        self.goal = rows * cols - 1 if variant == "seed" else -1
        self.neigh = np.array(neighbours(rows, cols), dtype=np.int64)
        self.pair = np.zeros((4, 4), dtype=np.int64)
        for tile in (1, 2, 3):
            self.pair[tile] = PAIR[tile]
        self.bits = table_bits
        self.words = np.zeros(1 << table_bits, dtype=np.uint64)
        self.aux = np.zeros(1 << table_bits, dtype=np.uint16)
        self.stats = np.zeros(4, dtype=np.int64)
        self.cpu_seconds = cpu_seconds
        self._cpu_limit = 0.0

    @property
    def table_bytes(self) -> int:
        return self.words.nbytes + self.aux.nbytes

    @property
    def capped(self) -> bool:
        return bool(self.stats[CAPPED])

    def _start_clock(self) -> None:
        self._cpu_limit = 0.0 if self.cpu_seconds is None else time.process_time() + self.cpu_seconds
        self.stats[CAPPED] = 0

    def _wins_after(self, tiles, cell, entry, tile, lo, hi) -> bool | None:
        """Whether placing ``tile`` on the free end ``cell`` wins for its player (None: not
        decided within the CPU cap)."""
        kind, nxt, side = _follow(tiles, self.neigh, self.pair, self.goal, cell, entry, tile)
        if kind != 0:
            tiles[cell] = 0
            return kind == 2
        lo2, hi2 = _append(lo, hi, tile)
        args = (self.bits, self.words, self.aux, self.stats, self._cpu_limit)
        reply = _mover_wins(tiles, self.neigh, self.pair, self.goal, nxt, side, lo2, hi2, *args)
        tiles[cell] = 0
        return None if self.capped else not reply

    def tile_wins(self, tile: int) -> bool:
        """Whether the first move ``tile`` on the start cell wins for player 1."""
        self._start_clock()
        tiles = np.zeros(self.rows * self.cols, dtype=np.int64)
        zero = np.uint64(0)
        won = self._wins_after(tiles, 0, self.start_side, tile, zero, zero)
        if won is None:
            raise QipanError(f"not decided within {self.cpu_seconds} CPU s")
        return won

    def state_key(self, state) -> tuple[np.uint64, np.uint64]:
        """The key of an engine state: its tiles in the order the path from the start meets them."""
        lo = hi = np.uint64(0)
        seen = set()
        for cell, _, _ in state.path():
            if cell not in seen:
                seen.add(cell)
                lo, hi = _append(lo, hi, state.tiles[cell])
        return lo, hi

    def winning_tiles(self, state) -> list[int]:
        """Every tile that wins for the player to move in an engine state of this board."""
        self._start_clock()
        tiles = np.array(state.tiles, dtype=np.int64)
        lo, hi = self.state_key(state)
        out = []
        for move in state.legal_moves():
            won = self._wins_after(tiles, state.end_cell, state.end_side, move.data, lo, hi)
            if won is None:
                raise QipanError(f"not decided within {self.cpu_seconds} CPU s")
            if won:
                out.append(move.data)
        return out

    def solve(self) -> tuple[int, str | None]:
        for tile in (CROSS,) if self.variant == "seed" else (1, 2, 3):
            if self.tile_wins(tile):
                return 0, cell_name(0, self.cols) + "+/\\"[tile - 1]
        return 1, None

    def analyse(self) -> dict:
        """Solve as far as the CPU cap allows, one level below the first move. For every
        first tile: ``result`` "P1", "P2" (who wins after it) or None (not decided), and
        ``replies``, player 2's answers tried in order with who wins after each (None: not
        decided before the cap; answers after that are not tried). ``winner``: 0, 1 or None."""
        self._start_clock()
        tiles = np.zeros(self.rows * self.cols, dtype=np.int64)
        zero = np.uint64(0)
        first = {}
        for tile in (CROSS,) if self.variant == "seed" else (1, 2, 3):
            name = cell_name(0, self.cols) + "+/\\"[tile - 1]
            kind, nxt, side = _follow(tiles, self.neigh, self.pair, self.goal, 0, self.start_side, tile)
            tiles[0] = 0
            if kind != 0:
                first[name] = {"result": "P1" if kind == 2 else "P2", "replies": {}}
                continue
            tiles[0] = tile
            lo, hi = _append(zero, zero, tile)
            replies = {}
            for reply in (1, 2, 3):
                won = self._wins_after(tiles, nxt, side, reply, lo, hi)  # for player 2
                replies[cell_name(nxt, self.cols) + "+/\\"[reply - 1]] = (
                    None if won is None else "P2" if won else "P1"
                )
                if won or won is None or 0 < self._cpu_limit < time.process_time():
                    break
            tiles[0] = 0
            decided = list(replies.values())
            result = "P2" if "P2" in decided else "P1" if len(decided) == 3 and None not in decided else None
            first[name] = {"result": result, "replies": replies}
            if result != "P2":  # a win (no other first move needed) or the cap
                break
        results = [f["result"] for f in first.values()]
        winner = 0 if "P1" in results else 1 if all(r == "P2" for r in results) else None
        return {"winner": winner, "first_moves": first, "searched": int(self.stats[SEARCHED])}
