"""Helpers for the Trax tests: the data files (tests/data/trax) and a way to
play a move list. ``conftest.py`` puts this folder on sys.path."""

from __future__ import annotations

import random

from tests.data import DATA as TEST_DATA

from qipan.games.trax import TraxGame

DATA = TEST_DATA / "trax"


def data_rows(name: str) -> list[list[str]]:
    """The non-comment lines of a data file, split at tabs."""
    lines = (DATA / name).read_text(encoding="utf-8").splitlines()
    return [line.split("\t") for line in lines if line.strip() and not line.startswith("#")]


def play(moves: str | list[str], variant: str = "unlimited", **options):
    state = TraxGame(variant=variant, **options).new()
    for move in moves.split() if isinstance(moves, str) else moves:
        state.play(move)
    return state


def grid(state) -> str:
    """The glyph grid of ``state.text()`` without the status line."""
    return "\n".join(state.text().splitlines()[:-1])


def random_positions(game, count: int, seed: int):
    """Up to ``count`` unfinished positions of seeded random games, 2 to 59 plies in."""
    rng = random.Random(seed)
    for _ in range(count):
        state = game.new()
        plies = rng.randrange(2, 60)
        while state.outcome is None and state.ply < plies:
            state.play(state.random_move(rng))
        if state.outcome is None:
            yield state
