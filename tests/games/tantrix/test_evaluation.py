"""The evaluation: bounded, zero-sum, move ordering, weights, joins and the terms tuning left at zero."""

from qipan.games.tantrix import TantrixAgent
from qipan.games.tantrix.board import best_tracks
from qipan.games.tantrix.evaluation import evaluate, order_moves

from .conftest import after, decisions, faced_lines


def test_move_ordering_puts_moves_joining_the_movers_colour_first():
    from qipan.games.tantrix.board import ORIENTED, neighbours

    state = next(decisions(2, 7, min_board=10))
    colour = state.colours[state.to_move]
    ordered = order_moves(state, state.legal_moves())
    assert sorted(ordered, key=lambda m: m.text) == sorted(state.legal_moves(), key=lambda m: m.text)
    keys = [
        sum(
            ORIENTED[m.data[1]][m.data[3]][d] == colour and nb in state.edges
            for d, nb in enumerate(neighbours(m.data[2]))
        )
        for m in ordered
    ]
    assert keys == sorted(keys, reverse=True) and keys[0] > keys[-1]


def test_evaluate_is_bounded_and_zero_sum_for_two_players():
    state = next(decisions(2, 9, min_board=20))
    a, b = evaluate(state, 0), evaluate(state, 1)
    assert -1 <= a <= 1 and abs(a + b) < 1e-9


def test_weights_parse_changes_named_fields_and_rejects_unknown_ones():
    import pytest

    from qipan.games.tantrix.evaluation import DEFAULT, Weights

    w = Weights.parse("join=0.5, top_tracks=4")
    assert w.join == 0.5 and w.top_tracks == 4 and isinstance(w.top_tracks, int)
    assert w.second == DEFAULT.second
    assert Weights.parse("") == DEFAULT
    with pytest.raises(ValueError, match="unknown weight 'jion'"):
        Weights.parse("jion=1")
    with pytest.raises(ValueError, match="weight join must be a number, got 'abc'"):
        Weights.parse("join=abc")
    with pytest.raises(ValueError, match="weight top_tracks must be an integer, got '1.5'"):
        Weights.parse("top_tracks=1.5")
    assert TantrixAgent(weights="second=0.2").weights.second == 0.2
    assert Weights.parse("join=0.5; top_tracks=4") == w


def test_a_forced_space_between_two_lines_joins_them_and_the_evaluation_counts_it():
    """Rules: a tile in a space two ends of one colour face links them (one link per
    colour), and a forced space is filled by rule: the join term values that join at
    ``join_forced`` of its gain over the best single track."""
    from qipan.games.tantrix.evaluation import Weights, colour_potential

    plain, joining = Weights(join=0.0), Weights(join=1.0)
    checked = 0
    for seed in range(60):
        for state in decisions(2, seed, min_board=10):
            if state.step != 1:
                continue
            for colour in set(state.colours):
                lines, faced = faced_lines(state, colour)
                for cell, ends in faced.items():
                    if len(set(ends)) != 2 or state.counts.get(cell, 0) < 3:
                        continue
                    fills = [m for m in state.legal_moves() if m.data[0] == "place" and m.data[2] == cell]
                    if not fills:
                        continue
                    a, b = ends
                    joined = len(lines[a]) + len(lines[b]) + 1
                    filled = after(state, fills[0])
                    assert best_tracks(filled.edges, colour)[0] >= joined
                    unplaced = set(state.bag).union(*state.hands)
                    diff = colour_potential(state, colour, unplaced, {}, joining) - colour_potential(
                        state, colour, unplaced, {}, plain
                    )
                    longest = best_tracks(state.edges, colour)[0]
                    assert diff <= joining.join_forced * max(0, joined - longest) + 1e-9
                    if joined >= longest + 1:
                        assert diff > 0
                    checked += 1
            if checked >= 4:
                return
    assert checked >= 4


def test_hand_fit_rewards_only_the_movers_own_ends():
    from qipan.games.tantrix.evaluation import Weights, potentials

    plain, fitting = Weights(), Weights(hand_fit=1.0)
    raised = 0
    for seed in range(10):
        for state in decisions(2, seed, min_board=8):
            mine, theirs = state.colours[state.to_move], state.colours[1 - state.to_move]
            a = potentials(state, {}, plain, mine)
            b = potentials(state, {}, fitting, mine)
            assert b[theirs] == a[theirs]
            assert b[mine] >= a[mine]
            raised += b[mine] > a[mine]
            break
    assert raised >= 3


def test_join_overlap_counts_only_the_larger_of_second_best_and_join():
    from qipan.games.tantrix.evaluation import Weights, potentials

    checked = 0
    for seed in range(30):
        for state in decisions(2, seed, min_board=20):
            plain = potentials(state, None, Weights(second=0, join=0))
            second = potentials(state, None, Weights(join=0))
            join = potentials(state, None, Weights(second=0))
            both = potentials(state, None, Weights())
            one = potentials(state, None, Weights(join_overlap=1))
            for c in plain:
                extra_second, extra_join = second[c] - plain[c], join[c] - plain[c]
                assert abs(both[c] - (plain[c] + extra_second + extra_join)) < 1e-9
                assert abs(one[c] - (plain[c] + max(extra_second, extra_join))) < 1e-9
                checked += extra_second > 0 and extra_join > 0
            break
        if checked >= 3:
            return
    assert checked >= 3


def test_endgame_positions_use_their_own_scale():
    import math

    from qipan.games.tantrix.evaluation import Weights

    for seed in range(10):
        for state in decisions(2, seed, min_board=30):
            if state.endgame and state.outcome is None:
                default = evaluate(state, state.to_move)
                steep = evaluate(state, state.to_move, None, Weights(endgame_scale=2))
                assert abs(steep - math.tanh(math.atanh(default) * 8 / 2)) < 1e-9
                assert evaluate(state, state.to_move, None, Weights(scale=2)) == default
                return
    raise AssertionError("no endgame position reached")
