"""A digest of what the Morris reference rules produce, to show that a speed change kept them
exactly: every legal-move list (texts, in order), position key, side to move and outcome over
seeded random games of every preset and of option sets that take the other code paths, with
undos between plies (a move played and taken back, then the list asked for again).

Run it on the tree before and after a change: the digests must be equal.

    .venv/bin/python benchmarks/morris_move_digest.py [--games 40]
"""

from __future__ import annotations

import argparse
import hashlib
import random

import qipan

#: (preset, options): every preset, then the options that change the generator's path.
CASES = [
    ("nine-mens-morris", {}),
    ("openspiel", {}),
    ("six-mens-morris", {}),
    ("twelve-mens-morris", {}),
    ("zhiqi", {}),
    ("three-mens-morris", {}),
    ("three-mens-morris-kurna", {}),
    ("nine-mens-morris", {"take_per_mill": 2}),
    ("nine-mens-morris", {"protection": "always_protected"}),
    ("nine-mens-morris", {"protection": "no_mill_protection", "flying": None}),
    ("nine-mens-morris", {"repetition_count": 1, "n_move": 20}),
    ("twelve-mens-morris", {"full_board": "each_removes", "diagonal_mills": False}),
    ("twelve-mens-morris", {"full_board": "white_loses", "take_per_mill": 2}),
    ("zhiqi", {"dan_gang_moving_only": True, "dan_lines": "any", "gang_lines": "any"}),
    ("three-mens-morris-kurna", {"move_anywhere": True, "line_moving_only": True}),
]


def case_digest(preset: str, options: dict, games: int, seed: int = 7) -> str:
    """The digest of ``games`` seeded random games of one rule set."""
    game = qipan.load(preset, **options)
    rng = random.Random(seed)
    h = hashlib.sha256()
    for _ in range(games):
        state = game.new(seed=rng.randrange(1 << 30))
        while True:
            moves = state.legal_moves()
            h.update(f"{state.key()}|{state.to_move}|{' '.join(m.text for m in moves)}\n".encode())
            if state.outcome is not None:
                h.update(f"{state.outcome.winners}|{state.outcome.reason}\n".encode())
                break
            if rng.random() < 0.15:  # a move and its undo: the list asked for again after it
                state.play(rng.choice(moves))
                h.update(" ".join(state.legal_move_texts()).encode())
                state.undo()
                continue
            state.play(rng.choice(moves))
    return h.hexdigest()[:16]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per rule set (default 40)")
    args = parser.parse_args()
    total = hashlib.sha256()
    for preset, options in CASES:
        digest = case_digest(preset, options, args.games)
        total.update(digest.encode())
        print(f"{digest}  {preset} {options or ''}")
    print(f"{total.hexdigest()[:16]}  all")


if __name__ == "__main__":
    main()
