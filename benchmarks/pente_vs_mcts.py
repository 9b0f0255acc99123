"""Strength of the ``pente`` agent against the generic ``mcts`` agent at the same time per
move, colours alternating. Prints progress and the win rate (target: >= 90%).

    .venv/bin/python benchmarks/pente_vs_mcts.py --games 100 --time 0.1
    .venv/bin/python benchmarks/pente_vs_mcts.py --games 40 --game pente-4   # 1 pente vs 3 mcts

With four players the pente agent takes seat ``game % 4`` and the other seats are the
opponent; a win of its side (in pente-team, its team: the partner is then an opponent
agent too) counts.
"""

from __future__ import annotations

import argparse
import time

import qipan
from qipan.agents import load as load_agent
from qipan.agents.base import parse_agent


def play(game, agents, max_plies: int):
    state = game.new(players=len(agents))
    while state.outcome is None and state.ply < max_plies:
        state.play(agents[state.to_move].choose(state))
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--time", type=float, default=0.1, help="seconds per move for both agents")
    parser.add_argument("--game", default="pente", help="pente or pente-tournament")
    parser.add_argument("--opponent", default="mcts")
    parser.add_argument(
        "--agent", default="pente", help="the agent measured: pente, or the reference pente-classic"
    )
    parser.add_argument(
        "--pente-args", default="", help="extra pente agent settings, e.g. width=10,even_depths=0"
    )
    parser.add_argument("--max-plies", type=int, default=200, help="a longer game counts as a draw")
    args = parser.parse_args()
    game = qipan.load(args.game)
    _, extra = parse_agent(f"{args.agent}:" + args.pente_args)  # typed and bounded by the agent's spec
    wins = draws = 0
    plies = 0
    start = time.perf_counter()
    for k in range(args.games):
        n = game.players[0]
        seat = k % n  # the pente agent plays first in every n-th game
        agents = [load_agent(args.opponent, time=args.time, seed=k * 10 + p) for p in range(n)]
        agents[seat] = load_agent(args.agent, time=args.time, seed=k, **extra)
        state = play(game, agents, args.max_plies)
        plies += state.ply
        if state.outcome is None or not state.outcome.winners:
            draws += 1
            verdict = "draw"
        elif seat in state.outcome.winners:
            wins += 1
            verdict = "win"
        else:
            verdict = "LOSS"
        reason = state.outcome.reason if state.outcome else "ply cap"
        print(
            f"game {k + 1:3}/{args.games}: {args.agent} as P{seat + 1} {verdict:4} in {state.ply:3} plies ({reason}); "
            f"running {wins}/{k + 1} = {wins / (k + 1):.0%}, {time.perf_counter() - start:.0f}s",
            flush=True,
        )
    n = args.games
    print(
        f"\n{args.agent} vs {args.opponent} ({args.game}, {args.time}s per move, {n} games, colours alternating): "
        f"{wins} wins, {draws} draws, {n - wins - draws} losses -> win rate {wins / n:.1%} "
        f"(target >= 90%); mean game {plies / n:.1f} plies; {time.perf_counter() - start:.0f}s"
    )


if __name__ == "__main__":
    main()
