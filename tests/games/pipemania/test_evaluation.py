"""The Pipe Mania evaluation follows the flow through the laid pipes: extending the path is
worth more than passing, a dry pipe costs, a player ahead likes to hurry and one behind does
not, the path is where the flow really goes, and the ordering puts the extension first."""

from __future__ import annotations

from pipemania_helpers import ROW1, act, make, until_over

from qipan.games.pipemania.evaluation import FlowPath, evaluate, order_moves

LONG = "H," * 12 + "V,V,V"


def two(sequence=LONG, **options):
    return make(sequence=sequence, **options).new(players=2)


def test_extending_the_path_is_worth_more_than_passing():
    laid, passed = act(two(), "p1,1"), act(two(), "-")
    assert evaluate(laid, 0) > evaluate(passed, 0)
    assert evaluate(laid, 1) < evaluate(passed, 1)


def test_a_dry_pipe_costs_its_owner():
    dry, passed = act(two(start_delay=0), "p0,3"), act(two(start_delay=0), "-")
    assert evaluate(dry, 0) < evaluate(passed, 0)


def test_pipes_laid_ahead_that_one_piece_would_join_count():
    ahead, apart = act(two(), "p1,2"), act(two(), "p0,4")
    assert FlowPath(ahead.boards[0], 3).beyond and not FlowPath(apart.boards[0], 3).beyond
    assert evaluate(ahead, 0) > evaluate(apart, 0)


def test_a_player_ahead_likes_to_hurry_and_one_behind_does_not():
    # Player 1 lays two pipes of the path, player 2 passes: player 1 is ahead.
    state = act(two(start_delay=20), "p1,1", "-", "p1,2", "-")
    hurried, waited = act(state.copy(), "h"), act(state.copy(), "-")
    assert evaluate(hurried, 0) > evaluate(waited, 0)
    assert evaluate(hurried, 1) < evaluate(waited, 1)


def test_the_path_is_where_the_flow_goes():
    state = act(two(layout=ROW1), "p1,1", "-", "p1,2", "p0,3")
    path = FlowPath(state.boards[0], 3)
    until_over(state)
    board = state.boards[0]
    cols = board.level.cols
    wet = {cell for cell, f in enumerate(board.flooded) if f and cell != board.level.start[0]}
    assert path.cells == wet == {1 * cols + 1, 1 * cols + 2}
    assert path.end == (1 * cols + 3, 3)  # the empty cell (1,3), entered from the west


def test_the_extension_comes_first_and_blocking_the_open_end_late():
    state = act(two(), "p1,1", "-")  # player 1's front piece is an H again
    moves = order_moves(state, state.legal_moves())
    assert moves[0].text == "p1,2"
    blocked = two(sequence="V," + LONG)  # V does not take the flow from the west
    ordered = [m.text for m in order_moves(blocked, blocked.legal_moves())]
    assert ordered[0] == "-" and ordered.index("p1,1") > ordered.index("p0,0")


def test_a_pipe_that_blocks_the_flow_is_an_end_a_replacement_opens():
    state = act(two(sequence="V," + LONG), "p1,1", "-")  # player 1's V turns the flow away
    path = FlowPath(state.boards[0], 3)
    cols = state.boards[0].level.cols
    assert path.end is None and path.blocked == (1 * cols + 1, 3)
    assert order_moves(state, state.legal_moves())[0].text == "p1,1"  # the H replaces it
