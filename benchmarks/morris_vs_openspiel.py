"""Random-playout speed of Nine Men's Morris: qipan vs OpenSpiel driven from Python, in one
process. qipan: ``legal_moves()`` + ``play(move)`` (a removal is part of its ply); OpenSpiel:
``legal_actions()`` + ``apply_action`` (a removal is a separate action). Both play the
``openspiel`` rules (flying, 200-turn cap, no repetition rule).

With ``--overhead`` two more qipan loops show what the per-move overhead costs: "no checks"
takes the cached move list itself and plays it with ``play_unchecked`` (no copy of the list,
no legality check), "apply only" calls the rules' ``_apply`` (no history or undo stack
either). Their ratios bound what removing that overhead could give.

With ``--playouts N`` it plays exactly N seeded qipan games (the documented loop) and prints
the plies: a fixed amount of work, so that an instruction count (e.g. under valgrind's
cachegrind) compares two versions of the rules without the machine's load.

    .venv/bin/python benchmarks/morris_vs_openspiel.py [--seconds 5] [--overhead] [--playouts N]
"""

from __future__ import annotations

import argparse
import random
import time

import qipan


class QipanRunner:
    """Random playouts in qipan: ``legal_moves()`` + ``play(move)``."""

    def __init__(self, seed: int = 1, loop: str = "documented"):
        self.game = qipan.load("openspiel")
        self.rng = random.Random(seed)
        self.loop = loop
        self.actions = self.plies = self.games = 0
        self.seconds = 0.0

    def run(self, seconds: float, games: int | None = None) -> None:
        """Play for ``seconds`` of wall time, or exactly ``games`` games."""
        choice = self.rng.choice
        start, cpu = time.perf_counter(), time.process_time()
        end = start + seconds
        actions = plies = 0
        while self.games < games if games is not None else time.perf_counter() < end:
            state = self.game.new()
            if self.loop == "documented":
                moves, play = state.legal_moves, state.play
            else:  # the overhead's bounds: the cached list, no check (and no history)
                moves, play = state._legal, state.play_unchecked if self.loop == "no checks" else state._apply
            while state.outcome is None:
                move = choice(moves())
                play(move)
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
    parser.add_argument("--overhead", action="store_true", help="also the loops without per-move overhead")
    parser.add_argument(
        "--playouts", type=int, help="only play this many seeded qipan games, print the plies"
    )
    args = parser.parse_args()
    if args.playouts is not None:
        runner = QipanRunner()
        runner.run(0.0, games=args.playouts)
        print(f"{runner.plies} plies in {runner.games} games")
        return
    loops = ("documented", "no checks", "apply only") if args.overhead else ("documented",)
    ours = [QipanRunner(loop=loop) for loop in loops]
    try:
        theirs = OpenSpielRunner()
    except ImportError:
        theirs = None
    # Alternate short slices so that a change in machine load affects both engines alike, and
    # count CPU seconds of this process (not wall time) for the rates.
    for runner in ours:
        runner.run(0.5)  # warm-up: fill the move tables' caches
        runner.actions = runner.plies = runner.games = 0
        runner.seconds = 0.0
    for _ in range(args.slices):
        for runner in ours:
            runner.run(args.seconds / args.slices)
        if theirs is not None:
            theirs.run(args.seconds / args.slices)
    o_rate = theirs.actions / theirs.seconds if theirs is not None else None
    for runner in ours:
        q_rate = runner.actions / runner.seconds
        print(
            f"qipan {runner.loop:10}: {q_rate:12,.0f} actions/s  ({runner.plies / runner.seconds:,.0f} plies/s, "
            f"{runner.games} games)" + (f"  ratio to OpenSpiel {q_rate / o_rate:.3f}" if o_rate else "")
        )
    if theirs is None:
        print("OpenSpiel : not installed (pip install open-spiel)")
        return
    print(f"OpenSpiel       : {o_rate:12,.0f} actions/s  ({theirs.games} games)")
    print("target: the documented loop >= 0.25x OpenSpiel (issue 36)")


if __name__ == "__main__":
    main()
