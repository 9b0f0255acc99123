"""Fit the weights of the ``morris`` agent's evaluation (``evaluation_kernel.FEATURES``) to
the results of games (issue 38): every position after the opening of each game, as White's
terms minus Black's, labelled with White's score (1, 1/2, 0); the weights minimise the mean
squared error between the score and ``1 / (1 + exp(-value / K))`` (the "Texel" method), then
are scaled so that a stone is worth 100 again. ``K`` is the one of a grid that fits the
hand-set weights best.

    .venv/bin/python benchmarks/morris_tune.py benchmarks/results/runs/morris-tuning-*.json.gz
    .venv/bin/python benchmarks/morris_tune.py GAMES... --write   # into evaluation_kernel.py

The default ridge (1e-6) is the one ``TUNED_WEIGHTS`` were fitted with; ``--ridge 0`` fits
freely (it scored less in play: benchmarks/results/morris.md).

The games are ``benchmarks/morris_strength.py --out`` files (``.json`` or ``.json.gz``). A
fifth of the games (seeded) is held out: the error on them is printed before and after, so a
fit that only learns its own games shows.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
from pathlib import Path

import qipan
from qipan.fast import np
from qipan.games.morris import evaluation_kernel as ek

#: The hand-set weights of ``strong_evaluate`` (the ``morris-2026`` evaluation) on the
#: features: where the fit starts, and what it is compared with. Features it lacks start at 0.
HAND_SET = {
    "stone": ek.W_STONE,
    "mill": ek.W_MILL,
    "free_run": ek.W_FREE_RUN,
    "openable": ek.W_OPENABLE,
    "dead": ek.W_DEAD,
    "reach": ek.W_REACH,
    "running": ek.W_RUNNING,
    "reach_flying": ek.W_REACH * ek.FLYING_BLOCKS,
    "running_flying": ek.W_RUNNING * ek.FLYING_BLOCKS,
    "open_placing": ek.W_OPEN_PLACING,
    "double_placing": ek.W_DOUBLE_PLACING,
    "open_flying": ek.W_OPEN_PLACING,
    "double_flying": ek.W_DOUBLE_PLACING,
    "slide": ek.W_SLIDE,
    "blocked": -ek.W_BLOCKED,
    **{f"slides_{n}": -ek._near_blockade(n) for n in range(4)},
    "slide_placing": ek.W_SLIDE_PLACING,
    "slide_placing_late": ek.W_SLIDE,
    "blocked_placing": -ek.W_BLOCKED_PLACING,
    "blocked_placing_late": -ek.W_BLOCKED,
    "junction": ek.W_JUNCTION,
    "tempo": ek.W_TEMPO,
    "fork": ek.W_FORK,
    "fork_flying": ek.W_FORK_FLYING,
}
K_GRID = (100, 150, 200, 250, 300, 400, 500, 600, 800)


def read_games(path: Path) -> list[dict]:
    """The games of a ``morris_strength.py --out`` file; a clear error for anything else."""
    opener = gzip.open if path.suffix == ".gz" else open
    try:
        with opener(path, "rt", encoding="utf-8") as handle:
            games = json.load(handle)["games"]
        if not all(isinstance(g["moves"], list) and g["score"] in (0, 0.5, 1) for g in games):
            raise ValueError("a game without its moves or White's score")
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise SystemExit(f"{path}: not a morris_strength.py --out file ({error})") from error
    return games


def positions(paths, from_ply: int):
    """Features, White's score and the game's number of every position in play after
    ``from_ply`` plies of every game."""
    game = qipan.load("nine-mens-morris")
    kernel = game.kernel()
    rows, scores, numbers = [], [], []
    f = np.zeros(ek.N_FEATURES)
    number = 0
    for path in paths:
        for record in read_games(Path(path)):
            number += 1
            state = game.new()
            for ply, text in enumerate(record["moves"], 1):
                state.play(game.parse(text, state))
                if state.outcome is not None:
                    break
                if ply >= from_ply:
                    ek.features(kernel.pt, kernel.lines, kernel.par, kernel.state(state), f)
                    rows.append(f.copy())
                    scores.append(record["score"])
                    numbers.append(number)
    return np.array(rows), np.array(scores, np.float64), np.array(numbers)


def error(x, y, w, k) -> float:
    return float(np.mean((1.0 / (1.0 + np.exp(-(x @ w) / k)) - y) ** 2))


def fit(x, y, start, k, steps: int, rate: float, free_stone: bool, ridge: float):
    """Adam on the mean squared error from ``start``; features never seen stay put, and the
    stone unless ``free_stone``. Returns the weights scaled to a stone of 100, and which
    stayed put."""
    w = start.copy()
    fixed = x.std(axis=0) == 0
    if not free_stone:
        fixed[ek.FEATURE_INDEX["stone"]] = True
    m, v = np.zeros_like(w), np.zeros_like(w)
    for step in range(1, steps + 1):
        p = 1.0 / (1.0 + np.exp(-(x @ w) / k))
        grad = (2.0 * (p - y) * p * (1.0 - p)) @ x / (k * len(y)) + 2.0 * ridge * (w - start)
        grad[fixed] = 0.0
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        w -= rate * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-12)
    return w * (ek.W_STONE / w[ek.FEATURE_INDEX["stone"]]), fixed


def best_k(x, y, w) -> float:
    """The scale at which ``w``'s values fit the scores best (a geometric grid)."""
    return min((50 * 1.05**i for i in range(80)), key=lambda k: error(x, y, w, k))


def write(weights, path: Path = Path(ek.__file__)) -> Path:
    """Replace ``TUNED_WEIGHTS`` in ``evaluation_kernel.py`` with ``weights`` (rounded)."""
    text = path.read_text(encoding="utf-8")
    rows = "".join(f"        {w:.1f},  # {name}\n" for w, name in zip(weights, ek.FEATURES, strict=True))
    literal = f"TUNED_WEIGHTS = np.array(\n    [\n{rows}    ]\n)"
    new, count = re.subn(r"TUNED_WEIGHTS = np\.array\(\s*\[[^\]]*\]\s*\)", lambda _: literal, text)
    if count != 1:
        raise SystemExit(f"{path}: no single TUNED_WEIGHTS array to replace")
    path.write_text(new, encoding="utf-8")
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="+", help="morris_strength.py --out files (.json, .json.gz)")
    parser.add_argument("--from-ply", type=int, default=6, help="first ply counted (after the opening)")
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--rate", type=float, default=0.5)
    parser.add_argument("--seed", type=int, default=0, help="which games are held out")
    parser.add_argument(
        "--ridge",
        type=float,
        default=1e-6,
        help="pull towards the hand-set weights (an L2 penalty on the difference)",
    )
    parser.add_argument(
        "--free-stone",
        action="store_true",
        help="fit the stone too (then scale it back to 100), not only the rest at K",
    )
    parser.add_argument("--write", action="store_true", help="write the weights into evaluation_kernel.py")
    args = parser.parse_args()

    x, y, numbers = positions(args.games, args.from_ply)
    games = np.unique(numbers)
    rng = np.random.default_rng(args.seed)
    held = np.isin(numbers, rng.choice(games, len(games) // 5, replace=False))
    print(f"{len(games)} games, {len(y)} positions ({int(held.sum())} held out)")
    start = np.array([HAND_SET.get(name, 0.0) for name in ek.FEATURES])
    k = min(K_GRID, key=lambda k: error(x[~held], y[~held], start, k))
    print(f"K = {k}")
    w, fixed = fit(x[~held], y[~held], start, k, args.steps, args.rate, args.free_stone, args.ridge)
    # Each set of weights is scored at its own best scale (fitted games).
    for label, weights in (("hand-set", start), ("in the source", ek.TUNED_WEIGHTS), ("fitted", w)):
        scale = best_k(x[~held], y[~held], weights)
        print(f"error, {label:13s} (K {scale:6.1f}): fitted games {error(x[~held], y[~held], weights, scale):.5f}, "
              f"held out {error(x[held], y[held], weights, scale):.5f}")  # fmt: skip
    print(f"{'feature':22s} {'hand-set':>9s} {'fitted':>9s}")
    for name, a, b, still in zip(ek.FEATURES, start, w, fixed, strict=True):
        print(f"{name:22s} {a:9.1f} {b:9.1f}{'  (not in the games)' if still and name != 'stone' else ''}")
    if args.write:
        print(f"written to {write(w)}")


if __name__ == "__main__":
    main()
