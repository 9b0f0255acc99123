"""The clock every agent's time limit is measured on.

Players get wall-clock seconds (``time.perf_counter``). Matches on a shared, noisy machine set
``QIPAN_AGENT_CLOCK=cpu`` (or call :func:`use_cpu_clock`) so each agent's ``time`` limit counts
the CPU seconds its own process spent: a busy neighbour then slows both sides alike."""

from __future__ import annotations

import os
import time

_CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}


def _from_environment():
    name = os.environ.get("QIPAN_AGENT_CLOCK", "wall").strip().lower() or "wall"
    if name not in _CLOCKS:
        raise ValueError(f"QIPAN_AGENT_CLOCK must be one of {sorted(_CLOCKS)}, not {name!r}")
    return _CLOCKS[name]


_now = _from_environment()


def now() -> float:
    """Seconds on the agents' clock (wall by default, CPU when matches ask for it)."""
    return _now()


def use_cpu_clock(enabled: bool = True) -> None:
    """Measure agents' time limits in CPU seconds of this process (benchmarks and matches)."""
    global _now
    _now = _CLOCKS["cpu" if enabled else "wall"]


def clock_name() -> str:
    return "cpu" if _now is _CLOCKS["cpu"] else "wall"
