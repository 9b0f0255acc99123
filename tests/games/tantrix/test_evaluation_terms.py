"""The evaluation's newer terms (rival joins, joins and loops in two tiles, ends held back by
a rival, a rival's ends it can extend at once) and the fixed weights of ``tantrix-classic``."""

import json
from dataclasses import fields, replace
from pathlib import Path

from qipan.games.tantrix import TantrixAgent
from qipan.games.tantrix.board import fitting, neighbours, side_pattern, tracks
from qipan.games.tantrix.classic import TantrixClassicAgent
from qipan.games.tantrix.evaluation import AGENT, CLASSIC, DEFAULT, Weights, evaluate, potentials

from .conftest import decisions, faced_lines, make

DATA = Path(__file__).parent / "data" / "classic_evaluations.json"
#: The fields added after the classic evaluation, at values that switch them off.
NEUTRAL = {"rival_join": 0.0, "join_near": 0.0, "loop_near": 0.0, "held_end": 1.0, "rival_hand_fit": 0.0}


def test_classic_weights_give_the_evaluations_of_the_classic_evaluation():
    """``tantrix-classic`` must keep playing as before: its weights are the old defaults and
    they evaluate positions of 2-4 player games exactly as the old code did."""
    assert TantrixClassicAgent().weights is CLASSIC and DEFAULT is CLASSIC
    assert CLASSIC == Weights() and all(getattr(CLASSIC, k) == v for k, v in NEUTRAL.items())
    game = make()
    rows = json.loads(DATA.read_text())["positions"]
    assert len(rows) >= 50 and {len(r["values"]) for r in rows} == {2, 3, 4}
    for row in rows:
        state = game.position(row["position"])
        for seat, value in enumerate(row["values"]):
            assert abs(evaluate(state, seat, None, CLASSIC) - value) < 1e-9, row["position"]


def test_the_agent_plays_its_own_weights_and_changes_fields_of_them():
    assert TantrixAgent().weights is AGENT
    changed = TantrixAgent(weights="second=0.2").weights
    assert changed == replace(AGENT, second=0.2)
    assert TantrixClassicAgent(weights="second=0.2").weights == replace(CLASSIC, second=0.2)
    assert AGENT != CLASSIC
    assert AGENT == replace(CLASSIC, join_depth=3, second=0.25)
    assert {f.name for f in fields(Weights)} >= set(NEUTRAL)


def _fits(state, cell, tiles):
    fit = fitting(side_pattern(state.edges, cell))
    return any(t in fit for t in tiles)


def _positions(seeds, min_board=10, max_bag=None):
    """One decision position (two players) per seeded random game (with at most
    ``max_bag`` tiles in the bag, but some: the restrictions still hold)."""
    for seed in seeds:
        for state in decisions(2, seed, min_board=min_board):
            if max_bag is None or 0 < len(state.bag) <= max_bag:
                yield state
                break


def test_rival_join_raises_only_the_rivals_open_joins_with_a_fitting_tile_in_hand():
    base, keen = Weights(), Weights(rival_join=0.5)
    raised = 0
    for state in _positions(range(40), min_board=14):
        mine = state.colours[state.to_move]
        rival = state.colours[1 - state.to_move]
        a, b = potentials(state, {}, base, mine), potentials(state, {}, keen, mine)
        assert b[mine] == a[mine]
        assert b[rival] >= a[rival]
        if b[rival] > a[rival]:
            raised += 1
            # Only an open cell two rival ends face, with a tile in the rival's hand that fits.
            _, faced = faced_lines(state, rival)
            hand = state.hands[1 - state.to_move]
            assert any(
                len(ends) >= 2 and state.counts.get(cell, 0) < 3 and _fits(state, cell, hand)
                for cell, ends in faced.items()
            )
    assert raised >= 2


def test_near_joins_see_ends_facing_neighbouring_cells():
    """``loop_near``: a line whose two ends face two neighbouring cells is two tiles from a
    loop; ``join_near``: two lines whose ends do are two tiles from one line. Without such a
    pair of cells the potentials do not change."""
    plain = Weights()
    seen = {"loop": 0, "join": 0}
    for state in _positions(range(80), min_board=12):
        for colour in set(state.colours):
            lines, faced = faced_lines(state, colour)
            pairs = [
                (a, b)
                for cell, ends in faced.items()
                for nb in neighbours(cell)
                if nb in faced
                for a in ends
                for b in faced[nb]
            ]
            for kind, weights, wanted in (
                ("loop", Weights(loop_near=0.5), [p for p in pairs if p[0] == p[1]]),
                ("join", Weights(join_near=0.5), [p for p in pairs if p[0] != p[1]]),
            ):
                before = potentials(state, {}, plain)[colour]
                after = potentials(state, {}, weights)[colour]
                assert after >= before - 1e-12
                if not wanted:
                    assert after == before
                elif after > before:
                    seen[kind] += 1
                    longest = max(len(c) for c, _ in tracks(state.edges, colour))
                    if kind == "loop":
                        gain = max(2 * (len(lines[a]) + 2) for a, _ in wanted) - longest
                    else:
                        gain = max(len(lines[a]) + len(lines[b]) + 2 for a, b in wanted) - longest
                    assert after - before <= 0.5 * gain + 1e-9
    assert seen["loop"] >= 1 and seen["join"] >= 3


def test_held_end_discounts_ends_only_the_rivals_hands_can_fill():
    plain, held = Weights(), Weights(held_end=0.0)
    lowered = 0
    for state in _positions(range(60), max_bag=6):
        for seat, colour in enumerate(state.colours):
            a, b = potentials(state, {}, plain)[colour], potentials(state, {}, held)[colour]
            assert b <= a
            if b < a:
                lowered += 1
                # Some end of this colour faces a cell that only the other hand fits.
                own = list(state.bag) + list(state.hands[seat])
                other = state.hands[1 - seat]
                _, faced = faced_lines(state, colour)
                assert any(_fits(state, c, other) and not _fits(state, c, own) for c in faced)
    assert lowered >= 2


def test_rival_hand_fit_rewards_only_the_rivals_ends_it_can_extend_now():
    plain, keen = Weights(), Weights(rival_hand_fit=1.0)
    raised = 0
    for state in _positions(range(20), min_board=8):
        mine, rival = state.colours[state.to_move], state.colours[1 - state.to_move]
        a, b = potentials(state, {}, plain, mine), potentials(state, {}, keen, mine)
        assert b[mine] == a[mine]
        assert b[rival] >= a[rival]
        raised += b[rival] > a[rival]
    assert raised >= 3


def _chains(lines, faced_by_line, meeting, depth):
    """Every chain of up to ``depth`` joins (brute force): distinct lines, each one's end
    facing the cell the previous one left by; yields (lines, cells)."""

    def walk(path, cells):
        if cells:
            yield path, cells
        if len(cells) >= depth:
            return
        last = path[-1]
        exits = list(faced_by_line[last])
        if cells:  # leave by the other end than the one the chain came in by
            exits.remove(cells[-1])
        for cell in exits:
            for other in meeting.get(cell, ()):
                if other not in path:
                    yield from walk(path + [other], cells + [cell])

    for start in range(len(lines)):
        yield from walk([start], [])


def test_join_chains_see_lines_linked_end_to_end():
    """``join_depth`` 2: a chain of two joins (three lines end to end through two cells
    their ends face) counts when its expected gain beats the best single join's; the gain
    never exceeds the chain's tiles over the best track, and deeper chains never lower a
    potential."""
    one, two, three = (Weights(join_depth=k) for k in (1, 2, 3))
    seen = 0
    for state in _positions(range(150), min_board=16):
        unplaced = set(state.bag).union(*state.hands)
        p1, p2, p3 = (potentials(state, {}, w) for w in (one, two, three))
        for colour in set(state.colours):
            assert p1[colour] <= p2[colour] + 1e-12 <= p3[colour] + 2e-12
            lines, meeting = faced_lines(state, colour)
            faced_by_line = {i: [] for i in range(len(lines))}
            for cell, ends in meeting.items():
                for i in ends:
                    faced_by_line[i].append(cell)
            longest = max(len(c) * (2 if loop else 1) for c, loop in tracks(state.edges, colour))
            best_two = max(
                (
                    sum(len(lines[i]) for i in path) + len(cells)
                    for path, cells in _chains(lines, faced_by_line, meeting, 2)
                    if len(cells) == 2 and all(_fits(state, c, unplaced) for c in cells)
                ),
                default=0,
            )
            if p2[colour] > p1[colour]:
                # The gain comes from a two-join chain through live cells, beyond the best track.
                assert best_two > longest
                assert p2[colour] - p1[colour] <= two.join * (best_two - longest) + 1e-9
                seen += 1
    assert seen >= 3
