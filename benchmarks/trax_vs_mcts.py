"""The Trax agent against the generic MCTS agent at equal time per move.

    python benchmarks/trax_vs_mcts.py --games 100 --time 0.2 --jobs 2

Plays ``--games`` games in each of unlimited Trax and 8x8 Trax, the Trax agent taking
White in even games and Red in odd ones, and prints every result as it comes and the win
rate per variant (target: at least 90%). Bounded: every game stops at ``--max-plies``."""

from __future__ import annotations

import argparse
import math
import time
from concurrent.futures import ProcessPoolExecutor

# Imported directly (not through the registries) so that other packages being edited
# cannot break a long benchmark run.
from qipan.agents.mcts import MCTSAgent
from qipan.games.trax import TraxAgent, TraxGame

VARIANT_OF = {"trax": "unlimited", "trax-8x8": "8x8", "trax-loop": "loop"}


def play_one(variant_id: str, index: int, seconds: float, max_plies: int) -> tuple[str, int, str, float]:
    game = TraxGame(variant=VARIANT_OF[variant_id])
    state = game.new(seed=index)
    trax_side = index % 2
    agents = {
        trax_side: TraxAgent(time=seconds, seed=index),
        1 - trax_side: MCTSAgent(time=seconds, seed=index),
    }
    start = time.perf_counter()
    while state.outcome is None and state.ply < max_plies:
        state.play(agents[state.to_move].choose(state))
    if state.outcome is None:
        result = "unfinished"
    elif not state.outcome.winners:
        result = "draw"
    else:
        result = "trax" if state.outcome.winners[0] == trax_side else "mcts"
    reason = state.outcome.reason if state.outcome else f"stopped at {max_plies} plies"
    return result, state.ply, reason, time.perf_counter() - start


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 0.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=100, help="games per variant")
    parser.add_argument("--time", type=float, default=0.2, help="seconds per move for both agents")
    parser.add_argument("--variants", default="trax,trax-8x8", help="comma-separated game ids")
    parser.add_argument("--jobs", type=int, default=1, help="games played in parallel")
    parser.add_argument("--max-plies", type=int, default=400)
    args = parser.parse_args()

    print(
        f"trax agent vs mcts, {args.time}s per move each, {args.games} games per variant, "
        f"colours alternating, {args.jobs} job(s)",
        flush=True,
    )
    summary = []
    for variant_id in args.variants.split(","):
        tally = {"trax": 0, "mcts": 0, "draw": 0, "unfinished": 0}
        plies = 0
        start = time.perf_counter()
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            futures = [
                pool.submit(play_one, variant_id, i, args.time, args.max_plies) for i in range(args.games)
            ]
            for i, future in enumerate(futures):
                result, n, reason, seconds = future.result()
                tally[result] += 1
                plies += n
                side = "White" if i % 2 == 0 else "Red"
                print(
                    f"{variant_id} game {i + 1:3}/{args.games}: trax as {side:5} -> {result:10} "
                    f"{n:3} plies ({reason}) {seconds:.1f}s",
                    flush=True,
                )
        lo, hi = wilson(tally["trax"], args.games)
        line = (
            f"{variant_id}: trax {tally['trax']} / mcts {tally['mcts']} / draws {tally['draw']} / "
            f"unfinished {tally['unfinished']} -> trax win rate {tally['trax'] / args.games:.1%} "
            f"(95% CI {lo:.1%}-{hi:.1%}), {plies / args.games:.1f} plies per game, "
            f"{time.perf_counter() - start:.0f}s"
        )
        summary.append(line)
        print(line, flush=True)
    print("\nsummary")
    for line in summary:
        print("  " + line)


if __name__ == "__main__":
    main()
