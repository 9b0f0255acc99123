"""Strength of the Morris evaluation: the generic ``alphabeta`` agent with the game's
evaluation and move ordering against the same search with a blind evaluation (always 0, moves
in generation order), and against ``random``. Nine Men's Morris, colours alternate, games
capped at 300 plies (a draw).

    .venv/bin/python benchmarks/morris_alphabeta.py [--games 20] [--depth 2]
"""

from __future__ import annotations

import argparse
import time

import qipan
from qipan.agents import load as load_agent


class BlindGame:
    """Wraps a game so that the search sees no Morris knowledge."""

    def __init__(self, game):
        self._game = game

    def __getattr__(self, name):
        return getattr(self._game, name)

    def evaluate(self, state, player):
        return 0.0

    def order_moves(self, state, moves):
        return moves


def play(first, second, seed: int, blind_players=(), cap: int = 300):
    game = qipan.load("nine-mens-morris")
    state = game.new(seed=seed)
    agents = (first, second)
    blind = BlindGame(game)
    while state.outcome is None and state.ply < cap:
        player = state.to_move
        state.game = blind if player in blind_players else game
        move = agents[player].choose(state)
        state.game = game
        state.play(move)
    return state.outcome.winners if state.outcome else ()


def match(name: str, make_a, make_b, games: int, a_blind=False, b_blind=False) -> None:
    score = 0.0
    start = time.process_time()
    for g in range(games):
        a, b = make_a(g), make_b(g)
        if g % 2 == 0:
            winners = play(a, b, g, blind_players=((0,) if a_blind else ()) + ((1,) if b_blind else ()))
            score += 1.0 if winners == (0,) else 0.5 if winners == () else 0.0
        else:
            winners = play(b, a, g, blind_players=((1,) if a_blind else ()) + ((0,) if b_blind else ()))
            score += 1.0 if winners == (1,) else 0.5 if winners == () else 0.0
    print(f"{name}: {score:g} / {games}  ({time.process_time() - start:.0f} s CPU)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--depth", type=int, default=2)
    args = parser.parse_args()
    d = args.depth
    match(
        f"alphabeta(depth {d}) vs random",
        lambda s: load_agent("alphabeta", depth=d, seed=s),
        lambda s: load_agent("random", seed=s),
        args.games,
    )
    match(
        f"alphabeta(depth {d}, Morris evaluation) vs alphabeta(depth {d}, blind)",
        lambda s: load_agent("alphabeta", depth=d, seed=s),
        lambda s: load_agent("alphabeta", depth=d, seed=s),
        args.games,
        b_blind=True,
    )


if __name__ == "__main__":
    main()
