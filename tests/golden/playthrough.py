"""Golden playthroughs (OpenSpiel style): for every preset, one seeded game from the start to
its end with, at every ply, the position text, the legal moves, the move played and, at the
end, the outcome. ``test_golden.py`` compares them with the rules, and
``test_golden_kernels.py`` replays them through every compiled kernel.

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
#: A playthrough goes on to the end of the game, so a file shows every phase its preset has
#: (placing, moving and flying in Morris; the setup, the free moves, the forced fills and the
#: last tiles in Tantrix; ...) and how it ends. Every preset's seeded game ends well before
#: this cap; a file that reaches it fails the golden test.
MAX_PLIES = 1000


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
        out.append(legal_line(moves))
        move = sample_chance(state, rng) if state.to_move == CHANCE else rng.choice(moves)
        out.append(f"move: {move.text}")
        state.play(move)
    return "\n".join(out) + "\n"


def legal_line(moves) -> str:
    """The line that lists the legal moves of a ply (move texts may hold spaces: the line is
    compared whole, never split)."""
    return f"legal ({len(moves)}): {' '.join(m.text for m in moves)}"


def read(text: str) -> list[tuple[str, str]]:
    """The plies of a golden file: for each move played, the line of the legal moves before
    it and the move's text, in order."""
    plies = []
    legal: str | None = None
    for line in text.splitlines():
        if line.startswith("legal ("):
            legal = line
        elif line.startswith("move: "):
            if legal is None:
                raise ValueError(f"a move without its legal moves: {line!r}")
            plies.append((legal, line[len("move: ") :]))
            legal = None
    return plies


def main(argv: list[str]) -> None:
    presets = argv or [s.id for s in qipan.specs()]
    for preset in presets:
        path_for(preset).write_text(playthrough(preset), encoding="utf-8")
        print(f"wrote {path_for(preset)}")


if __name__ == "__main__":
    main(sys.argv[1:])
