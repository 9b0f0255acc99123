"""Nodes and CPU time of the ``morris`` agent's PVS to a fixed depth, per search style (0: the
fixed reference ``morris-2026``, 1: the ``morris`` agent), over the same random Nine Men's
Morris positions: how much a change of the agent's style costs or saves in search effort
against the reference (benchmarks/results/morris.md, issue 38).

    .venv/bin/python benchmarks/morris_time_to_depth.py --depth 10 --positions 16
    .venv/bin/python benchmarks/morris_time_to_depth.py --depth 8 --positions 16 --black --rounds 3

The positions are White's to move (an even number of random plies); ``--black`` adds, for
each, the position one random move later (Black's to move: terms for the second player show
only there). ``--rounds`` repeats the searches, the styles alternating, and keeps each style's
least CPU time (the load of a shared machine only ever adds time).
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


def one_move_later(states, seed: int):
    """Each position after one more random move, where the game goes on with a choice."""
    rng = random.Random(seed)
    later = []
    for state in states:
        after = state.copy()
        after.play(rng.choice(after.legal_moves()))
        if after.outcome is None and len(after.legal_moves()) > 1:
            later.append(after)
    return later


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=10)
    parser.add_argument("--positions", type=int, default=16)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--black", action="store_true", help="add Black-to-move positions")
    parser.add_argument("--rounds", type=int, default=1, help="repeat; keep the least time")
    args = parser.parse_args()
    clock.use_cpu_clock()
    game = qipan.load("nine-mens-morris")
    kernel = game.kernel()
    states = positions(game, args.positions, args.seed)
    if args.black:
        states += one_move_later(states, args.seed + 4)
    for style in (0, 1):  # a first shallow search loads the compiled code
        Searcher(kernel, style=style).search(states[0], kernel.legal(kernel.state(states[0])), depth=3)
    least = {0: float("inf"), 1: float("inf")}
    nodes = {}
    for _ in range(args.rounds):
        for style in (0, 1):
            total, start = 0, clock.now()
            for state in states:
                codes = kernel.legal(kernel.state(state))
                total += Searcher(kernel, style=style).search(state, codes, depth=args.depth).nodes
            least[style] = min(least[style], clock.now() - start)
            nodes[style] = total
    for style in (0, 1):
        print(f"style {style}: depth {args.depth}, {nodes[style]} nodes, {least[style]:.2f} CPU s")
    print(f"time to depth, style 1 / style 0: {least[1] / least[0]:.3f} ({len(states)} positions)")


if __name__ == "__main__":
    main()
