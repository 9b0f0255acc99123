"""Build the ``morris`` agent's opening book for Nine Men's Morris placement
(``src/qipan/games/morris/book_nine.json``): every position of the first ``--plies`` plies,
whatever both sides played (up to the board's 16 symmetries), searched to ``--depth`` plies
by the agent's own search (``search.py``), fixed depth so the book is reproducible.

    .venv/bin/python benchmarks/morris_book.py --plies 3 --depth 9
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import qipan
from qipan.games.morris import book
from qipan.games.morris.search import Searcher

OUT = Path(__file__).resolve().parents[1] / "src" / "qipan" / "games" / "morris" / book.BOOK_FILE


def positions(game, plies: int):
    """The distinct positions (book keys) of the first ``plies`` plies, breadth first, each
    with one state that reaches it."""
    level = [game.new()]
    seen = {}
    for ply in range(plies + 1):
        following = []
        for state in level:
            located = book.position_key(state)
            if located is None or located[0] in seen:
                continue
            seen[located[0]] = state
            if ply < plies:
                for move in state.legal_moves():
                    child = state.copy()
                    child.play(move)
                    if child.outcome is None:
                        following.append(child)
        level = following
    return seen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, default=3, help="book positions: the first this many plies")
    parser.add_argument("--depth", type=int, default=9, help="search depth for every book position")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    game = qipan.load(book.BOOK_PRESET)
    kernel = game.kernel()
    if kernel is None:
        raise SystemExit("the book is built with the compiled kernels (qipan[fast])")
    found = positions(game, args.plies)
    print(f"{len(found)} positions in the first {args.plies} plies", flush=True)
    searcher = Searcher(kernel, contempt=0)  # one searcher for both colours: draws are 0
    entries = {}
    started = time.process_time()
    for number, (key, state) in enumerate(sorted(found.items(), key=lambda kv: kv[1].ply)):
        codes = sorted(kernel.legal(kernel.state(state)))
        result = searcher.search(state, codes, depth=args.depth)
        _, perm = book.position_key(state)
        move = kernel.move(result.code)
        entries[key] = {
            "moves": [book.move_data(move, perm)],
            "score": round(result.score, 1),
            "ply": state.ply,
        }
        if number % 25 == 0:
            print(f"{number}/{len(found)} ply {state.ply} {move} {result.score:g} "
                  f"({time.process_time() - started:.0f} s CPU)", flush=True)  # fmt: skip
    data = {
        "about": f"built by benchmarks/morris_book.py --plies {args.plies} --depth {args.depth}",
        "rules": book.placement_rules(game.rules),
        "depth": args.depth,
        "positions": dict(sorted(entries.items())),
    }
    args.out.write_text(json.dumps(data, separators=(",", ":"), sort_keys=True) + "\n")
    print(f"wrote {len(entries)} positions to {args.out} ({time.process_time() - started:.0f} s CPU)")


if __name__ == "__main__":
    main()
