"""The tantrix agent: registered, legal for 2-4 players, greedy on its evaluation (own
best track against the best opponent's), never feeds an opponent's line when it need not,
weighs the forced fills it leaves to the next player and the opponent's best reply from
their open hand, and searches the endgame exactly."""

import random

from qipan.core import CHANCE, resolve_chance
from qipan.games.tantrix import TantrixAgent
from qipan.games.tantrix.board import best_tracks
from qipan.games.tantrix.evaluation import evaluate, order_moves

from .conftest import make


def decisions(players: int, seed: int, min_board: int = 6):
    """Yield (state) at the player decisions of a seeded random game."""
    state = make().new(players=players)
    rng = random.Random(seed)
    while state.outcome is None:
        if state.to_move == CHANCE:
            resolve_chance(state, rng)
            continue
        if len(state.board) >= min_board:
            yield state
        state.play(rng.choice(state.legal_moves()))


def after(state, move):
    s = state.copy()
    s.play(move)
    return s


def test_registered_for_the_tantrix_family():
    from qipan.agents.base import agent_specs, load

    spec = next(a for a in agent_specs() if a.name == "tantrix")
    assert spec.families == ("tantrix",)
    assert isinstance(load("tantrix", seed=1, time=0.1), TantrixAgent)


def test_spec_declares_the_player_counts_and_typed_parameters():
    import pytest

    from qipan.agents.base import agent_spec, load
    from qipan.core import OptionError

    spec = agent_spec("tantrix")
    assert spec.players == (1, 2, 3, 4)
    for preset, players in (("tantrix-discovery", 1), ("tantrix", 2), ("tantrix", 3), ("tantrix-doubles", 4)):
        assert spec.plays(make(preset), players)
    assert {o.name for o in spec.options} == {"lookahead", "weights", "playouts"}
    typed = spec.parse({"lookahead": "false", "playouts": "12", "weights": "join=0", "iterations": "5"})
    assert typed == {"lookahead": False, "playouts": 12, "weights": "join=0", "iterations": 5}
    agent = load("tantrix", **typed)
    assert (agent.lookahead, agent.playouts, agent.weights.join, agent.iterations) == (False, 12, 0.0, 5)
    with pytest.raises(OptionError, match="option playouts='-3' is not allowed"):
        spec.parse({"playouts": "-3"})
    with pytest.raises(OptionError, match="option lookahead='maybe' is not allowed"):
        spec.parse({"lookahead": "maybe"})
    with pytest.raises(OptionError, match="unknown weight 'jion'"):
        load("tantrix", weights="jion=1")


def test_plays_legal_moves_for_three_and_four_players():
    for players in (3, 4):
        agent = TantrixAgent(seed=players, iterations=15)
        for i, state in enumerate(decisions(players, players)):
            move = agent.choose(state)
            assert move in state.legal_moves()
            if i > 12:
                break


def test_endgame_search_plays_legal_moves_for_three_and_four_players():
    agent = TantrixAgent(seed=5, time=0.05)
    for players in (3, 4):
        checked = 0
        for state in decisions(players, players + 10):
            if state.endgame and len(state.legal_moves()) > 1:
                key = state.key()
                assert agent.choose(state) in state.legal_moves()
                assert state.key() == key
                checked += 1
                if checked == 3:
                    break
        assert checked == 3


def test_greedy_choice_is_the_best_evaluated_move():
    agent = TantrixAgent(seed=3, lookahead=False)
    checked = 0
    for state in decisions(2, 5, min_board=10):
        moves = state.legal_moves()
        if len(moves) < 5:
            continue
        player = state.to_move
        best = max(evaluate(after(state, m), player) for m in moves)
        chosen = agent.choose(state)
        assert abs(evaluate(after(state, chosen), player) - best) < 1e-9
        checked += 1
        if checked == 4:
            break
    assert checked == 4


def test_extends_its_own_line_and_does_not_feed_the_opponents():
    # The line-and-feeding part of the evaluation alone: joins (tested below) may outweigh
    # a plain extension.
    agent = TantrixAgent(seed=1, lookahead=False, weights="join=0")
    extended = fed_avoided = 0
    for seed in range(6):
        for state in decisions(2, seed, min_board=8):
            if state.step != 2 or len(state.legal_moves()) < 4:
                continue
            me, opp = state.colours[state.to_move], state.colours[1 - state.to_move]
            mine, theirs = best_tracks(state.edges, me)[0], best_tracks(state.edges, opp)[0]
            results = [
                (best_tracks(after(state, m).edges, me)[0], best_tracks(after(state, m).edges, opp)[0])
                for m in state.legal_moves()
            ]
            chosen = after(state, agent.choose(state))
            got = best_tracks(chosen.edges, me)[0], best_tracks(chosen.edges, opp)[0]
            if any(r[0] > mine and r[1] == theirs for r in results):
                assert got[0] > mine, state.position()
                extended += 1
            if any(r[1] > theirs for r in results) and any(r == (mine, theirs) for r in results):
                assert got[1] == theirs, state.position()
                fed_avoided += 1
            break
    assert extended >= 1 and fed_avoided >= 1


def test_forced_fill_lookahead_measures_the_opponents_best_fill():
    agent = TantrixAgent(seed=2)
    found = 0
    for seed in range(20):
        for state in decisions(2, seed, min_board=12):
            player = state.to_move
            agent._base_cache = {}
            for move in state.legal_moves()[:20]:
                s = after(state, move)
                if s.to_move != CHANCE or s.step != 3:
                    continue
                nxt = 1 - player
                fills = s.placements(nxt, forced=True)
                if not fills:
                    continue
                base = evaluate(s, player)
                expected = min([base] + [evaluate(after_fill(s, f), player) for f in fills[:12]]) - base
                assert abs(agent._opponent_fills(s, player, base, move.data[2]) - expected) < 1e-9
                assert s.key() == after(state, move).key()  # the look-ahead leaves no trace
                found += 1
            if found >= 3:
                return
    assert found >= 3


def after_fill(state, fill):
    s = state.copy()
    _, tile, cell, rot, _ = fill.data
    s._place(tile, cell, rot)
    return s


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


def test_opponent_reply_is_their_best_placement_from_the_open_hand():
    agent = TantrixAgent(seed=4)
    found = 0
    for seed in range(10):
        for state in decisions(2, seed, min_board=10):
            if state.step != 2 or len(state.legal_moves()) < 3:
                continue
            player, opponent = state.to_move, 1 - state.to_move
            agent._base_cache = {}
            move = state.legal_moves()[0]
            s = after(state, move)
            base = evaluate(s, player)
            replies = s.placements(opponent, forced=True) + s.placements(opponent, forced=False)
            assert replies
            expected = min([base] + [evaluate(after_reply(s, opponent, r), player) for r in replies]) - base
            key = s.key()
            got = agent._opponent_reply(s, player, opponent, base, move.data[2], None)
            assert abs(got - expected) < 1e-9
            assert s.key() == key  # the look-ahead leaves no trace
            found += 1
            break
        if found >= 3:
            return
    assert found >= 3


def after_reply(state, seat, reply):
    s = after_fill(state, reply)
    s.hands[seat].remove(reply.data[1])
    return s


def exact_value(state, player):
    """Minimax of the final result (1 win, 0 draw, -1 loss) by brute force."""
    if state.outcome is not None:
        return 2 * state.outcome.reward(player) - 1
    values = []
    for move in state.legal_moves():
        state.play(move)
        values.append(exact_value(state, player))
        state.undo()
    return max(values) if state.to_move == player else min(values)


def test_endgame_search_plays_the_exact_best_move_when_it_sees_the_end():
    from qipan.games.tantrix.agent import endgame_move

    checked = 0
    for seed in range(40):
        for state in decisions(2, seed, min_board=0):
            if not state.endgame or sum(len(h) for h in state.hands) > 2 or len(state.legal_moves()) < 2:
                continue
            player = state.to_move
            values = {m: exact_value(after(state, m), player) for m in state.legal_moves()}
            if len(set(values.values())) < 2:
                break  # every move gives the same result: nothing to check
            key = state.key()
            move = endgame_move(state, player, None, max_depth=6)
            assert values[move] == max(values.values()), state.position()
            assert state.key() == key
            checked += 1
            break
        if checked >= 3:
            return
    assert checked >= 3


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


def _faced_cells(state, colour):
    """Empty cell -> indices of the lines of ``colour`` whose ends face it."""
    from qipan.games.tantrix.board import link_ends, neighbour, tracks

    lines = [cells for cells, loop in tracks(state.edges, colour) if not loop]
    faced: dict = {}
    for i, cells in enumerate(lines):
        for end in {cells[0], cells[-1]}:
            for d in link_ends(state.edges[end], colour):
                beyond = neighbour(end, d)
                if beyond not in state.edges:
                    faced.setdefault(beyond, []).append(i)
    return lines, faced


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
                lines, faced = _faced_cells(state, colour)
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
