"""The Tantrix board in colour for the terminal: tiles as small hexagons of their edge
colours, placed like bricks so neighbours touch, spaces named, the last tile underlined."""

from __future__ import annotations

import random

import pytest

from qipan.core.refs import load_ref
from qipan.games.tantrix.board import ORIENTED
from qipan.games.tantrix.terminal import board_picture

from .conftest import make

rich = pytest.importorskip("rich")


def style_at(text, line: int, column: int) -> str:
    """The style of one character of a multi-line Rich Text, as a string."""
    from rich.console import Console

    offset = sum(len(row) + 1 for row in text.plain.split("\n")[:line]) + column
    return str(text.get_style_at_offset(Console(), offset))


def test_one_known_tile_is_drawn_with_its_edges_and_its_sharp_corner():
    assert ORIENTED[1][0] == "YYBRBR"  # NE E SE SW W NW: yellow sharp, blue and red gentle
    picture = board_picture({(0, 0): (1, 0)}, {})
    assert picture.plain.split("\n")[:3] == ["       ▀  ▀◥", "r=  0 ▌  1 ▐", "       ▄  ▄"]
    colours = {
        (0, 10): "yellow",  # NE
        (0, 11): "yellow",  # the corner the yellow sharp link turns round
        (1, 11): "yellow",  # E
        (2, 10): "blue",  # SE
        (2, 7): "red",  # SW
        (1, 6): "blue",  # W
        (0, 7): "red",  # NW
    }
    for (line, column), colour in colours.items():
        assert colour in style_at(picture, line, column), (line, column)
    assert "white" in style_at(picture, 1, 9)  # the number


def test_neighbours_touch_edge_to_edge():
    # Tile 1 at the origin; to its east a tile whose W edge is yellow-matching, below-right
    # (SE) one whose NW edge meets tile 1's SE edge.
    east = next(r for r in range(6) if ORIENTED[2][r][4] == "Y")
    south_east = next(r for r in range(6) if ORIENTED[3][r][5] == "B")
    picture = board_picture({(0, 0): (1, 0), (1, 0): (2, east), (0, 1): (3, south_east)}, {})
    rows = picture.plain.split("\n")
    assert rows[1][6:18] == "▌  1 ▐▌  2 ▐"  # side by side, 6 columns apart
    assert rows[4][9:15] == "▌  3 ▐"  # half a tile to the right, one row of tiles down
    assert "yellow" in style_at(picture, 1, 11) and "yellow" in style_at(picture, 1, 12)
    assert rows[2][10] == "▄" and rows[3][10] == "▀"  # SE above NW, both blue
    assert "blue" in style_at(picture, 2, 10) and "blue" in style_at(picture, 3, 10)


def test_the_picture_of_a_game_names_its_tiles_spaces_and_last_move():
    state = make("tantrix").new()
    rng = random.Random(4)
    while len(state.board) < 8:
        state.play(state.random_move(rng))
    picture = load_ref(state.game.terminal_picture)(state)
    plain = picture.plain
    board_part = plain[plain.index("Board (") : plain.index("Placements:")]
    for tile, _rot in state.board.values():
        assert f" {tile:>2} " in board_part
    for (q, r), n in state.counts.items():
        assert ("F" if n >= 3 else "") + f"{q},{r}" in board_part
    assert "r=" in board_part and not any(f"{t}r{k}" in board_part for t, k in state.board.values())
    # The last placed tile's block is underlined, and only it: its number is, no other is.
    last = next(m.data for m in reversed(state.history) if m.data[0] == "place")
    lines = plain.split("\n")
    for tile, _rot in state.board.values():
        line = next(i for i, row in enumerate(lines) if f" {tile:>2} " in row and "▌" in row)
        column = lines[line].index(f" {tile:>2} ") + 2
        assert ("underline" in style_at(picture, line, column)) == (tile == last[1]), tile
    assert plain.count("⬢") == 6 * sum(len(h) for h in state.hands)


def test_an_empty_board_says_where_the_first_tile_goes():
    assert "0,0" in board_picture({}, {}).plain
    picture = load_ref(make("tantrix").new().game.terminal_picture)(make("tantrix").new())
    assert "0,0" in picture.plain
