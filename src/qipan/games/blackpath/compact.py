"""A compact exact solver for the Black Path Game: the search of ``solver.py`` compiled with
Numba, its memo a fixed table of 10 bytes a slot (``qipan[solve]``).

The key is every cell's state (2 bits a cell: empty or one of the three tiles), as in
``solver.py``: fewer fields (filled cells, end cell, entry side) are not enough, since two
positions can fill the same cells and end alike yet leave different free segments for a
later re-entry. The free end and the player to move follow from the tiles.

Slots hold the key by *quotienting*: the low 64 key bits are multiplied by an odd constant
(a bijection of 64-bit words); the top ``table_bits`` bits of the product choose the home
slot and need not be stored, the other bits and the key's high bits are. A slot is a 64-bit
word plus a 16-bit word: remainder, occupied flag, value, and the distance from the home slot
(linear probing, at most 15). When all 16 slots of a key are taken the last is overwritten:
the table is a cache, so memory stays fixed and results stay exact (a lost entry is searched
again). Boards up to 2 * cells <= 75 + table_bits fit (7x7 with 2**24 slots or more)."""

from __future__ import annotations

from ...core.errors import QipanError
from ...solve.jit import njit, np
from .board import CROSS, PAIR, N, W, cell_name, neighbours

MULTIPLIER = np.uint64(0x9E3779B97F4A7C15)  # odd: multiplication is a bijection mod 2**64
PROBES = 16


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


@njit
def _mover_wins(tiles, neigh, pair, goal, cell, entry, lo, hi, bits, words, aux, stats):
    """True if the player about to fill ``cell`` (entered through ``entry``) can force a win."""
    known = _lookup(lo, hi, bits, words, aux)
    if known >= 0:
        return known == 1
    stats[0] += 1
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
        shift = 2 * cell
        if shift < 64:
            lo2, hi2 = lo | (np.uint64(tile) << np.uint64(shift)), hi
        else:
            lo2, hi2 = lo, hi | (np.uint64(tile) << np.uint64(shift - 64))
        opponent = _mover_wins(
            tiles, neigh, pair, goal, kids_cell[k], kids_side[k], lo2, hi2, bits, words, aux, stats
        )
        tiles[cell] = 0
        if not opponent:
            result = True
            break
    _store(lo, hi, 1 if result else 0, bits, words, aux, stats)
    return result


class CompactSolver:
    """``CompactSolver(rows, cols, variant, start_arm, table_bits).solve()`` -> (winner,
    first move), the same answer as ``solver.solve``; ``stats`` after a solve: positions
    searched, slots used, entries overwritten; ``table_bytes`` the memo's fixed size."""

    def __init__(
        self, rows: int, cols: int, variant: str = "seed", start_arm: str = "horizontal", table_bits: int = 25
    ):
        if rows < 1 or cols < 1:
            raise QipanError("a board has at least one row and one column")
        if variant not in ("seed", "ww"):
            raise QipanError(f"unknown variant {variant!r}")
        if variant == "seed" and rows * cols < 2:
            raise QipanError("the seed variant needs a start cell and a goal cell")
        cells = rows * cols
        if not 8 <= table_bits <= 32:
            raise QipanError("table_bits must be between 8 and 32")
        if 2 * cells - 64 > table_bits + 10:
            raise QipanError(
                f"a {rows}x{cols} key ({2 * cells} bits) does not fit a 10-byte slot with 2**{table_bits} slots"
            )
        self.rows, self.cols, self.variant = rows, cols, variant
        self.start_side = W if start_arm == "horizontal" else N
        self.goal = cells - 1 if variant == "seed" else -1
        self.neigh = np.array(neighbours(rows, cols), dtype=np.int64)
        self.pair = np.zeros((4, 4), dtype=np.int64)
        for tile in (1, 2, 3):
            self.pair[tile] = PAIR[tile]
        self.bits = table_bits
        self.words = np.zeros(1 << table_bits, dtype=np.uint64)
        self.aux = np.zeros(1 << table_bits, dtype=np.uint16)
        self.stats = np.zeros(3, dtype=np.int64)

    @property
    def table_bytes(self) -> int:
        return self.words.nbytes + self.aux.nbytes

    def tile_wins(self, tile: int) -> bool:
        """Whether the first move ``tile`` on the start cell wins for player 1."""
        tiles = np.zeros(self.rows * self.cols, dtype=np.int64)
        kind, nxt, side = _follow(tiles, self.neigh, self.pair, self.goal, 0, self.start_side, tile)
        if kind != 0:
            return kind == 2
        lo, hi = np.uint64(tile), np.uint64(0)
        args = (self.bits, self.words, self.aux, self.stats)
        return not _mover_wins(tiles, self.neigh, self.pair, self.goal, nxt, side, lo, hi, *args)

    def winning_tiles(self, state) -> list[int]:
        """Every tile that wins for the player to move in an engine state of this board."""
        tiles = np.array(state.tiles, dtype=np.int64)
        lo = hi = np.uint64(0)
        for cell, t in enumerate(state.tiles):
            if 2 * cell < 64:
                lo |= np.uint64(t) << np.uint64(2 * cell)
            else:
                hi |= np.uint64(t) << np.uint64(2 * cell - 64)
        out = []
        args = (self.bits, self.words, self.aux, self.stats)
        for move in state.legal_moves():
            tile = move.data
            kind, nxt, side = _follow(
                tiles, self.neigh, self.pair, self.goal, state.end_cell, state.end_side, tile
            )
            if kind == 0:
                shift = 2 * state.end_cell
                lo2 = lo | (np.uint64(tile) << np.uint64(shift)) if shift < 64 else lo
                hi2 = hi | (np.uint64(tile) << np.uint64(shift - 64)) if shift >= 64 else hi
                won = not _mover_wins(tiles, self.neigh, self.pair, self.goal, nxt, side, lo2, hi2, *args)
            else:
                won = kind == 2
            tiles[state.end_cell] = 0
            if won:
                out.append(tile)
        return out

    def solve(self) -> tuple[int, str | None]:
        for tile in (CROSS,) if self.variant == "seed" else (1, 2, 3):
            if self.tile_wins(tile):
                return 0, cell_name(0, self.cols) + "+/\\"[tile - 1]
        return 1, None
