"""The ``trax`` agent's search (``search.py``) and threat knowledge (``threats.py``): exact
immediate wins against brute force, the engine games' four-ply loss, threat sequences,
the transposition tables kept between moves, seeds and limits."""

from __future__ import annotations

import random

import pytest
from trax_helpers import DATA, data_rows, play, random_positions

import qipan
from qipan.agents import agent_specs
from qipan.games.trax import TraxAgent, TraxClassicAgent, TraxGame
from qipan.games.trax.records import read_trx
from qipan.games.trax.rules import IllegalTurn, free_placements, outcome_of
from qipan.games.trax.search import PROVEN, Memory, ThreatSearch
from qipan.games.trax.threats import completed, turn_result, winning_moves

ENGINE_LOSSES = [row[1] for row in data_rows("trax_engine_losses.tsv")]
PUZZLES = read_trx((DATA / "trax_puzzles_gnutrax_easy.trx").read_text())
GAMES = [
    TraxGame(),
    TraxGame(variant="8x8"),
    TraxGame(variant="loop"),
    TraxGame(simultaneous="draw"),
    TraxGame(line_rule="span"),
]


def brute_force_wins(state, player):
    """The legal moves after which ``player`` (the side to move) has won, by play/undo."""
    wins = set()
    for move in state.legal_moves():
        state.play(move)
        if state.outcome is not None and state.outcome.winners == (player,):
            wins.add(move.data)
        state.undo()
    return wins


@pytest.mark.parametrize("game", GAMES, ids=lambda g: f"{g.variant}-{g.simultaneous}-{g.line_rule}")
def test_winning_moves_are_exactly_the_immediate_wins(game):
    for state in random_positions(game, 40, seed=11):
        board = state.board
        cells = dict(board.cells)
        found = winning_moves(
            board,
            state.to_move,
            game.lines_win,
            game.limited,
            game.simultaneous == "draw",
            game.line_rule == "span",
        )
        assert set(found) == brute_force_wins(state, state.to_move), state.position()
        assert board.cells == cells  # left as it was


@pytest.mark.parametrize("game", GAMES, ids=lambda g: f"{g.variant}-{g.simultaneous}-{g.line_rule}")
def test_turn_result_agrees_with_the_rules(game):
    span = game.line_rule == "span"
    for state in random_positions(game, 25, seed=5):
        mover = state.to_move
        board = state.board
        for move in state.legal_moves()[:30]:
            placed = board.place(*move.data)
            before = board.bbox()
            board.commit(placed)
            white, red = board.wins(placed, game.lines_win)
            outcome = outcome_of((white, red), mover, game.simultaneous)
            assert completed(board, placed, 0, game.lines_win, span) == bool(white)
            assert completed(board, placed, 1, game.lines_win, span) == bool(red)
            result = turn_result(board, placed, mover, game.lines_win, game.simultaneous == "draw", span)
            board.uncommit(placed, before)
            expected = (
                None if outcome is None else 0.0 if not outcome.winners else outcome.reward(mover) * 2 - 1
            )
            assert result == expected, (state.position(), move.text)


def test_sees_the_four_ply_loss_of_the_engine_games():
    # The six games reach one position at ply 7 (a row of six straight tiles, White to
    # move) and the old agent played G1\\ there at 1, 3 and 8 s: lost four plies deep
    # (G2\\, any, and a red line or loop).
    positions = {play(moves.split()[:6], variant="8x8").position() for moves in ENGINE_LOSSES}
    assert positions == {"|||||| W"} and {moves.split()[6] for moves in ENGINE_LOSSES} == {"G1\\"}
    state = play(ENGINE_LOSSES[0].split()[:6], variant="8x8")
    agent = TraxAgent(depth=3, seed=1)
    assert agent.choose(state).text != "G1\\"
    scores = {state.move_for(*m).text: v for m, v in agent.last_search.scores.items()}
    assert scores["G1\\"] <= -PROVEN
    # And the loss is real: after G1\\ and G2\\, every White move lets Red win at once.
    state.play_many(["G1\\", "G2\\"])
    for reply in state.legal_moves():
        state.play(reply)
        assert state.outcome is not None or brute_force_wins(state, 1), reply.text
        state.undo()


def test_continuous_threats_prove_the_white_l_puzzle():
    # "white L": A1\\ wins whatever Red replies; the threat search alone finds it.
    state = play(PUZZLES[3].moves)
    search = ThreatSearch(state, random.Random(1))
    move = search._vcf(state.to_move, 2, 0)
    assert move is not None and state.move_for(*move).text == "A1\\"
    assert search.board.cells == state.board.cells  # the search undid every trial


def test_threat_search_finds_nothing_where_there_is_no_forced_win():
    state = play("@0+ @1/")
    search = ThreatSearch(state, random.Random(1))
    assert search._vcf(state.to_move, 3, 0) is None


def test_same_seed_same_move_and_state_unchanged():
    state = play("@0+ A2+ B1/ C1/ D1/ D2/", variant="8x8")
    key = state.key()
    first = TraxAgent(depth=1, seed=4).choose(state)
    again = TraxAgent(depth=1, seed=4).choose(state)
    assert first == again
    assert state.key() == key


def test_node_limit_stops_the_search():
    state = play("@0+ A2+ B1/ C1/ D1/ D2/", variant="8x8")
    agent = TraxAgent(iterations=300, seed=1)
    move = agent.choose(state)
    assert move in state.legal_moves()
    assert agent.last_search.nodes < 2000


def test_memory_is_kept_between_moves_and_reset_for_other_rules(monkeypatch):
    monkeypatch.setenv("QIPAN_KERNELS", "0")  # the Python search (test_kernel.py: the compiled one)
    agent = TraxAgent(depth=2, seed=1)
    state = play("@0+ A2+ B1/", variant="8x8")
    state.play(agent.choose(state))
    assert isinstance(agent.last_search, ThreatSearch) and type(agent.last_search) is ThreatSearch
    memory = agent._memory
    assert memory.table and memory.wins_known
    state.play(state.legal_moves()[0])
    agent.choose(state)
    assert agent._memory is memory
    agent.choose(play("@0+ A2+ B1/"))  # unlimited: other rules, a fresh memory
    assert agent._memory is not memory


def test_memory_empties_itself_when_full():
    memory = Memory()
    memory.table.update((i, (1, 0, 0.0, None)) for i in range(Memory.CAPACITY + 1))
    memory.trim()
    assert not memory.table


def test_new_agent_is_the_strongest_trax_agent_and_the_reference_stays_callable():
    specs = {a.name: a for a in agent_specs() if a.families == ("trax",)}
    assert specs["trax"].make is TraxAgent and specs["trax-classic"].make is TraxClassicAgent
    assert specs["trax"].strength > specs["trax-classic"].strength
    agent = qipan.agents.load("trax-classic", depth=1, seed=1)
    assert isinstance(agent, TraxClassicAgent) and agent.describe() == "trax-classic(depth=1)"


@pytest.mark.parametrize("game", GAMES[:2], ids=lambda g: g.variant)
def test_place_if_legal_is_place_without_the_exception(game):
    for state in random_positions(game, 30, seed=8):
        board = state.board
        cells = dict(board.cells)
        for pos, tile in free_placements(board, game.limited):
            try:
                expected = board.place(pos, tile)
            except IllegalTurn:
                expected = None
            else:
                board.rollback(expected)
            got = board.place_if_legal(pos, tile)
            if got is not None:
                board.rollback(got)
            assert got == expected
            assert board.cells == cells
