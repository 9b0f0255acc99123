"""The Ray path on a local Ray instance: the same tables, byte for byte (manifest hash), as
the in-process solver, with the components run as tasks that follow the DAG."""

from __future__ import annotations

import json

import pytest

import qipan
from qipan.games.morris.perfect import PerfectTables
from qipan.solve.database import Database, tally
from qipan.solve.distributed import solve_on_ray
from tests.data import DATA

from .toy import ToySpace

SIX = json.loads((DATA / "morris" / "six_mens_morris_values.json").read_text())

ray = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def test_a_random_space_on_ray_matches_the_in_process_solve(tmp_path, local_ray):
    space = ToySpace(sizes=(30, 20, 40, 25), seed=5, pair=(1, 2))
    expected = Database(tmp_path / "here", space).solve()
    seen = []
    db = Database(tmp_path / "ray", space)
    assert solve_on_ray(db, progress=lambda done, total, label, s: seen.append(done)) == expected
    assert seen[-1] == len(space.components()) and Database(tmp_path / "ray", space).complete()


@pytest.mark.slow
def test_six_mens_morris_on_a_local_ray_reproduces_the_solved_values_and_resumes(tmp_path, local_ray):
    game = qipan.load("six-mens-morris")
    tables = PerfectTables(game, tmp_path)
    digest = solve_on_ray(tables.db)
    assert tables.value(game.new()) == ("draw", None)
    expected = SIX["moving_phase_counts_flying_protected"]["table"]
    for label, row in expected.items():
        a, b = map(int, label.split("-"))
        assert (
            tally(tables.db.values((a, b, 0, 0)), tables.space.weights((a, b, 0, 0))) == row["white_to_move"]
        )
    # An interrupted run (two segments lost) resumes on Ray to the same tables.
    for name in ("s3-3-h0-0.u8", "s5-4-h1-1.u8"):
        (tmp_path / name).unlink()
    again = PerfectTables(game, tmp_path)
    assert not again.db.complete()
    assert solve_on_ray(again.db) == digest
