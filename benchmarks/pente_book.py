"""Build the Pente opening book (``src/qipan/games/pente/book.json``) under the tournament rule:
the second player's first stone, the first player's second stone after every first reply
within 2 points of the centre, and the second player's answer to each book move, each
chosen by a deeper search of the ``pente`` agent (``--iterations`` nodes) than it makes in
play. Positions are stored once per symmetry class.

    .venv/bin/python benchmarks/pente_book.py --iterations 300000"""

from __future__ import annotations

import argparse
import json
import time

import qipan
from qipan.agents import load as load_agent
from qipan.games.pente import book


def choose(state, iterations: int) -> tuple[int, int]:
    agent = load_agent("pente", iterations=iterations, seed=0, book=False)
    move = agent.choose(state)
    return state.geom.centred(move.data[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=300_000)
    args = parser.parse_args()
    game = qipan.load("pente-tournament")
    positions: dict[str, list[int]] = {}
    start = time.process_time()

    def add(state) -> tuple[int, int]:
        key, k = book.key_for(state)
        if key in positions:
            x, y = positions[key]
            return book._inverse(k)(x, y)
        x, y = choose(state, args.iterations)
        positions[key] = list(book.SYMMETRIES[k](x, y))
        print(f"{key}: {x},{y} ({time.process_time() - start:.0f} cpu s)", flush=True)
        return x, y

    first = game.new().play_many(["K10"])
    add(first)
    g = first.geom
    for dx in range(-2, 3):
        for dy in range(-2, 3):
            if (dx or dy) and 0 <= dx <= dy:  # one reply per symmetry class
                state = game.new().play_many(["K10", g.name[g.from_centred(dx, dy)]])
                x, y = add(state)
                state.play(g.name[g.from_centred(x, y)])
                add(state)
    about = (
        "Pente opening book under the tournament rule: canonical position (each player's stones, "
        "centred x,y) -> the move (centred x,y in that frame). Built by benchmarks/pente_book.py "
        f"with the pente agent at {args.iterations} nodes a move."
    )
    book.BOOK_FILE.write_text(json.dumps({"about": about, "positions": positions}, indent=1) + "\n")
    print(f"wrote {len(positions)} positions to {book.BOOK_FILE}")


if __name__ == "__main__":
    main()
