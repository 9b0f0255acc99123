"""Strength of the ``modx`` agent against the generic ``mcts`` agent at equal time per move.

Two parts, both with the seats rotated game by game (``run_match``):
  * 2 players: modx against one mcts (target: >= 80 % of the points);
  * 4 players (free for all): modx against three mcts (its fair share is 25 % of the wins).

Bounded: a fixed number of games, each agent limited in time per move; progress is printed
after every game, and the mean time per move of each agent is printed to show the budget
was equal.

    .venv/bin/python benchmarks/modx_vs_mcts.py --games 100 --games4 40 --time 0.1
    .venv/bin/python benchmarks/modx_vs_mcts.py --games 0 --games4 0 --games3 30 --teams 20
    .venv/bin/python benchmarks/modx_vs_mcts.py --games 20 --games4 0 --opponent alphabeta
"""

from __future__ import annotations

import argparse
import time

import qipan
from qipan.agents import load
from qipan.agents.arena import run_match


class Timed:
    """Wraps an agent and counts the time it spends choosing moves."""

    def __init__(self, agent):
        self.agent = agent
        self.seconds = 0.0
        self.moves = 0

    def choose(self, state):
        start = time.perf_counter()
        move = self.agent.choose(state)
        self.seconds += time.perf_counter() - start
        self.moves += 1
        return move

    def per_move(self) -> float:
        return self.seconds / self.moves if self.moves else 0.0


def match(game_id: str, players: int, games: int, seconds: float, seed: int, opponent: str = "mcts") -> None:
    game = qipan.load(game_id)
    teams = bool(game.options.get("teams"))
    agents = [Timed(load("modx", time=seconds, seed=seed))]
    agents += [Timed(load(opponent, time=seconds, seed=seed + 1 + i)) for i in range(players - 1)]
    if teams:
        # modx partners (agents 0 and 2) against two opponents; rotating the seats keeps partners opposite.
        agents[2] = Timed(load("modx", time=seconds, seed=seed + 10))
        print(f"\n{game_id}: 2 x modx (partners) vs 2 x {opponent}, {seconds} s per move, {games} games")
    else:
        print(
            f"\n{game_id}, {players} players: modx vs {players - 1} x {opponent}, {seconds} s per move, {games} games"
        )

    def progress(done, result, state):
        seat = [(done - 1 + i) % players for i in range(players)].index(0)
        outcome = state.outcome
        verdict = (
            "unfinished"
            if outcome is None
            else (
                "draw" if not outcome.winners else ("modx wins" if seat in outcome.winners else "modx loses")
            )
        )
        scores = " ".join(f"{s:g}" for s in outcome.scores) if outcome else ""
        print(
            f"  game {done:3d}: modx in seat {seat + 1}, {verdict:10s} scores {scores:12s} "
            f"({outcome.reason if outcome else ''}); modx wins {result.wins[0]}/{done}, "
            f"points {result.points[0]:.1f}",
            flush=True,
        )

    result = run_match(game, agents, games, seed=seed, players=players, progress=progress)
    others = [i for i, a in enumerate(agents) if a.agent.name == opponent]
    # In teams both partners are credited with a win: count the opponents' side once.
    other_wins = result.wins[others[0]] if teams else sum(result.wins[i] for i in others)
    print(
        f"result {game_id}: modx won {result.wins[0]} of {result.games} games ({result.wins[0] / games:.0%}), "
        f"{opponent} {'side' if teams else 'agents'} won {other_wins}, draws {result.draws}, "
        f"unfinished {result.unfinished}"
    )
    print(f"  modx points share {result.rate(0):.1%} (draw = 1/2)")
    fair = 0.5 if teams else 1 / players
    print(
        f"  fair share of wins {fair:.0%}; time per move: modx {agents[0].per_move() * 1000:.0f} ms, "
        f"{opponent} {sum(agents[i].per_move() for i in others) / len(others) * 1000:.0f} ms; {result.seconds:.0f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=100, help="two-player games (0 to skip)")
    parser.add_argument("--games4", type=int, default=40, help="four-player games (0 to skip)")
    parser.add_argument("--games3", type=int, default=0, help="three-player games (modx vs 2 mcts)")
    parser.add_argument("--teams", type=int, default=0, help="2v2 team games (modx pair vs mcts pair)")
    parser.add_argument("--time", type=float, default=0.1, help="seconds per move for every agent")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--opponent", default="mcts", help="opponent agent (alphabeta: 2 players only)")
    args = parser.parse_args()
    if args.games:
        match("modx", 2, args.games, args.time, args.seed, args.opponent)
    if args.games4:
        match("modx-4", 4, args.games4, args.time, args.seed, args.opponent)
    if args.games3:
        match("modx-3", 3, args.games3, args.time, args.seed, args.opponent)
    if args.teams:
        match("modx-teams", 4, args.teams, args.time, args.seed, args.opponent)


if __name__ == "__main__":
    main()
