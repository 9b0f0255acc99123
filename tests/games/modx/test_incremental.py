"""The incremental pattern counts behind ``threats`` (and so ``legal_moves``): after every
move and every undo of seeded random games they equal a count from scratch, and the
threats they give equal a scan of all 168 patterns (the definition they replace)."""

from __future__ import annotations

import random

import pytest

import qipan
from qipan.games.modx.board import INDEX, PATTERNS, completed

from .conftest import make


def scanned_threats(state, player):
    """``threats`` by the definition: every pattern missing exactly one open square."""
    own = state.xs[player]
    cover = own | state.jokers
    open_ = state.open_mask()
    near = {}
    for pat in PATTERNS:
        missing = pat & ~cover
        if missing and missing & (missing - 1) == 0 and missing & open_:
            near[missing] = near.get(missing, 0) | pat
    return completed(own, state.jokers), near


def check_counts(state):
    cover, fours = state._pattern_counts()
    for p, x in enumerate(state.xs):
        expected = [(pat & (x | state.jokers)).bit_count() for pat in PATTERNS]
        assert cover[p] == expected
        assert fours[p] == sum(1 << i for i, c in enumerate(expected) if c == 4)
        assert state.threats(p) == scanned_threats(state, p)


@pytest.mark.parametrize("preset", ["modx", "modx-3", "modx-4", "modx-teams", "modx-claims"])
def test_counts_follow_play_and_undo(preset):
    game = qipan.load(preset)
    for seed in range(6):
        state = game.new(seed=seed)
        rng = random.Random(seed)
        state.legal_moves()  # builds the counts, which every move then updates
        while state.outcome is None:
            state.play(rng.choice(state.legal_moves()))
            check_counts(state)
            if rng.random() < 0.2:  # an undo restores the counts, and so does replaying
                move = state.undo()
                check_counts(state)
                state.play(move)
        while state.history and rng.random() < 0.9:
            state.undo()
        check_counts(state)


def test_copies_have_their_own_counts():
    state = qipan.load("modx").new(seed=3)
    rng = random.Random(3)
    for _ in range(12):
        state.play(rng.choice(state.legal_moves()))
    twin = state.copy()
    before = [list(c) for c in state._pattern_counts()[0]]
    for _ in range(6):
        twin.play(rng.choice(twin.legal_moves()))
    assert state._pattern_counts()[0] == before
    check_counts(twin)


def test_a_position_read_from_text_is_counted_from_what_it_holds():
    # Red has four of the plus on D4; the jokers and Black's pieces count for their owners.
    state = make({"D4": "R", "C4": "R", "E4": "R", "D5": "J", "A1": "B", "H8": "J"})
    check_counts(state)
    plus = sum(1 << INDEX[name] for name in ("D3", "C4", "D4", "E4", "D5"))
    assert plus in PATTERNS
    assert state.threats(0)[1] == {1 << INDEX["D3"]: plus}
