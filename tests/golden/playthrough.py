"""Golden playthroughs (OpenSpiel style): for every preset, one seeded game with, at every
ply, the position text, the legal moves, the move played and, at the end, the outcome.

A change that alters any rule, the order of the legal moves, the notation or the text
picture shows up as a difference in ``tests/golden/<preset>.txt``. When the change is
intended, regenerate the files and review the diff:

    .venv/bin/python -m tests.golden.playthrough            # every preset
    .venv/bin/python -m tests.golden.playthrough pente trax # some presets

Moves are drawn with ``rng.choice(state.legal_moves())`` and chance moves by their
probabilities, not with ``State.random_move``: a game may make random_move faster without
changing these files, as long as the legal moves stay the same and in the same order."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import qipan
from qipan.core import CHANCE, sample_chance

HERE = Path(__file__).parent
SEED = 20261201
#: Plies recorded per preset: enough to pass the opening rules of every game while keeping
#: the files small enough to review (a 19x19 Pente ply lists 361 moves).
MAX_PLIES = 40


def path_for(preset: str) -> Path:
    return HERE / f"{preset}.txt"


def playthrough(preset: str, seed: int = SEED, max_plies: int = MAX_PLIES) -> str:
    spec = qipan.spec(preset)
    game = qipan.load(preset)
    state = game.new(seed=seed)
    rng = random.Random(seed)
    out = [
        f"# golden playthrough of {preset}; regenerate: python -m tests.golden.playthrough {preset}",
        f"game: {spec.id} ({spec.title})",
        f"options: {', '.join(f'{k}={v}' for k, v in sorted(game.options.items())) or '-'}",
        f"players: {state.num_players}",
        f"seed: {seed}",
    ]
    while True:
        out.append("")
        out.append(f"ply {state.ply}")
        to_move = "chance" if state.to_move == CHANCE else "over" if state.to_move is None else state.to_move
        out.append(f"to_move: {to_move}")
        out.append("text:")
        out.extend("  " + line.rstrip() for line in state.text().splitlines())
        if state.outcome is not None:
            o = state.outcome
            out.append(f"outcome: winners={list(o.winners)} scores={list(o.scores)} reason={o.reason}")
            break
        if state.ply >= max_plies:
            out.append(f"not over after {max_plies} plies")
            break
        moves = state.legal_moves()
        out.append(f"legal ({len(moves)}): {' '.join(m.text for m in moves)}")
        move = sample_chance(state, rng) if state.to_move == CHANCE else rng.choice(moves)
        out.append(f"move: {move.text}")
        state.play(move)
    return "\n".join(out) + "\n"


def main(argv: list[str]) -> None:
    presets = argv or [s.id for s in qipan.specs()]
    for preset in presets:
        path_for(preset).write_text(playthrough(preset), encoding="utf-8")
        print(f"wrote {path_for(preset)}")


if __name__ == "__main__":
    main(sys.argv[1:])
