"""How much does a Tantrix line still grow, and does knowing it predict the winner?

    .venv/bin/python benchmarks/tantrix_growth_fit.py --games 600 --jobs 2

Plays one-ply self-play games of the `tantrix` agent (no time limit, seeded bags) and, at
every free move, notes each line of each colour: its length, its live ends (an end is live
when some unplaced tile fits the cell beyond it; restricted when only R2/R3 close it now)
and how many tiles are still unplaced (T). At the end of the game it looks up the final
track through the same cells, so each line gives its growth (final value minus length).

It then fits, by least squares on the first half of the games, a growth per unplaced tile
from the live and restricted ends (and the length), and compares on the second half two
predictors of the final winner from the position: the agent's own potential difference
(`evaluation.potentials`) and "the best track's value plus its expected growth" (loops do
not grow), each through a logistic curve. Prints the growth table, the fitted
coefficients and the held-out log loss and accuracy of both. Needs NumPy (the test
extra)."""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from qipan.core import CHANCE, resolve_chance  # noqa: E402
from qipan.games.tantrix import SPECS, TantrixAgent  # noqa: E402
from qipan.games.tantrix.board import DIRECTIONS, FREE, link_ends, tracks  # noqa: E402
from qipan.games.tantrix.evaluation import DEFAULT, _liveness, potentials  # noqa: E402


def lines_now(state, colour: str):
    """(length, is_loop, live ends, restricted ends, a cell on it) for each track."""
    unplaced = set(state.bag).union(*state.hands)
    cache: dict = {}
    out = []
    for cells, loop in tracks(state.edges, colour):
        live = restricted = 0
        if not loop:
            for end in {cells[0], cells[-1]}:
                for d in link_ends(state.edges[end], colour):
                    beyond = (end[0] + DIRECTIONS[d][0], end[1] + DIRECTIONS[d][1])
                    if beyond in state.edges:
                        continue
                    share = _liveness(state, beyond, unplaced, cache, DEFAULT)
                    live += share >= 1
                    restricted += 0 < share < 1
        out.append((len(cells), loop, live, restricted, cells[0]))
    return out


def play(index: int, seed_offset: int) -> list:
    spec = SPECS["tantrix"]
    state = spec.make(**spec.resolve()).new(players=2)
    rng = random.Random(seed_offset + index)
    agents = [TantrixAgent(seed=index, lookahead=False), TantrixAgent(seed=index + 1, lookahead=False)]
    snaps = []
    while state.outcome is None:
        if state.to_move == CHANCE:
            resolve_chance(state, rng)
            continue
        if state.step == FREE:
            unplaced = len(state.bag) + sum(map(len, state.hands))
            pots = potentials(state)
            mover = state.colours[state.to_move]
            for colour in set(state.colours):
                snaps.append((unplaced, colour, lines_now(state, colour), pots[colour], colour == mover))
        state.play(agents[state.to_move].choose(state))
    final = {}
    for colour in set(state.colours):
        final[colour] = {c: (len(cells), loop) for cells, loop in tracks(state.edges, colour) for c in cells}
    score = dict(zip(state.colours, state.outcome.scores, strict=True))
    return [
        (
            unplaced,
            [(n, loop, live, res, final[colour][cell]) for n, loop, live, res, cell in rows],
            score[colour],
            pot,
            mover,
        )
        for unplaced, colour, rows, pot, mover in snaps
    ]


def features(unplaced: int, length: int, live: int, restricted: int) -> list[float]:
    return [
        unplaced * live,
        unplaced * restricted,
        unplaced * live * min(length, 10) / 10,
        unplaced * (live == 2),
        unplaced * (live + restricted > 0),
    ]


def main() -> None:
    import numpy as np

    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed-offset", type=int, default=900_000)
    args = parser.parse_args()
    with ProcessPoolExecutor(args.jobs) as pool:
        games = list(pool.map(play, range(args.games), [args.seed_offset] * args.games))
    train, test = games[: len(games) // 2], games[len(games) // 2 :]

    table = defaultdict(list)
    X, y = [], []
    for game in train:
        for unplaced, rows, _, _, _ in game:
            for length, loop, live, restricted, (final_len, final_loop) in rows:
                if loop:
                    continue
                growth = final_len * (2 if final_loop else 1) - length
                table[(unplaced // 12 * 12, live, restricted)].append(growth)
                X.append(features(unplaced, length, live, restricted))
                y.append(growth)
    print("mean growth of a line: tiles unplaced (bucket), live ends, restricted ends")
    for key in sorted(table):
        v = table[key]
        if len(v) >= 30:
            print(
                f"  T {key[0]:2d}+  live {key[1]}  restricted {key[2]}: {sum(v) / len(v):5.2f} (n={len(v)})"
            )
    coef, *_ = np.linalg.lstsq(np.array(X, float), np.array(y, float), rcond=None)
    print(
        "growth per unplaced tile = live, restricted, live*len/10, [both live], [any end]:", np.round(coef, 4)
    )

    def grown(unplaced, rows) -> float:
        best = 0.0
        for length, loop, live, restricted, _ in rows:
            value = (
                2 * length
                if loop
                else length + float(np.dot(features(unplaced, length, live, restricted), coef))
            )
            best = max(best, value)
        return best

    for name, value, scale in (
        ("agent's potential", lambda s: s[3], lambda t: 4.0),
        ("best + expected growth", lambda s: grown(s[0], s[1]), lambda t: 0.5 + 0.15 * t),
    ):
        loss = right = n = 0
        for game in test:
            for i in range(0, len(game), 2):
                a, b = game[i], game[i + 1]
                mine, theirs = (a, b) if a[4] else (b, a)
                if mine[2] == theirs[2]:
                    continue
                p = 1 / (1 + math.exp(-(value(mine) - value(theirs)) / scale(mine[0])))
                won = mine[2] > theirs[2]
                loss -= math.log(max(1e-9, p if won else 1 - p))
                right += (p > 0.5) == won
                n += 1
        print(f"{name:24s} held-out log loss {loss / n:.4f}, winner right {right / n:.1%} ({n} positions)")


if __name__ == "__main__":
    main()
