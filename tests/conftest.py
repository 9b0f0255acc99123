"""Suite-wide setup: compile the Numba kernels once, before the test workers start.

On a clean clone the kernels' disk cache is empty. Without this, every xdist worker compiles
every kernel it meets (over a minute of CPU each), and a server subprocess started before a
worker has written the cache compiles them all again. Here the controller compiles each
family's kernels in its own process, the families side by side, and everything after that
loads them from the cache in about a second."""

from __future__ import annotations

import subprocess
import sys

WARM = "import sys; from qipan.fast import warm_up; warm_up(sys.argv[1:])"


def _families_with_kernels() -> list[list[str]]:
    from qipan.core.registry import specs

    families: dict[str, list[str]] = {}
    for spec in specs():
        families.setdefault(spec.family, []).append(spec.id)
    return list(families.values())


def pytest_configure(config) -> None:
    if hasattr(config, "workerinput"):  # an xdist worker: the controller has warmed up
        return
    from qipan.fast import enabled

    if not enabled():
        return
    # Families without a kernel return at once; a failure shows again in the tests themselves.
    jobs = [subprocess.Popen([sys.executable, "-c", WARM, *presets]) for presets in _families_with_kernels()]
    for job in jobs:
        job.wait()
