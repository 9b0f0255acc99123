"""The documentation site builds with ``mkdocs build --strict`` (every page in the nav,
every link resolves, the API reference renders from the docstrings), and the notebook
page shows real boards: its code runs at build time and draws SVG."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mkdocs")
pytest.importorskip("mkdocstrings")

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    run = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    return out


def test_strict_build_has_every_page(site):
    for page in (
        "index.html",
        "rl/index.html",
        "engine-protocol/index.html",
        "arena/index.html",
        "games/pente/index.html",
        "contract/index.html",
    ):
        assert (site / page).is_file(), page


def test_api_reference_comes_from_the_docstrings(site):
    html = (site / "api" / "core" / "index.html").read_text(encoding="utf-8")
    assert "ActionSpace" in html and "Action index" in html  # core.actions' docstring
    assert "legal_moves" in html and "random_move" in html


def test_notebook_page_draws_boards_as_svg(site):
    html = (site / "notebook" / "index.html").read_text(encoding="utf-8")
    boards = html.count('class="qipan-board"')
    assert boards == 4, boards
    assert html.count("data-target=") > 20  # the boards are the games' own clickable SVG
