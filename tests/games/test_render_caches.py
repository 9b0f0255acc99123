"""The Pente and Morris pictures keep their fixed parts in a cache (per board and size): a
picture drawn from the cache must equal one drawn afresh, for every preset, and the
pictures must stay byte for byte what they were before the cache (the digests below were
taken with the uncached renderers, over the same seeded positions)."""

from __future__ import annotations

import hashlib
import random

import pytest

import qipan
from qipan.games.morris import render as morris_render
from qipan.games.pente import render as pente_render

RENDERERS = {"pente": pente_render, "morris": morris_render}

#: sha256 (first 16 hex digits) of every SVG of ``positions(preset)`` in turn, as the
#: renderers drew them before their caches.
DIGESTS = {
    "pente": "190813c446174b84",
    "pente-4": "46c5ea12220b43d8",
    "pente-team": "46c5ea12220b43d8",
    "pente-tournament": "190813c446174b84",
    "nine-mens-morris": "cf8f32bbf065fb64",
    "openspiel": "cf8f32bbf065fb64",
    "six-mens-morris": "eef6b8291a5f7b9e",
    "three-mens-morris": "58cee430090670f4",
    "three-mens-morris-kurna": "48df766cf55e12e2",
    "twelve-mens-morris": "565f2b963886ebc9",
    "zhiqi": "1d5431c2ac63d89a",
}

PRESETS = sorted(s.id for s in qipan.specs() if s.family in RENDERERS)


def positions(preset: str, seeds: int = 3, plies: int = 120, **options):
    """Seeded random games of ``preset``: every position from the start on (one state,
    changed in place)."""
    for seed in range(seeds):
        rng = random.Random(seed)
        state = qipan.load(preset, **options).new(seed=seed)
        yield state
        while state.outcome is None and state.ply < plies and state.legal_moves():
            state.play(rng.choice(state.legal_moves()))
            yield state


def renderer(state):
    return RENDERERS[state.game.family]


def test_every_preset_of_both_families_has_a_digest():
    assert set(PRESETS) == set(DIGESTS)


@pytest.mark.parametrize("preset", PRESETS)
def test_pictures_are_byte_identical_to_the_uncached_ones(preset):
    digest = hashlib.sha256()
    for state in positions(preset):
        digest.update(state.svg().encode())
    assert digest.hexdigest()[:16] == DIGESTS[preset]


@pytest.mark.parametrize("preset", PRESETS)
def test_a_cached_picture_equals_a_fresh_one(preset):
    for state in positions(preset):
        render = renderer(state)
        cached = render.svg(state)
        render._PARTS.clear()  # drawn afresh: the fixed parts made from this position
        assert render.svg(state) == cached


def test_caches_keep_board_sizes_player_counts_and_cell_sizes_apart():
    states = [
        qipan.load("pente", board_size=13).new().play_many(["G7", "H8"]),
        qipan.load("pente-4").new().play_many(["K10", "L10", "M10"]),
        qipan.load("pente").new().play_many(["K10"]),
        qipan.load("three-mens-morris").new().play_many(["b2"]),
        qipan.load("twelve-mens-morris").new().play_many(["d2"]),
        qipan.load("nine-mens-morris").new().play_many(["d2"]),
    ]
    drawn = [(s, cell, renderer(s).svg(s, cell)) for cell in (20, 28, 60) for s in states]
    assert len({picture for _, _, picture in drawn}) == len(drawn)
    for state, cell, picture in drawn:  # each again, after a cache filled by the others
        render = renderer(state)
        fresh = (render._PARTS.clear(), render.svg(state, cell))[1]
        assert fresh == picture
