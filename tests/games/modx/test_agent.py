"""The modx agent and the game's evaluate / order_moves knowledge."""

from __future__ import annotations

import pytest

import qipan
from qipan.agents import agent_spec, agent_specs, load
from qipan.agents.arena import play_game
from qipan.core import OptionError
from qipan.games.modx.evaluation import turns_left

from .conftest import make


def agent(**limits):
    return load("modx", seed=1, **({"iterations": 16} | limits))


def test_agent_is_registered_for_the_modx_family():
    import qipan.games.modx  # noqa: F401  (registers the agent even if another game package fails to import)

    spec = next(a for a in agent_specs() if a.name == "modx")
    assert spec.families == ("modx",)
    assert spec.players == (2, 3, 4)
    assert all(spec.plays(qipan.load(p)) for p in ("modx", "modx-3", "modx-4", "modx-teams"))
    assert not spec.plays(qipan.load("pente"))


def test_parameters_are_typed_options_with_bounds():
    spec = agent_spec("modx")
    params = spec.parse({"width": "10", "replies": "3"})
    assert params == {"width": 10, "replies": 3}
    a = spec.make(**params)
    assert (a.width, a.replies) == (10, 3)
    assert spec.make(**spec.parse({"width": "none"})).width == 24  # the default
    for raw in ({"width": "0"}, {"width": "65"}, {"replies": "0"}, {"replies": "2.5"}, {"depth_limit": "1"}):
        with pytest.raises(OptionError):
            spec.parse(raw)


def test_agent_takes_the_winning_pattern():
    board = {n: "r" for n in ("A8", "B8", "C8", "D8", "E8", "F8", "G8", "H8", "A7", "B7", "C7", "D7", "E7")}
    board.update({"C4": "R", "E4": "R", "D3": "R", "D5": "R", "H1": "J", "A1": "J"})
    state = make(board)
    assert agent().choose(state).text == "D4 {D3 C4 D4 E4 D5}"


def test_agent_blocks_the_opponents_plus():
    board = {"C4": "B", "E4": "B", "D3": "B", "D5": "B", "H1": "J", "A1": "J", "G7": "R"}
    state = make(board)
    assert agent().choose(state).text == "D4"


def test_agent_covers_markers_rather_than_scoring_empty_squares():
    # Two red threats: G1-G5 on empty squares, or B-file line on five Black markers (worth a swing).
    board = {n: "bR" for n in ("B1", "B2", "B3", "B4")}
    board.update({"B5": "b", "G1": "R", "G2": "R", "G3": "R", "G4": "R", "H8": "J", "A8": "J"})
    state = make(board)
    ordered = [m.text for m in state.game.order_moves(state, state.legal_moves())]
    assert ordered[0].startswith("B5 {") and ordered[1].startswith("G5 {")
    assert not agent().choose(state).text.startswith("G5")


def test_relocation_does_not_hand_points_to_the_next_player():
    board = {"A6": "B", "B6": "B", "C6": "B", "D6": "B", "H1": "J", "A1": "J"}
    state = make(board, phase="relocate 1")
    for a in (agent(), agent(time=0.05)):
        move = a.choose(state)
        assert move.text != "J>E6"
        state.play(move)
        assert state.threats(1)[0] == 0  # nothing of theirs complete
        state.undo()


def test_relocation_takes_an_all_joker_win():
    state = make({"B2": "J", "C3": "J", "D4": "J", "E5": "J"}, phase="relocate 1")
    move = agent().choose(state)
    assert move.text in ("J>A1", "J>F6")


@pytest.mark.parametrize("game_id", ["modx", "modx-3", "modx-4", "modx-teams", "modx-claims"])
def test_agent_plays_whole_games(game_id):
    game = qipan.load(game_id)
    players = game.players[0]
    agents = [load("modx", iterations=3, replies=2, seed=i) for i in range(players)]
    state = play_game(game, agents, seed=3)
    assert state.outcome is not None


def test_agent_is_reproducible_with_a_seed():
    game = qipan.load("modx")
    a = play_game(game, [load("modx", iterations=3, seed=5), load("random", seed=6)], seed=2)
    b = play_game(game, [load("modx", iterations=3, seed=5), load("random", seed=6)], seed=2)
    assert [m.text for m in a.history] == [m.text for m in b.history]


def test_evaluate_is_bounded_and_sees_threats():
    game = qipan.load("modx")
    threat = make({"C4": "R", "E4": "R", "D3": "R", "D5": "R", "H1": "J", "A1": "J"})
    assert 0 < game.evaluate(threat, 0) <= 1
    assert -1 <= game.evaluate(threat, 1) < 0
    ahead = make({"A1": "r", "B1": "r", "C1": "r", "H8": "J"}, turn="B")
    assert game.evaluate(ahead, 0) > 0 > game.evaluate(ahead, 1)


def test_order_moves_puts_scoring_and_blocking_first():
    game = qipan.load("modx")
    state = make({"C4": "R", "E4": "R", "D3": "R", "A5": "B", "A6": "B", "A7": "B", "A8": "B", "H1": "J"})
    ordered = game.order_moves(state, state.legal_moves())
    assert ordered[0].text == "A4"  # Black's line A4-A8 threatens
    scoring = make({"C4": "R", "E4": "R", "D3": "R", "D5": "R", "H1": "J"})
    assert game.order_moves(scoring, scoring.legal_moves())[0].text.startswith("D4 {")


def test_turns_left_counts_down_to_exhaustion():
    state = make({"H8": "J"}, turn="B")
    assert turns_left(state) == [13, 14]
    state.supply_x = [1, 3]
    assert turns_left(state) == [1, 1]
    state.supply_x = [3, 1]
    assert turns_left(state) == [0, 1]


def test_the_declared_defaults_are_the_constructor_defaults():
    import inspect

    from qipan.games.modx.agent import ModXAgent

    signature = inspect.signature(ModXAgent)
    declared = {o.name: o.default for o in agent_spec("modx").options}
    assert declared == {name: signature.parameters[name].default for name in declared}
    assert set(signature.parameters) == set(declared) | {"time", "iterations", "depth", "seed"}


def test_the_classic_agent_is_kept_and_the_new_one_is_the_strongest():
    game = qipan.load("modx")
    assert qipan.agents.strongest_agent_name(game, 2) == "modx"
    classic = load("modx-classic", seed=1, iterations=8)
    state = game.new(seed=3)
    while state.outcome is None and state.ply < 24:
        for a in (classic, load("modx", seed=1, iterations=8, depth=2)):
            assert a.choose(state) in state.legal_moves()
        state.play(classic.choose(state))


def played_into(seed: int, plies: int):
    state = qipan.load("modx").new(seed=seed)
    setup = load("modx", seed=1, iterations=8, depth=1)
    while state.phase != "play" or state.ply < plies:
        state.play(setup.choose(state))
    return state


def test_the_two_player_search_goes_as_deep_as_it_is_told_and_leaves_the_state_alone():
    state = played_into(5, 14)
    before = (state.key(), state.points, state.supply_x, state.to_move)
    for depth in (1, 2, 3):
        a = load("modx", seed=1, iterations=6, depth=depth)
        assert a.choose(state) in state.legal_moves()
        assert a.reached == depth
    assert (state.key(), state.points, state.supply_x, state.to_move) == before
    # Deeper iterations search more nodes.
    shallow, deep = load("modx", seed=1, iterations=6, depth=2), load("modx", seed=1, iterations=6, depth=3)
    shallow.choose(state), deep.choose(state)
    assert shallow.searched < deep.searched


def plain_negamax(a, work, depth, widths, ply, player):
    """The value ``Deepening`` must find: every candidate searched, no cut-offs, no table."""
    from qipan.games.modx.rules import placement_move

    if work.outcome is not None:
        value = a.evaluate(work, player)
        return value - ply if value > 0 else value + ply if value < 0 else value
    if depth == 0:
        return a.evaluate(work, player)
    gains = a.gains(work)
    best = -float("inf")
    for s in sorted(gains, key=lambda s: (-gains[s], s))[: widths[min(ply, len(widths) - 1)]]:
        count = a._play_turn(work, placement_move(s, work.scored_by(player, s)))
        best = max(best, -plain_negamax(a, work, depth - 1, widths, ply + 1, 1 - player))
        a._undo(work, count)
    return best


@pytest.mark.parametrize("seed, plies", [(5, 14), (7, 24), (9, 32), (11, 30)])
def test_the_deepening_finds_the_plain_negamax_value(seed, plies):
    from qipan.games.modx.evaluation import WIN
    from qipan.games.modx.search import Deepening

    state = played_into(seed, plies)
    a = load("modx", seed=1)
    widths = (5, 4, 3)
    for depth in (1, 2, 3):
        work = state.copy()
        search = Deepening(a.gains, a.evaluate, a._play_turn, a._undo, None, depth, widths)
        move = search.best_move(work, work.legal_moves())
        assert work.key() == state.key()
        if search.reached < depth:  # a result forced at a shallower depth ends the search
            assert abs(search.value) >= WIN / 2 and depth > 1
            break
        expected = plain_negamax(a, state.copy(), depth, widths, 0, state.to_move)
        assert search.value == pytest.approx(expected)
        # The move chosen is worth that value.
        work.play(move)
        while work.outcome is None and work.to_move == state.to_move:
            work.play(min(work.legal_moves(), key=lambda m: a.penalties(work)[m.data[1]]))
        assert -plain_negamax(a, work, depth - 1, widths, 1, 1 - state.to_move) == pytest.approx(expected)


def test_the_deadline_ends_the_deepening_with_the_deepest_complete_answer():
    state = played_into(6, 16)
    hurried = load("modx", seed=1, time=0.002)  # 2 turns at 0.004 s here; 0.02 s reached 4 on some positions
    patient = load("modx", seed=1, depth=4)
    assert hurried.choose(state) in state.legal_moves()
    patient.choose(state)
    assert 1 <= hurried.reached < patient.reached == 4


def test_three_players_keep_the_selective_search():
    state = qipan.load("modx-3").new(seed=2)
    a = load("modx", seed=1, iterations=8)
    while state.phase != "play":
        state.play(a.choose(state))
    assert a.choose(state) in state.legal_moves()
    assert a.reached == 0 and a.searched == 8  # eight candidates, no deepening


def test_caution_blends_the_worst_answer_with_the_mean():
    from qipan.games.modx.classic import ModXClassicAgent
    from qipan.games.modx.evaluation_outlook import evaluate_raw  # the modx agent's evaluation
    from qipan.games.modx.rules import placement_move

    state = qipan.load("modx").new(seed=4)
    setup = load("modx", seed=1)
    while state.phase != "play":
        state.play(setup.choose(state))
    for _ in range(6):
        state.play(setup.choose(state))
    me = state.to_move
    work = state.copy()
    worst = ModXClassicAgent(replies=4)
    for move in work.legal_moves()[:5]:
        count = worst._play_turn(work, move)
        gains = worst.gains(work)
        values = []
        for s in sorted(gains, key=lambda s: (-gains[s], s))[:4]:
            n = worst._play_turn(work, placement_move(s, work.scored_by(work.to_move, s)))
            values.append(evaluate_raw(work, me))
            worst._undo(work, n)
        blended = load("modx", replies=4, caution=0.7)._worst_answer(work, me, -float("inf"))
        assert blended == pytest.approx(0.7 * min(values) + 0.3 * sum(values) / len(values))
        assert load("modx", replies=4, caution=1.0)._worst_answer(work, me, -float("inf")) == pytest.approx(
            min(values)
        )
        worst._undo(work, count)
    assert work.key() == state.key()
