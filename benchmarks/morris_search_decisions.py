"""Record the Morris kernel searches' decisions at fixed depths: for a few seeded positions of
several presets, the move and node count of the generic ``alphabeta`` search inside the
kernel and of the ``morris`` agent's PVS (both styles). ``tests/games/morris/
test_search_decisions.py`` asserts the recorded figures, so a refactoring of the compiled
searches that changes a move or a node count fails; run this only when a search is meant
to change, and say why in the commit.

    .venv/bin/python benchmarks/morris_search_decisions.py --write tests/data/morris/search_decisions.json

``--speed N`` times the same searches N times over (after a first, compiling round) and
prints each search's nodes per CPU second: the figure to compare before and after a change
of the compiled searches (benchmarks/results/morris.md).
"""

from __future__ import annotations

import argparse
import json
import random
import time

import qipan
from qipan.games.morris.kernel import kernel_for
from qipan.games.morris.search import Searcher

#: (preset, seed, random plies before the position, alphabeta depth, PVS depth)
POSITIONS = [
    ("nine-mens-morris", 1, 0, 5, 6),
    ("nine-mens-morris", 2, 14, 5, 6),
    ("nine-mens-morris", 3, 30, 5, 6),
    ("nine-mens-morris", 4, 60, 5, 6),
    ("twelve-mens-morris", 5, 20, 4, 5),
    ("zhiqi", 6, 40, 3, 4),
    ("six-mens-morris", 7, 25, 6, 7),
    ("three-mens-morris-kurna", 8, 8, 7, 8),
]


def position(preset: str, seed: int, plies: int):
    game = qipan.load(preset)
    state = game.new(seed=seed)
    rng = random.Random(seed)
    played = []
    for _ in range(plies):
        played.append(rng.choice(state.legal_moves()))
        state.play(played[-1])
        if state.outcome is not None:  # a position in play: the one before the end
            state = game.new(seed=seed)
            for move in played[:-1]:
                state.play(move)
            break
    return game, state


def speed(rounds: int) -> dict[str, float]:
    """Nodes per CPU second of each search over the positions, ``rounds`` times each."""
    decisions()  # compile (or load) first
    nodes = {"alphabeta": 0, "pvs_style0": 0, "pvs_style1": 0}
    spent = dict.fromkeys(nodes, 0.0)
    for _ in range(rounds):
        for preset, seed, plies, ab_depth, pvs_depth in POSITIONS:
            game, state = position(preset, seed, plies)
            kernel = kernel_for(game)
            codes = kernel.legal(kernel.state(state))
            start = time.process_time()
            nodes["alphabeta"] += kernel.alphabeta(state, depth=ab_depth).nodes
            spent["alphabeta"] += time.process_time() - start
            for style in (0, 1):
                searcher = Searcher(kernel, table_bits=16, style=style)
                start = time.process_time()
                nodes[f"pvs_style{style}"] += searcher.search(state, codes, depth=pvs_depth).nodes
                spent[f"pvs_style{style}"] += time.process_time() - start
    return {name: nodes[name] / spent[name] for name in nodes}


def decisions() -> list[dict]:
    out = []
    for preset, seed, plies, ab_depth, pvs_depth in POSITIONS:
        game, state = position(preset, seed, plies)
        kernel = kernel_for(game)
        ab = kernel.alphabeta(state, depth=ab_depth)
        row = dict(preset=preset, seed=seed, ab_depth=ab_depth, pvs_depth=pvs_depth)
        row["moves"] = [kernel.code(move) for move in state.history]
        row["alphabeta"] = [kernel.code(ab.move), ab.nodes]
        codes = kernel.legal(kernel.state(state))
        for style in (0, 1):
            found = Searcher(kernel, table_bits=16, style=style).search(state, codes, depth=pvs_depth)
            row[f"pvs_style{style}"] = [found.code, found.nodes]
        out.append(row)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", help="write the figures to this JSON file")
    parser.add_argument("--speed", type=int, default=0, help="time the searches this many rounds")
    args = parser.parse_args()
    if args.speed:
        for name, rate in speed(args.speed).items():
            print(f"{name}: {rate / 1000:.0f}k nodes per CPU second")
        return
    rows = decisions()
    for row in rows:
        print(row)
    if args.write:
        with open(args.write, "w") as f:  # a row a line
            f.write("[\n" + ",\n".join(json.dumps(row) for row in rows) + "\n]\n")


if __name__ == "__main__":
    main()
