"""Two settings of the Tantrix agent's evaluation against each other (tuning aid).

    .venv/bin/python benchmarks/tantrix_variants.py --a "" --b "end_per_tile=0.1" --pairs 100
    .venv/bin/python benchmarks/tantrix_variants.py --a classic --b "" --pairs 150

Games come in pairs on the same bag (the same sequence of draws), with the seats swapped,
so the luck of the draw mostly cancels. ``--a``/``--b`` change fields of the ``tantrix``
agent's weights (``qipan.games.tantrix.evaluation.AGENT``; ``name=value,...``; empty: those
weights); ``classic`` stands for ``tantrix-classic``'s (``evaluation.CLASSIC``), and
``classic:name=value,...`` changes fields of those.
Without ``--time`` the agents play one ply (no look-ahead): fast, for tuning the
evaluation; with ``--time`` they play as in a real game, the limit in CPU seconds. Prints
the totals for B."""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
# With --time each agent's limit is CPU seconds of its own process (set before qipan is
# imported, here and in the workers), so a busy machine slows both alike.
os.environ["QIPAN_AGENT_CLOCK"] = "cpu"

from qipan.core import CHANCE, resolve_chance  # noqa: E402
from qipan.games.tantrix import SPECS, TantrixAgent  # noqa: E402
from qipan.games.tantrix.evaluation import CLASSIC, Weights  # noqa: E402


def weights_of(text: str):
    """``--a``/``--b`` as the agent's ``weights``: a string of changes to the agent's own
    weights, or ``classic[:changes]`` for changes to ``CLASSIC``."""
    if text == "classic" or text.startswith("classic:"):
        return Weights.parse(text.removeprefix("classic").removeprefix(":"), CLASSIC)
    return text


def play_pair(pair: int, a: str, b: str, seconds: float | None, seed_offset: int) -> list[float]:
    """B's reward in the two games on bag ``seed_offset + pair`` (B second, then first)."""
    spec = SPECS["tantrix"]
    rewards = []
    for b_seat in (1, 0):
        state = spec.make(**spec.resolve()).new(players=2)
        rng = random.Random(seed_offset + pair)
        limits = {"time": seconds} if seconds else {"iterations": 10**9}
        look = bool(seconds)
        agents = [TantrixAgent(seed=pair, lookahead=look, weights=weights_of(a), **limits) for _ in range(2)]
        agents[b_seat] = TantrixAgent(seed=pair, lookahead=look, weights=weights_of(b), **limits)
        while state.outcome is None:
            if state.to_move == CHANCE:
                resolve_chance(state, rng)
                continue
            state.play(agents[state.to_move].choose(state))
        rewards.append(state.outcome.reward(b_seat))
    return rewards


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--a", default="", help="weights of agent A")
    parser.add_argument("--b", default="", help="weights of agent B")
    parser.add_argument("--pairs", type=int, default=100)
    parser.add_argument("--time", type=float, default=None, help="seconds per move (default: one ply)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed-offset", type=int, default=70_000)
    args = parser.parse_args()
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        futures = [
            pool.submit(play_pair, k, args.a, args.b, args.time, args.seed_offset) for k in range(args.pairs)
        ]
        pairs = [f.result() for f in futures]
    rewards = [r for p in pairs for r in p]
    n = len(rewards)
    rate = sum(rewards) / n
    # The pair is the independent unit: its mean's spread gives the interval.
    means = [sum(p) / 2 for p in pairs]
    var = sum((m - rate) ** 2 for m in means) / max(1, len(means) - 1)
    half = 1.96 * math.sqrt(var / len(means))
    print(f"A: {args.a or 'agent weights'}  B: {args.b or 'agent weights'}")
    print(
        f"B scores {sum(rewards):.1f}/{n} = {rate:.1%} (95% interval {rate - half:.1%}..{rate + half:.1%}), "
        f"{time.perf_counter() - started:.0f}s"
    )


if __name__ == "__main__":
    main()
