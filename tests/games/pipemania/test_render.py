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


def test_the_panel_lies_below_the_grid_so_a_phone_shows_both():
    """Scores, dispensers and buttons under the grid: the picture is no wider than the grid
    (a phone fits its width to the screen; beside the grid the queue was off-screen)."""
    import random
    import re

    import qipan
    from qipan.core import CHANCE, resolve_chance
    from qipan.games.pipemania.render import SIZE

    for preset in ("pipemania", "pipemania-choice", "pipemania-2p"):
        game = qipan.load(preset)
        state = game.new(players=game.players[-1], seed=3)
        rng = random.Random(3)
        while state.to_move == CHANCE:  # the dispensers are filled first
            resolve_chance(state, rng)
        picture = state.svg()
        width = float(re.search(r'<svg[^>]* width="([\d.]+)"', picture).group(1))
        level = state.boards[0].level
        grids = 20 + len(state.boards) * (level.cols * SIZE + 30)
        assert width <= max(grids, 300), preset
        grid_bottom = 44 + level.rows * SIZE
        buttons = [
            float(y) for y in re.findall(r'<rect x="[\d.]+" y="([\d.-]+)"[^>]*class="button"', picture)
        ]
        assert buttons and min(buttons) > grid_bottom, preset
