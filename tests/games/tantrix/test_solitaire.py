"""The solitaire puzzles as games: play, options, bad input, and the agent solving them."""

import pytest

from qipan.core import CHANCE, IllegalMove, NotationError, QipanError
from qipan.games.tantrix.solver import (
    count_flower,
    flower_solutions,
    is_discovery_solution,
)

from .conftest import make, play_random


def test_discovery_game_is_won_by_playing_a_solution():
    game = make("tantrix-discovery", n=6)
    assert game.colour == "B"
    state = game.new()
    assert state.to_move == 0 and {m.data[2] for m in state.legal_moves()} == {(0, 0)}
    for cell, tile, rot in state.solutions()[0]:
        state.play(f"{tile}@{cell[0]},{cell[1]}r{rot}")
    assert state.outcome.winners == (0,) and state.outcome.reason == "solved"


def test_discovery_game_not_solved_when_the_tiles_do_not_form_the_loop():
    state = play_random(make("tantrix-discovery", n=4).new(), 1)
    assert state.outcome is not None
    solved = is_discovery_solution(state.board, "R") if len(state.board) == 4 else False
    assert (state.outcome.winners == (0,)) == solved


def test_discovery_colour_option_and_bad_options():
    assert make("tantrix-discovery", n=7, colour="B").colour == "B"
    assert make("tantrix-discovery", n=7).colour == "R"
    with pytest.raises(QipanError):
        make("tantrix-discovery", n=11)


def test_discovery_rejects_bad_moves_and_positions():
    state = make("tantrix-discovery", n=5).new()
    key = state.key()
    for text, error in (("6@0,0r0", IllegalMove), ("1@1,1r0", IllegalMove), ("1@0,0", NotationError)):
        with pytest.raises(error):
            state.play(text)
        assert state.key() == key
    game = make("tantrix-discovery", n=3)
    with pytest.raises(NotationError):
        game.position("board=1@0,0r0 hand=2")  # tile 3 missing
    with pytest.raises(NotationError):
        game.position("board=1@0,0r0;2@1,0r0 hand=3")  # edges do not match
    state = game.position("board=1@0,0r0 hand=2,3")
    assert game.position(state.position()).key() == state.key()


def test_flower_solutions_and_game():
    solution_tiles = [1, 2, 3, 4, 5, 6, 7]
    count = count_flower(solution_tiles)
    for arrangement in flower_solutions(solution_tiles):
        board = {cell: (t, r) for cell, t, r in arrangement}
        assert len(board) == 7
    state = make("tantrix-flower").new()
    assert state.to_move == CHANCE and len(state.chance_outcomes()) == 56
    for tile in solution_tiles:
        state.play(f"+{tile}")
    assert state.to_move == 0 and sorted(state.hand) == solution_tiles
    solutions = state.solutions()
    assert len(solutions) == count
    if solutions:
        for cell, tile, rot in solutions[0]:
            state.play(f"{tile}@{cell[0]},{cell[1]}r{rot}")
        assert state.outcome.winners == (0,)
    with pytest.raises(ValueError):
        count_flower([1, 2, 3])


def test_flower_game_places_only_in_the_flower():
    state = make("tantrix-flower").new()
    for tile in (10, 20, 30, 40, 50, 55, 56):
        state.play(f"+{tile}")
    cells = {m.data[2] for m in state.legal_moves()}
    assert cells == {(0, 0), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1)}


def test_agent_solves_discovery_puzzles():
    from qipan.games.tantrix import TantrixAgent

    for n in (4, 7):
        state = make("tantrix-discovery", n=n).new()
        agent = TantrixAgent(seed=1)
        while state.outcome is None:
            state.play(agent.choose(state))
        assert state.outcome.winners == (0,)


def test_the_agent_solves_every_flower_deal_that_has_a_solution():
    """What ``SolitaireGame.solved_by`` declares: it wins exactly the deals that can be won
    (12 random deals, and one of the rare deals without a solution)."""
    import random

    from qipan.core import resolve_chance
    from qipan.games.tantrix import TantrixAgent

    game = make("tantrix-flower")
    assert game.solved_by == ("tantrix",)
    deals = []
    for seed in range(12):
        state, rng = game.new(), random.Random(seed)
        while state.to_move == CHANCE:
            resolve_chance(state, rng)
        deals.append(state)
    unsolvable = game.new()
    for tile in (2, 11, 36, 44, 48, 51, 52):
        unsolvable.play(f"+{tile}")
    deals.append(unsolvable)
    for seed, state in enumerate(deals):
        solvable = count_flower(list(state.hand)) > 0
        agent = TantrixAgent(seed=seed)
        while state.outcome is None:
            state.play(agent.choose(state))
        assert (state.outcome.winners == (0,)) == solvable, seed
    assert not count_flower([2, 11, 36, 44, 48, 51, 52])


def test_the_agent_finishes_a_discovery_puzzle_from_any_solution_s_beginning():
    from qipan.games.tantrix import TantrixAgent

    state = make("tantrix-discovery", n=6).new()
    solution = next(iter(state.solutions()))
    for cell, tile, rot in solution[:3]:
        state.play(f"{tile}@{cell[0]},{cell[1]}r{rot}")
    agent = TantrixAgent(seed=2)
    while state.outcome is None:
        state.play(agent.choose(state))
    assert state.outcome.winners == (0,)
