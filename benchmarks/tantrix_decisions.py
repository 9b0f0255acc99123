"""Decisions per CPU second of the ``tantrix`` agent's search without a time limit (one ply,
the opponent's fills, the reply check on the 14 best moves; no playouts, so both paths
decide the same moves): the incremental evaluation (``TantrixAgent.incremental``, the
``tantrix`` agent) against evaluating every position from scratch (``tantrix-classic``'s
path). The positions are the decisions (every fifth one with a choice, before the endgame)
of seeded random two-player games. Prints min / median / max of ``--runs`` runs of about
``--seconds`` CPU seconds each, the two paths interleaved.

    .venv/bin/python benchmarks/tantrix_decisions.py --seconds 3 --runs 3
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import qipan  # noqa: E402
from cpu_timing import cpu_rate  # noqa: E402
from qipan.core import CHANCE, resolve_chance  # noqa: E402
from qipan.games.tantrix import TantrixAgent  # noqa: E402


def positions(games: int = 3) -> list:
    game = qipan.load("tantrix")
    out = []
    for seed in range(games):
        state = game.new(players=2)
        rng = random.Random(100 + seed)
        n = 0
        while state.outcome is None:
            if state.to_move == CHANCE:
                resolve_chance(state, rng)
                continue
            moves = state.legal_moves()
            if len(state.board) >= 8 and not state.endgame and len(moves) > 1:
                if n % 5 == 0:
                    out.append(state.copy())
                n += 1
            state.play(rng.choice(moves))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    states = positions()
    rates = {False: [], True: []}
    chosen = {}
    for _ in range(args.runs):
        for incremental in (False, True):

            def work(incremental=incremental):
                moves = []
                for state in states:
                    agent = TantrixAgent(seed=1, playouts=0)  # its ties broken the same way
                    agent.incremental = incremental
                    moves.append(agent.choose(state))
                chosen[incremental] = moves
                return len(states)

            rates[incremental].append(cpu_rate(work, args.seconds))
    print(f"{len(states)} positions; the same moves chosen: {chosen[False] == chosen[True]}")
    for incremental, label in ((False, "full (tantrix-classic)"), (True, "incremental (tantrix)")):
        r = sorted(rates[incremental])
        print(
            f"{label:24s} decisions per CPU s: min {r[0]:.1f}  median {statistics.median(r):.1f}  max {r[-1]:.1f}"
        )
    print(f"ratio of the medians: {statistics.median(rates[True]) / statistics.median(rates[False]):.2f}")


if __name__ == "__main__":
    main()
