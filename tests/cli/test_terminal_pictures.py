"""Trax and Tantrix drawn in colour in the terminal (the declared terminal_picture)."""

from __future__ import annotations

import random

import pytest

import qipan
from qipan.core.refs import load_ref

rich = pytest.importorskip("rich")


def played(preset: str, plies: int, seed: int = 3):
    state = qipan.load(preset).new(seed=seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if state.outcome is not None:
            break
        state.play(state.random_move(rng))
    return state


def styles(text) -> set[str]:
    return {str(span.style) for span in text.spans}


def test_trax_tiles_show_their_edge_colours_and_coordinates():
    state = played("trax", 4)
    picture = load_ref(state.game.terminal_picture)(state)
    plain = picture.plain
    assert plain.splitlines()[0].split() == ["A", "B", "C"][: state.board.width]
    assert any("red" in s for s in styles(picture)) and any("white" in s for s in styles(picture))
    # Every tile is three rows of five characters: count the tiles' middle glyphs.
    assert sum(plain.count(g) for g in "┃━┛┗┓┏") == len(state.board.cells)
    assert any("underline" in s for s in styles(picture))  # the last turn's tiles


def test_tantrix_hands_show_each_tiles_colours():
    state = played("tantrix", 0)
    picture = load_ref(state.game.terminal_picture)(state)
    shown = sum(len(h) for h in state.hands)
    assert picture.plain.count("⬢") == 6 * shown
    assert {"bold red", "bold yellow"} & styles(picture)


def test_qipan_play_shows_the_coloured_picture(monkeypatch):
    from qipan.cli import main

    seen = []
    monkeypatch.setattr(main.console, "print", lambda panel, *a, **k: seen.append(panel))
    main._show_board(played("trax", 2))
    assert type(seen[0].renderable).__name__ == "Text"
    main._show_board(played("pente", 2))
    assert isinstance(seen[1].renderable, str)  # games without a picture: their text
