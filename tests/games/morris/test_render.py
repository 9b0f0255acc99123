"""Text and SVG pictures of a position."""

from __future__ import annotations

import re

import qipan

NINE_2 = "W:c5,e5,d6,a4,g4,b2,f2 B:a1,d1,g1,f6,c3 to:W"


def test_text_board():
    state = qipan.load("nine-mens-morris").new().play_many(["a7", "g1"])
    lines = state.text().splitlines()
    assert lines[0].startswith("7  W-----------.-----------.")
    assert lines[12].startswith("1  .-----------.-----------B")
    assert lines[13].split() == list("abcdefg")
    assert "White to place" in lines[14] and "in hand W 8 B 8" in lines[14]
    twelve = qipan.load("twelve-mens-morris").new().text().splitlines()
    assert "\\" in twelve[1] and "/" in twelve[1]
    three = qipan.load("three-mens-morris-kurna").new().text().splitlines()
    assert len(three) == 7 and three[0].startswith("3  .---.---.")


def test_svg_targets_and_last_move():
    state = qipan.load("nine-mens-morris").position(NINE_2)
    state.play("d6-d5xf6")
    svg = state.svg()
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    targets = set(re.findall(r'data-target="([a-g][1-7])"', svg))
    assert targets == set(state.t.names)
    assert svg.count('class="stone') == state.bb[0].bit_count() + state.bb[1].bit_count()
    assert 'stroke="#d02020"' in svg and 'class="removed"' in svg
