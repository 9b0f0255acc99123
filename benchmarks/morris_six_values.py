"""Check the engine against the project's solved Six Men's Morris tables: retrograde analysis
of every 3-vs-3 moving-phase board (both sides to move, repetition = draw, no n-move rule),
with the engine's own move generation, compared with ``six_mens_morris_values.json``.

    .venv/bin/python benchmarks/morris_six_values.py [--flying] [--data DIR]

The data folder is ``--data``, else the repository's ``tests/data`` (as the tests find it).

A capture in the 3-3 subspace leaves the opponent 2 stones (a win), and a blocked side to move
loses, so the subspace is closed and can be solved on its own."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import qipan
from qipan.games.morris.solver import three_vs_three_counts

DEFAULT_DATA = Path(__file__).resolve().parents[1] / "tests" / "data"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--flying", action="store_true", help="the flying ruleset (slower)")
    parser.add_argument("--data", type=Path, default=Path(DEFAULT_DATA), help="the data folder (tests/data)")
    args = parser.parse_args()
    data = args.data / "morris" / "six_mens_morris_values.json"
    if not data.is_file():
        parser.error(f"{data} not found: pass --data DIR")
    key = "moving_phase_counts_flying_protected" if args.flying else "moving_phase_counts_no_flying_protected"
    expected = json.loads(data.read_text())[key]["table"]["3-3"]["white_to_move"]
    start = time.process_time()
    game = qipan.load("six-mens-morris", flying=3 if args.flying else None, repetition_count=None, n_move=0)
    got = three_vs_three_counts(game)
    print(f"6MM 3-3, {'flying' if args.flying else 'no flying'}, White to move: {got}")
    print(f"expected ({data.name}): {expected}")
    print(f"{'MATCH' if got == expected else 'MISMATCH'} in {time.process_time() - start:.1f} s CPU")


if __name__ == "__main__":
    main()
