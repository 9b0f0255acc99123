"""Position text, glyph text, SVG with click targets, and the registered games/options."""

from __future__ import annotations

import re

import pytest
from trax_helpers import grid, play

import qipan
from qipan.core.errors import NotationError, OptionError
from qipan.games.trax import TraxGame

T07 = "@0+ @1/ A0/ A3\\ A4\\ C2\\ @2/ C3+"
T08_SETUP = "@0+ B1+ C1/ A2+ B0+ C0\\ B0\\ A1+ A0/ @2/ B0\\ E6\\ A7\\"


# -- position text ---------------------------------------------------------------------------
def test_position_text_round_trips_and_keeps_the_side_to_move():
    for moves, variant in (
        ("", "unlimited"),
        ("@0/ @1\\", "unlimited"),
        (T08_SETUP, "unlimited"),
        ("@0+ @1+ @1+ @1/", "8x8"),
    ):
        state = play(moves, variant=variant)
        text = state.position()
        again = state.game.position(text)
        assert again.position() == text
        assert again.key() == state.key()
        assert again.legal_move_texts() == state.legal_move_texts()
        assert again.to_move == state.to_move


def test_position_of_the_rules_file_examples():
    assert play("@0/ @1\\").position() == "LJ W"
    assert play("@0/ @1\\ A0/").position() == "r7/LJ R"
    assert play(T08_SETUP).position() == ".L.../.r7../J|L../..r7./..|L./J||r7/7|... R"


def test_set_up_positions_play_on_and_judge_wins():
    game = TraxGame()
    state = game.position("LJ W")
    state.play("A0/")
    assert state.outcome.winners == (0,)
    finished = game.position("r7/LJ R")  # White's loop is on the board: White moved last and won
    assert finished.outcome.winners == (0,) and finished.legal_moves() == []
    assert finished.position() == "r7/LJ R"
    assert game.position("r7\nLJ\nR").position() == "r7/LJ R"  # newlines separate rows too


@pytest.mark.parametrize(
    "text, why",
    [
        ("", "empty"),
        ("LX W", "unknown glyph"),
        ("LL W", "different colours"),  # L's east edge is white, L's west edge is red
        ("J./.L W", "connected"),
        ("|/./| W", "connected"),
        ("-|- W", "different colours"),
        ("|" * 5000 + " W", "too large"),
    ],
)
def test_bad_positions_are_rejected(text, why):
    with pytest.raises(NotationError, match=why):
        TraxGame().position(text)


def test_positions_with_a_pending_forced_cell_or_beyond_8x8_are_rejected():
    with pytest.raises(NotationError, match="forced"):
        TraxGame().position("r./LJ W")  # B1 has two white edges facing it
    with pytest.raises(NotationError, match="8x8"):
        TraxGame(variant="8x8").position("|||||||| W".replace("||||||||", "|" * 9))
    assert TraxGame(variant="8x8").position("|" * 8 + " W").outcome.winners == (1,)  # red line


# -- text and SVG ------------------------------------------------------------------------------
def test_text_uses_the_glyph_format_of_the_rules_file():
    state = play(T07)
    assert grid(state) == "   ABCD\n 1 Jr7.\n 2 rJ|L\n 3 L7|r\n 4 7LJ."
    assert state.text().splitlines()[-1] == "Red wins: red loop (white too: the mover wins)"
    assert play("@0/").text() == "   A\n 1 J\nRed to move"
    assert TraxGame().new().text() == "(no tiles)\nWhite to move"


def test_svg_click_targets_are_the_cells_of_the_legal_moves():
    state = play("@0/ @1\\ C1\\")
    svg = state.svg()
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    targets = set(re.findall(r'data-target="([^"]+)"', svg))
    assert targets == {m.path[0] for m in state.legal_moves()}
    # every cell target is followed by a choice among that cell's legal faces
    for move in state.legal_moves():
        cell, face = move.path
        assert face == move.text and face.startswith(cell) and face[len(cell) :] in "+/\\"
    paths = [m.path for m in state.legal_moves()]
    assert len(set(paths)) == len(paths)


def test_svg_draws_both_tracks_of_every_tile():
    state = play(T07)
    svg = state.svg()
    assert svg.count('<g class="tile') == len(state.board.cells) == 14
    white = svg.count('stroke="#f4f1e8"')
    red = svg.count('stroke="#d62b2b"')
    assert white == red == 14
    assert "data-target" not in svg  # the game is over: nothing to click
    first = play("@0/").svg()
    assert first.count("<path") == 2  # a curve face: two quarter arcs
    assert play("@0+").svg().count("<line") == 3  # a straight face: two bands and the bridge rim


# -- registry and options ----------------------------------------------------------------------
def test_games_and_presets_are_registered_with_their_options():
    assert qipan.load("trax").options == {
        "variant": "unlimited",
        "simultaneous": "mover",
        "line_rule": "edges",
    }
    assert qipan.load("trax", line_rule="span").line_rule == "span"
    assert qipan.load("trax-8x8").variant == "8x8"
    assert qipan.load("trax-loop").variant == "loop"
    assert qipan.load("trax-8x8", simultaneous="draw").simultaneous == "draw"
    assert qipan.spec("trax-8x8").fixed == ("variant",)
    with pytest.raises(OptionError):
        qipan.load("trax", variant="9x9")
    with pytest.raises(OptionError):
        qipan.load("trax", simultaneous="red")
    with pytest.raises(OptionError):
        TraxGame(variant="10x10")
    with pytest.raises(OptionError):
        TraxGame(simultaneous="white")
    assert [s.title for s in qipan.specs() if s.family == "trax"] == ["Trax", "8x8 Trax", "Loop Trax"]


def test_copy_is_independent_and_undo_is_exact():
    state = play("@0/ @1/ @1+ @1\\")
    snapshot = state.key(), state.legal_move_texts(), dict(state.board.frontier)
    twin = state.copy()
    state.play("A0\\")  # places 4 tiles
    assert twin.key() == snapshot[0] and len(twin.board.cells) == 4
    state.undo()
    assert (state.key(), state.legal_move_texts(), dict(state.board.frontier)) == snapshot


def _arc_centre(x1, y1, r, sweep, x2, y2):
    """Centre of an SVG arc with rx = ry = r, no rotation, small arc (SVG spec F.6.5)."""
    hx, hy = (x1 - x2) / 2, (y1 - y2) / 2
    coef = ((r * r * r * r - r * r * (hx * hx + hy * hy)) / (r * r * (hx * hx + hy * hy))) ** 0.5
    coef = coef if sweep == 1 else -coef
    return coef * hy + (x1 + x2) / 2, -coef * hx + (y1 + y2) / 2


def test_curve_arcs_turn_around_the_corner_between_their_two_sides():
    from qipan.games.trax.board import NAMES, TRACK
    from qipan.games.trax.render import CELL, _track

    corners = {(0, 1): (CELL, 0), (0, 3): (0, 0), (1, 2): (CELL, CELL), (2, 3): (0, CELL)}
    for tile, name in enumerate(NAMES):
        for colour in (0, 1):
            path = _track(tile, colour, 0, 0)
            sides = TRACK[tile][colour]
            if sides in ((0, 2), (1, 3)):
                assert path.startswith("<line")
                continue
            m = re.search(r'd="M([\d.]+),([\d.]+) A([\d.]+),[\d.]+ 0 0 (\d) ([\d.]+),([\d.]+)"', path)
            x1, y1, r, sweep, x2, y2 = map(float, m.groups())
            cx, cy = _arc_centre(x1, y1, r, int(sweep), x2, y2)
            assert (round(cx, 6), round(cy, 6)) == corners[sides], (name, colour)
