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


def test_agent_clock_holds_inside_its_block_only():
    assert clock.clock_name() == "wall"
    with clock.agent_clock("cpu"):
        assert clock.clock_name() == "cpu"
        with clock.agent_clock(None):  # None keeps the clock in force
            assert clock.clock_name() == "cpu"
    assert clock.clock_name() == "wall"
    with pytest.raises(ValueError, match="sundial"), clock.agent_clock("sundial"):
        pass
    assert clock.clock_name() == "wall"


def test_the_arena_cpu_clock_switch_leaves_the_process_on_the_wall_clock():
    """The arena's --cpu-clock example, then a compiled search with a wall-clock deadline in
    the same process: the switch must not leak (it once left every later search on CPU
    time, so this deadline, on perf_counter, was never reached)."""
    click_testing = pytest.importorskip("click.testing")
    pytest.importorskip("numba")
    from qipan.cli.main import cli

    result = click_testing.CliRunner().invoke(
        cli,
        "arena three-mens-morris -a random -a random --rounds 1 --max-plies 20 --cpu-clock".split(),
    )
    assert result.exit_code == 0, result.output
    assert clock.clock_name() == "wall"

    import qipan

    game = qipan.load("nine-mens-morris")
    state = game.new()
    found = game.kernel().alphabeta(state, deadline=time.perf_counter() + 0.2)
    assert found.move in state.legal_moves()


def test_unknown_clock_in_the_environment_is_refused(monkeypatch):
    monkeypatch.setenv("QIPAN_AGENT_CLOCK", "sundial")
    with pytest.raises(ValueError, match="QIPAN_AGENT_CLOCK"):
        clock._from_environment()
