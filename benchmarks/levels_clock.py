"""Time management under a real clock: games where both sides play with a clock budget
(``choose(state, budget)``), CPU seconds, seats alternating; counts flags and reports how
much of its time each side used and the longest single move.

    .venv/bin/python benchmarks/levels_clock.py --game nine-mens-morris --games 4 \\
        --initial 3 --increment 0.05 -a level:level=8 -a alphabeta
"""

from __future__ import annotations

import argparse
import random

import qipan
from qipan.agents import Budget
from qipan.agents import load as load_agent
from qipan.agents.arena import play_opening
from qipan.agents.base import parse_agent
from qipan.agents.clock import now, use_cpu_clock
from qipan.core.game import resolve_chance
from qipan.fast import warm_up


def play(game, agents, initial: float, increment: float, seed: int, max_plies: int) -> dict:
    state = game.new(players=2, seed=seed)
    play_opening(state, 2, seed)
    rng = random.Random(seed)
    left = [initial, initial]
    longest = [0.0, 0.0]
    flagged = None
    while state.outcome is None and state.ply < max_plies:
        if state.is_chance:
            resolve_chance(state, rng)
            continue
        seat = state.to_move
        start = now()
        move = agents[seat].choose(state, Budget(left[seat], increment))
        spent = now() - start
        longest[seat] = max(longest[seat], spent)
        left[seat] -= spent
        if left[seat] <= 0:
            flagged = seat
            break
        left[seat] += increment
        state.play(move)
    return {"flagged": flagged, "left": left, "longest": longest, "plies": state.ply}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="nine-mens-morris")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--initial", type=float, default=3.0, help="CPU seconds on each clock")
    parser.add_argument("--increment", type=float, default=0.05)
    parser.add_argument("--max-plies", type=int, default=200)
    parser.add_argument("-a", "--agent", action="append", help="two agent specs (seats alternate)")
    args = parser.parse_args()
    use_cpu_clock()
    game = qipan.load(args.game)
    specs = args.agent or ["level:level=8", "alphabeta"]
    # Compiling the kernels is not thinking: do it before any clock runs.
    warm_up([args.game])
    for name, params in map(parse_agent, specs):
        load_agent(name, game=game, players=2, **params).choose(game.new(players=2), Budget(args.initial))
    flags = [0, 0]
    for g in range(args.games):
        order = specs if g % 2 == 0 else specs[::-1]
        agents = [load_agent(n, game=game, players=2, seed=g, **p) for n, p in map(parse_agent, order)]
        r = play(game, agents, args.initial, args.increment, 1000 + g, args.max_plies)
        who = [specs.index(s) for s in order]
        if r["flagged"] is not None:
            flags[who[r["flagged"]]] += 1
        parts = [f"{order[s]}: left {r['left'][s]:.2f}s, longest move {r['longest'][s]:.2f}s" for s in (0, 1)]
        print(f"game {g + 1}: {r['plies']} plies; " + "; ".join(parts), flush=True)
    print(f"flags: {specs[0]} {flags[0]}, {specs[1]} {flags[1]} in {args.games} games")


if __name__ == "__main__":
    main()
