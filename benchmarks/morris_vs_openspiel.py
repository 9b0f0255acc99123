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


def qipan_playouts(seconds: float, seed: int = 1) -> tuple[int, int, int]:
    """(actions, plies, games) of random playouts for ``seconds``."""
    game = qipan.load("openspiel")
    rng = random.Random(seed)
    choice = rng.choice
    actions = plies = games = 0
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        state = game.new()
        while state.outcome is None:
            move = choice(state.legal_moves())
            state.play(move)
            plies += 1
            actions += 1 + (move.data[2] != 0)  # count a removal as OpenSpiel does: its own action
        games += 1
    return actions, plies, games


def openspiel_playouts(seconds: float, seed: int = 1) -> tuple[int, int]:
    import pyspiel

    game = pyspiel.load_game("nine_mens_morris")
    rng = random.Random(seed)
    choice = rng.choice
    actions = games = 0
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(choice(state.legal_actions()))
            actions += 1
        games += 1
    return actions, games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds per engine (default 5)")
    args = parser.parse_args()
    q_actions, q_plies, q_games = qipan_playouts(args.seconds)
    q_rate = q_actions / args.seconds
    print(f"qipan     : {q_rate:12,.0f} actions/s  ({q_plies / args.seconds:,.0f} plies/s, {q_games} games)")
    try:
        o_actions, o_games = openspiel_playouts(args.seconds)
    except ImportError:
        print("OpenSpiel : not installed (pip install open-spiel)")
        return
    o_rate = o_actions / args.seconds
    print(f"OpenSpiel : {o_rate:12,.0f} actions/s  ({o_games} games)")
    print(f"ratio qipan / OpenSpiel = {q_rate / o_rate:.3f}  (target >= 0.10)")


if __name__ == "__main__":
    main()
