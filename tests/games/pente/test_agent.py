"""The ``pente`` agent (compiled search): registration, limits and seed, wins and defences,
four players, every option set, the opening book, and play without the kernels."""

from __future__ import annotations

import pytest
from tests.wins import wins_next

import qipan
from qipan.agents import agent_spec, strongest_agent_name
from qipan.agents import load as load_agent
from qipan.core import OptionError
from qipan.games.pente import book


def agent(**limits):
    limits.setdefault("iterations", 20_000)
    return load_agent("pente", seed=1, **limits)


def test_registered_as_the_strongest_pente_agent_with_the_reference_beside_it():
    for preset in ("pente", "pente-tournament", "pente-team", "pente-4"):
        assert strongest_agent_name(qipan.load(preset)) == "pente"
    assert agent_spec("pente").strength > agent_spec("pente-classic").strength
    assert agent_spec("pente").players == (2, 4)


def test_parameters_are_typed_and_bounded():
    spec = agent_spec("pente")
    params = spec.parse(
        {"width": "8", "root_width": "30", "vcf_depth": "0", "vct_depth": "1", "book": "false"}
    )
    a = spec.make(**params)
    assert (a.width, a.root_width, a.vcf_depth, a.vct_depth, a.book) == (8, 30, 0, 1, False)
    for raw in ({"width": "0"}, {"vct_depth": "9"}, {"vcf_depth": "-1"}, {"book": "maybe"}, {"leaf": "sum"}):
        with pytest.raises(OptionError):
            spec.parse(raw)


@pytest.mark.parametrize(
    ("position", "expected"),
    [
        ("ply=20 next=1 1:K10,L10,M10,N10 2:J10,A1,A3,A5,A7,C9", {"O10"}),
        ("ply=30 next=1 captures=8,0 1:K10,C3 2:L10,M10,A1,E7", {"N10"}),
        ("ply=20 next=1 1:K10,L10,M10,N10 2:C3,D3,E3,F3,A19", {"J10", "O10"}),  # own win first
    ],
)
def test_wins_at_once(position, expected):
    state = qipan.load("pente").position(position)
    assert agent().choose(state).text in expected


@pytest.mark.parametrize(
    "position",
    [
        "ply=20 next=1 1:K10,C3,E5,G3 2:L10,M10,N10,O10,A1",
        "ply=20 next=1 1:K10,C3,E5,G3 2:K12,L12,N12,O12,A1",
        "ply=30 next=1 captures=0,8 1:K10,L10,C3 2:J10,A1,S19",
        "ply=30 next=1 captures=0,8 1:K10,L11,C3 2:J9,A1,S19",
    ],
)
def test_stops_a_win_in_one(position):
    state = qipan.load("pente").position(position)
    state.play(agent().choose(state))
    assert state.outcome is None
    assert wins_next(state, 1) == []


def test_stops_an_open_three_before_it_becomes_an_open_four():
    # B's open three L10-N10: W must block an end (or lose to the open four)
    state = qipan.load("pente").position("ply=20 next=1 1:K12,C3,E5,G3,R17 2:L10,M10,N10,A1,A19")
    move = agent(iterations=60_000).choose(state)
    assert move.text in {"K10", "O10", "J10", "P10"}


def test_finds_a_forced_win_by_fours():
    state = qipan.load("pente").position("ply=20 next=1 1:K10,L10,M10,N11,N12 2:J10,A1,A19,T1,T19")
    a = agent()
    state.play(a.choose(state))
    assert a.stage == "threats"  # the threat-space search finds it first (threats.py)
    b = load_agent("pente", iterations=20_000, seed=2)
    while state.outcome is None:
        state.play((a if state.to_move == 0 else b).choose(state))
    assert state.outcome.winners == (0,)


def test_the_same_seed_and_depth_give_the_same_move():
    state = qipan.load("pente").position("ply=8 next=1 1:K10,L11,M10,G7 2:K11,L10,N12,H8")
    moves = {load_agent("pente", depth=3, seed=5).choose(state).text for _ in range(2)}
    assert len(moves) == 1


def test_a_node_budget_is_respected():
    state = qipan.load("pente").position("ply=8 next=1 1:K10,L11,M10,G7 2:K11,L10,N12,H8")
    a = agent(iterations=5_000)
    assert a.choose(state) in state.legal_moves()
    assert a.nodes <= 5_000 + 40 * a.root_width  # the first iteration always completes


@pytest.mark.parametrize(
    ("preset", "options"),
    [
        ("pente", {"exact_five": True}),
        ("pente", {"double_tria": True}),
        ("pente", {"max_pairs_per_move": 1}),
        ("pente", {"board_size": 9}),
        ("pente-tournament", {}),
        ("pente-team", {}),
        ("pente-4", {}),
    ],
)
def test_plays_legal_moves_under_every_option_set(preset, options):
    game = qipan.load(preset, **options)
    state = game.new()
    agents = [load_agent("pente", iterations=3_000, seed=p) for p in range(state.num_players)]
    for _ in range(14):
        if state.outcome is not None:
            break
        move = agents[state.to_move].choose(state)
        assert move in state.legal_moves()
        state.play(move)
    if preset == "pente-tournament":
        x, y = state.geom.centred(state.geom.by_name[state.history[2].text])
        assert max(abs(x), abs(y)) >= 3


def test_four_players_win_and_block():
    game = qipan.load("pente-4")
    state = game.position("ply=40 next=1 1:K10,L10,M10 2:A1 3:C1 4:E19")
    assert agent().choose(state).text in {"J10", "N10"}
    state = game.position("ply=40 next=1 1:A1,C5,J12 2:K12,L12,M12 3:C1 4:E19")
    assert agent().choose(state).text == "N12"
    game = qipan.load("pente-team")
    state = game.position("ply=40 next=1 1:A1,C5,J12 2:K12,L12,M12,N12 3:C1 4:E19")
    state.play(agent().choose(state))
    state.to_move = 1
    assert wins_next(state, 1) == []


def test_without_kernels_it_plays_as_the_reference(monkeypatch):
    monkeypatch.setenv("QIPAN_KERNELS", "0")
    state = qipan.load("pente").position("ply=20 next=1 1:K10,C3,E5,G3 2:L10,M10,N10,O10,A1")
    assert state.game.kernel() is None
    move = load_agent("pente", depth=2, seed=1).choose(state)
    assert move.text == "P10"


def test_book_keys_are_the_same_under_the_board_symmetries():
    game = qipan.load("pente-tournament")
    a = game.new().play_many(["K10", "L11", "N10"])
    b = game.new().play_many(["K10", "J9", "K7"])  # the same shape rotated and mirrored
    assert book.key_for(a)[0] == book.key_for(b)[0]
    assert book.key_for(qipan.load("pente").new().play_many(["K10"])) is None  # no tournament rule


def test_book_moves_are_legal_in_every_symmetric_form():
    entries = book._entries()
    assert entries, "the book ships with the package"
    game = qipan.load("pente-tournament")
    for first in ("L11", "J9", "L9", "J11", "K11", "L10", "K9", "J10"):
        state = game.new().play_many(["K10", first])
        move = book.book_move(state)
        assert move is not None, first
        assert state.game.parse(state.geom.name[move], state) in state.legal_moves()


def test_warm_up_compiles_the_search_before_the_first_move():
    from qipan import fast

    if not fast.enabled():
        pytest.skip("kernels are off")
    spent = fast.warm_up(["pente", "pente-team"])
    assert set(spent) == {"pente", "pente-team"}
    searcher = qipan.load("pente").kernel()._searcher
    assert searcher.W[12].shape == (1 << 18,)  # the transposition keys: 2**18 entries
