"""The rules of trax.md §2.1–2.6 and the numbered scenarios of §2.9."""

from __future__ import annotations

import pytest
from trax_helpers import data_rows, grid, play

from qipan.core.errors import IllegalMove
from qipan.games.trax import TraxGame
from qipan.games.trax.board import COLOUR, NAMES, OTHER_END, RED, TRACK, WHITE, WHITE_MASK, pos_of
from qipan.games.trax.notation import parse_move
from qipan.games.trax.rules import Board, IllegalTurn

T08_SETUP = "@0+ B1+ C1/ A2+ B0+ C0\\ B0\\ A1+ A0/ @2/ B0\\ E6\\ A7\\"
T13_SETUP = "@0+ @1+ @1+ @1+ @1/ A2/ @2\\ @2\\ B1\\ C0/ @3\\"


def snapshot(state):
    return state.key(), state.position(), state.legal_move_texts(), state.to_move, state.outcome


# -- §2.1 tiles -------------------------------------------------------------------------------
def test_six_tile_states_each_with_one_white_and_one_red_track():
    assert NAMES == ("NS", "WE", "NW", "NE", "SW", "SE")
    assert len(set(WHITE_MASK)) == 6
    for t in range(6):
        assert sorted(COLOUR[t]).count(WHITE) == 2 and sorted(COLOUR[t]).count(RED) == 2
        for c in (WHITE, RED):
            a, b = TRACK[t][c]
            assert OTHER_END[t][a] == b and OTHER_END[t][b] == a
    # straight faces cross (opposite sides), curve faces join adjacent sides
    assert TRACK[0][WHITE] == (0, 2) and TRACK[0][RED] == (1, 3)
    assert TRACK[2][WHITE] == (0, 3) and TRACK[2][RED] == (1, 2)


# -- §2.2 placement ----------------------------------------------------------------------------
def test_first_tile_any_state_via_the_two_first_moves():
    state = TraxGame().new()
    assert state.legal_move_texts() == ["@0+", "@0/"]


def test_tile_needs_an_edge_neighbour_and_matching_colours():
    state = play("@0/")
    # @0 is diagonal to the only tile
    with pytest.raises(IllegalMove, match="no neighbouring tile"):
        state.play("@0+")
    # every placement offered next to the tile matches its edge colour
    for move in state.legal_moves():
        pos, tile = move.data
        assert Board.fits(state.board, pos, tile)


def test_colour_mismatch_with_two_neighbours_is_illegal():
    # A1 touches B1's white west edge and A2's red north edge: no / tile shows white on E
    # and red on S, while + (WE) and \\ (NE) fit.
    state = play("@0/ A2\\ @2/")
    assert grid(state) == "   AB\n 1 .J\n 2 r7"
    texts = state.legal_move_texts()
    assert "A1/" not in texts and "A1+" in texts and "A1\\" in texts
    assert parse_move(state, "A1+").data[1] == NAMES.index("WE")
    assert parse_move(state, "A1\\").data[1] == NAMES.index("NE")
    before = snapshot(state)
    with pytest.raises(IllegalMove, match="neither / tile matches"):
        state.play("A1/")
    assert snapshot(state) == before


# -- §2.3 forced plays and illegal turns --------------------------------------------------------
def test_forced_play_fills_a_cell_with_two_same_coloured_edges():
    state = play("@0/ A2\\")
    state.play("B1\\")  # T05: one forced tile
    assert len(state.board.cells) == 4
    assert grid(state).splitlines()[1:] == [" 1 JL", " 2 7r"]


def test_forced_plays_never_enlarge_the_area_and_leave_no_forced_cell():
    for row in data_rows("trax_8x8_gnutrax_sample.tsv")[:150]:
        state = TraxGame(variant="8x8").new()
        for text in row[1].split():
            if text in ("RESIGN", "DRAW"):
                break
            move = parse_move(state, text)
            pos = move.data[0]
            state.play(move)
            board = state.board
            height, width = board.height, board.width
            assert (height, width) == Board.area_with(_without(board, pos), pos) or len(board.cells) == 1
            for q in board.frontier:
                white, red = board.neighbour_masks(q)
                assert bin(white).count("1") < 2 and bin(red).count("1") < 2


def _without(board, pos):
    """The tile area as it was without the free tile's cell only (forced tiles inside)."""
    other = board.copy()
    other.load({p: t for p, t in board.cells.items() if p != pos})
    return other


def test_three_same_colour_edges_make_the_whole_turn_illegal_and_change_nothing():
    state = play(T08_SETUP)
    before = snapshot(state)
    board_before = dict(state.board.cells), dict(state.board.frontier), state.board.bbox()
    for bad in ("A4/", "A5\\"):
        with pytest.raises(IllegalMove, match="three (white|red) edges"):
            state.play(bad)
        assert snapshot(state) == before
        assert (dict(state.board.cells), dict(state.board.frontier), state.board.bbox()) == board_before
        assert bad not in state.legal_move_texts()


def test_board_place_raises_illegal_turn_and_restores_the_cells():
    state = play(T08_SETUP)
    board = state.board
    cells = dict(board.cells)
    move = state.game.parse("A4\\", state)  # legal: used to find the cell
    pos = move.data[0]
    other = next(
        t for t in range(6) if t != move.data[1] and board.fits(pos, t) and not state.is_legal_turn(pos, t)
    )
    with pytest.raises(IllegalTurn) as raised:
        board.place(pos, other)
    assert board.cells == cells
    # The search's entry into the same engine: None, the board unchanged, and the same why.
    assert board.place_if_legal(pos, other) is None and board.cells == cells
    cell, colour, placed = board.refused
    assert (raised.value.pos, raised.value.placed) == (cell, placed) and placed[0] == (pos, other)
    assert ("white" if colour == 0 else "red") in raised.value.reason


def test_the_final_position_does_not_depend_on_the_order_of_forced_fills():
    # The engine fills forced cells depth first; filling them breadth first gives the same tiles.
    state = play("@0/ @1/ @1+ @1\\")
    move = parse_move(state, "A0\\")
    pos, tile = move.data
    placed = state.board.place(pos, tile)
    state.board.rollback(placed)
    board = state.board.copy()
    board.cells[pos] = tile
    queue = [pos]
    from qipan.games.trax.board import DELTA, tile_joining

    while queue:
        p = queue.pop(0)
        for dd in DELTA:
            q = p + dd
            if q in board.cells:
                continue
            white, red = board.neighbour_masks(q)
            if bin(white).count("1") == 2:
                board.cells[q] = tile_joining(WHITE, white)
                queue.append(q)
            elif bin(red).count("1") == 2:
                board.cells[q] = tile_joining(RED, red)
                queue.append(q)
    assert dict(placed) == {p: t for p, t in board.cells.items() if p not in state.board.cells}


# -- §2.3 step 3 and §2.4 wins -----------------------------------------------------------------
def test_win_is_checked_once_after_the_whole_turn_and_mover_wins_both():
    state = play("@0+ @1/ A0/ A3\\ A4\\ C2\\ @2/")
    assert state.outcome is None
    state.play("C3+")  # T07: 1 free + 3 forced tiles close a white loop and a red loop
    assert state.outcome.winners == (1,)
    assert "red loop" in state.outcome.reason and "white too" in state.outcome.reason
    assert grid(state) == "   ABCD\n 1 Jr7.\n 2 rJ|L\n 3 L7|r\n 4 7LJ."


def test_simultaneous_draw_option():
    state = play("@0+ @1/ A0/ A3\\ A4\\ C2\\ @2/ C3+", simultaneous="draw")
    assert state.outcome.is_draw and "both colours" in state.outcome.reason
    state = play("@0+ @1/ A0/ A3\\ A4\\ C2\\ @2/ C3+", variant="8x8", simultaneous="draw")
    assert state.outcome.is_draw


def test_completing_only_the_opponents_loop_makes_the_opponent_win():
    state = play("@0/ A2\\ B1\\")  # T05
    assert state.outcome.winners == (1,)
    assert state.outcome.reason == "red loop completed by White"


def test_line_needs_the_outermost_edges_of_an_area_at_least_8_wide():
    row = "@0+ @1+ @1+ @1+ E1+ @1+ G1+".split()
    state = play(row)
    assert state.board.width == 7 and state.outcome is None  # red spans the whole area, too short
    state.play("@1+")
    assert state.board.width == 8 and state.outcome.winners == (1,) and state.outcome.reason == "red line"


def test_a_track_spanning_8_columns_inside_a_wider_area_is_not_a_line():
    # Widen the area to 9 columns with a tile above, then make a red track over 8 of them.
    board = Board()
    tiles = {pos_of(1, c): 1 for c in range(8)}  # WE: white runs W-E
    tiles[pos_of(0, 8)] = 1
    board.load(tiles)
    end1, end2 = board.track_ends(pos_of(1, 0), WHITE)
    assert board.width == 9
    assert not board.is_line(end1, end2)
    tiles.pop(pos_of(0, 8))
    board.load(tiles)
    assert board.is_line(*board.track_ends(pos_of(1, 0), WHITE))


def test_vertical_line():
    # The T06 row turned on its side: a column of WE tiles; white runs W-E, red N-S.
    board = Board()
    board.load({pos_of(r, 0): 1 for r in range(8)})
    assert board.is_line(*board.track_ends(pos_of(0, 0), RED))
    assert not board.is_line(*board.track_ends(pos_of(0, 0), WHITE))
    placed = sorted(board.cells.items())
    assert board.wins(placed) == ([], ["line"])
    assert board.wins(placed, lines=False) == ([], [])


# -- line_rule="span": the seed's rule 8 (docs/games/trax.md, "Lines") ---------------------
SEED_DRAGON = "@0+ @1+ @1+ @1+ E1+ @1+ G1+ A2+ @2+ I1+".split()


def test_the_seeds_dragon_wins_under_span_not_under_the_official_rule():
    # the seed, rule 8: "當一方造出「起點」與「終點」相距六個單位或六個單位以上的龍即勝 (亦即八個
    # 單位或八個單位以上的龍)" -- the red track B1..I1 has 6 tiles between head and tail, 8 with
    # them, but the tile at A2 makes the area 9 wide, so its W end is not on the outermost edge
    edges = play(SEED_DRAGON)
    assert edges.board.width == 9 and edges.outcome is None
    span = play(SEED_DRAGON, line_rule="span")
    assert span.outcome.winners == (1,) and span.outcome.reason == "red line"
    assert play(SEED_DRAGON[:-1], line_rule="span").outcome is None  # 7 tiles: too short
    # where the official rule finds a line, so does the seed's (T06)
    assert play("@0+ @1+ @1+ @1+ E1+ @1+ G1+ @1+", line_rule="span").outcome.reason == "red line"


def test_span_rule_the_seeds_ends_must_not_turn():
    # the seed: "頭尾的線段必須平行於八個長度單位 ... 如果頭尾有轉向的現象,即不符此項資格": a
    # track over 8 columns whose end tile turns it north or south is no line
    for last in ("H1/", "H1\\"):
        state = play("@0+ @1+ @1+ @1+ E1+ @1+ G1+".split() + [last], line_rule="span")
        assert state.board.width == 8 and state.outcome is None


def test_span_rule_on_the_board_both_directions_and_inward_ends():
    tiles = {pos_of(1, c): 1 for c in range(8)}  # WE: white runs W-E over 8 columns
    tiles[pos_of(0, 8)] = 1  # a ninth column elsewhere
    board = Board("span")
    board.load(tiles)
    assert board.is_line(*board.track_ends(pos_of(1, 0), WHITE))
    column = Board("span")
    column.load({pos_of(r, 0): 1 for r in range(8)} | {pos_of(8, 1): 0})  # red N-S, 9 rows high
    assert column.is_line(*column.track_ends(pos_of(0, 0), RED))
    assert column.copy().line_rule == "span"
    # ends that face inward (a W end on the right of an E end) are no line
    assert not board.is_line((pos_of(1, 7), 3), (pos_of(1, 0), 1))


def test_line_rule_is_checked():
    with pytest.raises(ValueError, match="line_rule"):
        TraxGame(line_rule="dragon")


def test_loop_trax_lines_never_win():
    state = play("@0+ @1+ @1+ @1+ E1+ @1+ G1+ @1+", variant="loop")
    assert state.outcome is None
    assert play("@0/ @1\\ A0/", variant="loop").outcome.winners == (0,)


# -- §2.5 8x8 -----------------------------------------------------------------------------------
def test_8x8_limit_and_unlimited_growth():
    for move in ("@3+", "I2+"):
        state = play(T13_SETUP, variant="8x8")
        before = snapshot(state)
        with pytest.raises(IllegalMove, match="beyond 8x8"):
            state.play(move)
        assert snapshot(state) == before
        assert move not in state.legal_move_texts()
        free = play(T13_SETUP)
        free.play(move)
        assert free.board.width == 9
    for variant in ("8x8", "unlimited"):
        state = play(T13_SETUP, variant=variant)
        state.play("D0+")
        assert state.board.height == 4


def test_8x8_full_board_is_a_draw():
    rows = [r for r in data_rows("trax_8x8_gnutrax_sample.tsv") if r[3] == "draw-full"]
    state = play(rows[0][1].split(), variant="8x8")
    assert len(state.board.cells) == 64 and state.outcome.is_draw and "full" in state.outcome.reason
    assert state.legal_moves() == []


# Found by random 8x8 play: after the last move White has only a 3x2 hole in the square and
# every tile put there makes an illegal turn.
STUCK_RECORD = (
    "@0/ A0+ A3/ B1/ B0+ B0/ B5+ C1\\ C0+ @3+ C7\\ E1\\ F1\\ A2/ C8+ G1\\ A4+ B1+ G2/ @6\\ E8+ A7+ "
    "E5\\ A3/ F8\\ E4/ H3\\ A2\\ G8/ G7+ H6+ G2/ H8/ A1+ B8+ A8+"
)
STUCK_POSITION = "---7|L7L/7r-JL-Jr/J|r-7r7L/7||rJ.../|LJL7.../L7r-JL7|/-JL7r7|L/--7||LJr"


def test_8x8_no_legal_move_is_a_draw_before_the_player_moves():
    state = play(STUCK_RECORD, variant="8x8")
    assert state.outcome.is_draw and state.outcome.reason == "White has no legal move"
    assert state.position() == STUCK_POSITION + " W"
    assert len(state.board.cells) == 58
    state.undo()
    assert state.outcome is None and state.to_move == 1
    # The hole really is dead: every candidate tile there is an illegal turn.
    stuck = TraxGame(variant="8x8").position(STUCK_POSITION + " W")
    assert stuck.outcome.is_draw and not stuck.has_legal_move()
    assert list(stuck.candidates())  # tiles fit the neighbours; the forced plays kill them
    # Unlimited Trax has no such draw: moves outside the square remain.
    free = play(STUCK_RECORD)
    assert free.outcome is None and free.legal_moves()


@pytest.mark.parametrize("row", data_rows("trax_test_positions.tsv")[1:], ids=lambda r: r[0])
def test_scenarios_of_the_test_positions_file(row):
    ident, variant, moves, expected = row[0], row[1], row[2].split(), row[3]
    state = TraxGame(variant=variant).new()
    if expected.startswith("illegal@"):
        k = int(expected.split("@")[1])
        for move in moves[:k]:
            state.play(move)
        assert state.outcome is None
        before = snapshot(state)
        with pytest.raises(IllegalMove):
            state.play(moves[k])
        assert snapshot(state) == before
        return
    for i, move in enumerate(moves, start=1):
        state.play(move)
        if i < len(moves):
            assert state.outcome is None, f"{ident}: game ended early at ply {i}"
    if expected == "none":
        assert state.outcome is None
    else:
        colour, ply = expected.split("@")
        assert int(ply) == len(moves)
        assert state.outcome.winners == ((0,) if colour == "W" else (1,))


def test_the_quick_legal_move_check_agrees_with_trying_every_tile():
    import random

    rng = random.Random(5)
    checked = 0
    for variant in ("8x8", "unlimited"):
        for _ in range(20):
            state = TraxGame(variant=variant).new()
            while state.outcome is None:
                brute = any(state.is_legal_turn(p, t) for p, t in state.candidates())
                assert state.has_legal_move() == brute
                checked += 1
                state.play(rng.choice(state.legal_moves()))
    assert checked > 250
