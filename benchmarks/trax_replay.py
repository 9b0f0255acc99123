"""Trax engine speed: replaying the 1,000 GnuTrax 8x8 games, and random playouts.

    python benchmarks/trax_replay.py [--seconds 5]

Prints games and plies per second for the replay (notation parsed, forced plays, win and
8x8 draw checks), then random games per second in each variant, with the time spent in
legal-move generation as the share a search would pay."""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

from qipan.games.trax import TraxGame
from qipan.games.trax.records import read_tsv

SAMPLE = Path(__file__).resolve().parents[1] / "tests/data/trax/trax_8x8_gnutrax_sample.tsv"


def replay_all(records) -> int:
    game = TraxGame(variant="8x8")
    plies = 0
    for record in records:
        state = game.new()
        for text in record.moves:
            state.play(text)
        plies += len(record.moves)
    return plies


def random_games(variant: str, seconds: float, seed: int = 1) -> tuple[int, int, float]:
    game = TraxGame(variant=variant)
    rng = random.Random(seed)
    games = plies = 0
    movegen = 0.0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        state = game.new()
        while state.outcome is None and state.ply < 2000:
            t = time.perf_counter()
            moves = state.legal_moves()
            movegen += time.perf_counter() - t
            state.play_unchecked(rng.choice(moves))
            plies += 1
        games += 1
    return games, plies, movegen


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=5.0, help="time for random games per variant")
    args = parser.parse_args()
    records = read_tsv(SAMPLE.read_text(encoding="utf-8"))
    start = time.perf_counter()
    plies = replay_all(records)
    took = time.perf_counter() - start
    print(
        f"replay: {len(records)} GnuTrax 8x8 games, {plies} plies in {took:.2f}s "
        f"= {len(records) / took:.0f} games/s, {plies / took:.0f} plies/s",
        flush=True,
    )
    for variant in ("unlimited", "8x8", "loop"):
        games, plies, movegen = random_games(variant, args.seconds)
        print(
            f"random {variant:9}: {games / args.seconds:.1f} games/s, {plies / args.seconds:.0f} plies/s, "
            f"{plies / games:.1f} plies/game, legal-move generation {movegen / args.seconds:.0%} of the time",
            flush=True,
        )


if __name__ == "__main__":
    main()
