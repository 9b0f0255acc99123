"""Pente random playouts: the compiled kernel (``qipan[fast]``) against OpenSpiel 2.0.2's
``gomoku`` on the same 19x19 board driven from Python (``legal_actions`` + ``apply_action``),
in one process, plies per CPU second, min/median/max of 3 runs. Also the kernel against the
reference rules' own playouts (``random_move`` + ``play_unchecked``), and MCTS simulations per
CPU second after the first stone: the kernel's UCT (what the generic ``mcts`` agent runs, random
playouts) against ``pyspiel.MCTSBot`` on ``gomoku`` (C++, random rollouts) and against the
generic agent on the reference rules.

    .venv/bin/python benchmarks/pente_kernel_vs_openspiel.py [--seconds 2]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import pyspiel

import qipan
from cpu_timing import cpu_rate
from qipan.games.pente.kernel import kernel_for


class KernelPlayouts:
    def __init__(self, preset: str = "pente"):
        self.game = qipan.load(preset)
        self.kernel = kernel_for(self.game)
        self.start = self.game.new()
        self.seed = 0

    def __call__(self) -> int:
        self.seed += 1
        return self.kernel.playouts(self.start, 100, seed=self.seed)[0]


class ReferencePlayouts:
    def __init__(self):
        self.game = qipan.load("pente")
        self.rng = random.Random(1)

    def __call__(self) -> int:
        state, plies = self.game.new(), 0
        while state.outcome is None:
            state.play_unchecked(state.random_move(self.rng))
            plies += 1
        return plies


class GomokuPlayouts:
    def __init__(self):
        self.game = pyspiel.load_game("gomoku(size=19)")
        self.rng = random.Random(1)

    def __call__(self) -> int:
        choice, plies = self.rng.choice, 0
        for _ in range(5):
            state = self.game.new_initial_state()
            while not state.is_terminal():
                state.apply_action(choice(state.legal_actions()))
                plies += 1
        return plies


class KernelMCTS:
    def __init__(self, simulations: int = 4000):
        self.game = qipan.load("pente")
        self.kernel = kernel_for(self.game)
        self.state = self.game.new().play_many(["K10"])
        self.simulations = simulations
        self.seed = 0

    def __call__(self) -> int:
        self.seed += 1
        self.kernel.mcts(self.state, iterations=self.simulations, seed=self.seed, exploration=2.0)
        return self.simulations


class ReferenceMCTS:
    """The generic ``mcts`` agent on a game object without a kernel (its pure-Python search)."""

    def __init__(self, simulations: int = 200):
        from qipan.agents.mcts import MCTSAgent

        game = qipan.load("pente")
        game.kernel = lambda: None  # this game object keeps to the reference rules
        self.agent = MCTSAgent
        self.state = game.new().play_many(["K10"])
        self.simulations = simulations
        self.seed = 0

    def __call__(self) -> int:
        self.seed += 1
        agent = self.agent(iterations=self.simulations, seed=self.seed, exploration=2.0)
        agent.choose(self.state)
        assert agent.last_iterations == self.simulations
        return self.simulations


class GomokuMCTS:
    def __init__(self, simulations: int = 400):
        game = pyspiel.load_game("gomoku(size=19)")
        evaluator = pyspiel.RandomRolloutEvaluator(1, 1)
        self.bot = pyspiel.MCTSBot(game, evaluator, 2.0, simulations, 10**7, False, 1, False)
        self.state = game.new_initial_state()
        self.state.apply_action(9 * 19 + 9)
        self.simulations = simulations

    def __call__(self) -> int:
        self.bot.step(self.state)
        return self.simulations


def compare(label: str, ours, theirs, seconds: float, unit: str = "plies/s") -> None:
    ratios, rates = [], []
    for _ in range(3):
        a, b = cpu_rate(ours, seconds), cpu_rate(theirs, seconds)
        ratios.append(a / b)
        rates.append((a, b))
    mid = statistics.median(ratios)
    a, b = rates[ratios.index(mid)]
    print(
        f"{label:36s} kernel {a:12,.0f} {unit}  peer {b:10,.0f}  "
        f"ratio min/median/max {min(ratios):.2f}/{mid:.2f}/{max(ratios):.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per engine per run")
    args = parser.parse_args()
    start = time.process_time()
    ours = KernelPlayouts()
    ours()
    print(f"compile or cache load: {time.process_time() - start:.2f} CPU s")
    compare("pente vs OpenSpiel gomoku (Python)", ours, GomokuPlayouts(), args.seconds)
    compare("pente vs qipan reference rules", ours, ReferencePlayouts(), args.seconds)
    mcts = KernelMCTS()
    mcts()
    compare("MCTS vs OpenSpiel MCTSBot (C++)", mcts, GomokuMCTS(), args.seconds, "sims/s")
    compare("MCTS vs generic mcts, reference rules", mcts, ReferenceMCTS(), args.seconds, "sims/s")


if __name__ == "__main__":
    main()
