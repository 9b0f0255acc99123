"""The retrograde tables (``tables.py`` on ``qipan.solve``): Six Men's Morris solved from the
start and every count of the project's solved table reproduced, Three Men's Morris against
its solved values and the exhaustive solver, and the compiled move generator checked against
the engine's ``legal_moves`` position by position (every table value must follow from the
values of the engine's successors: the Bellman equation with distances)."""

from __future__ import annotations

import json
import random

import pytest
from tests.data import DATA
from tests.games.morris.three_mens_forms import THREE_MENS_FORMS

import qipan
from qipan.agents import load as load_agent
from qipan.core.errors import QipanError
from qipan.games.morris.perfect import PerfectTables
from qipan.games.morris.solver import solve as exhaustive_solve
from qipan.games.morris.tables import MorrisSpace
from qipan.solve.codes import decode
from qipan.solve.database import tally

SIX = json.loads((DATA / "morris" / "six_mens_morris_values.json").read_text())
THREE = json.loads((DATA / "morris" / "three_mens_morris_values.json").read_text())["results"]
SOLVABLE = {"repetition_count": None, "n_move": 0}


def check_bellman(tables: PerfectTables, key, index, mover=0) -> None:
    """The stored value of one position follows from its successors under the engine's rules."""
    space = tables.space
    state = space.state_at(key, index, mover)
    stored = decode(tables.db.probe(key, index))
    moves = state.legal_moves()
    if not moves:
        expected = ("draw", None) if space.rules.placement_only else ("loss", 0)
        assert stored == expected, (key, index)
        return
    best = tables.move_values(state)[0]
    assert stored == (best.value, best.plies), (key, index, state.position())


@pytest.fixture(scope="module")
def six(tmp_path_factory):
    """Six Men's Morris, the seed's rules (flying at 3, mill protection with fallback), solved
    from the start: 77 segments, 3.65 million positions."""
    tables = PerfectTables(qipan.load("six-mens-morris", **SOLVABLE), tmp_path_factory.mktemp("six"))
    tables.build()
    return tables


def test_six_mens_morris_start_and_every_first_move_are_draws(six):
    state = six.game.new()
    assert six.value(state) == ("draw", None)
    values = six.move_values(state)
    assert len(values) == 16 and {v.value for v in values} == {"draw"}


def test_six_mens_morris_moving_phase_counts_match_the_solved_table(six):
    expected = SIX["moving_phase_counts_flying_protected"]["table"]
    for label, row in expected.items():
        a, b = map(int, label.split("-"))
        key = (a, b, 0, 0)
        assert tally(six.db.values(key), six.space.weights(key)) == row["white_to_move"], label


def test_six_mens_morris_values_follow_from_the_engines_moves(six):
    rng = random.Random(6)
    for segment in six.space.segments():
        for _ in range(12):
            check_bellman(six, segment.key, rng.randrange(segment.size), rng.randrange(2))


def test_six_mens_morris_no_flying_endgames_match_and_both_algorithms_agree(tmp_path):
    tables = PerfectTables(qipan.load("six-mens-morris", flying=None, **SOLVABLE), tmp_path, max_stones=4)
    tables.build(check=True)  # the forward sweep recomputes every component and must agree
    expected = SIX["moving_phase_counts_no_flying_protected"]["table"]
    for key in [(3, 3, 0, 0), (3, 4, 0, 0), (4, 3, 0, 0), (4, 4, 0, 0)]:
        counts = tally(tables.db.values(key), tables.space.weights(key))
        assert counts == expected[f"{key[0]}-{key[1]}"]["white_to_move"], key
    # Every position of the 3-3 and 4-3 segments against the engine's moves.
    for key in [(3, 3, 0, 0), (4, 3, 0, 0)]:
        for index in range(tables.space.index.size(key[0], key[1])):
            check_bellman(tables, key, index)


THREE_CASES = THREE_MENS_FORMS


@pytest.mark.parametrize("name", sorted(THREE_CASES))
def test_three_mens_morris_agrees_with_the_solved_values_and_the_exhaustive_solver(tmp_path, name):
    preset, options = THREE_CASES[name]
    game = qipan.load(preset, **options)
    tables = PerfectTables(game, tmp_path)
    tables.build(check=True)
    start = game.new()
    kind, _ = tables.value(start)
    expected = THREE[name]
    assert {"win": 1, "draw": 0, "loss": -1}[kind] == expected["start"]
    first = {str(v.move): {"win": 1, "draw": 0, "loss": -1}[v.value] for v in tables.move_values(start)}
    assert first == expected["first_move"]
    # Every position reachable from either first player: same value and distance as the
    # exhaustive solver (a different algorithm over the engine's own move graph).
    names = {"win": 1, "draw": 0, "loss": -1}
    for first_player in (0, 1):
        solution = exhaustive_solve(game.rules, first_player)
        seen, todo = set(), [solution.start.copy()]
        while todo:
            state = todo.pop()
            k = state.key()
            if k in seen or state.outcome is not None:
                continue
            seen.add(k)
            kind, plies = tables.value(state)
            assert names[kind] == solution.value[k], state.position()
            if kind != "draw":
                assert plies == solution.depth[k], state.position()
            for move in state.legal_moves():
                child = state.copy()
                child.play(move)
                todo.append(child)


def test_symmetry_groups_come_from_the_board_data():
    assert len(MorrisSpace(qipan.load("six-mens-morris"), max_stones=3).symmetries) == 16
    assert len(MorrisSpace(qipan.load("nine-mens-morris"), max_stones=3).symmetries) == 16
    assert len(MorrisSpace(qipan.load("three-mens-morris-kurna")).symmetries) == 8
    assert len(MorrisSpace(qipan.load("three-mens-morris")).symmetries) == 8


def test_an_index_and_its_board_correspond(six):
    rng = random.Random(1)
    space = six.space
    for segment in space.segments()[::5]:
        for _ in range(20):
            i = rng.randrange(segment.size)
            assert space.locate(space.state_at(segment.key, i, rng.randrange(2))) == (segment.key, i)


def test_rules_outside_the_tables_are_refused_clearly(tmp_path):
    with pytest.raises(QipanError, match="fill up"):
        MorrisSpace(qipan.load("zhiqi"))  # 12 stones a side fill the 24 points
    with pytest.raises(QipanError, match="line_moving_only"):
        MorrisSpace(qipan.load("three-mens-morris-kurna", line_moving_only=True))
    with pytest.raises(QipanError, match="max_stones"):
        MorrisSpace(qipan.load("nine-mens-morris"), max_stones=2)
    endgame = PerfectTables(qipan.load("six-mens-morris"), tmp_path, max_stones=3)
    with pytest.raises(QipanError, match="no table"):
        endgame.value(qipan.load("six-mens-morris").new())
    state = qipan.load("six-mens-morris").new()
    rng = random.Random(0)
    while state.outcome is None:
        state.play(rng.choice(state.legal_moves()))
    assert not endgame.covers(state)
    with pytest.raises(QipanError, match="over"):
        endgame.value(state)


def _sampled_moving_positions(six, rng, per_segment, keep):
    """(segment key, index, kind, plies) of ``per_segment`` sampled positions of each
    moving-phase segment with at least 4 stones of the mover, where ``keep(kind, plies)``."""
    out = []
    for segment in six.space.segments():
        if segment.key[2] == 0 and segment.key[0] >= 4:
            codes = six.db.values(segment.key)
            for i in rng.sample(range(segment.size), per_segment):
                kind, plies = decode(int(codes[i]))
                if keep(kind, plies):
                    out.append((segment.key, i, kind, plies))
    return out


def _play(game, agents, state=None, max_plies=400):
    state = state or game.new()
    while state.outcome is None and state.ply < max_plies:
        state.play(agents[state.to_move].choose(state))
    return state


@pytest.mark.parametrize(
    "opponent", ["random", "alphabeta:depth=2", "mcts:iterations=200", "morris:depth=3,book=false"]
)
def test_the_perfect_agent_never_loses_a_drawn_six_mens_morris_position(six, opponent):
    game = qipan.load("six-mens-morris")  # the game's own repetition and n-move rules end it
    rng = random.Random(hash(opponent) % 1000)
    for seed in range(2):
        # From the start, and from a drawn position reached by a few random plies.
        state = game.new()
        for _ in range(rng.randrange(4, 12)):
            state.play(rng.choice(state.legal_moves()))
        if state.outcome is not None or six.value(state)[0] != "draw":
            state = game.new()
        name, _, params = opponent.partition(":")
        extra = dict(p.split("=") for p in params.split(",")) if params else {}
        for perfect_side in (0, 1):
            agents = [None, None]
            agents[perfect_side] = load_agent("morris-perfect", tables=str(six.directory), seed=seed)
            agents[1 - perfect_side] = load_agent(name, seed=seed, **extra)
            end = _play(game, agents, state.copy())
            assert end.outcome is None or end.outcome.reward(perfect_side) >= 0.5, end.position()


def test_the_perfect_agent_wins_a_won_position_as_fast_as_the_table_says(six):
    """Against itself (slowest loss), the fastest win takes exactly the table's distance."""
    won = _sampled_moving_positions(
        six, random.Random(3), 200, lambda kind, plies: kind == "win" and 5 <= plies <= 15
    )
    assert won
    for key, i, _, plies in won[:6]:
        state = six.space.state_at(key, i)
        agents = [
            load_agent("morris-perfect", tables=str(six.directory)),
            load_agent("morris-perfect", tables=str(six.directory)),
        ]
        start_ply = state.ply
        end = _play(six.game, agents, state)
        assert end.outcome.winners == (0,) and end.ply - start_ply == plies, (key, i)


def test_the_perfect_agent_wins_three_mens_morris_kurna_as_first_player(tmp_path):
    game = qipan.load("three-mens-morris-kurna")
    for seed in range(3):
        agents = [
            load_agent("morris-perfect", tables=str(tmp_path), seed=seed),
            load_agent("random", seed=seed),
        ]
        assert _play(game, agents).outcome.winners == (0,)


def tables_with_a_win_in_one_made_a_draw(six, directory):
    """The 6MM endgame tables built again in ``directory``, one stored win in 1 of the 4-3
    segment changed to a draw in the file: (the tables, the key, the index changed)."""
    key = (4, 3, 0, 0)
    codes = six.db.values(key)
    index = next(i for i in range(len(codes)) if decode(int(codes[i])) == ("win", 1))
    broken = PerfectTables(six.game, directory, max_stones=4)
    broken.build()
    path = broken.directory / broken.db.manifest["segments"]["s4-3-h0-0"]["file"]
    data = bytearray(path.read_bytes())
    data[index] = 0  # claim a draw
    path.write_bytes(bytes(data))
    return PerfectTables(six.game, directory, max_stones=4), key, index  # opens the changed file


def test_sampled_positions_pass_the_engine_checks_and_a_wrong_value_is_caught(six, tmp_path):
    from qipan.games.morris.tables_check import check_position, check_sample

    report = check_sample(six, 300, search_depth=3, seed=4)
    assert report.positions == 300 and report.searched > 100 and report.failures == []
    # A table with one value changed: the Bellman check and the search both notice.
    broken, key, index = tables_with_a_win_in_one_made_a_draw(six, tmp_path)
    searched, problems = check_position(broken, key, index, 0, search_depth=3)
    assert searched and len(problems) == 2


def test_on_nine_mens_morris_the_perfect_agent_uses_endgame_tables_and_searches_elsewhere(tmp_path):
    game = qipan.load("nine-mens-morris")
    agent = load_agent("morris-perfect", tables=str(tmp_path), stones="3", depth="1", seed=1)
    opening = game.new()
    move = agent.choose(opening)  # no table covers the opening: a search among the safe moves
    assert move in opening.legal_moves()
    tables = PerfectTables(game, tmp_path, max_stones=3)
    rng = random.Random(9)
    codes = tables.db.values((3, 3, 0, 0))
    won = [i for i in rng.sample(range(len(codes)), 2000) if decode(int(codes[i]))[0] == "win"]
    for i in won[:3]:
        state = tables.space.state_at((3, 3, 0, 0), i)
        plies = tables.value(state)[1]
        start = state.ply
        end = _play(tables.space.game, [agent, load_agent("alphabeta", depth=2)], state)
        assert end.outcome.winners == (0,) and end.ply - start <= plies


def test_boards_that_can_fill_up_are_refused_and_solved_by_says_where_the_tables_reach():
    with pytest.raises(QipanError, match="fill up"):
        MorrisSpace(qipan.load("twelve-mens-morris"))
    assert len(MorrisSpace(qipan.load("twelve-mens-morris"), max_stones=3).segments()) == 1
    assert "morris-perfect" in qipan.load("six-mens-morris").solved_by
    assert "morris-perfect" in qipan.load("three-mens-morris").solved_by
    assert "morris-perfect" not in qipan.load("nine-mens-morris").solved_by
    assert "morris-perfect" not in qipan.load("six-mens-morris", stones=8).solved_by


def test_outside_the_tables_the_search_enters_them_where_they_prove_a_win(tmp_path):
    """9MM with 3-stone tables: from 3 against 4 stones, closing a mill enters the 3-3 table;
    where that proves a win, the agent's search (depth 2) takes such a move."""
    game = qipan.load("nine-mens-morris")
    agent = load_agent("morris-perfect", tables=str(tmp_path), stones=3, seed=2)
    tables = PerfectTables(game, tmp_path, max_stones=3)
    tables.ensure()
    space4 = MorrisSpace(game, max_stones=4)
    rng = random.Random(5)
    tried = 0
    while tried < 5:
        state = space4.state_at((3, 4, 0, 0), rng.randrange(space4.index.size(3, 4)))
        winning = []
        for move in state.legal_moves():
            child = state.copy()
            child.play(move)
            if child.outcome is None and tables.covers(child) and tables.value(child)[0] == "loss":
                winning.append(move)
        if not winning:
            continue
        tried += 1
        assert not tables.covers(state)
        assert agent.choose(state) in winning


def test_the_proof_search_verifies_sampled_positions_to_the_claimed_depth_and_catches_a_wrong_value(
    six, tmp_path
):
    """The compiled proof search (no table read) proves stored wins and losses exactly at
    their distance and finds no forced result in stored draws; a value changed in a table
    file is caught."""
    from qipan.games.morris.proof_search import ProofSearch
    from qipan.games.morris.tables_check import prove_position, prove_sample

    report = prove_sample(six, 60, seed=5, nodes=30_000, table_bits=18)
    assert report.positions == 60 and report.failures == []
    assert report.kinds["win"].full >= 3 and report.full >= 3  # most of the 6MM sample is drawn placement
    # Distances well beyond the plain search's 3 plies, proved exactly.
    search = ProofSearch(six.game, table_bits=18, nodes=5_000_000)
    long = _sampled_moving_positions(
        six, random.Random(11), 300, lambda kind, plies: kind != "draw" and 5 <= plies <= 11
    )
    assert len(long) >= 3
    for key, i, kind, plies in long[:3]:
        proof = search.prove(six.space.state_at(key, i), plies)
        assert (proof.value, proof.plies, proof.depth) == (kind, plies, plies)
    # A stored win in 1 changed to a draw: the search proves the win.
    broken, key, index = tables_with_a_win_in_one_made_a_draw(six, tmp_path)
    kind, full, exact, depth, problem = prove_position(search, broken, key, index, 0, draw_depth=5)
    assert kind == "draw" and not full and not exact and "the search proves ('win', 1)" in problem
