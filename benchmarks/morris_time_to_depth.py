"""Nodes and CPU time of the ``morris`` agent's PVS to a fixed depth, per search style (0: the
fixed reference ``morris-2026``, 1: the ``morris`` agent), over the same random Nine Men's
Morris positions: how much a change of the blockade style costs or saves in search effort
against the reference (benchmarks/results/morris.md, issue 38).

    .venv/bin/python benchmarks/morris_time_to_depth.py --depth 10 --positions 16
"""

from __future__ import annotations

import argparse
import random

import qipan
from qipan.agents import clock
from qipan.games.morris.search import Searcher


def positions(game, count: int, seed: int):
    """Positions in play after 4 to 40 random plies (placing and sliding), each with a choice."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = game.new()
        for _ in range(rng.choice([4, 8, 12, 18, 24, 30, 40])):
            if state.outcome is not None:
                break
            state.play(rng.choice(state.legal_moves()))
        if state.outcome is None and len(state.legal_moves()) > 1:
            found.append(state)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=10)
    parser.add_argument("--positions", type=int, default=16)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    clock.use_cpu_clock()
    game = qipan.load("nine-mens-morris")
    kernel = game.kernel()
    states = positions(game, args.positions, args.seed)
    for style in (0, 1):  # a first shallow search loads the compiled code
        Searcher(kernel, style=style).search(states[0], kernel.legal(kernel.state(states[0])), depth=3)
    for style in (0, 1):
        nodes, start = 0, clock.now()
        for state in states:
            codes = kernel.legal(kernel.state(state))
            nodes += Searcher(kernel, style=style).search(state, codes, depth=args.depth).nodes
        print(f"style {style}: depth {args.depth}, {nodes} nodes, {clock.now() - start:.2f} CPU s")


if __name__ == "__main__":
    main()
