"""Which of the Tantrix evaluation's terms predict the final score margin, and how much?

    .venv/bin/python benchmarks/tantrix_weight_fit.py --games 300 --jobs 2

Plays one-ply self-play games of the ``tantrix`` agent (its ``AGENT`` weights, no time
limit, seeded bags, two players) and, at every free move, splits each colour's potential
(``evaluation.colour_potential``) into its terms by evaluating it with terms switched off:
the best track's tiles (its value), its live ends, the second-best track's share and the
join gain. At the end of the game it regresses the final score margin (the mover's colour
minus the other's) on the mover's and the other colour's terms, phase by phase (tiles
unplaced), by least squares. A term's coefficient divided by the best track's says what the
term is worth next to one tile of the best track, which is what ``Weights`` expresses: with
the weights right, every term's ratio is near 1 (each term is already scaled by its weight)
and the other colour's terms near -``opponent``.

It also fits the logistic scale of the potential difference against the win (what
``Weights.scale`` should be for the evaluation to read as a win chance). Needs NumPy."""

from __future__ import annotations

import argparse
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from qipan.core import CHANCE, resolve_chance  # noqa: E402
from qipan.games.tantrix import SPECS, TantrixAgent  # noqa: E402
from qipan.games.tantrix.board import FREE  # noqa: E402
from qipan.games.tantrix.evaluation import AGENT, Weights, potentials  # noqa: E402

TERMS = ("track", "ends", "second", "join")
#: Phases by tiles unplaced (bag and hands): the lower bound of each.
PHASES = (36, 24, 12, 0)


def terms_of(state, weights: Weights) -> dict[str, list[float]]:
    """Colour -> its potential's terms (as ``TERMS``), each already times its weight."""
    bare = replace(weights, live_end=0.0, restricted_end=0.0, second=0.0, join=0.0, end_per_tile=0.0)
    steps = [
        bare,
        replace(weights, second=0.0, join=0.0),
        replace(weights, join=0.0),
        weights,
    ]
    values = [potentials(state, None, w, state.colours[state.to_move]) for w in steps]
    out = {}
    for colour in values[0]:
        v = [p[colour] for p in values]
        out[colour] = [v[0], v[1] - v[0], v[2] - v[1], v[3] - v[2]]
    return out


def play(index: int, seed_offset: int, weights_text: str) -> list:
    weights = Weights.parse(weights_text, AGENT)
    spec = SPECS["tantrix"]
    state = spec.make(**spec.resolve()).new(players=2)
    rng = random.Random(seed_offset + index)
    agents = [TantrixAgent(seed=index, lookahead=False, weights=weights) for _ in range(2)]
    snaps = []
    while state.outcome is None:
        if state.to_move == CHANCE:
            resolve_chance(state, rng)
            continue
        if state.step == FREE:
            unplaced = len(state.bag) + sum(map(len, state.hands))
            mover = state.colours[state.to_move]
            other = next(c for c in state.colours if c != mover)
            terms = terms_of(state, weights)
            snaps.append((unplaced, mover, other, terms[mover], terms[other]))
        state.play(agents[state.to_move].choose(state))
    score = dict(zip(state.colours, state.outcome.scores, strict=True))
    return [(u, m_terms, o_terms, score[m] - score[o]) for u, m, o, m_terms, o_terms in snaps]


def main() -> None:
    import numpy as np

    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed-offset", type=int, default=910_000)
    parser.add_argument("--weights", default="", help="changes to AGENT the games are played with")
    args = parser.parse_args()
    with ProcessPoolExecutor(args.jobs) as pool:
        games = list(
            pool.map(play, range(args.games), [args.seed_offset] * args.games, [args.weights] * args.games)
        )
    rows = [row for game in games for row in game]
    print(f"{len(rows)} positions from {len(games)} games")
    for low in PHASES:
        high = next((p for p in reversed(PHASES) if p > low), 99)
        sel = [r for r in rows if low <= r[0] < high] if high != 99 else [r for r in rows if r[0] >= low]
        if len(sel) < 50:
            continue
        X = np.array([m + o + [1.0] for _, m, o, _ in sel])
        y = np.array([margin for *_, margin in sel], float)
        coef, *_ = np.linalg.lstsq(X, y, rcond=None)
        # Standard errors from the residuals (positions of one game are not independent:
        # read them as a lower bound).
        resid = y - X @ coef
        sigma2 = resid @ resid / max(1, len(y) - X.shape[1])
        se = np.sqrt(np.diag(sigma2 * np.linalg.pinv(X.T @ X)))
        track = coef[0]
        print(f"unplaced {low}..{high if high != 99 else '+'}: {len(sel)} positions, margin sd {y.std():.2f}")
        for k, name in enumerate(TERMS):
            print(
                f"  mover {name:6s} {coef[k]:6.3f} ±{se[k]:.3f} (x{coef[k] / track:5.2f})   "
                f"other {name:6s} {coef[4 + k]:6.3f} ±{se[4 + k]:.3f} (x{coef[4 + k] / track:5.2f})"
            )
        print(f"  constant {coef[-1]:.3f}")
        diff = np.array([sum(m) - sum(o) for _, m, o, _ in sel])
        won = np.array([1.0 if margin > 0 else 0.0 if margin < 0 else 0.5 for *_, margin in sel])
        best = min(
            (
                -np.mean(
                    won * np.log(1e-9 + 1 / (1 + np.exp(-d))) + (1 - won) * np.log(1e-9 + 1 / (1 + np.exp(d)))
                ),
                s,
            )
            for s in (1, 1.5, 2, 3, 4, 6, 8, 12)
            for d in [diff / s]
        )
        # tanh(x / 2s) = 2 * logistic(x / s) - 1: the evaluation's scale is 2s.
        print(f"  win ~ logistic(potential difference / s): best s {best[1]} (log loss {best[0]:.3f})")


if __name__ == "__main__":
    main()
