"""The clock every agent's time limit is measured on.

Players get wall-clock seconds (``time.perf_counter``). Matches on a shared, noisy machine
measure on the CPU seconds of the agent's own process, so that a busy neighbour slows both
sides alike. The choice belongs to a run, not to the process: ``with agent_clock("cpu"):``
holds for the code inside it (and the threads' contexts copied from it), and a command-line
switch never leaves the library on another clock after it returns. A benchmark script that
is a whole process of its own may set the process default with ``QIPAN_AGENT_CLOCK=cpu`` or
:func:`use_cpu_clock`."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}


def _from_environment():
    name = os.environ.get("QIPAN_AGENT_CLOCK", "wall").strip().lower() or "wall"
    if name not in _CLOCKS:
        raise ValueError(f"QIPAN_AGENT_CLOCK must be one of {sorted(_CLOCKS)}, not {name!r}")
    return _CLOCKS[name]


_process_default = _from_environment()
#: The clock chosen by the run in progress (``agent_clock``); None: the process default.
_chosen: ContextVar = ContextVar("qipan_agent_clock", default=None)


def now() -> float:
    """Seconds on the agents' clock (wall by default, CPU when the run asks for it)."""
    return (_chosen.get() or _process_default)()


def clock_name() -> str:
    return "cpu" if (_chosen.get() or _process_default) is _CLOCKS["cpu"] else "wall"


@contextmanager
def agent_clock(name: str | None) -> Iterator[None]:
    """Measure agents' time limits on ``name`` ("wall" or "cpu") inside the block only;
    None keeps the clock in force."""
    if name is None:
        yield
        return
    if name not in _CLOCKS:
        raise ValueError(f"the agents' clock must be one of {sorted(_CLOCKS)}, not {name!r}")
    token = _chosen.set(_CLOCKS[name])
    try:
        yield
    finally:
        _chosen.reset(token)


def use_cpu_clock(enabled: bool = True) -> None:
    """Make CPU seconds this process's default (benchmark scripts that own their process)."""
    global _process_default
    _process_default = _CLOCKS["cpu" if enabled else "wall"]
