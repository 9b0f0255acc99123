"""Text and SVG boards: grid, coordinates, stones, last move, capture counts, click targets."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import qipan

NS = "{http://www.w3.org/2000/svg}"


def played():
    s = qipan.load("pente").new()
    s.play_many(["K10", "L10", "A1", "M10", "N10"])  # N10 captures L10 + M10
    return s


def test_text_board():
    s = played()
    lines = s.text().splitlines()
    assert lines[0].split() == list("ABCDEFGHJKLMNOPQRST")
    row10 = next(line for line in lines if line.startswith(" 10 "))
    cells = row10.split()[1:-1]
    assert cells[9] == "O" and cells[10] == "." and cells[12] == "o"  # K10, L10 taken, N10 last
    assert "P1 White 2" in lines[-1] and "P2 Black 0" in lines[-1] and "last: N10" in lines[-1]
    assert len(lines) == 19 + 3


def test_svg_targets_and_marks():
    s = played()
    root = ET.fromstring(s.svg())
    assert root.tag == NS + "svg"
    targets = [e.get("data-target") for e in root.iter() if e.get("data-target")]
    empty = {m.text for m in s.legal_moves()}
    points = [e for e in root.iter(NS + "circle") if "point" in (e.get("class") or "")]
    assert {e.get("data-target") for e in points} == empty and len(points) == 361 - 3
    assert all(m.path[0] in targets for m in s.legal_moves())
    stones = [e for e in root.iter(NS + "circle") if "stone" in (e.get("class") or "")]
    assert sorted(e.get("data-target") for e in stones) == ["A1", "K10", "N10"]
    assert len(list(e for e in root.iter(NS + "line"))) == 2 * 19
    labels = {e.text for e in root.iter(NS + "text")}
    assert {"A", "T", "1", "19"} <= labels and "I" not in labels
    assert any("last-move" in (e.get("class") or "") for e in root.iter())
    status = next(e.text for e in root.iter(NS + "text") if e.get("class") == "status")
    assert "P1 White 2" in status


def test_four_player_render():
    s = qipan.load("pente-team").new()
    s.play_many(["K10", "L10", "M10", "N10"])
    assert "P4 Blue 0" in s.text()
    root = ET.fromstring(s.svg())
    assert len([e for e in root.iter(NS + "circle") if "stone" in (e.get("class") or "")]) == 4
