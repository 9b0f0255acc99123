"""Black Path text and SVG boards: the path, the free end and the click targets."""

from __future__ import annotations

import qipan


def new(rows=4, cols=4, **options):
    return qipan.load("blackpath", rows=rows, cols=cols, **options).new()


def test_text_and_svg_show_the_path_and_the_targets():
    state = new().play_many(["+", "\\"])
    svg = state.svg()
    assert 'data-target="b2"' in svg  # the only cell a move can go to
    for symbol in ("+", "/", "\\"):
        assert f'data-target="{symbol}"' in svg  # the tile choices
    assert svg.count('stroke="#111" stroke-width="6"') >= 3  # the path segments and the start mark
    text = state.text()
    assert "?" in text and "*" in text and "player 1 to place a tile at b2" in text
    done = new().play_many(["+", "/"])
    assert "data-target" not in done.svg()
    assert "1-0" in done.text()
