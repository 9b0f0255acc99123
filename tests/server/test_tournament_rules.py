"""The tournament rules apart from the server: Swiss pairings against bbpPairings' (the
FIDE-endorsed program's) published ones, round robins against the FIDE Berger table,
arena scoring as lichess counts it, tie-breaks, and the checks of a new event."""

from __future__ import annotations

import pytest
from tournament_refs import DATA, pairs_of, read_trf

from qipan.server.errors import ApiError
from qipan.server.tournament_rules import (
    Entrant,
    arena_groups,
    arena_points,
    parse_schedule,
    round_robin_pairings,
    seat_points,
    standings,
    swiss_pairings,
)


def test_six_entrant_swiss_pairs_as_bbppairings_dutch_2025_C5():
    """bbpPairings' own C.5 test: six players, two rounds played, player 4 absent in
    round 3. Round 1 is the Dutch system's (top half against bottom half, colours
    alternating) and round 3 is exactly bbpPairings' answer: 1-5, 3-2, 6 has the bye."""
    entrants, games, _ = read_trf("dutch_2025_C5.input")
    assert (
        {tuple(p) for p in swiss_pairings(entrants, [], 1, 3)}
        == pairs_of(games, 1)
        == {(1, 4), (5, 2), (3, 6)}
    )
    absent = [Entrant(e.number, e.rating, withdrawn=e.number == 4) for e in entrants]
    expected = (DATA / "dutch_2025_C5.output.expected").read_text().split("\n")[1:]
    reference = {tuple(int(x) for x in line.split() if x != "0") for line in expected if line.strip()}
    assert {tuple(p) for p in swiss_pairings(absent, games, 3, 3)} == reference == {(1, 5), (3, 2), (6,)}


def test_ten_entrant_swiss_pairs_every_round_as_bbppairings():
    """Five rounds of a ten-player Swiss paired by bbpPairings: each round, given the ones
    before, comes out the same (the top seed had black in round 1 there: drawn by lot)."""
    entrants, games, rounds = read_trf("bbp_10p5r_s42.trf")
    for rnd in range(1, rounds + 1):
        before = [g for g in games if g["round"] < rnd]
        mine = {tuple(p) for p in swiss_pairings(entrants, before, rnd, rounds, initial_color="black")}
        assert mine == pairs_of(games, rnd), rnd


def test_round_robin_follows_the_berger_table():
    """FIDE Handbook C.05, six players: round 1 is 1-6, 2-5, 3-4; round 2 is 6-4, 5-3, 1-2."""
    entrants = [Entrant(n, 2000 - n) for n in range(1, 7)]
    assert {tuple(p) for p in round_robin_pairings(entrants, 1)} == {(1, 6), (2, 5), (3, 4)}
    assert {tuple(p) for p in round_robin_pairings(entrants, 2)} == {(6, 4), (5, 3), (1, 2)}
    gone = [Entrant(e.number, e.rating, withdrawn=e.number == 6) for e in entrants]
    assert {tuple(p) for p in round_robin_pairings(gone, 1)} == {(1,), (2, 5), (3, 4)}


def test_arena_points_as_lichess_counts_them():
    # win 2, win 2, then on fire: win 4 (+1 berserk), draw 2, loss 0, win 2
    total, fire = arena_points([(1, False), (1, False), (1, True), (0.5, False), (0, False), (1, False)])
    assert fire == [False, False, True, True, False, False]
    assert total == 2 + 2 + 5 + 2 + 0 + 2


def test_arena_groups_avoid_the_last_opponent_while_others_are_free():
    groups = arena_groups([1, 2, 3, 4], {1: 4, 2: 4, 3: 2, 4: 0}, {}, {1: {2}, 2: {1}}, 2)
    assert groups == [[1, 3], [2, 4]]
    assert arena_groups([1, 2], {}, {}, {1: {2}, 2: {1}}, 2) == [[1, 2]]  # nobody else
    assert arena_groups([1, 2, 3, 4, 5], {}, {}, {}, 4) == [[1, 2, 3, 4]]


def test_swiss_tie_breaks_buchholz_then_sonneborn_berger():
    entrants = [Entrant(n, 1500) for n in (1, 2, 3, 4)]

    def g(rnd, w, b, sw):
        return {
            "round": rnd,
            "entrants": [w, b],
            "scores": [sw, 1 - sw],
            "berserk": [],
            "finished": rnd,
        }

    games = [g(1, 1, 2, 1.0), g(1, 3, 4, 1.0), g(2, 1, 3, 0.0), g(2, 2, 4, 1.0)]
    table = standings("swiss", entrants, games)
    by = {r["number"]: r for r in table}
    assert [r["number"] for r in table] == [3, 1, 2, 4]
    # 1 and 2 both have 1 point; 1 met 2 (1) and 3 (2): Buchholz 3; 2 met 1 and 4 (0): 1.
    assert by[1]["buchholz"] == 3 and by[2]["buchholz"] == 1
    # SB: 1 beat 2 (1 point); 3 beat 4 (0) and 1 (1).
    assert by[1]["sonneborn_berger"] == 1.0 and by[3]["sonneborn_berger"] == 0.0 + 1.0


def test_seat_points():
    assert seat_points({"winners": [1]}, 2) == [0.0, 1.0]
    assert seat_points({"winners": []}, 2) == [0.5, 0.5]
    assert seat_points({"winners": [0, 2]}, 4) == [1.0, 0.0, 1.0, 0.0]


@pytest.mark.parametrize(
    "change, message",
    [
        ({"starts": 1000.0 - 60}, "in the past"),
        ({"kind": "swiss", "rounds": 0}, "1 to 20 rounds"),
        ({"kind": "league"}, "kind must be"),
        ({"minutes": 0}, "an arena lasts"),
        ({"name": " "}, "name"),
        ({"kind": "swiss", "rounds": 3, "berserk": True}, "berserk is for arenas"),
        ({"max_entrants": 1}, "max_entrants"),
    ],
)
def test_bad_schedules_are_refused(change, message):
    good = {"kind": "arena", "name": "Friday arena", "starts": 1000.0 + 60, "minutes": 30}
    assert parse_schedule(good, now=1000.0)["kind"] == "arena"
    with pytest.raises(ApiError) as exc:
        parse_schedule(good | change, now=1000.0)
    assert exc.value.status == 400 and message in exc.value.message
