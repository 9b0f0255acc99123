"""The contract, checked on every registered game and preset (DESIGN.md "Tests")."""

from __future__ import annotations

import random

import pytest

import qipan
from qipan.core import CHANCE, IllegalMove, NotationError, QipanError, resolve_chance
from qipan.records import Record

SPECS = qipan.specs()
IDS = [s.id for s in SPECS]
DEFAULT_CAP = 3000
#: Plies at which the expensive checks (undo, copy, parse of every move) run.
CHECK_EVERY_PLY_UNTIL = 40
CHECK_EVERY = 7


def random_game(spec, seed: int, check=None, players: int | None = None):
    """Play a seeded random game of ``spec``; call ``check(state, ply)`` before each move."""
    game = qipan.load(spec.id)
    players = players or spec.players[0]
    state = game.new(players=players, seed=seed)
    rng = random.Random(seed)
    cap = spec.random_game_cap or DEFAULT_CAP
    while state.outcome is None and state.ply < cap:
        if check is not None:
            check(state, state.ply)
        # random_move is the playouts' source of moves: play it checked, so a fast override
        # that ever returns an illegal move fails here.
        state.play(state.random_move(rng))
    return state


def snapshot(state):
    return state.key(), [m.text for m in state.legal_moves()], state.to_move, state.outcome, state.ply


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
def test_random_games_end(spec):
    runs = [(seed, spec.players[0]) for seed in (1, 2, 3)] + [(4, n) for n in spec.players[1:]]
    for seed, players in runs:
        state = random_game(spec, seed, players=players)
        assert state.num_players == players
        if spec.random_game_cap is None:
            assert state.outcome is not None, f"random game {seed} did not end in {DEFAULT_CAP} plies"
        if state.outcome is not None:
            assert state.to_move is None
            assert state.legal_moves() == []
            assert len(state.outcome.scores) == state.num_players
            assert all(0 <= w < state.num_players for w in state.outcome.winners)
            with pytest.raises(IllegalMove):
                state.play(state.history[-1])


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
def test_undo_copy_parse_and_illegal_moves(spec):
    def check(state, ply):
        if ply >= CHECK_EVERY_PLY_UNTIL and ply % CHECK_EVERY:
            return
        before = snapshot(state)
        text_before = state.text()
        moves = state.legal_moves()
        assert moves, "a state that is not over has legal moves"
        assert len({m.text for m in moves}) == len(moves), "legal moves have distinct notation"
        # every legal move's notation parses back to the same move
        for move in moves:
            parsed = state.game.parse(str(move), state)
            assert parsed == move and parsed.path == move.path
        # undo restores key() and legal_moves() exactly
        for move in moves[:: max(1, len(moves) // 8)]:
            state.play(move)
            assert state.history[-1] == move
            state.undo()
            assert snapshot(state) == before
        # copies are independent
        twin = state.copy()
        twin.play(moves[-1])
        assert snapshot(state) == before
        assert state.text() == text_before
        twin.undo()
        assert twin.key() == state.key()
        # illegal input raises and changes nothing
        for bad in ("", "???", "zz99-zz98"):
            with pytest.raises((IllegalMove, NotationError)):
                state.play(bad)
            assert snapshot(state) == before
        if state.history:
            last = state.history[-1]
            if last not in moves:
                with pytest.raises(IllegalMove):
                    state.play(last)
                assert snapshot(state) == before

    random_game(spec, 11, check)


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
def test_same_seed_same_game(spec):
    a = random_game(spec, 5)
    b = random_game(spec, 5)
    assert [m.text for m in a.history] == [m.text for m in b.history]
    assert a.key() == b.key()


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
def test_records_round_trip(spec):
    state = random_game(spec, 7)
    record = Record.from_state(state, names=[f"p{i}" for i in range(state.num_players)])
    for text in (record.to_json(), record.to_pgn()):
        again = qipan.records.loads(text)
        assert again.moves == record.moves
        replayed = again.replay()
        assert replayed.key() == state.key()
        assert replayed.outcome == state.outcome
    # a corrupted record is rejected at the corrupted ply
    if len(record.moves) > 3:
        bad = Record.from_dict(record.to_dict())
        bad.moves[2] = "not-a-move"
        with pytest.raises(qipan.RecordError) as err:
            bad.replay()
        assert err.value.ply == 3


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
def test_rendering_and_views(spec):
    state = random_game(spec, 3, None)
    for s in (qipan.load(spec.id).new(seed=3), state):
        assert isinstance(s.text(), str) and s.text()
        svg = s.svg()
        assert svg.lstrip().startswith("<svg") and svg.rstrip().endswith("</svg>")
    fresh = qipan.load(spec.id).new(seed=3)
    while fresh.to_move == CHANCE:
        resolve_chance(fresh, random.Random(3))
    svg = fresh.svg()
    for move in fresh.legal_moves():
        if move.path:
            assert f'data-target="{move.path[0]}"' in svg, f"{move}: first click target not in the SVG"
    for p in range(fresh.num_players):
        view = fresh.view(p)
        assert view.legal_moves() == fresh.legal_moves() or view.to_move != p


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
def test_options_are_validated(spec):
    d = spec.to_dict()
    assert d["id"] == spec.id and d["title"]
    for opt in spec.options:
        assert (
            opt.coerce(spec.default_options()[opt.name]) == spec.default_options()[opt.name]
            or spec.default_options()[opt.name] is None
        )
    with pytest.raises(QipanError):
        qipan.load(spec.id, no_such_option_xyz=1)


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
def test_position_round_trip(spec):
    game = qipan.load(spec.id)
    state = random_game(spec, 13)
    try:
        text = state.position()
    except NotImplementedError:
        pytest.skip(f"{spec.id} has no position format")
    again = game.position(text)
    assert again.key() == state.key()
    assert again.position() == text


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
def test_random_move_is_legal_and_reproducible(spec):
    state = qipan.load(spec.id).new(seed=21)
    rng = random.Random(21)
    for _ in range(30):
        if state.outcome is not None:
            break
        before = snapshot(state)
        a = state.random_move(random.Random(state.ply))
        assert a == state.random_move(random.Random(state.ply)), "same rng state, same move"
        assert snapshot(state) == before, "random_move changes nothing"
        if state.to_move == CHANCE:
            assert a in [m for m, _ in state.chance_outcomes()]
        else:
            assert a in state.legal_moves()
        state.play(state.random_move(rng))


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
def test_capabilities_are_declared_values(spec):
    game = qipan.load(spec.id)
    caps = game.capabilities()
    assert set(caps) >= {"hides_information", "realtime_tick", "has_evaluation", "terminal", "scoring_match"}
    assert spec.to_dict()["capabilities"] == caps
    if not caps["hides_information"]:
        state = random_game(spec, 2)
        assert state.view(0).key() == state.key()
