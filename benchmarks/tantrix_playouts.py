"""Playouts per CPU second of the Tantrix agent's two playout paths (``playouts.playout``):
listing every legal placement at each step (``tantrix-classic``) against drawing the
uniform share with ``state.random_move`` (``fast=True``, the ``tantrix`` agent). The same
policy; the start positions are seeded random two-player games 20 to 40 plies in. Prints
min / median / max of ``--runs`` runs of about ``--seconds`` CPU seconds each.

    .venv/bin/python benchmarks/tantrix_playouts.py --seconds 5 --runs 3
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
from qipan.games.tantrix import playouts  # noqa: E402


def starts(count: int = 6) -> list:
    game = qipan.load("tantrix")
    out = []
    for seed in range(count):
        state = game.new(players=2)
        rng = random.Random(seed)
        while state.ply < 20 + 4 * seed:
            state.play(state.random_move(rng))
        out.append(state)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    positions = starts()
    rates = {False: [], True: []}
    for _ in range(args.runs):
        for fast in (False, True):  # interleaved, so a busy moment slows both
            rng = random.Random(1)

            def work(fast=fast, rng=rng):
                for state in positions:
                    playouts.playout(state.copy(), 0, rng, fast=fast)
                return len(positions)

            rates[fast].append(cpu_rate(work, args.seconds))
    for fast, label in ((False, "listing (tantrix-classic)"), (True, "fast (tantrix)")):
        r = sorted(rates[fast])
        print(
            f"{label:26s} playouts per CPU s: min {r[0]:.1f}  median {statistics.median(r):.1f}  max {r[-1]:.1f}"
        )
    ratio = statistics.median(rates[True]) / statistics.median(rates[False])
    print(f"ratio of the medians: {ratio:.2f}")


if __name__ == "__main__":
    main()
