"""Shared helpers: games are built from the tantrix package's own specs so these tests do
not depend on other game packages importing cleanly."""

import json
import random

import pytest
from tests.data import DATA as TEST_DATA

from qipan.core import CHANCE, resolve_chance
from qipan.games.tantrix import SPECS

DATA = TEST_DATA / "tantrix"


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


def draw(state, tile: int) -> None:
    """Draw ``tile`` at a chance node."""
    assert state.to_move == CHANCE
    state.play(f"+{tile}")


def decisions(players: int, seed: int, min_board: int = 6):
    """Yield (state) at the player decisions of a seeded random game."""
    state = make().new(players=players)
    rng = random.Random(seed)
    while state.outcome is None:
        if state.to_move == CHANCE:
            resolve_chance(state, rng)
            continue
        if len(state.board) >= min_board:
            yield state
        state.play(rng.choice(state.legal_moves()))


def after(state, move):
    s = state.copy()
    s.play(move)
    return s


@pytest.fixture(scope="session")
def scenarios():
    data = json.loads((DATA / "tantrix_test_positions.json").read_text())
    return {t["id"].split("-")[0]: t for t in data["tests"]}


def faced_lines(state, colour):
    """The lines of ``colour`` and, for each empty cell, the indices of the lines whose ends
    face it (walked here, independently of ``evaluation``)."""
    from qipan.games.tantrix.board import link_ends, neighbour, tracks

    lines = [cells for cells, loop in tracks(state.edges, colour) if not loop]
    faced: dict = {}
    for i, cells in enumerate(lines):
        for end in {cells[0], cells[-1]}:
            for d in link_ends(state.edges[end], colour):
                beyond = neighbour(end, d)
                if beyond not in state.edges:
                    faced.setdefault(beyond, []).append(i)
    return lines, faced
