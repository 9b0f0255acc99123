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


GAME_PAGES = ["blackpath", "trax", "pipemania", "tantrix", "morris", "pente", "modx"]


@pytest.mark.parametrize("page", GAME_PAGES)
def test_every_game_page_shows_a_board_drawn_by_the_game_and_no_developer_paths(site, page):
    html = (site / "games" / page / "index.html").read_text(encoding="utf-8")
    figure = html.split('<figure class="qipan-board"', 1)[1].split("</figure>", 1)[0]
    assert "<svg" in figure
    assert "src/qipan" not in html and "shared/" not in html


PACKAGES = {f"games/{g}": f"games/{g}" for g in GAME_PAGES} | {"solve": "solve"}


def _modules(package: str) -> list[str]:
    folder = ROOT / "src" / "qipan" / package
    return [
        f"qipan.{package.replace('/', '.')}.{p.stem}" for p in folder.glob("*.py") if p.stem != "__init__"
    ]


@pytest.mark.parametrize("page", [*PACKAGES, "records", "fast"])
def test_the_api_reference_covers_every_module_of_the_games_solvers_records_and_kernels(site, page):
    html = (site / "api" / page / "index.html").read_text(encoding="utf-8")
    modules = _modules(PACKAGES[page]) if page in PACKAGES else [f"qipan.{page}"]
    assert modules
    missing = [m for m in modules if f'id="{m}"' not in html]
    assert not missing, missing
