"""MOD X rules (rules/modx.md): every numbered scenario of §3.11 and every option.

Black is ``B`` here (the rules file's scenarios call it K)."""

from __future__ import annotations

import pytest

import qipan
from qipan.core import IllegalMove, OptionError, QipanError
from qipan.games.modx.board import NAMES

from .conftest import make, snapshot


def cells(*names: str, piece: str = "R") -> dict[str, str]:
    return dict.fromkeys(names, piece)


# Two jokers out of the way, so the positions are like real play.
JOKERS = {"A8": "J", "H8": "J"}


# -- §3.11 scenarios --------------------------------------------------------------------


def test_1_plus_scores_five():
    state = make({**cells("D4", "C4", "E4", "D5"), **JOKERS})
    assert state.supply_x[0] == 10
    move = state.play("D3")
    assert move.text == "D3 {D3 C4 D4 E4 D5}"
    assert state.points == [5, 0]
    for sq in ("D3", "C4", "D4", "E4", "D5"):
        assert state.stacks[NAMES.index(sq)] == (0,)
    assert state.xs[0] == 0 and state.supply_x[0] == 14
    assert state.supply_m[0] == 13
    assert state.to_move == 1


def test_2_diagonal_cross_scores_five():
    state = make({**cells("D4", "C3", "E5", "C5"), **JOKERS})
    assert state.play("E3").text == "E3 {C3 E3 D4 C5 E5}"
    assert state.points == [5, 0]


def test_3_line_with_a_joker_scores_four_and_the_joker_is_relocated():
    # R also has G1-G4, so a joker on G5 would complete an R line: that relocation is illegal.
    state = make({**cells("A1", "B2", "D4", "G1", "G2", "G3", "G4"), "C3": "J", **JOKERS})
    assert state.play("E5").text == "E5 {A1 B2 C3 D4 E5}"
    assert state.points == [4, 0]
    assert state.stacks[NAMES.index("C3")] == ()
    assert [state.stacks[NAMES.index(n)] for n in ("A1", "B2", "D4", "E5")] == [(0,)] * 4
    assert state.phase == "relocate" and state.pending == 1 and state.to_move == 0
    targets = {m.text for m in state.legal_moves()}
    assert len(targets) == 64 - 4 - 2 - 1  # open squares (G1-G4 and two jokers taken) but G5
    assert "J>G5" not in targets
    assert {"J>C3", "J>A1", "J>H1"} <= targets
    with pytest.raises(IllegalMove, match="complete your own pattern"):
        state.play("J>G5")
    state.play("J>C3")
    assert state.to_move == 1 and state.phase == "play"


def test_4_overlapping_patterns_are_scored_at_once():
    state = make({**cells("B4", "C4", "E4", "F4", "D3", "D5"), **JOKERS})
    assert state.threats(0)[0] == 0  # nothing complete yet
    assert state.play("D4").text == "D4 {D3 B4 C4 D4 E4 F4 D5}"
    assert state.points == [7, 0]
    assert state.supply_x[0] == 14 and state.supply_m[0] == 11


def test_5_covering_opponent_markers():
    board = {"D3": "bR", "D4": "bR", "D5": "bR", "D6": "bR", "D7": "b", **JOKERS}
    state = make(board)
    assert state.points == [0, 5]
    state.play("D7")
    assert state.points == [5, 0]
    for n in ("D3", "D4", "D5", "D6", "D7"):
        assert state.stacks[NAMES.index(n)] == (1, 0)


def test_6_own_marker_beneath_gets_no_new_marker():
    state = make({"D3": "rR", **cells("D4", "D5", "D6"), **JOKERS})
    assert state.points == [1, 0]
    state.play("D7")
    assert state.points == [5, 0]
    assert state.stacks[NAMES.index("D3")] == (0,)
    assert state.supply_m[0] == 18 - 5
    assert state.supply_x[0] == 14


def test_7_joker_relocation_may_not_complete_own_pattern_but_may_complete_the_opponents():
    board = {**cells("D4", "C4", "E4", "D5"), **cells("A6", "B6", "C6", "D6", piece="B"), "H1": "J"}
    state = make(board, phase="relocate 1")
    with pytest.raises(IllegalMove):
        state.play("J>D3")
    assert "J>D3" not in state.legal_move_texts()
    before = snapshot(state)
    with pytest.raises(IllegalMove):
        state.play("D3")  # a placement is not allowed while a joker waits
    assert snapshot(state) == before
    state.play("J>E6")  # completes Black's line A6-E6: legal
    assert state.to_move == 1
    move = state.play("H4")
    assert move.text == "H4 {A6 B6 C6 D6 E6}"
    assert state.points == [0, 4]
    assert state.phase == "relocate" and state.to_move == 1


@pytest.mark.parametrize("target", ["F6", "A1"])
def test_8_all_joker_pattern_wins_at_once(target):
    state = make({**cells("B2", "C3", "D4", "E5", piece="J")}, phase="relocate 1")
    state.play(f"J>{target}")
    assert state.outcome is not None and state.outcome.winners == (0,)
    assert "jokers only" in state.outcome.reason
    assert state.to_move is None and state.legal_moves() == []


def test_8_all_joker_win_even_if_the_joker_also_completes_an_own_pattern():
    board = {**cells("B2", "C3", "D4", "E5", piece="J"), **cells("F2", "F3", "F4", "F5"), "H8": "J"}
    state = make(board, phase="relocate 1")
    assert "J>F6" in state.legal_move_texts()
    state.play("J>F6")
    assert state.outcome.winners == (0,)


def test_9_setup_jokers_may_not_touch():
    state = qipan.load("modx").new()
    assert state.phase == "setup" and state.to_move == 0 and state.pending == 5
    state.play("J@C3")
    before = snapshot(state)
    for bad in ("J@D4", "J@C4", "J@B2", "J@C3"):
        with pytest.raises(IllegalMove, match="next to a joker"):
            state.play(bad)
        assert snapshot(state) == before
    state.play("J@E3")
    for sq in ("A8", "H8", "H1"):
        state.play(f"J@{sq}")
    assert state.phase == "play" and state.to_move == 1  # P1 placed the jokers, P2 starts
    assert state.jokers.bit_count() == 5
    with pytest.raises(IllegalMove, match="already placed"):
        state.play("J@A5")


def test_10_threshold_wins_at_once_without_relocation():
    # R has 13 points; the plus around D4 uses a joker on D5; +4 -> 17 >= 15.
    board = {n: "r" for n in ("A8", "B8", "C8", "D8", "E8", "F8", "G8", "H8", "A7", "B7", "C7", "D7", "E7")}
    board.update({**cells("C4", "E4", "D3"), "D5": "J", "H1": "J"})
    state = make(board)
    assert state.points[0] == 13
    state.play("D4")
    assert state.points[0] == 17
    assert state.outcome.winners == (0,) and "15" in state.outcome.reason
    assert state.phase == "play" and state.pending == 0 and state.to_move is None
    assert state.jokers.bit_count() == 1  # the scored joker is not relocated
    assert state.outcome.scores == (17.0, 0.0)


def test_10_threshold_with_five_new_markers():
    board = {n: "r" for n in ("A8", "B8", "C8", "D8", "E8", "F8", "G8", "H8", "A7", "B7", "C7", "D7", "E7")}
    board.update(cells("D4", "C4", "E4", "D3"))
    state = make(board)
    state.play("D5")
    assert state.points[0] == 18 and state.outcome.winners == (0,)


# Black's 13 X pieces, no pattern among them.
BLACK_13 = cells("A8", "B8", "C8", "D8", "F8", "G8", "H8", "A6", "B6", "C6", "D6", "F6", "G6", piece="B")
LOW_JOKERS = {"A3": "J", "F1": "J"}


def test_11_exhaustion_of_x_pieces_ends_the_game_and_the_higher_score_wins():
    state = make({**BLACK_13, "A1": "r", "B1": "r", "C1": "r", "D1": "b", **LOW_JOKERS}, turn="B")
    assert state.supply_x[1] == 1
    state.play("H3")
    assert state.supply_x[1] == 0
    assert state.outcome.winners == (0,) and "X pieces" in state.outcome.reason
    assert state.outcome.scores == (3.0, 1.0)


def test_11_tie_at_exhaustion_is_a_draw():
    state = make({**BLACK_13, "A1": "r", "D1": "b", **LOW_JOKERS}, turn="B")
    state.play("H3")
    assert state.outcome.is_draw and state.outcome.winners == ()


def test_11_last_marker_covers_first_then_the_game_ends():
    # R has 17 markers on the board (one left) and 9 points; Black 2 points.
    board = {n: "rbr" for n in ("A8", "B8", "C8", "D8", "E8", "F8", "G8", "H8")}
    board.update({"A6": "r", "D2": "bR", "D4": "bR", **cells("D1", "D3"), "H1": "J"})
    state = make(board)
    assert state.supply_m == [1, 8]
    assert state.points == [9, 2]
    state.play("D5")
    # the one marker covers the first square topped by Black (board order: D2), nothing else
    assert state.stacks[NAMES.index("D2")] == (1, 0)
    assert state.stacks[NAMES.index("D4")] == (1,)
    assert state.stacks[NAMES.index("D1")] == () and state.stacks[NAMES.index("D5")] == ()
    assert state.xs[0] == 0 and state.supply_x[0] == 14  # every scored X still goes back
    assert state.points == [10, 1]
    assert state.outcome.winners == (0,) and "markers" in state.outcome.reason


def test_11_relocation_happens_before_the_marker_exhaustion_ends_the_game():
    board = {n: "rbr" for n in ("A8", "B8", "C8", "D8", "E8", "F8", "G8", "H8")}
    board.update({"A6": "r", "D2": "bR", "D4": "bR", "D1": "R", "D3": "J", "H1": "J"})
    state = make(board)
    state.play("D5")
    assert state.supply_m[0] == 0
    assert state.outcome is None and state.phase == "relocate" and state.to_move == 0
    state.play("J>F3")
    assert state.outcome is not None and state.outcome.winners == (0,) and "markers" in state.outcome.reason


def test_12_x_on_opponent_markers_keeps_their_points():
    state = make({"E5": "b", **JOKERS})
    state.play("E5")
    assert state.points == [0, 1]
    assert state.top[NAMES.index("E5")] == 1
    assert "bR" in state.position()


def test_markers_under_x_pieces_count_and_covered_markers_do_not():
    state = make({"A1": "rbR", "B1": "brB", "C1": "r", "D1": "rb", **JOKERS})
    assert state.points == [2, 2]


# -- turn order, options and presets ----------------------------------------------------


def test_x_placement_needs_an_open_square():
    state = make({"C3": "R", "D4": "B", "E5": "J"}, turn="B")
    before = snapshot(state)
    for bad, why in (("C3", "X piece"), ("D4", "X piece"), ("E5", "joker")):
        with pytest.raises(IllegalMove, match=why):
            state.play(bad)
        assert snapshot(state) == before


def test_pattern_made_by_another_players_relocation_is_scored_on_any_placement():
    # Black's line A6-E6 is already complete (a red relocation made it); any Black placement scores it.
    board = {**cells("A6", "B6", "C6", "D6", piece="B"), "E6": "J", **JOKERS}
    state = make(board, turn="B")
    assert all("{A6 B6 C6 D6 E6" in m.text for m in state.legal_moves())
    assert state.play("H1").text == "H1 {A6 B6 C6 D6 E6}"
    assert state.points == [0, 4] and state.phase == "relocate"


def test_other_colours_do_not_count_in_a_pattern():
    state = make({**cells("D4", "C4", "E4"), "D5": "B", **JOKERS})
    assert state.play("D3").text == "D3"
    assert state.points == [0, 0]


def test_three_players_play_to_12_and_turns_go_round():
    board = {n: "r" for n in ("A8", "B8", "C8", "D8", "E8", "F8", "G8")}
    board.update(cells("D4", "C4", "E4", "D3"))
    state = make(board, players=3, game="modx-3")
    assert state.target == 12
    state.play("D5")
    assert state.outcome.winners == (0,) and state.points[0] == 12


def test_four_players_play_to_10():
    board = {n: "y" for n in ("A8", "B8", "C8", "D8", "E8")}
    board.update(cells("D4", "C4", "E4", "D3", piece="Y"))
    state = make(board, turn="Y", players=4, game="modx-4")
    assert state.target == 10
    state.play("D5")
    assert state.outcome.winners == (2,)


def test_turn_order_is_clockwise_for_four_players():
    state = qipan.load("modx-4", random_jokers=True).new(seed=3)
    seen = []
    for _ in range(8):
        seen.append(state.to_move)
        state.play(next(m for m in state.legal_moves() if "{" not in m.text))
    assert seen == [1, 2, 3, 0, 1, 2, 3, 0]


def test_teams_play_to_a_combined_12():
    board = {n: "r" for n in ("A8", "B8", "C8", "D8")}
    board.update({n: "y" for n in ("E8", "F8", "G8")})
    board.update(cells("D4", "C4", "E4", "D3"))
    state = make(board, players=4, game="modx-teams")
    assert state.target == 12
    state.play("D5")
    assert state.points[0] == 9 and state.points[2] == 3
    assert state.outcome.winners == (0, 2)


def test_partners_do_not_cover_each_other():
    board = {"D3": "yR", **cells("D4", "D5", "D6"), "D7": "b", **JOKERS}
    state = make(board, players=4, game="modx-teams")
    state.play("D7")
    assert state.stacks[NAMES.index("D3")] == (2,)  # the partner's marker stays on top
    assert state.stacks[NAMES.index("D7")] == (1, 0)  # the opponent's is covered
    assert state.points == [4, 0, 1, 0]


def test_in_free_for_all_yellow_markers_are_covered():
    board = {"D3": "yR", **cells("D4", "D5", "D6"), **JOKERS}
    state = make(board, players=4, game="modx-4")
    state.play("D7")
    assert state.stacks[NAMES.index("D3")] == (2, 0)
    assert state.points == [5, 0, 0, 0]


def test_team_exhaustion_compares_team_totals():
    board = {**BLACK_13, "A1": "r", "B1": "y", "C1": "b", **LOW_JOKERS}
    state = make(board, turn="B", players=4, game="modx-teams")
    state.play("H3")
    assert state.outcome.winners == (0, 2)  # 2 against 1
    state = make(board, turn="B", players=4, game="modx-4")
    state.play("H3")
    assert state.outcome.is_draw  # every player has 1: a tie for the lead


def test_teams_need_four_players():
    with pytest.raises(QipanError):
        qipan.load("modx", teams=True).new(players=2)
    assert qipan.load("modx-teams").new().num_players == 4


@pytest.mark.parametrize("jokers", [5, 6, 7, 8])
def test_joker_count_option(jokers):
    state = qipan.load("modx", jokers=jokers).new()
    assert state.pending == jokers
    placed = 0
    while state.phase == "setup":
        state.play(state.legal_moves()[-1])
        placed += 1
    assert placed == jokers and state.jokers.bit_count() == jokers


@pytest.mark.parametrize("bad", [4, 9, "x"])
def test_joker_count_option_is_validated(bad):
    with pytest.raises(OptionError):
        qipan.load("modx", jokers=bad)


def test_random_joker_setup_is_legal_seeded_and_player_two_starts():
    game = qipan.load("modx", random_jokers=True)
    a, b, c = game.new(seed=1), game.new(seed=1), game.new(seed=2)
    assert a.phase == "play" and a.to_move == 1 and a.history == []
    assert a.jokers.bit_count() == 5
    assert a.key() == b.key() and a.key() != c.key()
    from qipan.games.modx.board import KING_AREA

    for s in range(64):
        if a.jokers >> s & 1:
            assert a.jokers & KING_AREA[s] == 1 << s
    eight = qipan.load("modx", random_jokers=True, jokers=8).new(seed=5)
    assert eight.jokers.bit_count() == 8


def test_presets():
    assert qipan.load("modx").players == (2, 3, 4)
    assert qipan.load("modx").new().num_players == 2
    assert qipan.load("modx-3").new().num_players == 3
    assert qipan.load("modx-4").new().num_players == 4
    teams = qipan.load("modx-teams")
    assert teams.options["teams"] is True and teams.new().target == 12


def test_undo_restores_a_scoring_turn_exactly():
    state = make({**cells("A1", "B2", "D4"), "C3": "J", "E5": "b", **JOKERS})
    before = snapshot(state)
    state.play("E5")
    state.play("J>H4")
    state.undo()
    state.undo()
    assert snapshot(state) == before
    assert state.points == [0, 1] and state.supply_x[0] == 11 and state.supply_m == [18, 17]


def test_a_joker_with_no_legal_square_leaves_play():
    # 4 players, every X piece on the board; Red must relocate 2 jokers and only C6 and F3 are
    # open. A joker on either makes the other complete a Red pattern, so the second joker leaves play.
    rows = [
        "B J B O O O B Y",
        "O O B B B O Y R",
        "R J . R O R Y Y",
        "R B O R J O Y B",
        "J Y B O R O Y Y",
        "B O J R Y . O R",
        "B R O R B Y R Y",
        "B R J Y R Y B Y",
    ]
    state = qipan.load("modx-4").position("\n".join(["4 R relocate 2", *rows]))
    assert sorted(state.legal_move_texts()) == ["J>C6", "J>F3"]
    state.play("J>F3")
    assert state.pending == 0 and state.phase == "play"
    assert state.jokers.bit_count() == 7
    assert "J>C6" not in state.legal_move_texts()
    # every supply is empty, so the turn's end is also the game's end
    assert state.outcome is not None and "X pieces" in state.outcome.reason
    state.undo()
    assert state.pending == 2 and state.jokers.bit_count() == 6


def test_perft():
    from qipan.core.perft import perft

    state = qipan.load("modx").new()
    assert perft(state, 1) == 64
    # ordered pairs of squares that do not touch: 64·64 minus the 484 (square, 3×3 area) pairs
    assert perft(state, 2) == 64 * 64 - 484
    assert perft(state, 3) == 178248  # pinned
    state.play_many(["J@A1", "J@C1", "J@E1", "J@G1", "J@A8"])
    assert state.to_move == 1
    # no placement can score in the first two turns: each takes one of the open squares
    assert perft(state, 2) == 59 * 58
    assert perft(state, 3) == 59 * 58 * 57


@pytest.mark.parametrize("game_id", ["modx", "modx-3", "modx-4", "modx-teams"])
def test_invariants_hold_through_random_games(game_id):
    """Pieces are conserved, points are the top markers, and nobody is left with a pattern
    of their colour after their own turn."""
    import random

    from qipan.games.modx.board import PATTERNS

    game = qipan.load(game_id, jokers=7)
    for seed in range(3):
        state = game.new(seed=seed)
        rng = random.Random(seed)
        while state.outcome is None:
            mover, phase = state.to_move, state.phase
            state.play(rng.choice(state.legal_moves()))
            n = state.num_players
            for p in range(n):
                assert state.xs[p].bit_count() + state.supply_x[p] == 14
                assert sum(s.count(p) for s in state.stacks) + state.supply_m[p] == 18
                assert state.points[p] == sum(1 for s in state.stacks if s and s[-1] == p)
            union = 0
            for mask in (state.jokers, *state.xs):
                assert not union & mask  # at most one X piece or joker per square
                union |= mask
            assert state.jokers.bit_count() + state.pending <= 7
            if phase == "play" and state.phase == "play" and state.outcome is None:
                own = state.xs[mover]
                assert not any(p & (own | state.jokers) == p and p & own for p in PATTERNS)


# -- manual_claims (rules §3.8, the seed's "忽略創造的圖案") -----------------------------

PLUS = cells("D4", "C4", "E4", "D5")
PLUS_SQUARES = "{D3 C4 D4 E4 D5}"


def claims(cells_, turn="R", **options):
    return make({**cells_, **JOKERS}, turn=turn, game="modx-claims", **options)


def test_manual_claims_the_mover_may_leave_a_pattern_unclaimed():
    state = claims(PLUS)
    texts = [m.text for m in state.legal_moves()]
    assert f"D3 {PLUS_SQUARES}" in texts and "D3 {}" in texts
    assert "H1 {}" not in texts  # H1 completes nothing: there is nothing to leave
    state.play("D3 {}")
    assert state.points == [0, 0] and state.xs[0].bit_count() == 5 and state.to_move == 1
    # Its maker may still claim it with a later placement (the whole board is scanned).
    state.play("H1")
    assert state.play("H2").text == f"H2 {PLUS_SQUARES}"
    assert state.points == [5, 0]


def test_manual_claims_another_player_claims_an_unclaimed_pattern_with_an_x_next_to_it():
    state = claims(PLUS)
    state.play("D3 {}")
    claims_ = {m.text for m in state.legal_moves() if m.data[0] == "claim"}
    # Every open square next to the pattern's five squares, and no other.
    assert "C3 claim " + PLUS_SQUARES in claims_ and "E6 claim " + PLUS_SQUARES in claims_
    assert len(claims_) == 16 and not any(t.startswith("H1 ") for t in claims_)
    move = state.play("c3 claim")  # the squares may be left out: one player's patterns are there
    assert move.text == "C3 claim " + PLUS_SQUARES
    assert state.points == [0, 5]
    for sq in ("D3", "C4", "D4", "E4", "D5"):
        assert state.stacks[NAMES.index(sq)] == (1,)
    assert state.xs[0] == 0 and state.supply_x == [14, 13]  # R's X pieces back to R
    assert state.xs[1] == 1 << NAMES.index("C3")  # the claiming X stays on the board
    assert state.to_move == 0
    state.undo()
    assert state.points == [0, 0] and state.xs[0].bit_count() == 5 and state.supply_x == [9, 14]


def test_manual_claims_a_claimed_joker_is_relocated_by_the_claimer():
    state = claims({**cells("A1", "B2", "D4"), "C3": "J"})
    state.play("E5 {}")
    state.play("F5 claim {A1 B2 C3 D4 E5}")
    assert state.points == [0, 4]
    assert state.phase == "relocate" and state.to_move == 1 and state.pending == 1
    state.play("J>C3")
    assert state.to_move == 0 and state.phase == "play"


@pytest.mark.parametrize(
    "text, words",
    [
        ("H1 claim " + PLUS_SQUARES, "H1 is not next to the patterns claimed"),
        ("C3 claim {D3 C4 D4 E4}", "C3 is not next to the patterns claimed"),
        ("D3 claim", "D3 is not open"),
        ("C3 claim {D3 C4 Z9}", "is not a square"),
        ("J>C3 claim", "only an X placement lists scored squares"),
    ],
)
def test_manual_claims_a_bad_claim_is_refused_and_changes_nothing(text, words):
    state = claims(PLUS)
    state.play("D3 {}")
    before = snapshot(state)
    with pytest.raises(QipanError, match=words):
        state.play(text)
    assert snapshot(state) == before


def test_manual_claims_nobody_claims_their_own_pattern_and_a_stale_claim_is_refused():
    state = claims(PLUS)
    state.play("D3 {}")
    state.play("H1")  # Black does not claim; Red's own pattern is not Red's to "claim"
    before = snapshot(state)
    with pytest.raises(IllegalMove, match="C3 is not next to the patterns claimed"):
        state.play("C3 claim")
    assert snapshot(state) == before
    stale = [m for m in claims(PLUS, turn="B").legal_moves() if m.data[0] == "claim"]
    assert stale == []  # no unclaimed pattern yet: nothing to claim
    from qipan.core.move import Move

    own = Move("C3 claim " + PLUS_SQUARES, ("C3",), ("claim", NAMES.index("C3"), 0))
    with pytest.raises(IllegalMove, match="a claim takes another player's patterns"):
        state.play(own)  # a Move made up with Red, the mover, as the owner
    with pytest.raises(IllegalMove, match="player 2 has no unclaimed pattern"):
        state.play(Move("C3 claim {}", ("C3",), ("claim", NAMES.index("C3"), 1)))
    assert snapshot(state) == before


def test_without_manual_claims_patterns_score_by_themselves():
    state = make({**PLUS, **JOKERS})
    before = snapshot(state)
    refusals = {
        "D3 {}": r"D3 scores \{D3 C4 D4 E4 D5\}, not \{\}",
        "C3 claim": "patterns are scored by themselves here",
    }
    for text, words in refusals.items():
        with pytest.raises(IllegalMove, match=words):
            state.play(text)
        assert snapshot(state) == before
    assert not any(m.data[0] in ("leave", "claim") for m in state.legal_moves())


def test_manual_claims_actions_are_distinct_and_random_games_end():
    import random

    game = qipan.load("modx-claims")
    actions = game.actions()
    seen = set()
    for seed in range(12):
        state = game.new(players=2 + seed % 3, seed=seed)
        rng = random.Random(seed)
        while state.outcome is None:
            legal = actions.legal(state)  # raises if two moves shared an action
            assert len(legal) == len(state.legal_moves())
            move = rng.choice(state.legal_moves())
            seen.add(move.data[0])
            state.play(move)
    assert {"leave", "claim"} <= seen


def test_manual_claims_a_record_with_leaves_and_claims_round_trips_through_the_turn_lines():
    from qipan.core.formats import read_records_text
    from qipan.games.modx.records import write

    game = qipan.load("modx-claims")
    state = game.new(seed=0)
    for text in ("J@A8", "J@H8", "J@A1", "J@H1", "J@C6"):
        state.play(text)
    for text in ("D4", "G7", "C4", "G6", "E4", "A6", "D5", "B7", "D3 {}", "C3 claim", "B3"):
        state.play(text)
    record = qipan.records.Record("modx-claims", {}, 2, moves=[m.text for m in state.history])
    text = write([record])
    assert "B D3 {}" in text and "R C3 claim {D3 C4 D4 E4 D5}" in text
    again = read_records_text(text)[0]
    assert again.moves == record.moves and again.replay().points == [5, 0]


def test_manual_claims_every_move_is_reached_by_its_own_clicks():
    """No legal move's click path is another's or starts another's: a click on the board
    never stops between two moves (the site's click model, web/clicks.js)."""
    import random

    state = claims(PLUS)
    state.play("D3 {}")
    paths = {m.text: m.path for m in state.legal_moves()}
    assert paths["C3 claim " + PLUS_SQUARES] == ("C3", "C3 claim " + PLUS_SQUARES)
    assert paths["C3"] == ("C3", "C3") and paths["H1"] == ("H1",)
    game = qipan.load("modx-claims")
    for seed in range(6):
        state = game.new(seed=seed)
        rng = random.Random(seed)
        while state.outcome is None:
            paths = sorted(m.path for m in state.legal_moves())
            for shorter, longer in zip(paths, paths[1:], strict=False):
                assert longer[: len(shorter)] != shorter, (shorter, longer)
            state.play(rng.choice(state.legal_moves()))
