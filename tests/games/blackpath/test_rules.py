"""Black Path rules: every scenario of rules file §1.8 and the rules of §1.1-1.6."""

from __future__ import annotations

import pytest

import qipan
from qipan.core import IllegalMove
from qipan.games.blackpath.board import BORDER, GOAL, OPEN, PAIR, E, N, S, W, tile_joining


def new(rows=4, cols=4, **options):
    return qipan.load("blackpath", rows=rows, cols=cols, **options).new()


def test_tiles_pair_sides_as_the_rules_table():
    assert PAIR[1][N] == S and PAIR[1][W] == E  # + : N-S, W-E
    assert PAIR[2][N] == W and PAIR[2][S] == E  # / : N-W, S-E
    assert PAIR[3][N] == E and PAIR[3][S] == W  # \ : N-E, S-W
    # any pair of sides is joined by exactly one tile
    for a in range(4):
        exits = sorted(PAIR[t][a] for t in (1, 2, 3))
        assert exits == sorted(set(range(4)) - {a})
    assert tile_joining(W, S) == 3 and tile_joining(W, N) == 2 and tile_joining(W, E) == 1


def test_scenario_1_seed_start_on_8x8():
    state = qipan.load("blackpath").new()
    assert [m.text for m in state.legal_moves()] == ["+"]  # move 1 is forced
    state.play("+")
    assert state.tiles[0] == 1
    assert (state.end_cell, state.end_side) == (1, W)  # (0,1) entered from W
    assert [m.text for m in state.legal_moves()] == ["+", "/", "\\"]
    assert all(m.path[0] == "b1" for m in state.legal_moves())
    assert state.where(1) == OPEN and state._reach(1)[1:3] == (2, W)  # + goes on to (0,2)
    assert state.where(2) == BORDER  # / sends the path north into the border
    assert state.where(3) == OPEN and state._reach(3)[1:3] == (9, N)  # \ goes down to (1,1)


def test_scenario_2_border_loss():
    state = new().play_many(["+", "/"])
    assert state.outcome.winners == (0,)  # P2 ran into the border and loses
    assert "border" in state.outcome.reason


def test_scenario_3_goal_win_on_2x2():
    state = new(2, 2).play_many(["+", "\\"])
    assert state.outcome.winners == (1,)
    assert "goal" in state.outcome.reason


def test_scenario_4_reentry_uses_the_other_segment():
    state = new().play_many(["+", "\\", "\\", "/"])
    assert (state.end_cell, state.end_side) == (2, S)  # (0,2) entered from S
    state.play("\\")
    assert state.outcome.winners == (1,)  # P1 made move 5 and loses
    # the path went back through (0,1) on its E-N segment
    assert state.path()[-1] == (1, E, N)


def test_scenario_5_forced_out_ends_the_game():
    state = new().play_many(["+", "+", "\\", "\\"])
    assert state.outcome is None
    state.play("/")
    assert (state.end_cell, state.end_side) == (3, S)  # top-right corner, entered from S
    assert state.outcome is not None and state.outcome.winners == (0,)
    assert "forced out" in state.outcome.reason
    assert state.legal_moves() == []


def test_forced_out_applies_only_when_every_tile_loses():
    state = new().play_many(["+", "+", "\\", "\\"])
    # at (1,3) entered from W: + runs into the border, / and \\ stay on the board
    assert state.where(1) == BORDER
    assert [t for t in (1, 2, 3) if state.where(t) != BORDER] == [2, 3]
    assert state.outcome is None


def test_goal_is_reached_through_following_filled_cells():
    # 2x3: + at a1, \ at b1 goes down to b2; there + runs into the border, \ goes into the goal c2
    state = new(2, 3).play_many(["+", "\\"])
    assert state.where(1) == BORDER
    assert state.where(3) == GOAL
    state.play("\\")
    assert state.outcome.winners == (0,)


def test_ww_variant_has_free_first_tile_and_no_goal():
    state = new(variant="ww")
    assert [m.text for m in state.legal_moves()] == ["+", "/", "\\"]
    state.play("\\")  # W-S: down into (1,0)
    assert (state.end_cell, state.end_side) == (4, N)
    # the bottom-right cell is an ordinary cell in ww
    assert state.game.goal == -1


def test_ww_first_tile_into_the_border_loses():
    state = new(variant="ww")
    state.play("/")  # W-N: the top border
    assert state.outcome.winners == (1,)


def test_start_arm_vertical_enters_from_the_top():
    state = new(start_arm="vertical")
    state.play("+")
    assert (state.end_cell, state.end_side) == (4, N)  # (1,0) entered from N
    state = new(start_arm="vertical", variant="ww")
    assert state.end_side == N


def test_seed_first_move_must_be_a_cross():
    state = new()
    for bad in ("/", "\\", "a1/"):
        with pytest.raises(IllegalMove):
            state.play(bad)
    assert state.ply == 0 and state.tiles[0] == 0


def test_undo_restores_the_free_end_and_outcome():
    state = new().play_many(["+", "+", "\\", "\\"])
    key, end = state.key(), (state.end_cell, state.end_side)
    state.play("/")
    assert state.outcome is not None
    state.undo()
    assert state.outcome is None and state.key() == key and (state.end_cell, state.end_side) == end


def test_board_sizes_are_validated():
    with pytest.raises(qipan.OptionError):
        qipan.load("blackpath", rows=1)
    with pytest.raises(qipan.OptionError):
        qipan.load("blackpath", variant="gardner")
    assert qipan.load("blackpath-ww").variant == "ww"


def test_evaluate_counts_safe_tiles_for_the_mover():
    state = new(6, 6)
    game = state.game
    for symbol in ["+", "+", "\\", "\\", "/"]:
        state.play(symbol)
        safe = len(state.safe_tiles())
        assert game.evaluate(state, state.to_move) == (safe - 2) / 3
        assert game.evaluate(state, 1 - state.to_move) == -(safe - 2) / 3
    done = new().play_many(["+", "/"])
    assert game.evaluate(done, 0) == 1.0 and game.evaluate(done, 1) == -1.0


def test_order_moves_puts_winning_then_safe_tiles_first():
    # at b2 from N: \\ reaches the goal, / goes on to a2, + hits the border
    state = new(2, 3).play_many(["+", "\\"])
    ordered = state.game.order_moves(state, state.legal_moves())
    assert ordered[0].text == "\\" and state.where(ordered[0].data) == GOAL
    kinds = [state.where(m.data) for m in ordered]
    assert kinds == sorted(kinds, key=[GOAL, OPEN, BORDER].index)


def test_no_voluntary_exit_refuses_a_tile_into_the_border_while_a_safe_one_exists():
    """Option ``no_voluntary_exit`` (the seed's rule 6, 被迫, read strictly: rules §1.3):
    scenario 1's "/" runs into the border while "+" and "\\" stay on the board."""
    state = new(no_voluntary_exit=True)
    state.play("+")
    assert [m.text for m in state.legal_moves()] == ["+", "\\"]
    before = state.position()
    with pytest.raises(IllegalMove, match="into the border while a tile that stays on the board exists"):
        state.play("/")
    assert state.position() == before  # refused, nothing changed
    default = new()
    default.play("+")
    default.play("/")  # allowed by default, and player 2 loses at once
    assert default.outcome.winners == (0,)


def test_no_voluntary_exit_still_ends_a_forced_out_game_and_keeps_the_values():
    from qipan.games.blackpath.solver import mover_wins_by_plain_search

    rng = __import__("random").Random(5)
    for seed in range(20):
        state = qipan.load("blackpath", rows=3, cols=3, no_voluntary_exit=True).new(seed=seed)
        while state.outcome is None:
            moves = state.legal_moves()
            assert moves and all(state.where(m.data) != BORDER for m in moves)
            state.play(rng.choice(moves))
        # Only the goal or a forced-out player ends it: nobody runs out voluntarily.
        assert "forced out" in state.outcome.reason or "reaches the goal" in state.outcome.reason
    # Running into the border loses anyway, so perfect play has the same value either way.
    for rows, cols in ((3, 3), (3, 4)):
        strict = qipan.load("blackpath", rows=rows, cols=cols, no_voluntary_exit=True).new()
        plain = qipan.load("blackpath", rows=rows, cols=cols).new()
        assert mover_wins_by_plain_search(strict) == mover_wins_by_plain_search(plain)
