"""Shared helpers: games are built from the tantrix package's own specs so these tests do
not depend on other game packages importing cleanly."""

import json
import random
from pathlib import Path

import pytest

from qipan.core import CHANCE, resolve_chance
from qipan.games.tantrix import SPECS

DATA = Path("/work/shared/data/tantrix")


def make(name: str = "tantrix", **options):
    spec = SPECS[name]
    game = spec.make(**spec.resolve(**options))
    game.preset = spec.id
    game.players = spec.players
    return game


def play_random(state, seed: int, stop=None):
    """Play random moves (chance by a seeded RNG) until the end or ``stop(state)``."""
    rng = random.Random(seed)
    while state.outcome is None and not (stop and stop(state)):
        if state.to_move == CHANCE:
            resolve_chance(state, rng)
        else:
            state.play(rng.choice(state.legal_moves()))
    return state


@pytest.fixture(scope="session")
def scenarios():
    data = json.loads((DATA / "tantrix_test_positions.json").read_text())
    return {t["id"].split("-")[0]: t for t in data["tests"]}
