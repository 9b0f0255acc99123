"""Text and SVG: readable text, real curved links, hands shown, forced spaces marked, and
click targets for every path element of every legal move (tile, cell; rotations are buttons)."""

import math
import re
import xml.etree.ElementTree as ET

from qipan.core import CHANCE
from qipan.games.tantrix.render import link_path

from .conftest import make, play_random

SVG_NS = "{http://www.w3.org/2000/svg}"


def midgame():
    return play_random(
        make().new(players=2, seed=21), 21, stop=lambda s: len(s.forced_spaces) > 0 and s.to_move != CHANCE
    )


def test_svg_is_well_formed_with_targets_for_every_legal_move():
    state = midgame()
    svg = state.svg()
    root = ET.fromstring(svg)
    targets = {el.get("data-target") for el in root.iter() if el.get("data-target")}
    for move in state.legal_moves():
        tile, cell, rot = move.path
        assert tile in targets and cell in targets
        assert re.fullmatch(r"r[0-5]", rot)  # offered as a button
    # Only the mover's hand tiles are clickable.
    mover_tiles = {f"t{t}" for t in state.hands[state.to_move]}
    assert {t for t in targets if t.startswith("t")} == mover_tiles
    # Every tile on the board and in the hands is drawn with three coloured links.
    tiles = [g for g in root.iter(SVG_NS + "g") if "tile" in (g.get("class") or "").split()]
    assert len(tiles) == len(state.board) + sum(len(h) for h in state.hands)
    assert all(len(g.findall(SVG_NS + "path")) == 3 for g in tiles)
    forced = [g for g in root.iter(SVG_NS + "g") if "forced" in (g.get("class") or "")]
    # The tile the last move placed is marked, and only that one.
    marked = [g for g in tiles if "last-move" in g.get("class").split()]
    assert len(marked) == 1
    assert {g.get("data-target") for g in forced} == {f"{q},{r}" for q, r in state.forced_spaces}


def test_paths_are_unique_and_no_path_is_a_prefix_of_another():
    state = midgame()
    paths = [m.path for m in state.legal_moves()]
    assert len(set(paths)) == len(paths)
    assert all(len(p) == 3 for p in paths)


def _svg_arc_centre(x1, y1, r, sweep, x2, y2):
    """The centre SVG uses for a small arc (large-arc 0), per the SVG spec's endpoint conversion."""
    hx, hy = (x1 - x2) / 2, (y1 - y2) / 2
    k = math.sqrt(max(0.0, (r**2 - hx**2 - hy**2) / (hx**2 + hy**2)))
    k = k if sweep == 1 else -k  # sign + when large-arc != sweep
    return k * hy + (x1 + x2) / 2, -k * hx + (y1 + y2) / 2


def test_curves_bend_around_the_right_centre():
    size = 100
    for a in range(6):
        for b in range(a + 1, 6):
            gap = b - a
            if gap == 3:
                continue
            m = re.fullmatch(r"M(\S+),(\S+) A(\S+),\S+ 0 0 (\d) (\S+),(\S+)", link_path(0, 0, size, a, b))
            x1, y1, r, sweep, x2, y2 = (float(v) for v in m.groups())
            cx, cy = _svg_arc_centre(x1, y1, r, int(sweep), x2, y2)
            if gap in (1, 5):  # sharp: around the hexagon corner between the two edges
                corner = a if gap == 1 else b
                angle, dist = math.radians(-30 + 60 * corner), size
            else:  # gentle: around the centre of the neighbour beyond the middle edge
                middle = a + 1 if gap == 2 else (b + 1) % 6
                angle, dist = math.radians(-60 + 60 * middle), math.sqrt(3) * size
            assert abs(cx - dist * math.cos(angle)) < 0.5 and abs(cy - dist * math.sin(angle)) < 0.5, (a, b)


def test_link_shapes():
    # A straight link is a line, sharp and gentle links are arcs of radius size/2 and 1.5*size.
    assert link_path(0, 0, 10, 1, 4).startswith("M8.7,0 L-8.7,0")
    assert " A5,5 0 0 " in link_path(0, 0, 10, 0, 1)
    assert " A15,15 0 0 " in link_path(0, 0, 10, 0, 2)


def test_text_is_readable():
    state = midgame()
    text = state.text()
    assert "Player" in text and "hand:" in text and "Forced spaces:" in text and "<F>" in text
    for (q, r), (t, k) in state.board.items():
        assert f"{t}@{q},{r}r{k}" in text
    assert (
        "(empty board"
        in make()
        .position("players=2 phase=play turn=1/1 order=40,12 hands=1,2,3,4,5,6|7,8,9,10,11,12")
        .text()
    )
    assert "<svg" in make("tantrix-discovery").new().svg()


# -- the tile gallery ----------------------------------------------------------------------------
def test_gallery_shows_the_56_tiles_by_number_with_the_seeds_pattern_names():
    # the seed: "水：有3種 火：有6種 風：有2種 土：有3種 合計14種 ... 14*4=56種"
    from collections import Counter

    from qipan.games.tantrix.board import TILES
    from qipan.games.tantrix.render import gallery_svg, gallery_text

    root = ET.fromstring(gallery_svg())
    tiles = [g for g in root.iter(f"{SVG_NS}g") if g.get("class") == "tile"]
    assert len(tiles) == 56
    numbers = [int(g.find(f"{SVG_NS}text").text) for g in tiles]
    assert numbers == list(range(1, 57))
    assert all(len(g.findall(f"{SVG_NS}path")) == 3 for g in tiles)  # three links each
    lines = gallery_text().splitlines()[1:]
    assert [int(line.split()[0]) for line in lines] == list(range(1, 57))
    assert lines[0].startswith(" 1  sint 火") and "back yellow" in lines[0]
    kinds = Counter(t.kind for t in TILES.values())
    assert kinds == {"brid": 12, "sint": 24, "rond": 8, "chin": 12}  # 3, 6, 2, 3 per missing colour


def test_the_docs_gallery_is_the_one_the_package_draws():
    from pathlib import Path

    from qipan.games.tantrix.render import gallery_svg

    docs = Path(__file__).resolve().parents[3] / "docs" / "games" / "tantrix-tiles.svg"
    assert docs.read_text(encoding="utf-8") == gallery_svg(), "regenerate: qipan tiles --svg " + str(docs)
