"""The threat-space search (``threats.py``) and its compiled twin (``threats_kernel.py``): wins by
fives and by captures, every defence (captures breaking the line, the defender's own wins),
proofs checked by brute force through the rules, the twin equal to the reference on real games."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

import qipan
from qipan.core.errors import QipanError
from qipan.games.pente import records
from qipan.games.pente.threats import (
    ThreatSearch,
    check_proof,
    defences,
    forced_lines,
    forced_win,
    immediate_wins,
    searcher,
    threats,
    winning_moves,
)

GAMES = Path(__file__).parents[2] / "data" / "pente" / "pente_org_games.pgn"


def names(state, points):
    return [state.geom.name[i] for i in points]


def position(text, **options):
    return qipan.load("pente", **options).position(text)


def test_a_double_capture_threat_at_eight_stones_wins_in_three():
    state = position("ply=20 next=1 captures=8,0 1:A1 2:L11,M11,K12,K13,S19")
    win = forced_win(state, compiled=False)
    assert (win.plies, win.line) == (3, ("K11", "N11", "K14"))
    assert check_proof(state, 3)
    assert not check_proof(state, 1)


def test_at_six_stones_a_point_taking_two_pairs_is_a_threat():
    state = position("ply=20 next=1 captures=6,0 1:N14,A1 2:N12,N13,L11,M11,S19")
    assert ("K11", ["N11"]) in [(state.geom.name[i], names(state, w)) for i, w in threats(state)]
    assert forced_win(state, compiled=False) is None  # one threat, one answer
    with_eight = position("ply=20 next=1 captures=8,0 1:N14,A1 2:N12,N13,L11,M11,S19")
    assert names(with_eight, immediate_wins(with_eight, 0)) == ["N11"]


def test_a_capture_that_breaks_the_four_is_a_defence():
    state = position("ply=20 next=1 1:F10,G10,H10,G11,A1 2:G12,S19,S18")
    state.play("J10")  # a four F10-J10; G9 would capture G10 and G11
    assert names(state, defences(state, immediate_wins(state, 0))) == ["G9", "E10", "K10"]
    before = position("ply=20 next=1 1:F10,G10,H10,G11,A1 2:G12,S19,S18")
    win = forced_win(before, compiled=False)
    assert win.plies == 5 and win.line[1] == "G9"  # the capture holds out longest
    assert check_proof(before, 5)
    assert not check_proof(before, 3)


def test_the_defenders_own_win_voids_every_threat():
    state = position("ply=20 next=1 1:F10,G10,H10,A1 2:P15,P16,P17,P18,S1")
    assert threats(state) == []
    assert forced_win(state, compiled=False) is None
    open_three = position("ply=20 next=1 1:F10,G10,H10,A1 2:P15,P16,P18,S1,S3")
    assert forced_win(open_three, compiled=False).plies == 3


def test_exact_five_does_not_count_an_overline():
    text = "ply=20 next=1 1:F10,G10,H10,J10,L10 2:A1,S19,S18,S17,B2"
    assert names(position(text), immediate_wins(position(text), 0)) == ["E10", "K10"]
    exact = position(text, exact_five=True)
    assert names(exact, immediate_wins(exact, 0)) == ["E10"]


def test_the_opponents_forced_win_is_searched_as_if_it_moved():
    state = position("ply=20 next=2 captures=8,0 1:A1 2:L11,M11,K12,K13,S19")
    assert forced_win(state, compiled=False) is None
    theirs = forced_win(state, player=0, compiled=False)
    assert (theirs.attacker, theirs.plies, theirs.move) == (0, 3, "K11")
    assert state.to_move == 1  # the position is not changed
    with pytest.raises(QipanError):
        forced_win(state, player=3, compiled=False)


def test_a_wrong_strategy_fails_the_brute_force_check():
    state = position("ply=20 next=1 captures=8,0 1:A1 2:L11,M11,K12,K13,S19")
    assert not check_proof(state, 3, lambda s, plies: s.legal_moves()[0])


def test_unsupported_rules_are_refused():
    state = qipan.load("pente", double_tria=True).new().play_many(["K10", "L11"])
    with pytest.raises(QipanError, match="double_tria"):
        forced_win(state, compiled=False)
    four = qipan.load("pente-4").new(4)
    with pytest.raises(QipanError):
        forced_win(four, compiled=False)


def test_a_node_budget_stops_the_search():
    state = position("ply=20 next=1 1:F10,G10,H10,G11,A1 2:G12,S19,S18")
    with pytest.raises(QipanError, match="nodes"):
        forced_win(state, nodes=2, compiled=False)


def first_games(count: int) -> list:
    """The first ``count`` pente.org games (reading all 4,000 would replay every one)."""
    return records.read("\n".join(re.split(r"\n(?=\[Game )", GAMES.read_text())[:count]))


def real_positions(games: int):
    for record in first_games(games):
        state = record.new_state()
        for move in record.moves:
            if state.outcome is not None:
                break
            yield state
            state.play(move)


def test_reference_proofs_in_real_games_pass_the_brute_force_check():
    checked = 0
    for state in real_positions(2):
        search = ThreatSearch(state)
        plies = search.shortest(7)
        if plies and plies >= 3:
            assert check_proof(state, plies), state.position()
            checked += 1
    assert checked >= 5


def test_the_compiled_twin_equals_the_reference_on_real_games(monkeypatch):
    pytest.importorskip("numba")
    monkeypatch.setenv("QIPAN_KERNELS", "1")
    wins = 0
    for state in real_positions(4):
        answers = []
        for search in (ThreatSearch(state), searcher(state, compiled=True)):
            plies = search.shortest(9)
            answers.append((plies, search.winning_moves(plies or 9), plies and search.line(plies)))
        assert answers[0] == answers[1], state.position()
        wins += answers[0][0] is not None
    assert wins >= 10


OPEN_THREE = [
    "K10",
    "B2",
    "K11",
    "B4",
    "K12",
    "B6",
]  # player 1 to move wins in 3 (K9 or K13, then the other end)


def test_pente_declares_the_forced_line_where_the_search_is_exact():
    assert qipan.load("pente").capabilities()["forced_line"]
    assert qipan.load("pente", exact_five=True).forced_line is not None
    assert qipan.load("pente", double_tria=True).forced_line is None
    assert qipan.load("pente-team").forced_line is None


def test_forced_lines_give_both_sides_within_the_deadline(monkeypatch):
    monkeypatch.setenv("QIPAN_KERNELS", "0")
    state = qipan.load("pente").new().play_many(OPEN_THREE)
    wins = forced_lines(state, time.perf_counter() + 60)  # found long before: the search stops then
    assert wins == [{"player": 0, "plies": 3, "line": ["K9", "K8", "K13"], "to_move": True}]
    theirs = forced_lines(qipan.load("pente").new().play_many([*OPEN_THREE, "S19"]), time.perf_counter() + 60)
    assert [(w["player"], w["plies"], w["to_move"]) for w in theirs] == [(0, 3, False)]
    assert forced_lines(state, time.perf_counter() - 1) == []  # no time: nothing claimed


def test_the_engine_protocol_says_the_forced_win(monkeypatch):
    monkeypatch.setenv("QIPAN_KERNELS", "0")
    from qipan.agents.engine_protocol import EngineLoop

    monkeypatch.setattr(EngineLoop, "FORCED_SECONDS", 60.0)  # found long before
    said = []
    loop = EngineLoop("pente", said.append, agent="pente-classic")
    loop.handle("position start moves " + "; ".join(OPEN_THREE))
    loop.handle("go depth 1")
    loop.worker.join()
    assert "info forced player 1 plies 3 now pv K9; K8; K13" in said
    assert said[-1].startswith("bestmove ")


def test_the_analysis_page_reports_the_forced_win(monkeypatch):
    pytest.importorskip("fastapi")
    monkeypatch.setenv("QIPAN_KERNELS", "0")
    from qipan.server.analysis import analyse, describe, forced_wins

    state = qipan.load("pente").new().play_many(OPEN_THREE)
    assert describe(state)["capabilities"]["forced_line"]
    forced = forced_wins(state, 60)
    assert forced["wins"][0] == {"player": 0, "plies": 3, "line": ["K9", "K8", "K13"], "to_move": True}
    assert isinstance(analyse(state, 0.2, 1)["forced"]["wins"], list)
    other = qipan.load("pente", double_tria=True).new().play_many(OPEN_THREE)
    assert analyse(other, 0.2, 1)["forced"] is None


# -- the pente agent uses it ---------------------------------------------------------------------
def real_position(game: int, ply: int):
    record = first_games(game + 1)[game]
    return record.new_state().play_many(record.moves[:ply])


def test_the_agent_plays_the_shortest_forced_win(monkeypatch):
    pytest.importorskip("numba")
    monkeypatch.setenv("QIPAN_KERNELS", "1")
    from qipan.agents import load as load_agent

    state = real_position(0, 19)  # game 1 of the pente.org set: player 2 wins in 7 from here
    agent = load_agent("pente", iterations=200_000, seed=1)
    move = agent.choose(state)
    assert (move.text, agent.stage) == ("J11", "threats")
    assert move.text in winning_moves(state, 7, compiled=False)
    frozen = load_agent("pente-2026", iterations=200_000, seed=1)
    assert not frozen.forced_wins and frozen.name == "pente-2026"


def test_the_agent_stops_the_opponents_forced_win(monkeypatch):
    pytest.importorskip("numba")
    monkeypatch.setenv("QIPAN_KERNELS", "1")
    from qipan.agents import load as load_agent

    state = qipan.load("pente").new().play_many(OPEN_THREE[:5])  # player 1 threatens K9 or K13
    assert forced_win(state, player=0, compiled=False).plies == 3
    move = load_agent("pente", iterations=200_000, seed=1).choose(state)
    assert forced_win(state.play_many([move]), 7, compiled=False) is None


def test_the_agent_drops_a_best_move_that_leaves_the_opponent_a_forced_win(monkeypatch):
    pytest.importorskip("numba")
    monkeypatch.setenv("QIPAN_KERNELS", "1")
    from qipan.agents import load as load_agent
    from qipan.games.pente.kernel_search import searcher_for

    state = qipan.load("pente").new().play_many(OPEN_THREE[:5])  # player 1 threatens K9 or K13
    agent = load_agent("pente", iterations=200_000, seed=1)
    agent._kernel = state.game.kernel()
    agent._searcher = searcher_for(agent._kernel)  # the check of the opponent's VCT uses it
    s = agent._kernel.state(state)
    point = state.geom.name.index
    far, block = point("B8"), point("K13")
    assert forced_win(state.copy().play_many(["B8"]), 7, compiled=False) is not None
    assert agent._unrefuted(state, s, [far, block]) == block
    assert agent.stage == "checked"
    assert agent._unrefuted(state, s, [block, far]) == block
    assert list(s) == list(agent._kernel.state(state))  # the position is left as it was


LOAD_THE_COMPILED_SEARCH = (
    "import qipan; from qipan.games.pente.threats_kernel import warm_up; "
    "game = qipan.load('pente'); warm_up(game.kernel(), game.new())"
)


def test_a_new_process_loads_the_compiled_search_from_the_disk_cache():
    # a self-recursive function loaded from Numba's cache crashes the process (numba issue
    # 6061): the first run may compile and store, the second loads what was stored
    pytest.importorskip("numba")
    for _ in range(2):
        done = subprocess.run(
            [sys.executable, "-c", LOAD_THE_COMPILED_SEARCH],
            env={**os.environ, "QIPAN_KERNELS": "1"},
            capture_output=True,
            timeout=600,
        )
        assert done.returncode == 0, done.stderr.decode()[-2000:]
