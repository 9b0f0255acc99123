"""Pipe Mania: random-play speed per preset, planner times on generated levels, and the
planner against a brute-force search over the game's own moves on tiny grids.

    .venv/bin/python benchmarks/pipemania_speed.py [--games 20]
"""

from __future__ import annotations

import argparse
import random
import time

import qipan
from qipan.core import CHANCE, resolve_chance
from qipan.games.pipemania.planner import plan, winnable_by_search

PRESETS = [
    "pipemania",
    "pipemania-classic",
    "pipemania-choice",
    "pipemania-two-stacks",
    "pipemania-fixed",
    "pipemania-2p",
    "pipemania-race",
]


def random_game(game, players, seed):
    state = game.new(players=players, seed=seed)
    rng = random.Random(seed)
    while state.outcome is None:
        if state.to_move == CHANCE:
            resolve_chance(state, rng)
        else:
            state.play(rng.choice(state.legal_moves()))
    return state


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()

    print("random play (uniform legal moves, chance by the dispenser weights)")
    print(f"{'preset':<22} {'games':>5} {'plies':>7} {'ticks':>6} {'plies/s':>9} {'mean score':>10}")
    for preset in PRESETS:
        spec = qipan.spec(preset)
        game = qipan.load(preset)
        start = time.perf_counter()
        plies = ticks = 0
        scores = []
        for seed in range(args.games):
            state = random_game(game, spec.players[0], seed)
            plies += state.ply
            # one action per playing player per tick; chance draws are not ticks
            ticks += sum(1 for m in state.history if not m.text.startswith("+")) // state.num_players
            scores.append(sum(state.scores) / state.num_players)
        took = time.perf_counter() - start
        print(
            f"{preset:<22} {args.games:>5} {plies:>7} {ticks:>6} {plies / took:>9.0f} {sum(scores) / len(scores):>10.0f}"
        )

    print("\nplanner on generated levels (free choice of pieces)")
    for preset in ("pipemania", "pipemania-classic"):
        game = qipan.load(preset)
        for number in range(1, 7):
            level = game.level(number)
            start = time.perf_counter()
            found = plan(level)
            took = time.perf_counter() - start
            print(
                f"{preset:<18} level {number}: delay {level.start_delay:>2}, period {level.flow_period}, "
                f"{'plan' if found else 'NO PLAN'} of {len(found.placements) if found else 0:>2} pieces "
                f"in {took * 1000:7.1f} ms"
            )

    print("\nplanner with a known random queue (classic level 1, 40 pieces)")
    level = qipan.load("pipemania-classic").level(1)
    for seed in range(5):
        rng = random.Random(seed)
        seq = [rng.choice(["H", "V", "WS", "ES", "NE", "NW", "X"]) for _ in range(40)]
        start = time.perf_counter()
        found = plan(level, pieces=seq, max_nodes=50_000)
        took = time.perf_counter() - start
        print(f"  queue seed {seed}: {'plan' if found else 'no plan found'} in {took * 1000:7.1f} ms")

    print("\npeer: brute force over the game's moves vs the planner, tiny grids (same answers)")
    total_plan = total_brute = 0.0
    for seed in range(12):
        rng = random.Random(seed)
        layout = ". . . . / S:E . . . / . . . ." if seed % 2 else ". . . / S:E . . / . . ."
        seq = [rng.choice(["H", "V", "WS", "ES", "NE", "NW", "X"]) for _ in range(20)]
        game = qipan.load(
            "pipemania",
            layout=layout,
            sequence=",".join(seq),
            queue_len=1,
            goal="length",
            start_delay=1 + seed % 2,
            flow_period=1,
            min_length=2 + seed % 3,
        )
        start = time.perf_counter()
        found = plan(game.level(1), pieces=seq) is not None
        total_plan += time.perf_counter() - start
        start = time.perf_counter()
        truth = winnable_by_search(game.new())
        total_brute += time.perf_counter() - start
        assert found == truth, seed
    print(
        f"  12 instances: planner {total_plan:.3f}s, brute force {total_brute:.3f}s, "
        f"ratio {total_brute / max(total_plan, 1e-9):.0f}x"
    )


if __name__ == "__main__":
    main()
