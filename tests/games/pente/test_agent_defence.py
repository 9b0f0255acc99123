"""The ``pente`` agent's choices between searches (``agent.py``), with stand-in searches whose
answers are set per move: which move the defence stages keep, and what an iteration cut by
the deadline decides. The real searches are tested in ``test_threats.py`` and
``test_kernel_search.py``; here only the agent's use of their answers."""

from __future__ import annotations

import numpy as np
import pytest

import qipan
from qipan.agents import load as load_agent

POSITION = "ply=8 next=1 1:K10,L11,M10,G7 2:K11,L10,N12,H8"  # no capture for the side to move


class Board:
    """A stand-in kernel: ``play`` writes the move into the state (slot 1), ``s[0]`` stays >= 0."""

    @staticmethod
    def play(s, move):
        s[1] = move


class Threats:
    """A stand-in threat search: the opponent's shortest forced win after each move (None: none),
    and its win now (as if it moved) for the null move."""

    nodes = 0

    def __init__(self, after: dict, now: int | None = 3):
        self.after, self.now = after, now

    def shortest(self, plies, s=None):
        found = self.now if s is None else self.after.get(int(s[1]))
        return found if found is not None and found <= plies else None

    def winning_moves(self, plies):
        return []


def live(after: dict, vct: set = frozenset(), now: int | None = 3):
    agent = load_agent("pente", time=1.0, seed=1)
    agent._kernel = Board()
    search = Threats(after, now)
    agent._threat_search = lambda state, share: search
    agent._opponent_vct = lambda s: int(s[1]) in vct
    agent._deadline = None
    return agent


def pair():
    return qipan.load("pente").position(POSITION), np.zeros(2, np.int64)


@pytest.mark.parametrize(
    ("after", "vct", "chosen"),
    [
        ({10: None}, set(), 10),  # the best move is safe
        ({10: 5, 11: 9, 12: None}, {12}, 13),  # a win in 5, one in 9, a VCT: the fourth
        ({10: 5, 11: 9, 12: 7, 13: 3}, set(), 11),  # none safe: the longest-to-refute within reach
        ({10: 5, 11: 3, 12: 7, 13: 3}, set(), 10),  # every one refuted soon: the best
    ],
)
def test_the_chosen_move_is_checked_past_the_defence_horizon_and_against_threes(after, vct, chosen):
    state, s = pair()
    assert live(after, vct)._unrefuted(state, s, [10, 11, 12, 13, 14]) == chosen


@pytest.mark.parametrize(
    ("after", "kept"),
    [
        ({1: 3, 2: 9, 3: None, 4: None}, [3, 4]),  # no win left after 3 or 4
        ({1: 3, 2: 9, 3: 5, 4: 9}, [2, 4]),  # none: those whose win is past defence_plies
        ({1: 3, 2: 5, 3: 7, 4: 1}, [1, 2, 3, 4]),  # every one refuted soon: all
    ],
)
def test_a_threatened_side_keeps_the_moves_that_leave_no_win_within_the_lookahead(after, kept):
    state, s = pair()
    agent = live(after)
    assert agent._avoided_plies() == agent.defence_plies + 2
    assert agent._defended(state, s, [1, 2, 3, 4]) == (kept, True)


def test_without_a_threat_the_roots_stay():
    state, s = pair()
    assert live({1: 3}, now=None)._defended(state, s, [1, 2]) == ([1, 2], False)


class Deepening:
    """A stand-in alpha-beta: depth 1 and 2 finish (move 7 best), depth 3 is cut after it
    searched move 9 in full and found it better (index 2)."""

    def __init__(self, cut_index: int):
        self.cut_index, self.aborted, self.nodes = cut_index, False, 0

    def budget(self, nodes):
        pass

    def iterate(self, s, depth, width, roots):
        self.aborted = depth == 3
        if self.aborted:
            return self.cut_index, [0] * len(roots)
        return roots.index(7), [100 if m == 7 else 0 for m in roots]


@pytest.mark.parametrize(("cut_index", "first"), [(2, 9), (0, 7), (-1, 7)])
def test_an_iteration_cut_by_the_deadline_counts_only_when_it_found_a_better_move(cut_index, first):
    agent = live({})
    agent._searcher = searcher = Deepening(cut_index)
    roots = agent._deepen(np.zeros(2, np.int64), [8, 9, 7])
    assert roots[0] == first and agent.reached_depth == 2
    assert searcher.aborted
