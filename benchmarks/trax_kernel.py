"""What the compiled Trax kernel (``qipan[fast]``) buys: how deep the ``trax`` agent searches
within a CPU-time limit in the kernel and in Python (and ``trax-classic``), whether it sees
the engine games' four-ply loss (``G1\\`` after ``|||||| W``) at 1 s, and random playouts
in the kernel against the rules' ``random_move``.

    .venv/bin/python benchmarks/trax_kernel.py [--times 0.1 1.0] [--positions 24] [--seconds 3]

Positions: the 8x8 openings of ``trax_strength.py`` (4 random plies) played on by the new
agent at depth 1 for 0-9 more plies. Time limits are CPU seconds (``use_cpu_clock``); the
kernel is loaded before anything is timed."""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from qipan.agents import clock
from qipan.games.trax import TraxAgent, TraxClassicAgent, TraxGame
from qipan.games.trax.search import PROVEN
from trax_strength import opening_state


def positions(game: TraxGame, count: int):
    out = []
    for k in range(count):
        state = opening_state(game, k, 4)
        for _ in range(k % 10):
            if state.outcome is not None:
                break
            state.play(TraxAgent(depth=1, seed=k).choose(state))
        if state.outcome is None:
            out.append(state)
    return out


def depths(make, states, seconds: float, kernels: bool) -> tuple[float, float, int]:
    """(mean depth finished, median nodes, how many) for agents ``make(seconds, seed)``."""
    os.environ["QIPAN_KERNELS"] = "1" if kernels else "0"
    done, nodes = [], []
    for k, state in enumerate(states):
        agent = make(time=seconds, seed=k)
        agent.choose(state)
        search = agent.last_search
        if search.depth_done or search.nodes:  # not decided before the search (one move, a win)
            done.append(search.depth_done)
            nodes.append(search.nodes)
    os.environ["QIPAN_KERNELS"] = "1"
    return statistics.mean(done), statistics.median(nodes), len(done)


def engine_loss(seconds: float, runs: int) -> str:
    game = TraxGame(variant="8x8")
    avoided = proved = 0
    for seed in range(runs):
        state = game.new()
        state.play_many("@0+ @1+ @1+ @1+ @1+ @1+".split())
        agent = TraxAgent(time=seconds, seed=seed)
        move = agent.choose(state)
        scores = {state.move_for(*m).text: v for m, v in agent.last_search.scores.items()}
        avoided += move.text != "G1\\"
        proved += scores.get("G1\\", 0.0) <= -PROVEN
    return f"|||||| W at {seconds} s: G1\\ avoided in {avoided}/{runs} runs, proved lost in {proved}/{runs}"


def playout_rates(preset: str, seconds: float) -> tuple[float, float]:
    """Plies per CPU second of whole random games: the rules' ``random_move`` and the kernel."""
    game = TraxGame(variant={"trax": "unlimited", "trax-8x8": "8x8", "trax-loop": "loop"}[preset])
    rng = random.Random(1)
    plies = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new()
        while state.outcome is None and state.ply < 2000:
            state.play_unchecked(state.random_move(rng))
            plies += 1
    rules = plies / (time.process_time() - start)
    kernel = game.kernel()
    plies, games = 0, 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        plies += kernel.playouts(game.new(), 100, seed=games)[0]
        games += 100
    return rules, plies / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--times", type=float, nargs="+", default=[0.1, 1.0])
    parser.add_argument("--positions", type=int, default=24)
    parser.add_argument("--loss-runs", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per playout rate")
    args = parser.parse_args()
    clock.use_cpu_clock()
    game = TraxGame(variant="8x8")
    if game.kernel() is None:
        raise SystemExit("the kernel is off (no qipan[fast], or QIPAN_KERNELS=0)")
    for preset in ("trax", "trax-8x8", "trax-loop"):
        g = TraxGame(variant={"trax": "unlimited", "trax-8x8": "8x8", "trax-loop": "loop"}[preset])
        g.kernel().warm_up(g.new())
    states = positions(game, args.positions)
    print(f"{len(states)} positions (8x8); mean depth finished, median nodes, positions searched")
    for seconds in args.times:
        for label, make, kernels in (
            ("trax, kernel", TraxAgent, True),
            ("trax, Python", TraxAgent, False),
            ("trax-classic", TraxClassicAgent, True),
        ):
            depth, nodes, n = depths(make, states, seconds, kernels)
            print(f"  {seconds:>4} s  {label:<13} depth {depth:.2f}  nodes {nodes:>9,.0f}  ({n})", flush=True)
    for seconds in args.times:
        print(engine_loss(seconds, args.loss_runs), flush=True)
    print("random playouts, plies per CPU second: rules random_move / kernel / ratio")
    for preset in ("trax", "trax-8x8", "trax-loop"):
        rules, kernel = playout_rates(preset, args.seconds)
        print(f"  {preset:<9} {rules:>9,.0f} {kernel:>11,.0f} {kernel / rules:>7.1f}x", flush=True)


if __name__ == "__main__":
    main()
