"""The kernels against the reference rules at the issue's scale: seeded random games per
preset (default 2,000), comparing legal move sets, positions and outcomes at every ply
(``qipan.fast.check_kernel``), and 9MM perft(6). The tests run the same checks with fewer
games to fit CI.

    .venv/bin/python benchmarks/kernel_check.py [--games 2000] [--no-perft] [PRESET ...]
"""

from __future__ import annotations

import argparse
import time

import qipan
from qipan.core.perft import perft
from qipan.fast import check_kernel

#: (preset, players) for every preset that has a kernel.
PRESETS = [
    ("nine-mens-morris", 2),
    ("twelve-mens-morris", 2),
    ("six-mens-morris", 2),
    ("zhiqi", 2),
    ("three-mens-morris", 2),
    ("three-mens-morris-kurna", 2),
    ("openspiel", 2),
    ("pente", 2),
    ("pente-tournament", 2),
    ("pente-team", 4),
    ("pente-4", 4),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("presets", nargs="*", help="presets to check (default: all with a kernel)")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-perft", action="store_true")
    args = parser.parse_args()
    chosen = [(p, n) for p, n in PRESETS if not args.presets or p in args.presets]
    for preset, players in chosen:
        game = qipan.load(preset)
        start = time.process_time()
        plies, reasons = check_kernel(
            game, args.games, args.seed, start=lambda g=game, n=players: g.new(players=n)
        )
        spent = time.process_time() - start
        ends = ", ".join(f"{reason}: {count}" for reason, count in reasons.most_common())
        print(f"{preset:24s} {args.games} games, {plies:,} plies agree ({spent:.1f} CPU s); {ends}")
    if not args.no_perft and (not args.presets or "nine-mens-morris" in args.presets):
        game = qipan.load("nine-mens-morris")
        state = game.new()
        start = time.process_time()
        ours = game.kernel().perft(state, 6)
        middle = time.process_time()
        theirs = perft(state, 6)
        end = time.process_time()
        verdict = "agree" if ours == theirs else "DIFFER"
        print(
            f"9MM perft(6): kernel {ours:,} ({middle - start:.2f} CPU s), rules {theirs:,} ({end - middle:.1f} CPU s): {verdict}"
        )


if __name__ == "__main__":
    main()
