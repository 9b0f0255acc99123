"""Tracks of one colour: maximal chains of same-coloured links, open (lines) or closed (loops).

Each tile holds at most one link of a colour, so a track visits a tile at most once. A
line is worth 1 per tile, a loop 2 per tile (rules 4.3, "End and scoring")."""

from __future__ import annotations

from .hexgrid import DIRECTIONS, Cell

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


def tracks(edges: dict[Cell, str], colour: str) -> list[tuple[list[Cell], bool]]:
    """Every track of ``colour``: (cells in order along it, is_loop)."""
    seen: set[Cell] = set()
    out = []
    for start in sorted(edges):
        if start in seen:
            continue
        ends = link_ends(edges[start], colour)
        if ends is None:
            continue
        seen.add(start)
        halves = []
        closed = False
        for exit_edge in ends:
            half = []
            cell, d = start, exit_edge
            while True:
                dq, dr = DIRECTIONS[d]
                nxt = (cell[0] + dq, cell[1] + dr)
                e = edges.get(nxt)
                if e is None:
                    break
                if nxt == start:
                    closed = True
                    break
                entry = (d + 3) % 6
                a, b = link_ends(e, colour)
                seen.add(nxt)
                half.append(nxt)
                cell, d = nxt, (b if a == entry else a)
            halves.append(half)
            if closed:
                break
        if closed:
            out.append(([start] + halves[0], True))
        else:
            out.append((list(reversed(halves[0])) + [start] + halves[1], False))
    return out


def track_value(cells: list[Cell], loop: bool) -> int:
    return 2 * len(cells) if loop else len(cells)


def best_tracks(edges: dict[Cell, str], colour: str) -> tuple[int, int]:
    """The best and the second-best track value of ``colour`` (0 where there is none)."""
    values = sorted((track_value(c, loop) for c, loop in tracks(edges, colour)), reverse=True)
    values += [0, 0]
    return values[0], values[1]
