"""Batched simulation (``qipan.rl.vector``) against OpenSpiel's C++ random simulation,
one process (one core), CPU time, min/median/max of 3 runs:

* Nine Men's Morris against ``nine_mens_morris``; both play the OpenSpiel rules (qipan
  preset ``openspiel``: flying, 200-ply cap, no repetition rule); steps are counted
  OpenSpiel's way: a removal is an action of its own;
* Pente (19x19) against ``gomoku`` on 19x19 (OpenSpiel has no Pente: the nearest game,
  five in a row without captures); steps are stone placements.

The loops, at batch 1,024:

* the documented masked-uniform loop: ``env.step(policy="uniform")``, the action drawn
  uniformly among the legal ones inside the kernel, finished games restarted (planes and
  mask are written when read: this loop reads neither); and the same reading every step's
  observation planes ("+ planes read");
* the logits loop: ``env.step(logits=logits)`` with a (B, actions) float32 NumPy array,
  drawn from its softmax over the legal actions inside the kernel (the array is made once,
  as a policy network's output would be: making it is the network's cost, not the
  environment's), alone and after reading the planes a network would read; with ``--fresh-logits`` also a loop that draws new logits with NumPy at
  every step (for Pente; Morris' 1,024 x 15,625 logits cost NumPy far more than the games);
* the bare compiled loop (``random_steps``: no masks, no planes), for reference;
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
    ap.add_argument("--fresh-logits", action="store_true")
    args = ap.parse_args()
    preset, peer_name = {"morris": ("openspiel", "nine_mens_morris"), "pente": ("pente", "gomoku")}[args.game]

    env = VectorEnv(preset, batch=args.batch)
    env.reset(seed=0)
    removals = env.space.removals if args.game == "morris" else 0

    def actions(step) -> int:
        """The actions of a step, counted OpenSpiel's way (a Morris removal is one more)."""
        played = step.actions[step.actions >= 0]
        extra = int(np.count_nonzero(played % removals)) if removals else 0
        return len(played) + extra

    def uniform():
        return sum(actions(env.step(policy="uniform")) for _ in range(10))

    def uniform_observed():
        done = 0
        for _ in range(10):
            step = env.step(policy="uniform")
            step.observation  # noqa: B018 - written when read: the cost of the planes
            done += actions(step)
        return done

    rng = np.random.default_rng(0)
    logits = rng.standard_normal((args.batch, env.space.size)).astype(np.float32)

    def with_logits():
        return sum(actions(env.step(logits=logits)) for _ in range(10))

    def logits_observed():
        done = 0
        for _ in range(10):
            env.observe()  # what a policy network would read, then answer with logits
            done += actions(env.step(logits=logits))
        return done

    def fresh_logits():
        return sum(
            actions(env.step(logits=rng.standard_normal(logits.shape, dtype=np.float32))) for _ in range(5)
        )

    bare = VectorEnv(preset, batch=args.batch)
    bare.reset(seed=0)
    seed = [0]

    def bare_loop():
        seed[0] += 1
        made = bare.impl.random_steps(20, seed[0])
        return made[0] + made[1] if isinstance(made, tuple) else made

    for fn in (uniform, with_logits, bare_loop):
        fn()  # compile
    length = openspiel_mean_length(peer_name, 200 if args.game == "morris" else 20)
    rollouts = 200
    game = pyspiel.load_game(peer_name)
    bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(rollouts, 1), 2.0, 2, 10**6, False, 1, False)

    def openspiel():
        bot.step(game.new_initial_state())
        return round(2 * rollouts * length)

    work = {
        'step(policy="uniform")': uniform,
        "uniform + planes read": uniform_observed,
        "step(logits=NumPy array)": with_logits,
        "logits + planes read": logits_observed,
        **({"step(logits=fresh NumPy)": fresh_logits} if args.fresh_logits else {}),
        "bare compiled loop": bare_loop,
        "OpenSpiel C++ rollouts": openspiel,
    }
    rows = {name: [] for name in work}
    for _ in range(3):
        for name, fn in work.items():
            rows[name].append(cpu_rate(fn, args.seconds))
    peer = rows["OpenSpiel C++ rollouts"]
    print(
        f"{preset} vs {peer_name}, batch {args.batch}, OpenSpiel mean game length {length:.1f} actions; "
        "actions per CPU second"
    )
    for name, rates in rows.items():
        ratios = sorted(r / p for r, p in zip(rates, peer, strict=True))
        print(
            f"{name:26} min {min(rates):>12,.0f}  median {statistics.median(rates):>12,.0f}  "
            f"max {max(rates):>12,.0f}   ratio to OpenSpiel min/median/max "
            f"{ratios[0]:.2f}/{ratios[1]:.2f}/{ratios[2]:.2f}"
        )


if __name__ == "__main__":
    main()
