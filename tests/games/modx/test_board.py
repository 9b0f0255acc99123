"""The board data (``board.py``): the 168 patterns and ``completed``, the one definition of
what a colour scores, which the rules, the notation and the evaluation share."""

from __future__ import annotations

import random

import qipan
from qipan.games.modx.board import BIT, INDEX, PATTERN_KINDS, PATTERNS, completed, names_of
from qipan.games.modx.rules import placement_move


def mask(*names: str) -> int:
    out = 0
    for name in names:
        out |= BIT[INDEX[name]]
    return out


def test_168_patterns():
    kinds = [kind for kind, _ in PATTERN_KINDS]
    assert (kinds.count("x"), kinds.count("plus"), kinds.count("line")) == (36, 36, 96)
    assert len(set(PATTERNS)) == 168 and all(p.bit_count() == 5 for p in PATTERNS)


def test_completed_needs_an_own_piece_and_counts_jokers():
    plus = mask("D3", "C4", "D4", "E4", "D5")
    assert completed(plus, 0) == plus
    assert completed(mask("D3", "C4", "E4", "D5"), 0) == 0  # four of five
    assert completed(mask("D3", "C4", "E4"), mask("D4", "D5")) == plus
    # a pattern of jokers only is no colour's, even beside the colour's own pieces
    assert completed(mask("H1"), plus) == 0


def test_overlapping_patterns_are_one_union():
    own = mask("B4", "C4", "D4", "E4", "F4", "D3", "D5")
    assert names_of(completed(own, 0)) == "D3 B4 C4 D4 E4 F4 D5"


def test_legal_moves_threats_and_scored_by_agree_through_random_games():
    for game_id in ("modx", "modx-3", "modx-teams"):
        game = qipan.load(game_id, random_jokers=True)
        rng = random.Random(game_id)
        state = game.new(seed=5)
        while state.outcome is None:
            if state.phase == "play":
                p = state.to_move
                assert state.threats(p)[0] == completed(state.xs[p], state.jokers)
                for move in state.legal_moves():
                    s = move.data[1]
                    assert move == placement_move(s, state.scored_by(p, s))
            state.play(rng.choice(state.legal_moves()))
