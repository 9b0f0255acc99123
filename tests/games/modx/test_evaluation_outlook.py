"""The modx agent's evaluation (evaluation_outlook.py): the classic terms under the classic weights,
less value in unscored pieces under the agent's weights, and forks."""

from __future__ import annotations

import random

import pytest

import qipan
from qipan.agents import load
from qipan.games.modx import evaluation
from qipan.games.modx import evaluation_outlook as outlook
from qipan.games.modx.board import INDEX
from qipan.games.modx.evaluation import turns_left
from qipan.games.modx.rules import placement_move

from .conftest import make

CLASSIC = outlook.Knobs(  # modx-classic's weights, spelt out
    weight=(0.0, 0.02, 0.08, 0.3),
    long_scale=1.0,
    horizon=0,
    decay=1.0,
    cash=0.9,
    cash_rest=0.1,
    first_waiting=0.3,
    second_waiting=0.6,
    rest_waiting=0.2,
    fork_mover=0.0,
    fork_waiting=0.0,
)


def test_the_classic_weights_give_the_classic_evaluation(monkeypatch):
    monkeypatch.setattr(outlook, "KNOBS", CLASSIC)
    game = qipan.load("modx")
    compared = 0
    for seed in range(6):
        state = game.new(seed=seed)
        rng = random.Random(seed)
        while state.outcome is None:
            for p in range(2):
                assert outlook.evaluate_raw(state, p) == pytest.approx(
                    evaluation.evaluate_raw(state, p), abs=1e-9
                )
                compared += 1
            state.play(rng.choice(state.legal_moves()))
    assert compared > 200


def _play(state, square: str) -> None:
    s = INDEX[square]
    state.play(placement_move(s, state.scored_by(state.to_move, s)))
    while state.outcome is None and state.phase == "relocate":
        state.play(state.legal_moves()[0])


def test_the_agents_weights_shrink_the_value_of_unscored_pieces():
    # Black's four X pieces around D4: the classic weights value keeping them (Red to move,
    # the plus still open) about 15 points above scoring the plus; the agent's far less.
    board = {"C4": "B", "E4": "B", "D3": "B", "D5": "B", "H1": "J", "A1": "J", "G7": "R"}
    excess = {}
    for knobs in (CLASSIC, outlook.KNOBS):
        values = {}
        for answer in ("D4", "H8"):
            state = make(board)
            _play(state, "A8")  # Red plays elsewhere; Black answers
            _play(state, answer)
            values[answer] = outlook.potential(state, 1, turns_left(state)[1], knobs) + state.points[1]
        excess[knobs] = values["H8"] - values["D4"]
    assert excess[CLASSIC] > 10
    assert excess[outlook.KNOBS] < 0.2 * excess[CLASSIC]


@pytest.mark.parametrize("caution", [1.0, 0.7, 0.5])
def test_the_agent_blocks_the_plus_whatever_its_caution(caution):
    # caution blends the answers of the three- and four-player search only (its blend is
    # tested in test_agent.py); with two players the deepening search blocks in any case.
    board = {"C4": "B", "E4": "B", "D3": "B", "D5": "B", "H1": "J", "A1": "J", "G7": "R"}
    assert load("modx", seed=1, iterations=16, caution=caution).choose(make(board)).text == "D4"


def test_a_fork_square_is_seen():
    # Two of Red's three-of-five lines meet at the open square E5, each missing one more square.
    board = {"A5": "R", "B5": "R", "C5": "R", "E1": "R", "E2": "R", "E3": "R", "H8": "J", "A8": "J"}
    state = make(board)
    forking = outlook.Knobs(fork_mover=1.0, fork_waiting=0.5)
    plain = outlook.Knobs()  # no forks
    t = turns_left(state)[0]
    gain = outlook.potential(state, 0, t, forking) - outlook.potential(state, 0, t, plain)
    # E5 makes A5-E5 (missing D5) and E1-E5 (missing E4): the smaller threat is worth 5.
    assert gain == pytest.approx(5.0)
    state.xs[1] |= 1 << INDEX["E5"]  # Black takes the fork square: no fork left
    state._cover = None
    assert outlook.potential(state, 0, t, forking) == pytest.approx(outlook.potential(state, 0, t, plain))
