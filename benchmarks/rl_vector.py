"""Batched simulation (``qipan.rl.vector``) against OpenSpiel's C++ random simulation,
one process (one core), CPU time, min/median/max of 3 runs:

* Nine Men's Morris against ``nine_mens_morris``; both play the OpenSpiel rules (qipan
  preset ``openspiel``: flying, 200-ply cap, no repetition rule); steps are counted
  OpenSpiel's way: a removal is an action of its own;
* Pente (19x19) against ``gomoku`` on 19x19 (OpenSpiel has no Pente: the nearest game,
  five in a row without captures); steps are stone placements.

* batched random play at batch 1,024 inside the compiled loop (``random_steps``);
* the API path an RL loop takes: ``legal_action_mask`` + an action per game + ``step``, at
  batch 1,024, with the action drawn uniformly from the mask by NumPy ("random"), or the
  first legal one ("first": the cost of qipan's side alone; the mask is 1,024 x 15,625);
* the peer: OpenSpiel's random rollouts in C++ (``pyspiel.MCTSBot`` with a
  ``RandomRolloutEvaluator``: 2 simulations x many rollouts from the start, so the rollouts
  are nearly all the time), actions = rollouts x OpenSpiel's mean game length (measured
  from Python games in the same run).

    .venv/bin/python benchmarks/rl_vector.py [--seconds 2] [--batch 1024] [--game morris|pente]
"""

from __future__ import annotations

import argparse
import random
import statistics

import numpy as np
import pyspiel

from cpu_timing import cpu_rate
from qipan.rl.vector import VectorEnv


def openspiel_mean_length(name: str, games: int = 200) -> float:
    game, rng = pyspiel.load_game(name), random.Random(1)
    total = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            total += 1
    return total / games


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--batch", type=int, default=1024)
    ap.add_argument("--game", choices=("morris", "pente"), default="morris")
    args = ap.parse_args()
    preset, peer_name = {"morris": ("openspiel", "nine_mens_morris"), "pente": ("pente", "gomoku")}[args.game]

    env = VectorEnv(preset, batch=args.batch)
    env.init(seed=0)
    env.impl.random_steps(2, 0)  # compile
    seed = [0]

    def batched():
        seed[0] += 1
        made = env.impl.random_steps(20, seed[0])
        return made[0] + made[1] if isinstance(made, tuple) else made

    api = VectorEnv(preset, batch=args.batch)
    api.init(seed=0)
    rng = np.random.default_rng(0)

    def api_steps(uniform: bool):
        def work():
            steps = 0
            for _ in range(5):
                if api.terminated().all():
                    api.init(seed=int(rng.integers(1 << 30)))
                mask = api.legal_action_mask()
                live = ~api.terminated()
                if uniform:
                    actions = (rng.random(mask.shape) * mask).argmax(axis=1)  # uniform among legal
                else:
                    actions = mask.argmax(axis=1)
                api.step(actions)
                steps += int(live.sum())
            return steps

        return work

    api_steps(False)()  # compile
    length = openspiel_mean_length(peer_name, 200 if args.game == "morris" else 20)
    rollouts = 200
    game = pyspiel.load_game(peer_name)
    bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(rollouts, 1), 2.0, 2, 10**6, False, 1, False)

    def openspiel():
        bot.step(game.new_initial_state())
        return round(2 * rollouts * length)

    work = {
        "batched random play": batched,
        "API, random action": api_steps(True),
        "API, first action": api_steps(False),
        "OpenSpiel C++ rollouts": openspiel,
    }
    rows = {name: [] for name in work}
    for _ in range(3):
        for name, fn in work.items():
            rows[name].append(cpu_rate(fn, args.seconds))
    peer = rows["OpenSpiel C++ rollouts"]
    print(
        f"{preset} vs {peer_name}, batch {args.batch}, OpenSpiel mean game length {length:.1f} actions; per CPU second"
    )
    for name, rates in rows.items():
        ratios = sorted(r / p for r, p in zip(rates, peer, strict=True))
        print(
            f"{name:24} min {min(rates):>12,.0f}  median {statistics.median(rates):>12,.0f}  max {max(rates):>12,.0f}"
            f"   ratio to OpenSpiel min/median/max {ratios[0]:.2f}/{ratios[1]:.2f}/{ratios[2]:.2f}"
        )


if __name__ == "__main__":
    main()
