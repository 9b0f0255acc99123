"""Every rule of pente.md, with the numbered scenarios of §2.10 (1-10)."""

from __future__ import annotations

import random

import pytest

import qipan
from qipan.core import IllegalMove, NotationError
from qipan.games.pente.board import TESSERA, TRIA


def setup(text: str, game: str = "pente", **options):
    return qipan.load(game, **options).position(text)


def stones(state, player: int) -> set[str]:
    g = state.geom
    return {g.name[i] for i in g.points if state.cells[i] == player + 1}


def snapshot(state):
    return state.key(), state.position(), [m.text for m in state.legal_moves()], state.ply


# -- scenario 1-4: captures ------------------------------------------------------------
def test_1_basic_capture():
    s = setup("ply=3 next=1 1:K10 2:L10,M10")
    s.play("(3,0)")
    assert stones(s, 1) == set()
    assert stones(s, 0) == {"K10", "N10"}
    assert s.captures == [2, 0]
    assert s.outcome is None and s.to_move == 1


def test_2_no_suicide_and_no_retroactive_capture():
    s = setup("ply=3 next=2 1:K10,N10 2:L10")
    s.play("(2,0)")
    assert stones(s, 1) == {"L10", "M10"}
    s.play("A1")
    assert stones(s, 1) == {"L10", "M10"}
    assert s.captures == [0, 0]
    # only the re-placed bracket captures
    s.play("B1")
    s.play("(-9,9)")
    assert stones(s, 1) == {"L10", "M10", "B1"}


def test_3_triple_is_not_captured():
    s = setup("ply=4 next=1 1:K10 2:L10,M10,N10")
    s.play("(4,0)")
    assert stones(s, 1) == {"L10", "M10", "N10"}
    assert s.captures == [0, 0]


@pytest.mark.parametrize("line", [["L10"], ["L10", "M10", "N10"]])
def test_only_exact_pairs_are_captured(line):
    # X O X and X O O O X: no capture
    end = {1: "M10", 3: "O10"}[len(line)]
    s = setup(f"ply=4 next=1 1:K10 2:{','.join(line)}")
    s.play(end)
    assert stones(s, 1) == set(line)


def test_pair_with_empty_far_end_is_not_captured():
    s = setup("ply=3 next=1 1:A1 2:L10,M10")
    s.play("K10")
    assert stones(s, 1) == {"L10", "M10"}


def test_4_multi_capture():
    s = setup("ply=6 next=1 1:N10,K13 2:L10,M10,K11,K12")
    s.play("(0,0)")
    assert stones(s, 1) == set()
    assert s.captures == [4, 0]


def test_capture_in_all_eight_directions_at_once():
    ring = []
    brackets = []
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            if dx or dy:
                ring += [f"({dx},{dy})", f"({2 * dx},{2 * dy})"]
                brackets.append(f"({3 * dx},{3 * dy})")
    g = qipan.load("pente")
    names = lambda pts: ",".join(g.geom.name[g.point(p)] for p in pts)  # noqa: E731
    s = g.position(f"ply=40 next=1 1:{names(brackets)} 2:{names(ring)}")
    s.play("K10")
    assert s.captures == [16, 0]
    assert stones(s, 1) == set()
    assert s.outcome.winners == (0,) and "captured" in s.outcome.reason


def test_capture_is_undone_exactly():
    s = setup("ply=6 next=1 1:N10,K13 2:L10,M10,K11,K12")
    before = snapshot(s)
    s.play("K10")
    s.undo()
    assert snapshot(s) == before


# -- scenario 5-7: wins -----------------------------------------------------------------
def test_5_five_wins_before_a_pending_capture():
    # B could capture L10+L11 by L12 next ply; W's five ends the game first
    s = setup("ply=12 next=1 1:K10,L10,M10,N10,L11 2:L9,A1,A3,A5,A7,A9")
    assert s.capture_dirs(s.game.point("L12"), 1)  # the capture is really there
    s.play("(4,0)")
    assert s.outcome.winners == (0,)
    assert s.outcome.reason == "five in a row"
    with pytest.raises(IllegalMove):
        s.play("L12")


def test_6_capture_win_at_ten_stones():
    s = setup("ply=30 next=1 captures=8,0 1:K10,A1 2:L10,M10,C3")
    s.play("N10")
    assert s.captures == [10, 0]
    assert s.outcome.winners == (0,)
    assert s.outcome.reason == "10 stones captured"


def test_eight_stones_do_not_win():
    s = setup("ply=30 next=1 captures=6,0 1:K10,A1 2:L10,M10,C3")
    s.play("N10")
    assert s.captures == [8, 0]
    assert s.outcome is None


def test_five_in_every_direction_wins():
    for line in (["K10", "K11", "K12", "K13"], ["K10", "L11", "M12", "N13"], ["K10", "L9", "M8", "N7"]):
        s = setup(f"ply=8 next=1 1:{','.join(line)} 2:A1,A3,A5,A7")
        last = {"K13": "K14", "N13": "O14", "N7": "O6"}[line[-1]]
        s.play(last)
        assert s.outcome.winners == (0,), line


def test_four_does_not_win_and_only_the_mover_is_checked():
    s = setup("ply=8 next=2 1:K10,L10,M10,N10 2:A1,A3,A5")
    s.play("A7")
    assert s.outcome is None  # W's four is not checked on B's ply
    assert s.to_move == 0


def test_7_overline_wins_by_default():
    s = setup("ply=10 next=1 1:K10,L10,M10,O10,P10 2:A1,A3,A5,A7")
    s.play("N10")
    assert s.outcome.winners == (0,)


def test_7_overline_does_not_win_with_exact_five():
    s = setup("ply=10 next=1 1:K10,L10,M10,O10,P10 2:A1,A3,A5,A7", exact_five=True)
    s.play("N10")
    assert s.outcome is None and s.to_move == 1


def test_exact_five_in_one_direction_wins_beside_an_overline():
    # N10 completes six on row 10 and exactly five on file N
    s = setup(
        "ply=20 next=1 1:K10,L10,M10,O10,P10,N6,N7,N8,N9 2:A1,A3,A5,A7,A9,A11,A13,A15,A17", exact_five=True
    )
    s.play("N10")
    assert s.outcome.winners == (0,)


def test_exact_five_made_by_an_opponent_capture_wins_on_the_owner_next_ply():
    # W owns six on row 10; B captures E10+E11, leaving exactly F10..K10
    s = setup("ply=20 next=2 1:E10,F10,G10,H10,J10,K10,E11,A19 2:E9,A1,A3,A5,A7,A9,A11", exact_five=True)
    s.play("E12")
    assert s.outcome is None  # B is the mover; W's new five is not B's
    assert s.captures == [0, 2]
    s.play("S1")
    assert s.outcome.winners == (0,)


def test_first_stone_goes_on_the_centre():
    s = qipan.load("pente").new()
    assert [m.text for m in s.legal_moves()] == ["K10"]
    with pytest.raises(IllegalMove, match="centre K10"):
        s.play("A1")
    assert s.ply == 0
    s.play("K10")
    assert len(s.legal_moves()) == 360


def test_board_size_option():
    s = qipan.load("pente", board_size=9).new()
    assert [m.text for m in s.legal_moves()] == ["E5"]
    s.play("(0,0)")
    assert len(s.legal_moves()) == 80
    with pytest.raises(NotationError):
        s.play("K10")
    with pytest.raises(qipan.OptionError):
        qipan.load("pente", board_size=8)


def test_board_full_is_a_draw():
    game = qipan.load("pente", board_size=7)
    g = game.geom
    rng = random.Random(5)
    for _ in range(2000):  # a seeded search for a full board with no line and a quiet last point
        colour = {i: rng.randrange(2) for i in g.points}
        hole = rng.choice(g.points)
        p = colour[hole]
        text = " ".join(
            f"{q + 1}:" + ",".join(g.name[i] for i in g.points if i != hole and colour[i] == q)
            for q in (0, 1)
        )
        try:
            s = game.position(f"ply=48 next={p + 1} {text}")
        except NotationError:  # a board where someone has a line already is a won game
            continue
        s.cells[hole] = p + 1
        lines = s.has_line(0) or s.has_line(1)
        s.cells[hole] = 0
        if not lines and not s.capture_dirs(hole, p):
            break
    s.play(g.name[hole])
    assert s.outcome is not None and s.outcome.winners == () and s.outcome.reason == "board full"
    assert s.legal_moves() == []


# -- scenario 8: tournament rule ---------------------------------------------------------
@pytest.mark.parametrize("second", ["A1", "L11", "K9"])
def test_8_tournament_rule(second):
    s = qipan.load("pente-tournament").new()
    s.play("K10")
    s.play(second)
    for bad in ("(2,-2)", "(0,2)", "(-2,1)", "M8"):
        before = snapshot(s)
        with pytest.raises(IllegalMove, match="tournament rule"):
            s.play(bad)
        assert snapshot(s) == before
    legal = {m.text for m in s.legal_moves()}
    for good in ("N10", "N13", "K7", "A19"):
        assert good in legal
    inner = {f"{f}{r}" for f in "HJKLM" for r in range(8, 13)}
    assert not legal & inner
    s.play("(3,3)")
    s.play("L10")  # P2 has no restriction
    s.play("L9")  # nor has P1's third stone


def test_tournament_rule_off_by_default():
    s = qipan.load("pente").new()
    s.play_many(["K10", "A1", "M8"])
    assert s.ply == 3


# -- scenario 9: double open tria (C2) ---------------------------------------------------
C2_SETUP = "ply=12 next=1 1:J10,L10,K9,K11,A19,B19 2:A1,A2,A3,A4,S19,R19"


def test_9_double_open_tria_pending_then_wins():
    s = setup(C2_SETUP, double_tria=True)
    s.play("(0,0)")
    assert s.outcome is None and s.pending == 0
    s.play("T1")
    assert s.outcome.winners == (0,)
    assert s.outcome.reason == "double open tria"


def test_9_five_on_the_reply_beats_the_double_tria():
    s = setup(C2_SETUP, double_tria=True)
    s.play("(0,0)")
    s.play("A5")
    assert s.outcome.winners == (1,)


def test_double_tria_is_off_by_default():
    s = setup(C2_SETUP)
    s.play("K10")
    assert s.pending == -1
    s.play("T1")
    assert s.outcome is None


def test_capture_win_on_the_reply_overrides_only_with_the_flag():
    # B has 8 stones and captures the W pair S18+S17 with S16 on the reply
    base = "ply=30 next=1 captures=0,8 1:J10,L10,K9,K11,S18,S17 2:A1,A2,A3,S19,C1"
    s = setup(base, double_tria=True)
    s.play("K10")
    s.play("S16")
    assert s.captures[1] == 10
    assert s.outcome.winners == (0,)
    s = setup(base, double_tria=True, capture_win_overrides=True)
    s.play("K10")
    s.play("S16")
    assert s.outcome.winners == (1,)


def test_capturing_stones_of_the_double_tria_does_not_cancel_it():
    # W: J9,K9 is a pair flanked by B at H9; B's L9 captures it and breaks the column tria
    s = setup("ply=20 next=1 1:J10,L10,K9,K11,J9 2:H9,A1,A2,A3", double_tria=True)
    s.play("K10")
    assert s.pending == 0
    s.play("L9")
    assert stones(s, 0) >= {"J10", "K10", "L10", "K11"} and "K9" not in stones(s, 0)
    assert s.outcome.winners == (0,)


def test_open_tria_definition():
    game = qipan.load("pente", board_size=19)
    cases = {
        "K10,L10,M10": 1,  # _XXX_ in the open
        "K10,L10,N10": 1,  # split tria _XX_X_
        "K10,M10,N10": 1,
        "A10,B10,C10": 0,  # against the edge: OXXX__ like
        "K10,L10,M10,D1,E1,F1,G1": 1,  # a four on row 1 is not a tria
    }
    for text, expected in cases.items():
        s = game.position(f"ply=20 next=1 1:{text} 2:A19")
        assert s.open_tria_lines(0) == expected, text
    blocked = game.position("ply=20 next=1 1:K10,L10,M10 2:H10,O10")  # O_XXX_O
    assert blocked.open_tria_lines(0) == 0
    one_end = game.position("ply=20 next=1 1:K10,L10,M10 2:J10")  # OXXX__
    assert one_end.open_tria_lines(0) == 0
    two_on_one_line = game.position("ply=20 next=1 1:C10,D10,E10,H10,J10,K10 2:A19")  # _XXX__XXX_
    assert two_on_one_line.open_tria_lines(0) == 1


def test_pre_existing_open_tria_counts():
    s = setup("ply=20 next=1 1:K10,L10,M10,C3,C4 2:A19,S19,S1,A1", double_tria=True)
    s.play("C5")  # a new tria on file C beside the old one on row 10
    assert s.pending == 0


def test_exact_five_and_double_tria_combine():
    s = setup(C2_SETUP, double_tria=True, exact_five=True)
    s.play("K10")
    assert s.pending == 0
    s.play("A5")
    assert s.outcome.winners == (1,)


# -- max_pairs_per_move ------------------------------------------------------------------
def test_max_pairs_per_move_lets_the_mover_choose():
    s = setup("ply=6 next=1 1:N10,K13 2:L10,M10,K11,K12", max_pairs_per_move=1)
    on_k10 = sorted(m.text for m in s.legal_moves() if m.text.startswith("K10"))
    assert on_k10 == ["K10xK11", "K10xL10"]
    before = snapshot(s)
    with pytest.raises(IllegalMove, match="choose one of"):
        s.play("K10")
    assert snapshot(s) == before
    move = s.play("K10xK11")
    assert move.path == ("K10", "K11")
    assert stones(s, 1) == {"L10", "M10"}
    assert s.captures == [2, 0]


def test_max_pairs_unlimited_by_default():
    s = setup("ply=6 next=1 1:N10,K13 2:L10,M10,K11,K12")
    assert [m.text for m in s.legal_moves() if m.text.startswith("K10")] == ["K10"]
    assert s.game.parse("K10xL10xK11", s).text == "K10"  # naming every pair is accepted
    with pytest.raises(IllegalMove, match="not what was written"):
        s.game.parse("K10xL10", s)


# -- scenario 10 and the four-player games -------------------------------------------------
def test_10_team_mixed_capture():
    s = setup("ply=8 next=1 1:K10 2:L10 3:M10 4:A1", "pente-team")
    s.play("(3,0)")
    assert stones(s, 1) == set() and stones(s, 2) == set()
    assert s.captures == [2, 0, 0, 0]
    assert s.team_captures(0) == 2 == s.team_captures(2)
    # brackets of the partner's colour do not capture
    s = setup("ply=8 next=1 2:L10 3:M10,N10 4:A1", "pente-team")
    s.play("(0,0)")
    assert stones(s, 1) == {"L10"} and stones(s, 2) == {"M10", "N10"}


def test_team_partner_pair_captured_and_counted():
    s = setup("ply=8 next=1 1:K10 3:L10,M10 2:A1", "pente-team")
    s.play("N10")
    assert stones(s, 2) == set()
    assert s.captures[0] == 2
    s = setup("ply=8 next=1 1:K10 3:L10,M10 2:A1", "pente-team", count_partner_captures=False)
    s.play("N10")
    assert stones(s, 2) == set() and s.captures[0] == 0


def test_team_capture_win_counts_both_partners():
    s = setup("ply=40 next=3 captures=4,0,4,0 3:K10 2:L10,M10 1:A1 4:C1", "pente-team")
    s.play("N10")
    assert s.outcome.winners == (0, 2)
    assert s.outcome.reason == "10 stones captured"


def test_team_five_needs_one_colour_and_turns_alternate_teams():
    s = setup("ply=40 next=1 1:K10,L10,N10 3:M10 2:A1 4:C1", "pente-team")
    s.play("O10")
    assert s.outcome is None and s.to_move == 1
    s = setup("ply=40 next=1 1:K10,L10,M10,N10 2:A1 3:C3 4:C1", "pente-team")
    s.play("O10")
    assert s.outcome.winners == (0, 2)


def test_four_player_free_for_all():
    s = setup("ply=40 next=2 2:K10,L10,M10 1:A1 3:C1 4:E1", "pente-4")
    s.play("N10")
    assert s.outcome.winners == (1,)
    assert s.outcome.reason == "four in a row"
    # mixed pairs are captured; only the individual's count wins
    s = setup("ply=40 next=1 captures=8,0,0,0 1:K10 2:L10 3:M10 4:A1", "pente-4")
    s.play("N10")
    assert s.outcome.winners == (0,)
    s = qipan.load("pente-4").new()
    assert s.num_players == 4
    s.play_many(["K10", "A1", "B1", "C1"])
    assert s.to_move == 0


def test_first_player_option():
    s = qipan.load("pente", first_player=2).new()
    assert s.to_move == 1
    s.play("K10")
    assert stones(s, 1) == {"K10"}
    with pytest.raises(qipan.OptionError):
        qipan.load("pente-team", first_player=5)


# -- bad input ------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["", "Z5", "I10", "K20", "A0", "(10,0)", "(0,-10)", "K10x", "hello", "10K"])
def test_bad_notation_raises_and_changes_nothing(text):
    s = qipan.load("pente").new()
    s.play("K10")
    before = snapshot(s)
    with pytest.raises((NotationError, IllegalMove)):
        s.play(text)
    assert snapshot(s) == before


def test_occupied_point_is_illegal():
    s = qipan.load("pente").new()
    s.play("K10")
    before = snapshot(s)
    with pytest.raises(IllegalMove, match="K10 is occupied"):
        s.play("(0,0)")
    with pytest.raises(IllegalMove):
        s.play(s.geom.moves[s.geom.centre])
    assert snapshot(s) == before


# -- tria / tessera for the etiquette (禮節) ---------------------------------------------
def test_the_seeds_etiquette_announces_tria_and_tessera():
    # the seed (禮節): "下出「活三」時 ... 宣告「三」... 或是「Tria」... 下出「四子一列」時 ...
    # 宣告「四」... 或是「Tessera」"; its diagrams: an open tria, a split tria (跳三), then
    # the open four of move 7
    s = setup("ply=20 next=1 1:K10,L10 2:A1,A3")
    s.play("M10")  # _XXX_ (the seed's "Tria")
    assert s.announcements() == ["tria"] and "P1 White announces: tria" in s.text()
    assert s.formations(0, TRIA) == [tuple(s.geom.index(c, 9) for c in range(7, 13))]  # H10..N10
    s = setup("ply=20 next=1 1:K10,L10 2:A1,A3")
    s.play("N10")  # _XX_X_ (the seed's "Split Tria", 跳三)
    assert s.announcements() == ["tria"]
    s.play("A5")
    assert s.announcements() == [] and "announces" not in s.text()
    s.play("M10")  # K10 L10 M10 N10 with both ends open: the seed's 活四 (move 7)
    assert s.announcements() == ["tessera"] and "announces: tessera" in s.text()
    assert "announces" in s.svg()


def test_tessera_is_one_stone_from_five_and_needs_the_stone_just_placed():
    s = setup("ply=20 next=1 1:K10,L10,M10 2:J10,A1,A3")
    s.play("N10")  # OXXXX_: blocked at one end, still a four that threatens five
    assert s.announcements() == ["tessera"]
    s = setup("ply=20 next=1 1:K10,L10,N10 2:A1,A3,A5")
    s.play("O10")  # XX_XX: a split four
    assert s.announcements() == ["tessera"]
    s = setup("ply=20 next=1 1:K10,L10,M10 2:J10,O10,A1")
    s.play("N10")  # OXXXXO: nothing to announce, no five can come of it
    assert s.announcements() == []
    s = setup("ply=20 next=1 1:K10,L10,M10 2:A1,A3,A5")
    s.play("C19")  # the tria on row 10 was there before: the stone just placed made nothing
    assert s.formations(0, TRIA) and s.announcements() == []
    s = setup("ply=20 next=1 1:K10,L10,M10,N10 2:A1,A3,A5")
    s.play("O10")  # five: the game is over, nothing to announce
    assert s.outcome is not None and s.announcements() == []
    s = qipan.load("pente").position("ply=20 next=1 1:A1,B2,C3,D4 2:T19,S19")  # a 5-point diagonal end
    assert s.formations(0, TESSERA) == [tuple(s.geom.index(k, k) for k in range(5))]
