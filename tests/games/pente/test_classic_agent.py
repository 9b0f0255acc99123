"""The pente-classic agent (the fixed reference, unchanged): wins in one, blocks a win in one
(five and capture variants), follows a forcing sequence, plays the four-player games and
respects the opening rules."""

from __future__ import annotations

import pytest
from tests.wins import wins_next

import qipan
from qipan.agents import agent_spec, agent_specs
from qipan.agents import load as load_agent
from qipan.core import OptionError


def agent(**limits):
    limits.setdefault("depth", 2)
    return load_agent("pente-classic", seed=1, **limits)


def test_registered_for_the_pente_family():
    spec = next(a for a in agent_specs() if a.name == "pente-classic")
    assert spec.families == ("pente",)
    assert spec.players == (2, 4)
    assert all(spec.plays(qipan.load(p)) for p in ("pente", "pente-tournament", "pente-team", "pente-4"))
    assert not spec.plays(qipan.load("modx"))


def test_parameters_are_typed_options_with_bounds():
    spec = agent_spec("pente-classic")
    raw = {"width": "8", "vcf_depth": "0", "inner_radius": "3", "even_depths": "false", "leaf": "sum"}
    params = spec.parse(raw)
    assert params == {"width": 8, "vcf_depth": 0, "inner_radius": 3, "even_depths": False, "leaf": "sum"}
    a = spec.make(**params)
    assert (a.width, a.vcf_depth, a.inner_radius, a.even_depths, a.leaf) == (8, 0, 3, False, "sum")
    bad = [{"width": "0"}, {"width": "1.5"}, {"vcf_depth": "-1"}, {"inner_radius": "5"}, {"leaf": "max"}]
    for raw in [*bad, {"even_depths": "maybe"}, {"radius": "2"}]:
        with pytest.raises(OptionError):
            spec.parse(raw)
    with pytest.raises(OptionError, match="leaf must be"):
        load_agent("pente-classic").__class__(leaf="max")


def test_a_node_budget_stops_the_search_with_a_legal_move():
    state = qipan.load("pente").position("ply=12 next=1 1:K10,L11,M10,G7 2:K11,L10,N12,H8")
    a = load_agent("pente-classic", iterations=40, seed=3)
    move = a.choose(state)
    assert move in state.legal_moves()
    assert a.nodes == 41  # the node past the budget raised SearchTimeout


@pytest.mark.parametrize(
    ("position", "expected"),
    [
        ("ply=20 next=1 1:K10,L10,M10,N10 2:J10,A1,A3,A5,A7,C9", {"O10"}),
        ("ply=20 next=2 2:K10,L11,M12,N13 1:O14,A1,A3,A5,A7,C9", {"J9"}),
        ("ply=30 next=1 captures=8,0 1:K10,C3 2:L10,M10,A1,E7", {"N10"}),
    ],
)
def test_finds_a_win_in_one(position, expected):
    state = qipan.load("pente").position(position)
    assert set(wins_next(state, state.to_move)) == expected
    move = agent().choose(state)
    assert move.text in expected


@pytest.mark.parametrize(
    "position",
    [
        # B's four L10-O10 threatens P10
        "ply=20 next=1 1:K10,C3,E5,G3 2:L10,M10,N10,O10,A1",
        # B's split four K12,L12,N12,O12 threatens M12
        "ply=20 next=1 1:K10,C3,E5,G3 2:K12,L12,N12,O12,A1",
        # B has 8 stones and threatens the pair K10+L10 with M10
        "ply=30 next=1 captures=0,8 1:K10,L10,C3 2:J10,A1,S19",
        # B has 8 stones and threatens a diagonal pair
        "ply=30 next=1 captures=0,8 1:K10,L11,C3 2:J9,A1,S19",
    ],
)
def test_blocks_a_win_in_one(position):
    state = qipan.load("pente").position(position)
    state.to_move = 1
    assert wins_next(state, 1), "the set-up must threaten a win"
    state.to_move = 0
    move = agent().choose(state)
    state.play(move)
    assert state.outcome is None
    assert wins_next(state, 1) == [], f"{move} leaves B a win"


def test_prefers_its_own_win_to_blocking():
    state = qipan.load("pente").position("ply=20 next=1 1:K10,L10,M10,N10 2:C3,D3,E3,F3,A19")
    move = agent().choose(state)
    assert move.text in {"J10", "O10"}


def play_out(state, players, plies: int):
    for _ in range(plies):
        if state.outcome is not None:
            break
        state.play(players[state.to_move].choose(state))
    return state


def test_open_three_becomes_a_win_against_a_defender():
    state = qipan.load("pente").position("ply=20 next=1 1:K10,L10,M10 2:A1,A19,T1,T19")
    play_out(state, [agent(), load_agent("pente-classic", depth=2, seed=2)], 8)
    assert state.outcome is not None and state.outcome.winners == (0,)


def test_vcf_search_finds_a_two_step_forcing_win():
    # N10 makes a four closed by J10 (B must answer O10), then file N gives an open four
    state = qipan.load("pente").position("ply=20 next=1 1:K10,L10,M10,N11,N12 2:J10,A1,A19,T1,T19")
    assert wins_next(state.copy(), 0) == []
    found = agent()._vcf(state.copy(), 0, 6)
    assert found is not None
    play_out(state, [agent(), load_agent("pente-classic", depth=2, seed=2)], 6)
    assert state.outcome is not None and state.outcome.winners == (0,)


def test_respects_the_first_move_and_tournament_rule():
    state = qipan.load("pente-tournament").new()
    a = agent()
    state.play(a.choose(state))
    assert state.history[-1].text == "K10"
    state.play("L10")
    move = a.choose(state)
    x, y = state.geom.centred(move.data[0])
    assert max(abs(x), abs(y)) >= 3


def test_four_player_win_and_block():
    game = qipan.load("pente-4")
    state = game.position("ply=40 next=1 1:K10,L10,M10 2:A1 3:C1 4:E19")
    assert agent().choose(state).text in {"J10", "N10"}
    # player 2 (next) threatens four in a row at N12 (J12 is taken)
    state = game.position("ply=40 next=1 1:A1,C5,J12 2:K12,L12,M12 3:C1 4:E19")
    move = agent().choose(state)
    assert move.text == "N12"


def test_team_game_blocks_the_next_enemy():
    game = qipan.load("pente-team")
    state = game.position("ply=40 next=1 1:A1,C5,J12 2:K12,L12,M12,N12 3:C1 4:E19")
    state.play(agent().choose(state))
    state.to_move = 1
    assert wins_next(state, 1) == []


def test_the_declared_defaults_are_the_constructor_defaults():
    import inspect

    from qipan.games.pente.classic import PenteClassicAgent

    signature = inspect.signature(PenteClassicAgent)
    declared = {o.name: o.default for o in agent_spec("pente-classic").options}
    assert declared == {name: signature.parameters[name].default for name in declared}
    assert set(signature.parameters) == set(declared) | {"time", "iterations", "depth", "seed"}
