"""The tables checked with the kernel's moves (``kernel_tables.py``) and the proof search
(``proof_search.py``) in both modes, table-free and layered on verified smaller tables, on
the Six Men's Morris endgames with 3..4 stones (small enough to build in a second): the
checks pass on the real tables and report a value changed in a copy of a table file."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

import qipan
from qipan.core.errors import QipanError
from qipan.games.morris.kernel_tables import SuccessorCheck, TableView, check_symmetries
from qipan.games.morris.perfect import PerfectTables
from qipan.games.morris.proof_search import ProofSearch
from qipan.games.morris.tables_check import (
    prove_position,
    prove_sample,
    sample_decisive,
    sample_positions,
    verified_segments,
)
from qipan.solve.codes import UNKNOWN, decode, encode

GAME = {"repetition_count": None, "n_move": 0}
SMALL = [(3, 3, 0, 0), (3, 4, 0, 0), (4, 3, 0, 0)]


@pytest.fixture(scope="module")
def endgames(tmp_path_factory):
    """6MM moving/flying endgames, 3..4 stones a side."""
    tables = PerfectTables(
        qipan.load("six-mens-morris", **GAME), tmp_path_factory.mktemp("six4"), max_stones=4
    )
    tables.build()
    return tables


def changed_copy(tables, directory, key, pick):
    """The tables built again in ``directory`` with one code of segment ``key`` replaced:
    ``pick(codes)`` -> (index, new code). Returns (tables, index, old code)."""
    copy = PerfectTables(tables.game, directory, max_stones=4)
    copy.build()
    index, code = pick(copy.db.values(key))
    path = copy.directory / copy.db.manifest["segments"][copy.db.by_key[key].label]["file"]
    data = bytearray(path.read_bytes())
    old = data[index]
    data[index] = code
    path.write_bytes(bytes(data))
    return PerfectTables(tables.game, directory, max_stones=4), index, old


def first(codes, kind, lo=0, hi=99):
    for i, c in enumerate(codes):
        got, plies = decode(int(c))
        if got == kind and (plies is None or lo <= plies <= hi):
            return i
    raise AssertionError(f"no {kind} in {lo}..{hi}")


def test_every_value_agrees_with_the_kernels_successors(endgames):
    good, problems = verified_segments(endgames)
    assert problems == [] and sorted(good) == sorted(s.key for s in endgames.space.segments())


@pytest.mark.parametrize(
    "key, change",
    [
        ((4, 3, 0, 0), "draw made a win in 5"),
        ((3, 3, 0, 0), "win made two plies longer"),
        ((4, 4, 0, 0), "win made a draw"),
    ],
)
def test_a_changed_value_is_found_by_the_full_successor_check(endgames, tmp_path, key, change):
    def pick(codes):
        if change.startswith("draw"):
            return first(codes, "draw"), encode(5)
        i = first(codes, "win", 1, 99)
        return i, (0 if change.endswith("draw") else int(codes[i]) + 2)

    broken, index, _ = changed_copy(endgames, tmp_path, key, pick)
    good, problems = verified_segments(broken, [key])
    assert key not in good and len(problems) == 1
    assert f"segment {key}" in problems[0] and str(index) in problems[0]


def test_sampled_positions_are_proved_in_both_modes(endgames):
    verified, _ = verified_segments(endgames, SMALL)
    free = prove_sample(endgames, 60, seed=2, nodes=50_000, draw_nodes=2_000, table_bits=18)
    layered = prove_sample(
        endgames, 60, seed=2, nodes=50_000, draw_nodes=2_000, table_bits=18, layered=True, verified=verified
    )
    for report in (free, layered):
        assert report.positions == 60 and report.failures == [] and report.successors_agree == 60
        draws = report.kinds["draw"]
        assert report.draws_consistent == draws.positions and min(draws.depths) >= 2
        decisive = sum(r.positions for k, r in report.kinds.items() if k != "draw")
        assert decisive >= 3 and sum(r.full for k, r in report.kinds.items() if k != "draw") >= decisive - 1
    # Scoring removals by the smaller tables takes fewer nodes for the same positions.
    assert layered.nodes < free.nodes


def test_long_wins_and_losses_are_proved_exactly_with_and_without_the_smaller_tables(endgames):
    view = TableView(endgames, verified=SMALL)
    rng = random.Random(4)
    cases = []
    for key in [(4, 4, 0, 0), (4, 3, 0, 0)]:
        codes = endgames.db.values(key)
        for i in rng.sample(range(len(codes)), min(len(codes), 4000)):
            kind, plies = decode(int(codes[i]))
            if kind != "draw" and plies >= 5:
                cases.append((key, i, kind, plies))
    assert {kind for _, _, kind, _ in cases} == {"win", "loss"}
    for layered in (False, True):
        search = ProofSearch(endgames.game, table_bits=18, nodes=500_000, view=view, layered=layered)
        for key, i, kind, plies in cases[:6]:
            proof = search.prove(endgames.space.state_at(key, i), plies, claim=(kind, plies))
            assert (proof.value, proof.plies, proof.depth, proof.exact) == (kind, plies, plies, True)


@pytest.mark.parametrize("layered", [False, True])
def test_the_proof_search_reports_a_changed_value(endgames, tmp_path, layered):
    key = (4, 4, 0, 0)
    codes = endgames.db.values(key)
    cases = {
        "win shortened": lambda c: (first(c, "win", 3), int(c[first(c, "win", 3)]) - 2),
        "loss made a draw": lambda c: (first(c, "loss", 2), 0),
        "draw made a win in 3": lambda c: (first(c, "draw"), encode(3)),
    }
    for n, (name, pick) in enumerate(cases.items()):
        broken, index, old = changed_copy(endgames, tmp_path / str(n), key, pick)
        search = ProofSearch(
            broken.game, table_bits=18, nodes=500_000, view=TableView(broken, SMALL), layered=layered
        )
        kind, full, exact, depth, problem = prove_position(search, broken, key, index, 0, draw_depth=9)
        assert problem is not None and not full, name
        if name != "win shortened":  # (the full window at the shorter horizon sees no result)
            assert f"the search proves {decode(old)}" in problem, (name, problem)
        # The kernel's successors disagree with the changed value too.
        stored, given, _ = SuccessorCheck(TableView(broken)).position(key, index)
        assert stored != given and given == old, name
    assert len(codes)


def test_only_segments_of_the_tables_can_be_marked_verified(endgames):
    with pytest.raises(QipanError, match="no segments"):
        TableView(endgames, verified=[(5, 5, 0, 0)])
    view = TableView(endgames, verified=[(3, 3, 0, 0)])
    assert [bool(x) for x in view.verified] == [s.key == (3, 3, 0, 0) for s in endgames.space.segments()]


def test_symmetries_that_do_not_keep_the_board_are_refused(endgames):
    kernel = ProofSearch(endgames.game, table_bits=10).kernel
    check_symmetries(kernel, endgames.space.symmetries)
    swap = list(range(16))
    swap[0], swap[1] = swap[1], swap[0]
    with pytest.raises(QipanError, match="does not keep"):
        check_symmetries(kernel, [tuple(swap)])


def test_a_decisive_sample_holds_only_stored_wins_and_losses_weighted_by_their_number(endgames):
    sample = sample_decisive(endgames, 600, seed=1)
    assert len(sample) == 600 and sample == sorted(sample)
    assert {decode(endgames.db.probe(key, i))[0] for key, i, _ in sample} == {"win", "loss"}
    assert {mover for _, _, mover in sample} == {0, 1}
    decisive = {}
    for segment in endgames.space.segments():
        codes = endgames.db.values(segment.key)
        decisive[segment.key] = int(((codes != 0) & (codes != UNKNOWN)).sum())
    assert decisive[(3, 4, 0, 0)] == 0  # 3 against 4 on the 16-point board: all drawn
    drawn = Counter(key for key, _, _ in sample)
    total = sum(decisive.values())
    for key, n in decisive.items():
        expected = 600 * n / total
        assert abs(drawn[key] - expected) <= 4 * math.sqrt(expected) + 1, (key, drawn[key], expected)
    # The uniform sample of the same tables is mostly draws.
    uniform = sample_positions(endgames, 600, seed=1)
    assert sum(endgames.db.probe(key, i) == 0 for key, i, _ in uniform) > 300


def test_searches_that_run_out_of_nodes_are_searched_again_with_ten_and_a_hundred_times_more(endgames):
    options = {"seed": 3, "nodes": 20, "table_bits": 16, "sample": "decisive"}
    once = prove_sample(endgames, 80, **options)
    escalated = prove_sample(endgames, 80, escalate=(10, 100, 1000), **options)
    capped = prove_sample(endgames, 80, escalate=(10, 100, 1000), cpu_seconds=0, **options)
    for report in (once, escalated, capped):
        assert report.positions == 80 and report.failures == [] and "draw" not in report.kinds
    # 20 nodes leave results and distances undecided; nothing is searched again.
    left = [(phase, budget) for *_, phase, budget in once.unsettled]
    assert {"result", "distance"} <= {phase for phase, _ in left} and {b for _, b in left} == {20}
    assert not once.capped and list(once.cpu) == ["base"]
    # Searched again: every result and distance settled, some with 10x or 100x the nodes,
    # and some distances searched again alone (their result settled with fewer nodes).
    assert escalated.unsettled == [] and not escalated.capped
    for kind, row in escalated.kinds.items():
        assert row.full == row.exact == row.positions
        assert row.proved_at[20] == once.kinds[kind].proved_at[20]  # the first pass is the same
    proved = {b for row in escalated.kinds.values() for b in row.proved_at}
    exact = {b for row in escalated.kinds.values() for b in row.exact_at}
    assert 200 in proved and exact - proved and max(exact) <= 20_000
    # A CPU cap of 0 s: the escalation stops before the first search again.
    assert capped.capped and len(capped.unsettled) == len(once.unsettled)
    assert {b for row in capped.kinds.values() for b in row.proved_at} == {20}
