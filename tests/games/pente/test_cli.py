"""``qipan replay`` reads a whole pente.org file and prints a summary."""

from __future__ import annotations

import pytest
from tests.data import DATA

click_testing = pytest.importorskip("click.testing")

SAMPLE = DATA / "pente" / "pente_org_sample.pgn"


def test_replay_summary_of_the_sample():
    from qipan.cli.main import cli

    result = click_testing.CliRunner().invoke(cli, ["replay", "--quiet", str(SAMPLE)])
    assert "20 games: 19 replayed, 1 rejected" in result.output
    assert "ply 39" in result.output
    assert result.exit_code == 1  # a rejected game is reported as a failure
