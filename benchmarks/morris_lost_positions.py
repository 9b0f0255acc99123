"""Prove what the positions of the games lost to the independent engine were worth: for a
position of ``tests/data/ai/morris_black_losses_scored.json`` (game, ply; then any further
moves), the exact value within a horizon, by the table-free proof search
(``proof_search.ProofSearch``, repetition and the n-move rule off), of the position itself or
of every legal move there. A move the opponent then wins in k plies loses in k + 1; "no forced
result" means none within the horizon, not a draw.

    .venv/bin/python benchmarks/morris_lost_positions.py 11:21 --horizon 19
    .venv/bin/python benchmarks/morris_lost_positions.py 29:9 --then g7xd2,f2 --position --horizon 22

It tells a losing move from a position already lost: the tests of the Morris agent take their
positions from these games, and a position lost whatever is played has no losing plan to avoid
(benchmarks/results/morris.md).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import qipan
from qipan.games.morris.proof_search import ProofSearch

GAMES = Path(__file__).resolve().parents[1] / "tests" / "data" / "ai" / "morris_black_losses_scored.json"


def lost_game_position(game_number: int, ply: int, then: list[str]):
    """The position before ply ``ply`` of the lost game ``game_number``, then ``then``."""
    games = json.loads(GAMES.read_text())["games"]
    found = [g for g in games if g["game"] == game_number]
    if not found:
        raise ValueError(f"no game {game_number} in {GAMES.name}")
    moves = found[0]["moves"].split()
    if not 0 <= ply <= len(moves):
        raise ValueError(f"game {game_number} has {len(moves)} plies")
    game = qipan.load("nine-mens-morris")
    state = game.new()
    for text in moves[:ply] + then:
        state.play(game.parse(text, state))
    return game, state


def describe(proof) -> str:
    if proof.value == "draw":
        return f"no forced result within {proof.depth} plies"
    return f"{proof.value} in {proof.plies}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("where", help="GAME:PLY, the position before that ply (0-based) of that game")
    ap.add_argument("--then", default="", help="moves played after it, comma-separated")
    ap.add_argument("--position", action="store_true", help="prove the position, not each move")
    ap.add_argument("--horizon", type=int, default=19, help="plies searched")
    ap.add_argument("--nodes", type=float, default=4e9, help="node budget of each proof")
    ap.add_argument("--out", type=Path, help="write the results as JSON here")
    a = ap.parse_args()
    try:
        parts = a.where.split(":")
        if len(parts) != 2 or not all(x.isdigit() for x in parts):
            raise ValueError(f"{a.where!r} is not GAME:PLY, e.g. 11:21")
        number, ply = (int(x) for x in parts)
        then = [m for m in a.then.split(",") if m]
        game, state = lost_game_position(number, ply, then)
    except ValueError as e:  # a malformed GAME:PLY, no such game or ply, a bad or illegal move
        ap.error(str(e))
    search = ProofSearch(game, table_bits=25, nodes=int(a.nodes))
    rows = []
    if a.position:
        targets = [("(the position)", state)]
    else:
        targets = []
        for move in state.legal_moves():
            after = state.copy()
            after.play(move)
            targets.append((move.text, after))
    mover = "the side to move" if a.position else "the opponent"
    for text, target in targets:
        start = time.process_time()
        proof = search.prove(target, a.horizon)
        cpu = time.process_time() - start
        rows.append(
            {
                "move": text,
                "value": proof.value,
                "plies": proof.plies,
                "horizon": proof.depth,
                "cpu_s": round(cpu, 1),
            }
        )
        print(f"{text:16} {mover}: {describe(proof)}  ({cpu:.1f} CPU s)", flush=True)
    if a.out:
        record = {
            "game": number,
            "ply": ply,
            "then": then,
            "horizon": a.horizon,
            "values_for": mover,
            "rows": rows,
        }
        a.out.write_text(json.dumps(record, indent=1) + "\n")


if __name__ == "__main__":
    main()
