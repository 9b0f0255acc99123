"""The compiled Pente search (``kernel_search.py``): shapes, threat-space search, alpha-beta, and the
exhaustive prover checked against plain minimax on the reference rules; the shipped tactical
positions."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import qipan

pytest.importorskip("numba")

from qipan.games.pente.kernel_search import FIVE, T_FOURS, T_THREE, searcher_for  # noqa: E402

DATA = Path(__file__).parent / "data" / "tactics.json"


@pytest.fixture(autouse=True)
def kernels_on(monkeypatch):
    monkeypatch.setenv("QIPAN_KERNELS", "1")


def setup(text: str, preset: str = "pente", **options):
    game = qipan.load(preset, **options)
    state = game.position(text)
    kernel = game.kernel()
    return state, kernel, searcher_for(kernel), kernel.state(state)


def shape_key(cells: str) -> int:
    """The table key of 9 points along a line written like ``"..xx.x..."`` (centre = 5th:
    x own, o other, # off the board, . empty)."""
    code = {".": 0, "x": 1, "o": 2, "#": 3}
    around = cells[:4] + cells[5:]
    return sum(code[c] << (2 * k) for k, c in enumerate(around))


@pytest.mark.parametrize(
    ("cells", "fours", "three"),
    [
        ("..xx.xx..", FIVE, 0),  # xx[x]xx: five
        ("...x.xx..", 2, 0),  # .x[x]xx. open four
        ("..ox.xx..", 1, 0),  # ox[x]xx. closed four
        (".x.x.x.x.", 2, 0),  # x.x[x]x.x: two points complete five
        ("...x.x.x.", 1, 0),  # x[x]x.x: one point completes five
        ("...x.x...", 0, 1),  # .x[x]x.: an open three (one more stone makes an open four)
        ("..ox.x...", 0, 0),  # ox[x]x..: no open four can follow
        ("#xx.x....", 0, 0),  # off the board cuts the line
    ],
)
def test_shape_table(cells, fours, three):
    _, _, searcher, _ = setup("ply=2 next=1 1:K10 2:A1")
    table = searcher.W[0]
    key = shape_key(cells)
    assert table[key, T_FOURS] == fours
    if fours == 0:
        assert table[key, T_THREE] == three


def test_vcf_finds_the_forcing_win_and_the_prover_confirms_it():
    # N10 makes a four closed by J10 (B must answer O10), then file N gives an open four
    state, kernel, searcher, s = setup("ply=20 next=1 1:K10,L10,M10,N11,N12 2:J10,A1,A19,T1,T19")
    searcher.budget(1_000_000)
    move = searcher.vcf(s, 6)
    assert move >= 0
    assert searcher.prove(s, 1) is False
    assert searcher.prove(s, 5) is True
    after = state.copy()
    after.play(kernel.move(move))
    assert searcher.prove(kernel.state(after), 4, attacker=0) is True


def test_a_capture_that_breaks_a_four_is_a_defence():
    # W's N10 makes the open four K10-N10 (H10 is B's, so J10 gives only a closed four);
    # B's N9 then takes N10+N11 (N12 is B's), so W needs 5 plies; without N12 it needs 3
    text = "ply=30 next=1 1:K10,L10,M10,N11,C3 2:N12,H10,A1,S19,C17"
    _, _, searcher, s = setup(text)
    assert searcher.prove(s, 3) is False
    assert searcher.prove(s, 5) is True
    _, _, searcher, s = setup(text.replace("N12", "R12"))
    assert searcher.prove(s, 3) is True


def test_a_capture_win_threat_is_a_threat():
    # W has 8 stones; K10 threatens N10 (taking L10+M10) and K13 (K11+K12): B stops one only
    state, kernel, searcher, s = setup("ply=30 next=1 captures=8,0 1:C3,E3,G3 2:L10,M10,K11,K12,A1")
    assert searcher.prove(s, 1) is False
    assert searcher.prove(s, 3) is True
    searcher.budget(1_000_000)
    move = searcher.vcf(s, 4)
    assert kernel.geom.name[move] == "K10"


def test_alpha_beta_blocks_a_four_and_takes_a_win():
    _, kernel, searcher, s = setup("ply=20 next=1 1:K10,C3,E5,G3 2:L10,M10,N10,O10,A1")
    moves, _ = searcher.root_moves(s)
    assert [kernel.geom.name[m] for m in moves] == ["P10"]  # the only reply (no capture)
    searcher.budget(200_000)
    index, _ = searcher.iterate(s, 3, 10, moves)
    assert kernel.geom.name[moves[index]] == "P10"
    _, kernel, searcher, s = setup("ply=30 next=1 captures=8,0 1:K10,C3 2:L10,M10,A1,E7")
    moves, _ = searcher.root_moves(s)
    assert [kernel.geom.name[m] for m in moves] == ["N10"]  # the 10th stone wins at once


def brute_force(state, attacker: int, plies: int) -> bool:
    """Plain minimax on the reference rules: every move of both sides."""
    if state.outcome is not None:
        return attacker in state.outcome.winners
    if plies == 0:
        return False
    results = []
    for move in state.legal_moves():
        state.play(move)
        results.append(brute_force(state, attacker, plies - 1))
        state.undo()
        if state.to_move == attacker and results[-1]:
            return True
        if state.to_move != attacker and not results[-1]:
            return False
    return state.to_move != attacker


def random_position(rng: random.Random, stones: int, captures: str):
    game = qipan.load("pente", board_size=7)
    while True:
        state = game.new()
        while state.ply < stones and state.outcome is None:
            state.play(rng.choice(state.legal_moves()))
        if state.outcome is None:
            text = state.position().replace("captures=" + ",".join(map(str, state.captures)), captures)
            return game.position(text)


@pytest.mark.parametrize("case", range(10))
def test_the_prover_agrees_with_plain_minimax(case):
    rng = random.Random(case)
    captures = "captures=8,8" if case % 2 else "captures=0,0"
    state = random_position(rng, 26 + case % 3, captures)
    kernel = state.game.kernel()
    searcher = searcher_for(kernel)
    s = kernel.state(state)
    for plies in (1, 2, 3):
        assert searcher.prove(s, plies) == brute_force(state.copy(), state.to_move, plies), (
            state.position(),
            plies,
        )


def tactics() -> list[dict]:
    return json.loads(DATA.read_text())["positions"]


def test_the_tactical_set_has_a_hundred_positions_up_to_seven_plies():
    entries = tactics()
    assert len(entries) >= 100
    assert {e["plies"] for e in entries} <= {1, 3, 5, 7}
    assert sum(e["plies"] >= 5 for e in entries) >= 40
    assert len({e["position"] for e in entries}) == len(entries)


@pytest.mark.parametrize("index", range(0, 200, 23))
def test_a_stored_solution_is_proved(index):
    entries = tactics()
    entry = entries[index % len(entries)]
    state, kernel, searcher, s = setup(entry["position"])
    assert state.to_move + 1 == entry["winner"]
    plies = entry["plies"]
    assert searcher.prove(s, plies) is True
    after = state.copy()
    after.play(entry["move"])
    if after.outcome is not None:
        assert after.outcome.winners == (state.to_move,)
    else:
        assert searcher.prove(kernel.state(after), plies - 1, attacker=state.to_move) is True


@pytest.mark.parametrize("index", range(5, 200, 37))
def test_the_agent_solves_sampled_positions_within_a_node_budget(index):
    from qipan.agents import load

    entries = tactics()
    entry = entries[index % len(entries)]
    state, kernel, searcher, _ = setup(entry["position"])
    move = load("pente", iterations=200_000, seed=1).choose(state)
    after = state.copy()
    after.play(move)
    if after.outcome is None:
        assert searcher.prove(kernel.state(after), entry["plies"] - 1, attacker=state.to_move) is True
    else:
        assert after.outcome.winners == (state.to_move,)


def test_the_evaluation_reads_the_weights_it_is_given():
    from qipan.games.pente.kernel_search import _CAP_VALUE, Searcher, tuning

    _, kernel, searcher, s = setup("ply=20 next=1 captures=4,0 1:K10,C3,E5 2:L10,M12,A1")
    richer = list(_CAP_VALUE)
    richer[4] += 1000  # four captured stones are worth 1,000 more to whoever has them
    tuned = Searcher(kernel, tune=tuning(caps=richer))
    assert tuned.evaluate(s) == searcher.evaluate(s) + 1000
    assert Searcher(kernel, tune=tuning()).evaluate(s) == searcher.evaluate(s)
    with pytest.raises(ValueError, match="11"):
        tuning(caps=_CAP_VALUE[:-1])


def test_the_forced_reply_to_a_four_is_searched_past_the_horizon_when_asked():
    from qipan.games.pente.kernel_search import Searcher, tuning

    _, kernel, _, s = setup("ply=10 next=1 1:K10,L10,M10,C3 2:J10,A1,A3,C5")
    four = kernel.geom.by_name["N10"]  # K10-N10, blocked at J10: the opponent must take O10
    nodes = {}
    for quiesce in (0, 1):
        searcher = Searcher(kernel, tune=tuning(quiesce=quiesce))
        searcher.budget(10_000)
        searcher.iterate(s, 1, 12, [four])
        nodes[quiesce] = searcher.nodes
    assert nodes[0] == 1  # the position after the four, valued as it stands
    assert nodes[1] > 1  # the replies that stop the five, then valued


def test_the_agent_searches_with_its_own_tables_and_the_reference_with_the_shared_ones():
    from qipan.agents import load as load_agent
    from qipan.games.pente.agent import QUIESCE
    from qipan.games.pente.kernel_search import TU_QUIESCE

    state, kernel, shared, _ = setup("ply=8 next=1 1:K10,L11,M9,J12 2:L10,M10,K12,N8")
    live = load_agent("pente", iterations=5_000, seed=1)
    live.choose(state)
    assert live._searcher is not shared and live._searcher.W.tuning[TU_QUIESCE] == QUIESCE
    reference = load_agent("pente-2026", iterations=5_000, seed=1)
    reference.choose(state)
    assert reference._searcher is shared
