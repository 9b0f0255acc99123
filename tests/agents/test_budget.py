"""Time management: the allotment never empties the clock, spends the increment, answers a
forced move at once, uses a per-move clock's time; ``choose(state, budget)`` gives the agent
that time (capped by its own) and puts its limit back; alpha-beta thinks longer when its
best move changes between iterations. Time is simulated: no test depends on a real clock."""

from __future__ import annotations

import pytest

import qipan
from qipan.agents import AlphaBetaAgent, Budget, RandomAgent, allot, clock
from qipan.agents.budget import MINIMUM_SECONDS
from qipan.core.errors import OptionError


@pytest.mark.parametrize(("initial", "increment"), [(60.0, 0.0), (10.0, 0.5), (1.0, 0.0), (0.3, 2.0)])
def test_even_the_hard_limit_every_move_never_flags_with_time_to_spare(initial, increment):
    left, moves = initial, 0
    while moves < 400 and left > 2 * MINIMUM_SECONDS:  # a game far longer than the horizon
        share = allot(Budget(left, increment))
        assert MINIMUM_SECONDS <= share.target <= share.limit < left
        left += increment - share.limit  # the worst case: the hard limit, every move
        moves += 1
    if increment:
        assert moves == 400  # an increment keeps the clock alive for ever
    else:
        assert moves >= 20  # sudden death: the time is spread, not spent at once


def test_the_share_follows_the_clock():
    slow, fast = allot(Budget(300.0)), allot(Budget(30.0))
    assert slow.target > fast.target
    # Most of the increment is spent on the move that earns it.
    assert allot(Budget(30.0, 2.0)).target > fast.target + 1.0
    # A forced move, or a clock nearly out, is answered at once.
    assert allot(Budget(300.0), legal_moves=1).limit == MINIMUM_SECONDS
    assert allot(Budget(0.01)).limit == MINIMUM_SECONDS
    # Per-move time does not carry over: most of it is used, never all of it.
    per_move = allot(Budget.per_move(5.0))
    assert 2.5 < per_move.target <= per_move.limit < 5.0
    # With moves to go, the time is spread over them.
    assert allot(Budget(40.0, moves_to_go=4)).target > allot(Budget(40.0)).target


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"remaining": float("nan")}, "finite"),
        ({"remaining": 10.0, "increment": -1.0}, "increment"),
        ({"remaining": 10.0, "moves_to_go": 0}, "moves to go"),
    ],
)
def test_bad_budgets_are_refused(kwargs, words):
    with pytest.raises(OptionError, match=words):
        Budget(**kwargs)


class Recording(RandomAgent):
    def select(self, state):
        self.seen = (self.time, self.soft_time)
        return super().select(state)


def test_choose_with_a_budget_sets_the_move_time_and_restores_the_agent_limit():
    state = qipan.load("nine-mens-morris").new()
    agent = Recording(seed=1)
    agent.choose(state, Budget(50.0))
    assert agent.seen == (allot(Budget(50.0), len(state.legal_moves())).target, None)
    assert agent.time is None
    capped = Recording(time=0.5, seed=1)
    capped.choose(state, Budget(500.0))
    assert capped.seen[0] == 0.5 and capped.time == 0.5  # its own limit caps, then is back


class FakeClock:
    """The agents' clock, advanced by the scripted search below."""

    def __init__(self):
        self.t = 0.0

    def __call__(self):
        return self.t


class Scripted(AlphaBetaAgent):
    """Iteration d costs 2**d seconds of the fake clock and returns the scripted move."""

    def __init__(self, fake, moves, **kw):
        super().__init__(**kw)
        self.fake, self.script = fake, moves

    def _root(self, state, depth, moves):
        self.fake.t += 2.0**depth
        if self._deadline is not None and self.fake.t > self._deadline:
            from qipan.core.errors import SearchTimeout

            raise SearchTimeout
        return 0.0, moves[self.script(depth) % len(moves)]


@pytest.fixture
def fake_clock(monkeypatch):
    fake = FakeClock()
    monkeypatch.setattr(clock, "_process_default", fake)
    monkeypatch.setenv("QIPAN_KERNELS", "0")
    return fake


def test_alphabeta_thinks_longer_when_its_best_move_keeps_changing(fake_clock):
    state = qipan.load("nine-mens-morris").new()
    budget = Budget(2000.0)
    stable = Scripted(fake_clock, lambda d: 0)
    stable.choose(state, budget)
    fake_clock.t = 0.0
    unstable = Scripted(fake_clock, lambda d: d)
    unstable.choose(state, budget)
    assert unstable.reached_depth > stable.reached_depth
    # The stable search stopped near the target; the unstable one within the hard limit.
    share = allot(budget, len(state.legal_moves()))
    assert sum(2.0**d for d in range(1, stable.reached_depth + 1)) <= share.target
    assert sum(2.0**d for d in range(1, unstable.reached_depth + 1)) <= share.limit
