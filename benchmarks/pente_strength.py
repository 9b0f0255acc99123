"""The new ``pente`` agent against the fixed reference ``pente-classic``: paired openings
(the centre and ``--opening-plies`` random stones near it, the same for both games of a
pair), colours swapped within each pair, CPU-time limits (``clock.use_cpu_clock``). The
reference gets ``--factor`` times the new agent's time. Prints every game and the score
(wins 1, draws 1/2) with a 95% interval.

    .venv/bin/python benchmarks/pente_strength.py --games 200 --time 0.05             # equal time
    .venv/bin/python benchmarks/pente_strength.py --games 200 --time 0.05 --factor 4  # reference 4x

Targets (issue 17): >= 90% at equal time, >= 65% with the reference at 4x. ``--sprt P0,P1``
also prints a sequential probability ratio test of score P0 against P1 (alpha = beta = 5%,
a draw counts as half a win and half a loss) and stops when it decides, e.g.
``--sprt 0.85,0.95`` for the 90% target, ``--sprt 0.60,0.70`` for 65%."""

from __future__ import annotations

import argparse
import math
import random
import time

import qipan
from qipan.agents import clock
from qipan.agents import load as load_agent
from qipan.agents.base import parse_agent


def opening(game, plies: int, seed: int):
    """The centre, then ``plies`` random legal stones within 2 points of the stones."""
    state = game.new()
    rng = random.Random(seed)
    state.play(state.legal_moves()[0] if state.placed == 0 else rng.choice(state.legal_moves()))
    g = state.geom
    for _ in range(plies):
        stones = [i for i in g.points if state.cells[i] not in (0, 7)]
        near = sorted(
            {
                m
                for m in state.legal_moves()
                for i in stones
                if max(abs(g.col[m.data[0]] - g.col[i]), abs(g.row[m.data[0]] - g.row[i])) <= 2
            },
            key=lambda m: m.data[0],
        )
        state.play(rng.choice(near or state.legal_moves()))
    return state


def play(state, agents, max_plies: int, roles: list[str], spent: dict):
    """Play to the end; ``spent[role]`` collects (CPU seconds, moves) of each seat's role."""
    while state.outcome is None and state.ply < max_plies:
        start = time.process_time()
        move = agents[state.to_move].choose(state)
        seconds, moves = spent.get(roles[state.to_move], (0.0, 0))
        spent[roles[state.to_move]] = (seconds + time.process_time() - start, moves + 1)
        state.play(move)
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="even: pairs of games")
    parser.add_argument("--time", type=float, default=0.05, help="CPU seconds per move, new agent")
    parser.add_argument("--factor", type=float, default=1.0, help="reference time = factor x time")
    parser.add_argument("--game", default="pente", help="pente or pente-tournament")
    parser.add_argument("--opening-plies", type=int, default=2)
    parser.add_argument("--max-plies", type=int, default=300, help="a longer game counts as a draw")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sprt", default=None, help="P0,P1: stop when the SPRT decides")
    parser.add_argument("--new", default="pente", help="the agent measured (NAME or NAME:key=value,...)")
    parser.add_argument(
        "--reference", default="pente-classic", help="its opponent, e.g. the generic alphabeta"
    )
    args = parser.parse_args()
    new_name, new_params = parse_agent(args.new)
    ref_name, ref_params = parse_agent(args.reference)
    sprt = tuple(float(x) for x in args.sprt.split(",")) if args.sprt else None
    llr, bound = 0.0, math.log(0.95 / 0.05)
    verdict_sprt = "undecided"
    clock.use_cpu_clock()
    game = qipan.load(args.game)
    score = wins = draws = losses = 0.0
    start = time.process_time()
    stats: dict[str, int] = {}
    spent: dict[str, tuple[float, int]] = {}
    for k in range(args.games):
        pair = k // 2
        new_seat = k % 2  # colours swap within each pair of games
        state = opening(game, args.opening_plies, args.seed * 100_003 + pair)
        new = load_agent(new_name, time=args.time, seed=k, **new_params)
        ref = load_agent(ref_name, time=args.time * args.factor, seed=k, **ref_params)
        agents, roles = (
            ([new, ref], ["new", "reference"]) if new_seat == 0 else ([ref, new], ["reference", "new"])
        )
        play(state, agents, args.max_plies, roles, spent)
        outcome = state.outcome
        if outcome is None or not outcome.winners:
            draws += 1
            score += 0.5
            verdict = "draw"
        elif new_seat in outcome.winners:
            wins += 1
            score += 1
            verdict = "win"
        else:
            losses += 1
            verdict = "LOSS"
        if sprt is not None:
            p0, p1 = sprt
            up, down = math.log(p1 / p0), math.log((1 - p1) / (1 - p0))
            llr += up if verdict == "win" else down if verdict == "LOSS" else (up + down) / 2
        reason = outcome.reason if outcome else "ply cap"
        stats[reason] = stats.get(reason, 0) + 1
        n = k + 1
        print(
            f"game {n:3}/{args.games}: new as P{new_seat + 1} {verdict:4} in {state.ply:3} plies ({reason}); "
            f"score {score:.1f}/{n} = {score / n:.1%}; {time.process_time() - start:.0f} cpu s"
            + (f"; SPRT llr {llr:.2f} of +-{bound:.2f}" if sprt else ""),
            flush=True,
        )
        if sprt is not None and abs(llr) >= bound:
            verdict_sprt = f"H1 (score >= {sprt[1]})" if llr > 0 else f"H0 (score <= {sprt[0]})"
            break
    n = k + 1
    rate = score / n
    half = 1.96 * math.sqrt(max(rate * (1 - rate), 1e-9) / n)
    print(
        f"\n{args.new} (time {args.time}s) vs {args.reference} (time {args.time * args.factor:g}s), {args.game}, "
        f"{n} games, paired openings of {args.opening_plies} random plies, colours alternating, CPU clock: "
        f"{wins:.0f} wins, {draws:.0f} draws, {losses:.0f} losses -> score {rate:.1%} "
        f"(95% interval {max(rate - half, 0):.1%}..{min(rate + half, 1):.1%}); endings {stats}; "
        f"{time.process_time() - start:.0f} cpu s"
        + (f"; SPRT {sprt[0]} vs {sprt[1]}: {verdict_sprt} (llr {llr:.2f})" if sprt else "")
    )
    for role, (seconds, moves) in sorted(spent.items()):
        print(f"{role}: {moves} moves, {seconds / max(moves, 1) * 1000:.1f} ms CPU a move on average")


if __name__ == "__main__":
    main()
