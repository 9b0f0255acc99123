"""Setup, the turn machine, draws, options, undo and copies; bad input changes nothing."""

import random

import pytest

from qipan.core import CHANCE, IllegalMove, NotationError, QipanError
from qipan.games.tantrix.board import DEAL, ORDER, PLAY

from .conftest import draw, make, play_random


def test_casual_setup_highest_start_tile_starts_and_keeps_it():
    state = make().new(players=3)
    assert state.phase == ORDER and state.to_move == CHANCE
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 56 and abs(sum(p for _, p in outcomes) - 1) < 1e-9
    for tile in (20, 45, 7):
        draw(state, tile)
    assert state.order_draws == [20, 45, 7] and state.starter == 1 and state.phase == DEAL
    assert state.hands == [[20], [45], [7]]
    assert state.current == 1  # dealing starts with the starter
    rng = random.Random(3)
    while state.phase != PLAY:
        draw(state, rng.choice(sorted(state.bag)))
    assert all(len(h) == 6 for h in state.hands) and 45 in state.hands[1] and 20 in state.hands[0]
    assert len(state.bag) == 56 - 18
    assert state.to_move == 1 and state.step == 2  # the starter's free move at the origin
    assert {m.data[2] for m in state.legal_moves()} == {(0, 0)}


def test_tournament_setup_returns_the_start_tiles():
    state = make(setup="tournament").new(players=2)
    draw(state, 10)
    draw(state, 30)
    assert state.starter == 1 and state.hands == [[], []]
    assert 10 in state.bag and 30 in state.bag and len(state.bag) == 56
    rng = random.Random(1)
    while state.phase != PLAY:
        draw(state, rng.choice(sorted(state.bag)))
    assert all(len(h) == 6 for h in state.hands) and len(state.bag) == 44
    assert state.to_move == 1


def test_turns_pass_clockwise_from_the_starter_with_a_draw_after_each_placement():
    state = make().new(players=4)
    for tile in (5, 9, 50, 2):
        draw(state, tile)
    rng = random.Random(2)
    while state.phase != PLAY:
        draw(state, rng.choice(sorted(state.bag)))
    seen = []
    while len(seen) < 6:
        if state.to_move == CHANCE:
            before = len(state.hands[state.current])
            draw(state, min(state.bag))
            assert len(state.hands[state.current]) == before + 1 == 6
            continue
        mover = state.to_move
        move = state.legal_moves()[0]
        state.play(move)
        assert state.to_move == CHANCE and state.current == mover and len(state.hands[mover]) == 5
        if not move.data[4]:
            seen.append(mover)
    assert seen[:4] == [2, 3, 0, 1] and seen[4] == 2


def test_random_games_end_and_scores_match_tracks():
    for players, seed in ((2, 1), (3, 2), (4, 3)):
        state = play_random(make().new(players=players), seed)
        assert state.outcome is not None
        assert len(state.board) == 56 or "deadlock" in state.outcome.reason
        assert state.outcome.scores == tuple(float(s) for s in state.scores())
        if "deadlock" not in state.outcome.reason:
            best = max(state.outcome.scores)
            expected = [p for p in range(players) if state.outcome.scores[p] == best]
            assert list(state.outcome.winners) == ([] if len(expected) == players else expected)


def test_the_board_always_matches_and_restrictions_hold_before_the_endgame():
    state = make().new(players=2)

    def check(s):
        for (q, r), e in s.edges.items():
            for d, (dq, dr) in enumerate(((1, -1), (1, 0), (0, 1))):
                other = s.edges.get((q + dq, r + dr))
                assert other is None or other[d + 3] == e[d]
        if s.bag and s.phase == PLAY:
            assert all(n <= 3 for n in s.counts.values())  # R2 never broken
        return False

    play_random(state, 11, stop=check)
    assert state.outcome is not None


def test_players_with_empty_hands_are_skipped_in_the_endgame():
    text = "players=3 phase=play turn=1/3 order=40,12,1 board=1@0,0r0 hands=-|2|- bag=-"
    state = make().position(text)
    assert state.to_move == 1 and state.step == 2
    state.play(state.legal_moves()[0])
    assert state.outcome is not None and state.outcome.reason == "all tiles are placed"


def test_doubles_partners_share_a_colour_and_win_together():
    game = make("tantrix-doubles")
    state = game.new(players=4)
    assert state.colours == ("R", "Y", "R", "Y")
    state = play_random(state, 5)
    scores = state.outcome.scores
    assert scores[0] == scores[2] and scores[1] == scores[3]
    assert state.outcome.winners in ((), (0, 2), (1, 3))
    with pytest.raises(QipanError, match="doubles"):
        make(doubles=True).new(players=2)


def test_colours_option():
    assert make(colours="GB").new(players=2).colours == ("G", "B")
    assert make().new(players=3).colours == ("R", "Y", "G")
    for bad in ("RR", "RX", "R"):
        with pytest.raises(QipanError):
            make(colours=bad).new(players=2)


def test_tiebreak_option_changes_the_result_of_a_tie():
    board = "1@0,0r0"  # a single tile: R, Y, B lines of 1 each; G has none
    for tiebreak, winners in (("draw", ()), ("second_best", ())):
        state = make(tiebreak=tiebreak).position(
            f"players=2 phase=play turn=1/3 order=40,12 board={board} hands=-|- bag=-"
        )
        assert state.outcome.winners == winners
    # Red has a second track, yellow not: second_best breaks the tie for red.
    text = "players=2 phase=play turn=1/3 order=40,12 board=1@0,0r0;2@5,5r0 hands=-|- bag=-"
    assert make(tiebreak="draw").position(text).outcome.winners == ()
    assert make(tiebreak="second_best", colours="RG").position(text).outcome.winners == (0,)


def test_bad_input_changes_nothing():
    state = play_random(
        make().new(players=2, seed=6), 6, stop=lambda s: len(s.board) >= 8 and s.to_move != CHANCE
    )
    key, moves, history = state.key(), state.legal_move_texts(), list(state.history)
    player = state.to_move
    other = [t for t in state.hands[1 - player] if t not in state.hands[player]][0]
    cases = [
        ("12@", NotationError),
        ("x", NotationError),
        ("57@0,0r0", NotationError),
        ("3@0,0r6", NotationError),
        (f"{other}@9,9r0", IllegalMove),
        ("+5", IllegalMove),
        (f"{state.hands[player][0]}@0,0r0", IllegalMove),
    ]
    for text, error in cases:
        with pytest.raises(error):
            state.play(text)
        assert state.key() == key and state.legal_move_texts() == moves and state.history == history
    with pytest.raises(IllegalMove, match="not in the hand"):
        state.play(f"{other}@9,9r0")
    with pytest.raises(IllegalMove, match="occupied"):
        state.play(f"{state.hands[player][0]}@0,0r0")


def test_illegal_draws_and_moves_at_a_chance_node():
    state = make().new(players=2)
    draw(state, 7)
    with pytest.raises(IllegalMove, match="not in the bag"):
        state.play("+7")
    with pytest.raises(IllegalMove, match="drawn"):
        state.play("7@0,0r0")


def test_undo_restores_everything():
    state = make().new(players=3, seed=2)
    rng = random.Random(2)
    snapshots = []
    while state.outcome is None and state.ply < 150:
        snapshots.append((state.key(), state.legal_move_texts(), state.to_move, state.position()))
        moves = state.legal_moves()
        state.play(rng.choice(moves))
    while state.history:
        state.undo()
        assert (state.key(), state.legal_move_texts(), state.to_move, state.position()) == snapshots[
            state.ply
        ]


def test_copies_are_independent():
    state = play_random(make().new(players=2, seed=3), 3, stop=lambda s: s.ply > 40)
    clone = state.copy()
    key = clone.key()
    play_random(state, 9, stop=lambda s: s.ply > 60)
    while state.ply > 30:
        state.undo()
    assert clone.key() == key


# Tiles 1, 2, 3 around the space 0,0: on alternate sides (directions 0, 2, 4), or on three
# consecutive sides (directions 0, 1, 2).
ALTERNATE = "board=1@1,-1r0;2@0,1r0;3@-1,0r0"
CONSECUTIVE = "board=1@1,-1r0;2@1,0r0;3@0,1r3"


def seed_spaces_position(board: str, forced_space: str = "any_three"):
    from qipan import load

    text = f"players=2 phase=play turn=1/2 order=9,38 {board} hands=4,5,6,7,8,9|10,11,12,13,14,15 bag=rest"
    return load("tantrix", forced_space=forced_space).position(text)


def test_forced_space_consecutive_counts_only_three_consecutive_sides():
    """Option ``forced_space`` (rules 4.5.1, difference 1): the seed's "a notch formed by three
    consecutive sides" against the official any three neighbours (the default)."""
    official = seed_spaces_position(ALTERNATE)
    seed = seed_spaces_position(ALTERNATE, "consecutive")
    assert official.counts[(0, 0)] == seed.counts[(0, 0)] == 3
    assert official.forced_spaces == [(0, 0)] and seed.forced_spaces == []
    # Not forced, so it is a free placement's cell under the seed's reading, not the official one.
    assert (0, 0) in seed.placement_cells(forced=False)
    assert (0, 0) not in official.placement_cells(forced=False)
    for forced_space in ("any_three", "consecutive"):  # three consecutive sides: forced either way
        assert seed_spaces_position(CONSECUTIVE, forced_space).forced_spaces == [(0, 0)]


def test_forced_space_consecutive_games_end_and_bad_values_are_refused():
    from qipan import load
    from qipan.core.errors import OptionError

    game = load("tantrix", forced_space="consecutive")
    assert game.options["forced_space"] == "consecutive" and "forced_space" not in load("tantrix").options
    assert game.kernel() is None  # the compiled twin knows the official spaces only
    state = play_random(game.new(players=2), seed=3)
    assert state.outcome is not None
    with pytest.raises(OptionError):
        load("tantrix", forced_space="three")
