"""How many turns the two-player ``modx`` search completes in a given CPU time per move.

Positions: seeded games played by a quick ``modx`` (one turn deep) to ply 10, 14, 18, ...;
each position is searched once per time limit, on the CPU clock. Prints, per limit, how
often each depth was the deepest complete iteration.

    .venv/bin/python benchmarks/modx_depth.py --positions 12 --times 0.004,0.02,0.2,1
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
os.environ["QIPAN_AGENT_CLOCK"] = "cpu"  # before qipan is imported

import qipan  # noqa: E402
from qipan.agents import load  # noqa: E402


def positions(count: int):
    found, seed = [], 0
    while len(found) < count:
        state = qipan.load("modx").new(seed=seed)
        quick = load("modx", seed=1, iterations=8, depth=1)
        while state.outcome is None and (state.phase != "play" or state.ply < 10 + 4 * (seed % 10)):
            state.play(quick.choose(state))
        if state.outcome is None:
            found.append(state)
        seed += 1
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--times", default="0.004,0.02,0.2,1", help="CPU seconds per move, comma-separated")
    args = parser.parse_args()
    times = [float(t) for t in args.times.split(",")]
    states = positions(args.positions)
    for t in times:
        depths = Counter()
        for state in states:
            agent = load("modx", seed=1, time=t)
            agent.choose(state)
            depths[agent.reached] += 1
        shown = ", ".join(f"{d} turns: {n}" for d, n in sorted(depths.items()))
        print(f"{t:g} s: {shown}", flush=True)


if __name__ == "__main__":
    main()
