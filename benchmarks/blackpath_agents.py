"""Black Path agents against generic ones: win counts of the domino and solver players.

    .venv/bin/python benchmarks/blackpath_agents.py [--games 20]

The domino player takes the seat the strategy is for (player 1 on even ww boards); the
solver player takes the winning seat of each board. Opponents: random and mcts (0.02 s)."""

from __future__ import annotations

import argparse
import time

import qipan
from qipan.agents import load
from qipan.games.blackpath.solver import solve


def play(game, seats) -> int:
    state = game.new()
    while state.outcome is None:
        state.play(seats[state.to_move].choose(state))
    return state.outcome.winners[0]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    cases = [
        ("ww", 6, 6, "blackpath-domino"),
        ("ww", 5, 5, "blackpath-domino"),
        ("seed", 6, 6, "blackpath-solver"),
        ("seed", 5, 7, "blackpath-solver"),
        ("seed", 6, 6, "blackpath-domino"),
    ]
    for variant, rows, cols, name in cases:
        game = qipan.load("blackpath", rows=rows, cols=cols, variant=variant)
        seat = solve(rows, cols, variant)[0]
        for opponent in ("random", "mcts"):
            start = time.perf_counter()
            wins = 0
            ours = load(name, seed=1)  # one solver memo for every game of the case
            for g in range(args.games):
                theirs = load(opponent, seed=g, **({"time": 0.02} if opponent == "mcts" else {}))
                seats = [ours, theirs] if seat == 0 else [theirs, ours]
                wins += play(game, seats) == seat
            took = time.perf_counter() - start
            print(
                f"{variant:>4} {rows}x{cols} {name:<17} as P{seat + 1} vs {opponent:<6}: "
                f"{wins}/{args.games} wins ({took:.1f} s)",
                flush=True,
            )


if __name__ == "__main__":
    main()
