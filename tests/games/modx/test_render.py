"""MOD X text board and SVG."""

from __future__ import annotations

from qipan.games.modx.board import FILES, NAMES

from .conftest import make


def test_text_board_shows_stacks_and_status():
    state = make({"D3": "bR", "E4": "J", "A1": "rbr", "H8": "B"})
    text = state.text()
    lines = text.splitlines()
    assert lines[0].split() == list(FILES)
    row3 = next(line for line in lines if line.startswith(" 3"))
    assert row3.split() == ["3", ".", ".", ".", "bR", ".", ".", ".", "."]
    row1 = next(line for line in lines if line.startswith(" 1"))
    assert row1.split()[1] == "rbr"
    assert "R red 1 pts" in text and "B black 1 pts" in text
    assert "red to place an X" in text


def test_svg_has_every_square_pieces_jokers_and_covered_markers():
    state = make({"D3": "bR", "E4": "J", "A1": "rbr", "H8": "B"})
    svg = state.svg()
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    for name in NAMES:
        assert svg.count(f'data-target="{name}"') == 1
    assert svg.count('class="joker"') == 1
    assert svg.count('class="xpiece"') == 2
    assert svg.count('class="marker"') == 2  # the top markers of D3 and A1
    assert svg.count('class="covered-marker"') == 2  # r and b under A1's top r
