"""Suite-wide setup: compile the Numba kernels once, before the test workers start.

On a clean clone the kernels' disk cache is empty. Without this, every xdist worker compiles
every kernel it meets (over a minute of CPU each), and a server subprocess started before a
worker has written the cache compiles them all again. Here the controller has each family's
kernels, and the retrograde solver's, compiled in child processes (``qipan.kernel_warmup``,
as the server does at a first start), as many at once as there are test workers; everything
after that loads them from the cache in about a second."""

from __future__ import annotations

import os

# A tiny retrograde solve (Six Men's Morris with three stones a side, with its consistency
# check) compiles the kernels of qipan.solve and of the Morris tables that the solver tests use.
SOLVER = (
    "import tempfile, qipan; from qipan.games.morris.perfect import PerfectTables\n"
    "with tempfile.TemporaryDirectory() as where:\n"
    "    game = qipan.load('six-mens-morris', flying=None, repetition_count=None, n_move=0)\n"
    "    PerfectTables(game, where, max_stones=3).build(check=True)"
)


def _workers(config) -> int:
    count = getattr(config.option, "numprocesses", None)
    if count in (None, "auto", "logical"):
        return os.cpu_count() or 1
    return max(1, int(count))


def pytest_configure(config) -> None:
    if hasattr(config, "workerinput"):  # an xdist worker: the controller has warmed up
        return
    from qipan.kernel_warmup import compile_families

    # Families without a kernel return at once; a failure shows again in the tests themselves.
    compile_families(parallel=_workers(config), extra=[["-c", SOLVER]])
