"""Nine Men's Morris: the compiled kernel (``qipan[fast]``) against OpenSpiel 2.0.2, in one
process, CPU time, min/median/max of 3 runs. Ratios (kernel / peer):

* random playouts, actions/s, against OpenSpiel driven from Python (``legal_actions`` +
  ``apply_action``; a removal is its own action there, so the kernel counts it as one too);
* the same against OpenSpiel's own C++ loop: the random rollouts of ``pyspiel.MCTSBot``
  (``RandomRolloutEvaluator``, 2 simulations x many rollouts from the start, so the rollouts
  are nearly all the time); actions = rollouts x the mean game length of the Python runs;
* perft leaves/s: kernel perft(6) (removal folded into the ply) against OpenSpiel's perft(5)
  from Python (removal its own ply; depth 6 takes minutes there);
* MCTS simulations/s: the kernel's UCT (random playouts) against ``pyspiel.MCTSBot`` with
  random rollouts, both from the start position, same exploration constant.

Both play the ``openspiel`` rules (flying, 200-ply cap, no repetition rule).

    .venv/bin/python benchmarks/morris_kernel_vs_openspiel.py [--seconds 2]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import numpy as np
import pyspiel

import qipan
from cpu_timing import cpu_rate
from qipan.games.morris.kernel import kernel_for


class KernelPlayouts:
    def __init__(self):
        self.game = qipan.load("openspiel")
        self.kernel = kernel_for(self.game)
        self.start = self.game.new()
        self.seed = 0

    def __call__(self) -> int:
        self.seed += 1
        plies, removals, *_ = self.kernel.playouts(self.start, 200, seed=self.seed)
        return plies + removals  # OpenSpiel's actions: a removal is its own action


class OpenSpielPlayouts:
    def __init__(self):
        self.game = pyspiel.load_game("nine_mens_morris")
        self.rng = random.Random(1)
        self.actions = self.games = 0

    def __call__(self) -> int:
        choice = self.rng.choice
        actions = 0
        for _ in range(20):
            state = self.game.new_initial_state()
            while not state.is_terminal():
                state.apply_action(choice(state.legal_actions()))
                actions += 1
        self.actions += actions
        self.games += 20
        return actions


class OpenSpielRollouts:
    """Random rollouts in C++: MCTSBot, 2 simulations with ``rollouts`` rollouts each."""

    def __init__(self, mean_length, rollouts: int = 200):
        self.game = pyspiel.load_game("nine_mens_morris")
        self.evaluator = pyspiel.RandomRolloutEvaluator(rollouts, 1)
        self.bot = pyspiel.MCTSBot(self.game, self.evaluator, 2.0, 2, 10**6, False, 1, False)
        self.mean_length = mean_length
        self.rollouts = rollouts

    def __call__(self) -> int:
        self.bot.step(self.game.new_initial_state())
        return round(2 * self.rollouts * self.mean_length())


def kernel_perft(depth: int = 6):
    game = qipan.load("nine-mens-morris")
    kernel, state = kernel_for(game), game.new()
    return lambda: kernel.perft(state, depth)


def openspiel_perft(depth: int = 5):
    game = pyspiel.load_game("nine_mens_morris")

    def count(state, d):
        actions = state.legal_actions()
        if d == 1:
            return len(actions)
        return sum(count(state.child(a), d - 1) for a in actions)

    return lambda: count(game.new_initial_state(), depth)


class KernelMCTS:
    def __init__(self, simulations: int = 20000):
        self.game = qipan.load("openspiel")
        self.kernel = kernel_for(self.game)
        self.state = self.game.new()
        self.simulations = simulations
        self.seed = 0

    def __call__(self) -> int:
        self.seed += 1
        self.kernel.mcts(self.state, iterations=self.simulations, seed=self.seed, exploration=2.0)
        return self.simulations


class OpenSpielMCTS:
    def __init__(self, simulations: int = 2000):
        game = pyspiel.load_game("nine_mens_morris")
        evaluator = pyspiel.RandomRolloutEvaluator(1, 1)
        self.bot = pyspiel.MCTSBot(game, evaluator, 2.0, simulations, 10**7, False, 1, False)
        self.state = game.new_initial_state()
        self.simulations = simulations

    def __call__(self) -> int:
        self.bot.step(self.state)
        return self.simulations


def compare(label: str, ours, theirs, seconds: float, unit: str) -> None:
    ratios, rates = [], []
    for _ in range(3):
        a = cpu_rate(ours, seconds)
        b = cpu_rate(theirs, seconds)
        ratios.append(a / b)
        rates.append((a, b))
    lo, mid, hi = min(ratios), statistics.median(ratios), max(ratios)
    a, b = rates[ratios.index(mid)]
    print(
        f"{label:44s} kernel {a:14,.0f} {unit}  peer {b:12,.0f}  ratio min/median/max {lo:.2f}/{mid:.2f}/{hi:.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per engine per run")
    args = parser.parse_args()
    start = time.process_time()
    ours = KernelPlayouts()
    ours()
    KernelMCTS(100)()
    kernel_perft(3)()
    print(f"compile or cache load: {time.process_time() - start:.2f} CPU s (numpy {np.__version__})")
    theirs = OpenSpielPlayouts()
    compare("playouts vs OpenSpiel from Python", ours, theirs, args.seconds, "actions/s")
    mean_length = lambda: theirs.actions / theirs.games  # noqa: E731
    compare(
        "playouts vs OpenSpiel C++ (MCTSBot rollouts)",
        ours,
        OpenSpielRollouts(mean_length),
        args.seconds,
        "actions/s",
    )
    compare(
        "perft(6) vs OpenSpiel perft(5) from Python",
        kernel_perft(6),
        openspiel_perft(5),
        args.seconds,
        "leaves/s",
    )
    compare(
        "MCTS vs pyspiel.MCTSBot (random rollouts)", KernelMCTS(), OpenSpielMCTS(), args.seconds, "sims/s"
    )


if __name__ == "__main__":
    main()
