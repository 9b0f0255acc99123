"""Random-playout speed of Nine Men's Morris: qipan vs OpenSpiel driven from Python, in one
process. qipan: ``legal_moves()`` + ``play(move)`` (a removal is part of its ply); OpenSpiel:
``legal_actions()`` + ``apply_action`` (a removal is a separate action). Both play the
``openspiel`` rules (flying, 200-turn cap, no repetition rule).

    .venv/bin/python benchmarks/morris_vs_openspiel.py [--seconds 5]
"""

from __future__ import annotations

import argparse
import random
import time

import qipan


class QipanRunner:
    """Random playouts in qipan: ``legal_moves()`` + ``play(move)``."""

    def __init__(self, seed: int = 1):
        self.game = qipan.load("openspiel")
        self.rng = random.Random(seed)
        self.actions = self.plies = self.games = 0
        self.seconds = 0.0

    def run(self, seconds: float) -> None:
        choice = self.rng.choice
        start, cpu = time.perf_counter(), time.process_time()
        end = start + seconds
        actions = plies = 0
        while time.perf_counter() < end:
            state = self.game.new()
            while state.outcome is None:
                move = choice(state.legal_moves())
                state.play(move)
                plies += 1
                actions += 1 + (move.data[2] != 0)  # a removal is its own action in OpenSpiel
            self.games += 1
        self.seconds += time.process_time() - cpu
        self.actions += actions
        self.plies += plies


class OpenSpielRunner:
    """Random playouts in OpenSpiel from Python: ``legal_actions()`` + ``apply_action``."""

    def __init__(self, seed: int = 1):
        import pyspiel

        self.game = pyspiel.load_game("nine_mens_morris")
        self.rng = random.Random(seed)
        self.actions = self.games = 0
        self.seconds = 0.0

    def run(self, seconds: float) -> None:
        choice = self.rng.choice
        start, cpu = time.perf_counter(), time.process_time()
        end = start + seconds
        actions = 0
        while time.perf_counter() < end:
            state = self.game.new_initial_state()
            while not state.is_terminal():
                state.apply_action(choice(state.legal_actions()))
                actions += 1
            self.games += 1
        self.seconds += time.process_time() - cpu
        self.actions += actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds per engine (default 5)")
    parser.add_argument("--slices", type=int, default=10, help="alternate the engines this many times")
    args = parser.parse_args()
    ours = QipanRunner()
    try:
        theirs = OpenSpielRunner()
    except ImportError:
        theirs = None
    # Alternate short slices so that a change in machine load affects both engines alike, and
    # count CPU seconds of this process (not wall time) for the rates.
    ours.run(0.5)  # warm-up: fill the move tables' caches
    ours.actions = ours.plies = ours.games = 0
    ours.seconds = 0.0
    for _ in range(args.slices):
        ours.run(args.seconds / args.slices)
        if theirs is not None:
            theirs.run(args.seconds / args.slices)
    q_rate = ours.actions / ours.seconds
    print(
        f"qipan     : {q_rate:12,.0f} actions/s  ({ours.plies / ours.seconds:,.0f} plies/s, {ours.games} games)"
    )
    if theirs is None:
        print("OpenSpiel : not installed (pip install open-spiel)")
        return
    o_rate = theirs.actions / theirs.seconds
    print(f"OpenSpiel : {o_rate:12,.0f} actions/s  ({theirs.games} games)")
    print(f"ratio qipan / OpenSpiel = {q_rate / o_rate:.3f}  (target >= 0.10)")


if __name__ == "__main__":
    main()
