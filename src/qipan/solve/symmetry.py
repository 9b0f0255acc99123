"""Symmetries of a board given as data: the point permutations that keep every relation.

A game passes its points' adjacency and its lines (mills, winning lines); the automorphisms
that map edges to edges and lines to lines are its symmetry group (16 for the Nine and Six
Men's Morris boards, 8 for the 3x3 board). Found by backtracking over neighbours, so no
board needs its group written out by hand."""

from __future__ import annotations

from collections.abc import Iterable, Sequence


def automorphisms(
    n: int, edges: Iterable[tuple[int, int]], lines: Iterable[Sequence[int]] = ()
) -> list[tuple[int, ...]]:
    """Every permutation ``p`` of ``range(n)`` (``p[i]`` = image of point ``i``) that maps the
    edge set and the line set onto themselves; the identity first."""
    nbr = [set() for _ in range(n)]
    for a, b in edges:
        nbr[a].add(b)
        nbr[b].add(a)
    line_set = {frozenset(line) for line in lines}
    through = [sum(1 for line in line_set if i in line) for i in range(n)]
    # Assign points in breadth-first order, so every point after the first of its connected
    # part has an assigned neighbour whose image limits its own image to a few candidates.
    order: list[int] = []
    for root in range(n):
        if root in order:
            continue
        order.append(root)
        k = len(order) - 1
        while k < len(order):
            for j in sorted(nbr[order[k]]):
                if j not in order:
                    order.append(j)
            k += 1
    anchor = {}
    for pos, i in enumerate(order):
        earlier = [j for j in order[:pos] if j in nbr[i]]
        anchor[i] = earlier[0] if earlier else None

    found: list[tuple[int, ...]] = []
    image = [-1] * n
    used = [False] * n

    def fits(i: int, c: int) -> bool:
        if used[c] or len(nbr[c]) != len(nbr[i]) or through[c] != through[i]:
            return False
        return all((image[j] in nbr[c]) == (j in nbr[i]) for j in order if image[j] >= 0)

    def extend(pos: int) -> None:
        if pos == n:
            if all(frozenset(image[p] for p in line) in line_set for line in line_set):
                found.append(tuple(image))
            return
        i = order[pos]
        a = anchor[i]
        candidates = sorted(nbr[image[a]]) if a is not None else range(n)
        for c in candidates:
            if fits(i, c):
                image[i], used[c] = c, True
                extend(pos + 1)
                image[i], used[c] = -1, False

    extend(0)
    identity = tuple(range(n))
    found.sort(key=lambda p: p != identity)
    return found
