"""CPU-time rates for the benchmark scripts (the machines are shared: wall time lies)."""

from __future__ import annotations

import time


def cpu_rate(work, seconds: float) -> float:
    """Units of ``work()`` (it returns how many it did) per CPU second, for about ``seconds``."""
    done, spent = 0, 0.0
    while spent < seconds:
        start = time.process_time()
        done += work()
        spent += time.process_time() - start
    return done / spent
