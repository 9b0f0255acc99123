"""A random position space for testing the generic solver: segments of random move graphs
(cycles included) whose cross-segment moves only go to earlier segments, plus moves that win
or draw at once."""

from __future__ import annotations

import random

import numpy as np

from qipan.solve.space import DRAW_NOW, WIN_NOW, Expansion, Segment


class ToySpace:
    def __init__(self, sizes=(40, 25, 60), seed=0, pair=(0, 1)):
        self.sizes = sizes
        self.seed = seed
        self.pair = pair  # two segments moving into each other: one component
        rng = random.Random(seed)
        self.moves = {}
        for s, size in enumerate(sizes):
            for i in range(size):
                out = []
                for _ in range(rng.choice((0, 1, 1, 2, 2, 3, 4))):
                    r = rng.random()
                    if r < 0.05:
                        out.append((WIN_NOW, 0))
                    elif r < 0.08:
                        out.append((DRAW_NOW, 0))
                    else:
                        allowed = [t for t in range(len(sizes)) if t <= s or {s, t} == set(pair)]
                        t = rng.choice(allowed)
                        out.append((t, rng.randrange(sizes[t])))
                self.moves[s, i] = out
        self.draw_terminals = {(s, i) for (s, i), m in self.moves.items() if not m and rng.random() < 0.3}

    def describe(self):
        return {"toy": list(self.sizes), "seed": self.seed, "pair": list(self.pair)}

    def segments(self):
        return [Segment((s,), f"t{s}", size) for s, size in enumerate(self.sizes)]

    def components(self):
        rest = [((s,),) for s in range(len(self.sizes)) if s not in self.pair]
        return [((self.pair[0],), (self.pair[1],))] + rest

    def dependencies(self, key):
        return {(t,) for i in range(self.sizes[key[0]]) for t, _ in self.moves[key[0], i] if t >= 0}

    def expand(self, key):
        s = key[0]
        start, seg, idx = [0], [], []
        term = np.zeros(self.sizes[s], dtype=np.int8)
        for i in range(self.sizes[s]):
            for t, j in self.moves[s, i]:
                seg.append(t)
                idx.append(j)
            start.append(len(seg))
            if not self.moves[s, i]:
                term[i] = 2 if (s, i) in self.draw_terminals else 1
        return Expansion(
            np.array(start, dtype=np.int64),
            np.array(seg, dtype=np.int64),
            np.array(idx, dtype=np.int64),
            term,
        )

    def reference(self):
        """Values by plain iteration over the whole graph: (kind, plies) per position."""
        value = {}
        for node, m in self.moves.items():
            if not m:
                value[node] = ("draw", None) if node in self.draw_terminals else ("loss", 0)
        d = 0
        while True:
            d += 1
            new = {}
            for node, m in self.moves.items():
                if node in value:
                    continue
                results = [
                    ("loss", 0) if t == WIN_NOW else ("draw", None) if t == DRAW_NOW else value.get((t, j))
                    for t, j in m
                ]
                if d % 2 and any(r is not None and r[0] == "loss" and r[1] == d - 1 for r in results):
                    new[node] = ("win", d)
                elif d % 2 == 0 and all(r is not None and r[0] == "win" for r in results):
                    if max(r[1] for r in results) == d - 1:
                        new[node] = ("loss", d)
            if not new and d > 2 * sum(self.sizes) + 2:
                break
            value.update(new)
        return {node: value.get(node, ("draw", None)) for node in self.moves}
