"""Scoring play (pente.md §2.5-2.7) and matches stored as one record."""

from __future__ import annotations

import json

import pytest

import qipan
from qipan.core import QipanError, RecordError
from qipan.games.pente.match import Match, game_points, runs


def test_two_player_points():
    s = qipan.load("pente").position(
        "ply=30 next=1 captures=4,2 1:K10,L10,M10,N10,C1,C2,C3,C4 2:S1,S2,S3,S4,A19"
    )
    s.play("O10")
    assert s.outcome.winners == (0,)
    # W: five 5 + 2 pairs + the four on file C; B: 1 pair + the four on file S
    assert game_points(s) == [8, 2]


def test_capture_winner_scores_pairs_not_the_five_bonus():
    s = qipan.load("pente").position("ply=30 next=1 captures=8,0 1:K10,A1 2:L10,M10,C3")
    s.play("N10")
    assert s.outcome.reason == "10 stones captured"
    assert game_points(s) == [5, 0]


def test_runs_are_maximal_and_exact():
    won = "ply=30 next=- over=1 1:A1,A2,A3,A4,C1,C2,C3,C4,C5,E1,E2,E3 2:S19"  # file C is a five
    s = qipan.load("pente").position(won)
    assert runs(s, 0, 4) == 1  # file A; file C is five, not a four
    assert runs(s, 0, 3) == 1
    assert runs(s, 1, 4) == 0


def test_team_points():
    text = "ply=40 next=1 captures=2,4,0,0 1:K10,L10,M10,N10 3:C1,C2,C3,C4 2:S1,S2,S3,S4 4:A19"
    s = qipan.load("pente-team").position(text)
    s.play("O10")
    assert s.outcome.winners == (0, 2)
    # five 10 + 2 captured stones; partner's four 2; B1: 4 stones + a four 2
    assert game_points(s) == [12, 6, 2, 0]


def test_free_for_all_points():
    s = qipan.load("pente-4").position(
        "ply=40 next=2 captures=2,0,0,1 2:K10,L10,M10,C1,C2,C3 1:A19 3:E5 4:Q1"
    )
    s.play("N10")
    assert s.outcome.winners == (1,)
    assert game_points(s) == [2, 11, 0, 1]  # four 10 + a three 1; captured stones 1 each


def play_quick_win(match: Match, winner: int) -> list[int]:
    """A 9- or 10-ply game that ``winner`` wins by five (no captures)."""
    state = match.start_game()
    starter = state.to_move
    if winner == starter:
        moves = ["K10", "A1", "L10", "A3", "M10", "A5", "N10", "A7", "O10"]
    else:
        moves = ["K10", "A1", "C19", "A2", "E19", "A3", "G19", "A4", "J19", "A5"]
    state.play_many(moves)
    assert state.outcome.winners == (winner,)
    return match.finish_game(state)


def test_match_loser_starts_and_target_ends_it():
    match = Match("pente", target=21, names=["ann", "bob"])
    assert match.start_game().to_move == 0
    for expected_starter, winner in [(0, 1), (0, 1), (0, 0), (1, 1), (0, 1)]:
        assert match.next_starter == expected_starter
        assert play_quick_win(match, winner) == [5 if p == winner else 0 for p in range(2)]
    assert match.scores == [5, 20] and not match.over
    play_quick_win(match, 1)
    assert match.over and match.winner == (1,) and match.scores == [5, 25]
    with pytest.raises(QipanError, match="over"):
        match.start_game()


def capture_then_five(match: Match) -> list[int]:
    """P2 captures a pair, then P1 makes five: points 5 and 1."""
    state = match.start_game()
    assert state.to_move == 0
    state.play_many(["K10", "J10", "L10", "M10", "A19", "T1", "A18", "T3", "A17", "T5", "A16", "T7", "A15"])
    return match.finish_game(state)


def test_both_reach_the_target_higher_total_wins():
    match = Match("pente", target=21)
    match.scores = [18, 20]
    assert capture_then_five(match) == [5, 1]
    assert match.winner == (0,)


def test_tie_at_the_target_plays_another_game():
    match = Match("pente", target=21)
    match.scores = [16, 20]
    capture_then_five(match)
    assert match.scores == [21, 21] and not match.over
    play_quick_win(match, 1)
    assert match.winner == (1,)


def test_match_record_round_trip_and_validation():
    match = Match("pente", target=21, names=["ann", "bob"])
    play_quick_win(match, 1)
    play_quick_win(match, 0)
    state = match.start_game()
    state.play_many(["K10", "L10", "M10"])
    assert match.finish_game(state, resigned=0) == [0, 0]
    assert match.games[-1].record.result.reason == "resignation"
    assert match.next_starter == 0
    data = json.loads(match.to_json())
    again = Match.from_dict(data)
    assert again.scores == match.scores == [5, 5]
    assert [g.record.moves for g in again.games] == [g.record.moves for g in match.games]

    bad = json.loads(match.to_json())
    bad["games"][0]["points"] = [0, 6]
    with pytest.raises(RecordError, match="match game 1"):
        Match.from_dict(bad)
    bad = json.loads(match.to_json())
    bad["games"][1]["record"]["moves"][2] = "K10"
    with pytest.raises(RecordError, match="match game 2.*occupied"):
        Match.from_dict(bad)
    bad = json.loads(match.to_json())
    bad["games"][1]["record"]["options"]["first_player"] = 2
    with pytest.raises(RecordError, match="should start"):
        Match.from_dict(bad)
    with pytest.raises(RecordError):
        Match.from_dict({"format": "something else"})


def test_team_match_sides_and_starter():
    match = Match("pente-team", target=21)
    assert match.players == 4 and match.sides() == [(0, 2), (1, 3)]
    state = match.start_game()
    state.play_many(["K10", "A1", "C19", "A3", "L10", "A5", "E19", "A7", "M10", "A9", "G19", "A11", "N10"])
    state.play_many(["A13", "J19", "A15", "O10"])
    assert state.outcome.winners == (0, 2)
    assert match.finish_game(state) == [10, 0, 0, 0]
    assert match.side_scores() == [10, 0]
    assert match.next_starter == 1


def test_any_agreed_target_the_seed_says_usually_21_or_50():
    # the seed (計分): "誰先獲得約定的勝分(通常為21或50)" -- an agreed target, usually 21 or 50
    match = Match("pente", target=7)
    play_quick_win(match, 0)
    assert not match.over
    play_quick_win(match, 0)
    assert match.over and match.scores == [10, 0]
    assert Match.from_dict(match.to_dict()).target == 7
    for bad in (0, -21, 2.5, True, "21"):
        with pytest.raises(QipanError, match="positive number of points"):
            Match("pente", target=bad)


def test_first_game_first_player_by_lot_then_the_loser_starts():
    # the seed (FAQ 7): "初次相逢的兩位奕者在第一盤時可猜子決定誰先 ... 由輸了上一盤的奕者先下"
    drawn = {Match("pente", first_player="lot", seed=seed).next_starter for seed in range(20)}
    assert drawn == {0, 1}
    seed = next(s for s in range(20) if Match("pente", first_player="lot", seed=s).next_starter == 1)
    match = Match("pente", target=21, first_player="lot", seed=seed)
    assert match.start_game().to_move == 1
    play_quick_win(match, 1)
    assert match.next_starter == 0  # the loser starts the next game
    data = match.to_dict()
    assert data["first_player"] == 1  # the drawn player is recorded: the replay needs no seed
    assert Match.from_dict(data).scores == match.scores
    assert Match("pente", first_player="lot", seed=seed).next_starter == 1  # same seed, same draw
    with pytest.raises(QipanError, match="'lot'"):
        Match("pente", first_player="dice")
    with pytest.raises(QipanError, match="0..1"):
        Match("pente", first_player=2)


def test_bad_match_use():
    match = Match("pente")
    state = match.start_game()
    with pytest.raises(QipanError, match="not over"):
        match.finish_game(state)
    with pytest.raises(QipanError):
        match.finish_game(qipan.load("pente").new())
