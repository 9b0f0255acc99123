"""The agents' clock: wall by default, CPU seconds when a match asks for it."""

import time

import pytest

from qipan.agents import clock


def test_cpu_clock_ignores_sleeping():
    clock.use_cpu_clock()
    try:
        assert clock.clock_name() == "cpu"
        before = clock.now()
        time.sleep(0.05)
        assert clock.now() - before < 0.04  # a sleeping process spends (almost) no CPU
    finally:
        clock.use_cpu_clock(False)
    assert clock.clock_name() == "wall"
    before = clock.now()
    time.sleep(0.02)
    assert clock.now() - before >= 0.02


def test_unknown_clock_in_the_environment_is_refused(monkeypatch):
    monkeypatch.setenv("QIPAN_AGENT_CLOCK", "sundial")
    with pytest.raises(ValueError, match="QIPAN_AGENT_CLOCK"):
        clock._from_environment()
