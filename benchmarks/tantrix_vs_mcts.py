"""Tantrix agent against the generic MCTS agent, two players, equal time per move.

    .venv/bin/python benchmarks/tantrix_vs_mcts.py --games 100 --time 0.25 --jobs 2

Seats alternate (the agent plays seat 1 in even games, seat 2 in odd ones); the bag is
drawn by a seeded RNG. By default games come in pairs on the same bag (game i uses seed
offset + i // 2), so each bag is played once from each seat and the luck of the draw
mostly cancels; ``--no-paired`` gives every game its own bag (offset + i) as in the
first runs. ``--weights`` changes the agent's evaluation (``evaluation.Weights``). Prints every game and the totals: wins, draws, losses,
win rate (draws count half) with a 95% interval, mean scores, time per move and the MCTS
iterations per move. Bounded: --max-minutes stops starting new games."""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from qipan.agents.mcts import MCTSAgent  # noqa: E402
from qipan.core import CHANCE, resolve_chance  # noqa: E402
from qipan.games.tantrix import SPECS, TantrixAgent  # noqa: E402


def play_game(
    index: int,
    seconds: float,
    opponent: str,
    seed_offset: int = 10_000,
    paired: bool = True,
    weights: str = "",
) -> dict:
    spec = SPECS["tantrix"]
    game = spec.make(**spec.resolve())
    state = game.new(players=2)
    rng = random.Random(seed_offset + (index // 2 if paired else index))
    ours = TantrixAgent(time=seconds, seed=index, weights=weights or None)
    if opponent == "mcts":
        theirs = MCTSAgent(time=seconds, seed=index)
    else:
        from qipan.agents.random_agent import RandomAgent

        theirs = RandomAgent(seed=index)
    seat = index % 2
    agents = [ours, theirs] if seat == 0 else [theirs, ours]
    spent = [0.0, 0.0]
    decisions = [0, 0]
    iterations = []
    while state.outcome is None:
        if state.to_move == CHANCE:
            resolve_chance(state, rng)
            continue
        mover = state.to_move
        start = time.perf_counter()
        move = agents[mover].choose(state)
        who = 0 if mover == seat else 1
        if len(state.legal_moves()) > 1:
            spent[who] += time.perf_counter() - start
            decisions[who] += 1
            if who == 1 and opponent == "mcts":
                iterations.append(theirs.last_iterations)
        state.play(move)
    return {
        "index": index,
        "seat": seat,
        "reward": state.outcome.reward(seat),
        "ours": state.outcome.scores[seat],
        "theirs": state.outcome.scores[1 - seat],
        "spent": spent,
        "decisions": decisions,
        "iterations": iterations,
        "reason": state.outcome.reason,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--time", type=float, default=0.25, help="seconds per move for both agents")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--opponent", choices=("mcts", "random"), default="mcts")
    parser.add_argument("--max-minutes", type=float, default=60.0)
    parser.add_argument("--seed-offset", type=int, default=10_000, help="bag seed of game i: offset + i // 2")
    parser.add_argument("--paired", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--weights", default="", help="evaluation weights, name=value,...")
    args = parser.parse_args()
    print(
        f"tantrix agent vs {args.opponent}: {args.games} games, {args.time}s per move, {args.jobs} jobs",
        flush=True,
    )
    results = []
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        futures = [
            pool.submit(play_game, i, args.time, args.opponent, args.seed_offset, args.paired, args.weights)
            for i in range(args.games)
        ]
        for future in as_completed(futures):
            r = future.result()
            results.append(r)
            score = sum(x["reward"] for x in results)
            print(
                f"game {r['index']:3d} seat {r['seat'] + 1}: {r['ours']:.0f}-{r['theirs']:.0f} "
                f"({'win' if r['reward'] == 1 else 'draw' if r['reward'] == 0.5 else 'loss'}, {r['reason']})"
                f"  running {score:.1f}/{len(results)}",
                flush=True,
            )
            if (time.perf_counter() - started) / 60 > args.max_minutes:
                print("time limit reached: cancelling the remaining games", flush=True)
                for f in futures:
                    f.cancel()
                break
    n = len(results)
    wins = sum(r["reward"] == 1 for r in results)
    draws = sum(r["reward"] == 0.5 for r in results)
    rate = (wins + 0.5 * draws) / n
    # The independent unit is the bag: a pair of games when paired, else one game.
    units: dict[int, list[float]] = {}
    for r in results:
        units.setdefault(r["index"] // 2 if args.paired else r["index"], []).append(r["reward"])
    means = [sum(u) / len(u) for u in units.values()]
    var = sum((m - rate) ** 2 for m in means) / max(1, len(means) - 1)
    half = 1.96 * math.sqrt(var / len(means))
    ours_t = sum(r["spent"][0] for r in results) / max(1, sum(r["decisions"][0] for r in results))
    theirs_t = sum(r["spent"][1] for r in results) / max(1, sum(r["decisions"][1] for r in results))
    its = [i for r in results for i in r["iterations"]]
    print(f"games {n}: wins {wins}, draws {draws}, losses {n - wins - draws}")
    print(
        f"win rate {rate:.1%} (95% interval {max(0, rate - half):.1%}..{min(1, rate + half):.1%}); target 75%"
    )
    print(
        f"mean score: tantrix agent {sum(r['ours'] for r in results) / n:.1f}, "
        f"{args.opponent} {sum(r['theirs'] for r in results) / n:.1f}"
    )
    print(
        f"seconds per decision (more than one legal move): tantrix {ours_t:.3f}, {args.opponent} {theirs_t:.3f}"
    )
    if its:
        print(f"mcts iterations per decision: mean {sum(its) / len(its):.1f}, max {max(its)}")
    print(f"wall time {time.perf_counter() - started:.0f}s")


if __name__ == "__main__":
    main()
