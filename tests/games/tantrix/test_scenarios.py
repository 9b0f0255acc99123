"""Every test scenario of rules/tantrix.md 4.8 (tantrix_test_positions.json and the rest)."""

import pytest

from qipan.core import CHANCE, IllegalMove
from qipan.games.tantrix.board import (
    ORIENTED,
    PLAY,
    best_tracks,
    geometry_allows,
    neighbour_counts,
    neighbours,
    tracks,
)
from qipan.games.tantrix.rules import rank_players

from .conftest import make

FILLER = "31,32,33,34,35,36"


def position(board, hand, bag="rest", turn="1/1", players=2, other=FILLER):
    text = ";".join(f"{t}@{q},{r}r{k}" for q, r, t, k in board) or "-"
    hands = "|".join([",".join(map(str, hand))] + [other] * (players - 1))
    return make().position(
        f"players={players} phase=play turn={turn} order=40,12{',1' * (players - 2)} "
        f"board={text} hands={hands} bag={bag}"
    )


def test_x01_three_tile_loop(scenarios):
    spec = scenarios["X01"]
    placements = spec["placements"]
    for i, (q, r, t, k) in enumerate(placements):
        state = position(placements[:i], [t, 40, 41, 42, 43, 44])
        assert state.to_move == 0 and state.step == 2
        assert f"{t}@{q},{r}r{k}" in state.legal_move_texts()
    state = position(placements, [40, 41, 42])
    loops = [(len(cells), loop) for cells, loop in tracks(state.edges, "Y")]
    assert loops == [(3, True)]
    assert {c: best_tracks(state.edges, c)[0] for c in "YRBG"} == spec["expect"]["scores"]


def test_x02_rule1_three_same_colour(scenarios):
    spec = scenarios["X02"]
    q, r, t, k = spec["then_try"][0]
    bad = f"{t}@{q},{r}r{k}"
    before = position(spec["placements"], [3, 4, 40, 41, 42, 43])
    assert bad not in before.legal_move_texts()
    key = before.key()
    with pytest.raises(IllegalMove, match="R1"):
        before.play(bad)
    assert before.key() == key
    for q2, r2, t2, k2 in spec["alternative_legal"]:
        assert f"{t2}@{q2},{r2}r{k2}" in before.legal_move_texts()
    # In the endgame (empty bag) the same placement is legal and leaves a space nobody can fill.
    endgame = position(spec["placements"], [3, 4, 40, 41, 42, 43], bag="-")
    assert endgame.endgame and bad in endgame.legal_move_texts()
    endgame.play(bad)
    assert (0, 0) in endgame.forced_spaces
    required = [
        (d, endgame.edges[nb][(d + 3) % 6]) for d, nb in enumerate(neighbours((0, 0))) if nb in endgame.edges
    ]
    assert not any(all(ORIENTED[x][rot][d] == c for d, c in required) for x in ORIENTED for rot in range(6))


def test_x02_forced_space_after_the_alternative(scenarios):
    spec = scenarios["X02"]
    after = spec["after_alternative_3_5"]
    state = position(spec["placements"], [3, 4, 40, 41, 42, 43])
    state.play("3@-1,1r5")
    assert state.to_move == CHANCE
    state.play("+50")
    assert state.forced_spaces == [tuple(c) for c in after["forced_spaces"]]
    names = {0: "NE", 1: "E", 2: "SE", 3: "SW", 4: "W", 5: "NW"}
    colours = {
        names[d]: state.edges[nb][(d + 3) % 6] for d, nb in enumerate(neighbours((0, 0))) if nb in state.edges
    }
    assert colours == after["colours_into_forced_space"]
    fitting = {
        (x, rot)
        for x in ORIENTED
        for rot in range(6)
        if all(ORIENTED[x][rot][{v: k for k, v in names.items()}[n]] == c for n, c in colours.items())
    }
    assert fitting == {tuple(x) for x in after["tiles_that_fit_forced_space"]}
    # A player holding one of them in a legal rotation must fill it at the start of the turn.
    holder = position(spec["placements"] + [[-1, 1, 3, 5]], [12, 40, 41, 42, 43, 44])
    assert holder.to_move == 0 and holder.step == 1
    assert holder.legal_move_texts() == ["F 12@0,0r1"]
    with pytest.raises(IllegalMove, match="forced space must be filled"):
        holder.play("40@2,-1r0")


@pytest.mark.parametrize("name", ["X03", "X04"])
def test_controlled_side(scenarios, name):
    spec = scenarios[name]
    occupied = {tuple(c) for c in spec["occupied"]}
    counts = neighbour_counts(occupied)
    forced = sorted(c for c, n in counts.items() if n >= 3)
    assert forced == [tuple(c) for c in spec["expect"]["forced_spaces"]]
    for cell in spec["expect"]["illegal_before_endgame"]:
        assert not geometry_allows(occupied, counts, tuple(cell)), cell
    for cell in spec["expect"]["legal"]:
        assert geometry_allows(occupied, counts, tuple(cell)), cell


def test_x04_fill_along_the_edge_in_order(scenarios):
    occupied = {tuple(c) for c in scenarios["X04"]["occupied"]}
    for q in range(1, 6):
        counts = neighbour_counts(occupied)
        assert geometry_allows(occupied, counts, (q, 0))
        assert all(not geometry_allows(occupied, counts, (x, 0)) for x in range(q + 1, 7))
        occupied.add((q, 0))


def test_x03_via_real_tiles_r2_and_r3_reasons():
    # Occupied (0,0), (0,1), (1,1), (2,1) with matching tiles found by the engine: place one by one.
    state = position([[0, 0, 1, 0]], [2, 3, 4, 5, 6, 7], bag="rest")
    for cell in [(0, 1), (1, 1), (2, 1)]:
        options = [m for m in state.legal_moves() if m.data[2] == cell]
        assert options
        state.play(options[0])
        state.play(f"+{min(state.bag)}")
        # Give the next tiles back to player 1 so the test continues with one hand.
        state.current = 0
        state.step = 2
        state.hands[0] = sorted(set(range(2, 15)) - {t for t, _ in state.board.values()})[:6]
        state.hands[1] = [31, 32, 33, 34, 35, 36]
        state._advance()
    assert state.forced_spaces == [(1, 0)]
    texts = state.legal_move_texts()
    assert not any("@2,0r" in t or "@3,0r" in t for t in texts)
    tile = state.hands[state.to_move][0]
    for cell, rule in (((2, 0), "R2"), ((3, 0), "R3")):
        for rot in range(6):
            reason = state.why_restricted(tile, cell, rot)
            assert reason and rule in reason


def test_must_fill_a_tile_drawn_by_the_free_move_replacement():
    board = [[1, 0, 1, 1], [0, 1, 2, 1], [-1, 1, 3, 5]]
    state = position(board, [4, 5, 6, 7, 8, 9], bag="12,30,40")
    assert state.to_move == 0 and state.step == 2  # nothing in hand fits (0,0)
    free = [m for m in state.legal_moves() if not m.data[4]][0]
    state.play(free)
    state.play("+12")
    assert state.to_move == 0 and state.step == 3
    assert state.legal_move_texts() == ["F 12@0,0r1"]
    state.play("F 12@0,0r1")
    assert state.to_move == CHANCE and (0, 0) not in state.forced_spaces


SCENARIO6 = (
    "players=2 phase=play turn=2/3 order=48,42 board=14@-3,2r3;45@-2,1r1;34@-1,0r0;7@-1,1r0;"
    "52@0,-2r3;48@0,-1r3;29@0,0r0;28@1,-1r2 hands=15,19,22,23,26,56|3,16,27,36,37,42 bag=rest"
)


def test_order_of_fills_is_the_players_choice():
    state = make().position(SCENARIO6)
    assert state.to_move == 1 and state.step == 3
    fills = {m.data[2] for m in state.legal_moves() if m.data[1] == 16}
    assert fills == {(-1, -1), (1, -2)}
    assert all(m.data[4] for m in state.legal_moves())
    for chosen, other in (((-1, -1), (1, -2)), ((1, -2), (-1, -1))):
        s = make().position(SCENARIO6)
        s.play(next(m for m in s.legal_moves() if m.data[1] == 16 and m.data[2] == chosen))
        s.play("+50")
        assert chosen not in s.forced_spaces and other in s.forced_spaces


def test_endgame_switch_mid_turn_lifts_r1():
    board = [[1, 0, 1, 1], [0, 1, 2, 1], [-1, 1, 3, 5]]
    state = position(board, [4, 5, 6, 7, 8, 12], bag="30")
    assert not state.endgame and state.legal_move_texts() == ["F 12@0,0r1"]
    state.play("F 12@0,0r1")
    state.play("+30")  # the last tile: the endgame starts now, in mid-turn
    assert state.endgame and state.to_move == 0 and state.step == 2
    assert "4@0,-1r5" in state.legal_move_texts()
    restricted = state.copy()
    restricted.bag = {50}
    assert "R1" in restricted.why_restricted(4, (0, -1), 5)
    state.play("4@0,-1r5")
    assert state.to_move == 0 or state.current == 1  # no draw: the bag is empty


def ring(radius, centre=(0, 0)):
    """Cells of the hex ring of ``radius`` in order around ``centre``."""
    q, r = centre[0] - radius, centre[1] + radius  # start at SW corner... walk the six sides
    cells = []
    for d in range(6):
        for _ in range(radius):
            cells.append((q, r))
            dq, dr = [(1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1)][d]
            q, r = q + dq, r + dr
    return cells


def synthetic_track(cells, loop):
    """Edge strings putting one red link through ``cells`` in order (matching not needed here)."""
    from qipan.games.tantrix.board import DIRECTIONS

    def direction(a, b):
        return DIRECTIONS.index((b[0] - a[0], b[1] - a[1]))

    edges = {}
    n = len(cells)
    for i, cell in enumerate(cells):
        ends = []
        if loop or i > 0:
            ends.append(direction(cell, cells[i - 1]))
        if loop or i < n - 1:
            ends.append(direction(cell, cells[(i + 1) % n]))
        others = [d for d in range(6) if d not in ends]
        s = ["Y"] * 6
        for d in ends:
            s[d] = "R"
        if len(ends) == 1:  # line end: the other red edge faces away (a dead end off the track)
            s[others.pop()] = "R"
        for d in others[:2]:
            s[d] = "B"
        edges[cell] = "".join(s)
    return edges


def line(n, row):
    return [(q, row) for q in range(n)]


def test_scoring_loop_counts_double_and_only_the_best_track_counts():
    loop12 = synthetic_track(ring(2, (0, -10)), loop=True)
    assert best_tracks(loop12, "R")[0] == 24
    line23 = synthetic_track(line(23, 0), loop=False)
    line25 = synthetic_track(line(25, 0), loop=False)
    assert best_tracks(line23, "R")[0] == 23 and best_tracks(line25, "R")[0] == 25
    assert rank_players((24, 23), (0, 0), "draw") == [0]
    assert rank_players((24, 25), (0, 0), "draw") == [1]
    two_loops = {**loop12, **synthetic_track(ring(2, (10, -10)), loop=True)}
    assert best_tracks(two_loops, "R") == (24, 24)
    six = {**synthetic_track(ring(1, (0, 0)), True), **synthetic_track(ring(1, (5, 5)), True)}
    assert best_tracks(six, "R") == (12, 12)
    assert rank_players((12, 13), (12, 0), "draw") == [1]


def test_ties_draw_by_default_and_second_best_option():
    assert rank_players((10, 10), (5, 3), "draw") == []
    assert rank_players((10, 10), (5, 3), "second_best") == [0]
    assert rank_players((10, 10), (4, 4), "second_best") == []
    assert rank_players((10, 10, 7), (1, 2, 9), "draw") == [0, 1]


SCENARIO9 = (
    "players=2 phase=play turn=2/1 order=48,42 board=14@-3,2r3;45@-2,1r1;16@-1,-1r2;34@-1,0r0;"
    "7@-1,1r0;52@0,-2r3;48@0,-1r3;29@0,0r0;54@0,1r0;23@1,-2r4;28@1,-1r2;11@1,0r4;56@2,-1r3 "
    "hands=5,15,19,22|38 bag=3,27"
)


def test_deadlock_is_a_draw():
    state = make().position(SCENARIO9)
    assert state.outcome is not None and state.outcome.is_draw
    assert "deadlock" in state.outcome.reason
    assert state.legal_moves() == [] and state.to_move is None
    # With a tile that fits somewhere the same position plays on.
    assert make().position(SCENARIO9.replace("|38 ", "|1 ")).outcome is None


def test_restrictions_apply_to_the_first_placement_only_at_the_origin():
    state = position([], [1, 2, 3, 4, 5, 6])
    assert state.phase == PLAY and len(state.legal_moves()) == 36
    assert {m.data[2] for m in state.legal_moves()} == {(0, 0)}
