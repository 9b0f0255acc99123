"""The incremental evaluation (``TrackIndex``, shared closure answers) against the full
recomputation: the same tracks in the same order, the same values, the same decisions."""

import random

import pytest

from qipan.games.tantrix import TantrixAgent
from qipan.games.tantrix.board import tracks
from qipan.games.tantrix.classic import TantrixClassicAgent
from qipan.games.tantrix.evaluation import AGENT, CLASSIC, TrackIndex, Weights, evaluate, faced_tracks

from .conftest import decisions


def _placements(state, rng, k):
    """Up to ``k`` random placements (tile, cell, rot) of the mover's, free or forced."""
    moves = [m for m in state.legal_moves() if m.data[0] == "place"]
    return [m.data[1:4] for m in rng.sample(moves, min(k, len(moves)))]


@pytest.mark.parametrize("players,seed", [(2, 1), (2, 2), (3, 3), (4, 4)])
def test_tracks_after_added_tiles_equal_tracks_of_the_new_table(players, seed):
    rng = random.Random(seed)
    checked = 0
    for state in decisions(players, seed, min_board=2):
        base = dict(state.edges)
        indexes = {c: TrackIndex(base, c) for c in "RYGB"}
        for tile, cell, rot in _placements(state, rng, 3):
            work = state.copy()
            work._place(tile, cell, rot)
            added = [cell]
            # A second tile anywhere next to the table (a reply or a fill): any legal-looking
            # fit is enough here, the tracks do not care about the restriction rules.
            spaces = sorted(c for c in work.counts if work.space_fits(c))
            if spaces and rng.random() < 0.7:
                at = rng.choice(spaces)
                t2, rots = next(iter(work.space_fits(at).items()))
                work._place(t2, at, rots[0])
                added.append(at)
            for colour, index in indexes.items():
                full = faced_tracks(work.edges, colour, tracks(work.edges, colour))
                assert index.after(work.edges, added) == full
                assert index.after(work.edges, added[::-1]) == full
            checked += 1
        for colour, index in indexes.items():
            assert index.after(state.edges, []) == faced_tracks(
                state.edges, colour, tracks(state.edges, colour)
            )
    assert checked > 50


@pytest.mark.parametrize(
    "weights",
    [
        CLASSIC,
        AGENT,
        Weights(join_depth=3, rival_join=0.3, join_near=0.3, loop_near=0.3, held_end=0.5, rival_hand_fit=0.3),
    ],
)
def test_evaluate_with_known_tracks_and_shared_closure_answers_equals_full_evaluation(weights):
    rng = random.Random(7)
    checked = 0
    for state in decisions(2, 7, min_board=4):
        player = state.to_move
        indexes = {c: TrackIndex(state.edges, c) for c in set(state.colours)}
        geometry: dict = {}  # shared by every placement on one cell
        by_cell: dict = {}
        for tile, cell, rot in _placements(state, rng, 6):
            work = state.copy()
            work._place(tile, cell, rot)
            work.hands[player].remove(tile)
            found = {c: i.after(work.edges, [cell]) for c, i in indexes.items()}
            shared = by_cell.setdefault(cell, geometry.setdefault(cell, {}))
            assert evaluate(work, player, None, weights, found, shared) == evaluate(
                work, player, None, weights
            )
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("seed", [3, 11])
def test_agent_decides_as_with_full_evaluations(seed):
    """Without a time limit (deterministic), the incremental agent's one-ply, fill and reply
    stages pick the move the full recomputation picks."""
    for n, state in enumerate(decisions(2, seed, min_board=8)):
        if n % 7 or state.endgame or len(state.legal_moves()) < 2:
            continue
        fast = TantrixAgent(seed=5, playouts=0)
        full = TantrixAgent(seed=5, playouts=0)
        full.incremental = False
        assert fast.choose(state) == full.choose(state)
        if n > 120:
            break
    assert not TantrixClassicAgent.incremental


@pytest.mark.parametrize("players,seed", [(2, 21), (2, 22), (3, 23)])
def test_endgame_leaves_are_the_full_evaluation_and_the_search_decides_alike(players, seed):
    """The endgame search's incremental leaves (``EndgameLeaves``) give ``evaluate``'s value
    at every position two random placements below the root, and the search without a time
    limit picks the same move with them as without."""
    from qipan.games.tantrix.search import EndgameLeaves, endgame_move

    rng = random.Random(seed)
    checked = searched = 0
    for state in decisions(players, seed, min_board=4):
        if not state.endgame or len(state.legal_moves()) < 2:
            continue
        player = state.to_move
        work = state.copy()
        leaves = EndgameLeaves(work, player, TantrixAgent().weights)
        for _ in range(6):
            line = []
            while len(line) < 2 and work.outcome is None:
                move = rng.choice(work.legal_moves())
                work.play_unchecked(move)
                leaves.added.append(move.data[2])
                line.append(move)
                assert leaves.value(work) == evaluate(work, player, None, leaves.weights)
                checked += 1
            for _ in line:
                work.undo()
                leaves.added.pop()
        if searched < 4:
            assert endgame_move(state, player, None, 2, incremental=True) == endgame_move(
                state, player, None, 2
            )
            searched += 1
    assert checked > 30 and searched == 4
