"""The tantrix agent: registered, legal for 2-4 players, greedy on its evaluation (own
best track against the best opponent's), never feeds an opponent's line when it need not,
weighs the forced fills it leaves to the next player and the opponent's best reply from
their open hand, and searches the endgame exactly."""

from qipan.core import CHANCE
from qipan.games.tantrix import TantrixAgent
from qipan.games.tantrix.board import best_tracks
from qipan.games.tantrix.evaluation import evaluate

from .conftest import after, decisions, make


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
            agent._index_tracks(state)
            for move in state.legal_moves()[:20]:
                s = after(state, move)
                if s.to_move != CHANCE or s.step != 3:
                    continue
                nxt = 1 - player
                fills = s.placements(nxt, forced=True)
                if not fills:
                    continue
                base = evaluate(s, player, None, agent.weights)
                expected = (
                    min(
                        [base] + [evaluate(after_fill(s, f), player, None, agent.weights) for f in fills[:12]]
                    )
                    - base
                )
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


def test_opponent_reply_is_their_best_placement_from_the_open_hand():
    """The reply check's value: the opponent's best fill or free placement for them (the
    worst for us)."""
    agent = TantrixAgent(seed=4)
    found = 0
    for seed in range(10):
        for state in decisions(2, seed, min_board=10):
            if state.step != 2 or len(state.legal_moves()) < 3:
                continue
            player, opponent = state.to_move, 1 - state.to_move
            agent._base_cache = {}
            agent._index_tracks(state)
            move = state.legal_moves()[0]
            s = after(state, move)
            base = evaluate(s, player, None, agent.weights)
            replies = s.placements(opponent, forced=True) + s.placements(opponent, forced=False)
            assert replies
            expected = (
                min(
                    [base]
                    + [evaluate(after_reply(s, opponent, r), player, None, agent.weights) for r in replies]
                )
                - base
            )
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
    from qipan.games.tantrix.search import endgame_move

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


def test_the_classic_agent_keeps_its_search():
    """``tantrix-classic`` is the fixed reference: the search settings it had, whatever the
    ``tantrix`` agent's become."""
    from qipan.games.tantrix.classic import TantrixClassicAgent

    classic = TantrixClassicAgent
    assert not (classic.halving or classic.incremental or classic.fast_playouts)
    assert not (classic.whole_rounds or classic.rank_unreplied)
    assert (classic.reply_share, classic.reply_weight) == (0.4, 0.5)
