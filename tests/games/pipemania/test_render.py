"""Pipe Mania text and SVG views: flooded pipes, the click targets and the buttons."""

from __future__ import annotations

from pipemania_helpers import CROSS_LOOP, act, make


def test_text_and_svg_views():
    state = act(make(sequence=CROSS_LOOP).new(), "p1,1", "p1,2", "p1,3", "-")
    text = state.text()
    assert "━" in text and "┼" in text and "▶" in text  # flooded H, dry cross, filled start
    assert "score" in text and "queue" in text
    svg = state.svg()
    assert 'data-target="0,0"' in svg and 'data-target="pass"' in svg
    assert 'data-target="hurry"' not in svg  # the flow already runs every tick
    assert 'data-target="hurry"' in make(flow_period=2).new().svg()
    assert 'data-target="1,1"' not in svg  # flooded: not a target
    assert "#1e88e5" in svg  # flooded channels are blue
