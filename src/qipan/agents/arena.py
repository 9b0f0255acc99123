"""Drive games between agents: one game, a match with seats rotated, or a tournament
(round robin or gauntlet with paired openings and alternating colours, games in parallel
processes, maximum-likelihood Elo and SPRT early stopping: ``run_tournament``)."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from itertools import combinations

from ..core.errors import QipanError
from ..core.game import CHANCE, Game, State, resolve_chance
from .base import Agent
from .clock import agent_clock


def play_game(
    game: Game,
    agents: list[Agent],
    seed: int | None = None,
    players: int | None = None,
    max_plies: int | None = None,
) -> State:
    """Play one game; ``agents[i]`` plays seat i; chance resolved with a seeded RNG."""
    state = game.new(players=players or len(agents), seed=seed)
    rng = random.Random(seed)
    while state.outcome is None and (max_plies is None or state.ply < max_plies):
        if state.to_move == CHANCE:
            resolve_chance(state, rng)
        else:
            state.play(agents[state.to_move].choose(state))
    return state


@dataclass
class MatchResult:
    games: int = 0
    #: Points per agent (win 1, draw 1/2 split among the drawing agents).
    points: list[float] = field(default_factory=list)
    wins: list[int] = field(default_factory=list)
    draws: int = 0
    unfinished: int = 0
    seconds: float = 0.0

    def rate(self, i: int) -> float:
        return self.points[i] / self.games if self.games else 0.0


def run_match(
    game: Game,
    agents: list[Agent],
    games: int,
    seed: int = 0,
    players: int | None = None,
    max_plies: int | None = None,
    progress=None,
) -> MatchResult:
    """``games`` games with the seats rotated each game, so every agent plays every seat."""
    n = players or len(agents)
    result = MatchResult(points=[0.0] * len(agents), wins=[0] * len(agents))
    start = time.perf_counter()
    for g in range(games):
        seating = [(g + i) % len(agents) for i in range(n)]  # seat -> agent index
        state = play_game(game, [agents[a] for a in seating], seed=seed + g, players=n, max_plies=max_plies)
        result.games += 1
        if state.outcome is None:
            result.unfinished += 1
        elif not state.outcome.winners:
            result.draws += 1
            for a in set(seating):
                result.points[a] += 0.5
        else:
            for a in {seating[w] for w in state.outcome.winners}:
                result.points[a] += 1.0
                result.wins[a] += 1
        if progress is not None:
            progress(g + 1, result, state)
    result.seconds = time.perf_counter() - start
    return result


# -- tournaments: round robin and gauntlet, paired openings, parallel games, Elo, SPRT ------
@dataclass(frozen=True)
class Pairing:
    """One game of a tournament: agents ``first`` and ``second`` (indices into the entrants)
    on seats 0 and 1, after the opening ``opening`` (both games of a pair share it)."""

    number: int
    first: int
    second: int
    opening: int


def schedule(entrants: int, rounds: int, gauntlet: bool = False) -> list[list[Pairing]]:
    """The games of every pair of entrants (round robin) or of entrant 0 against each of the
    others (gauntlet): ``rounds`` opening pairs per pairing, each opening played twice with
    the colours swapped. One list per pairing, in the order its games should be played."""
    if entrants < 2:
        raise QipanError("a tournament needs at least two agents")
    if rounds < 1:
        raise QipanError(f"rounds must be at least 1, not {rounds}")
    pairs = [(0, j) for j in range(1, entrants)] if gauntlet else list(combinations(range(entrants), 2))
    out, number = [], 0
    for a, b in pairs:
        games = []
        for r in range(rounds):
            for first, second in ((a, b), (b, a)):
                games.append(Pairing(number, first, second, r))
                number += 1
        out.append(games)
    return out


def play_opening(state: State, plies: int, seed: int) -> None:
    """``plies`` uniformly random moves (chance resolved by the same seeded generator): the
    shared start of both games of a pair. A drawn move that would decide the game (it ends
    it, or leaves the next player a win in one) is put aside and another drawn, so that the
    agents, not the dice, play the game; with no such move the draws are plain uniform ones
    (a seed gives the opening it gave before this rule). Only when every move decides the
    game is one of them played."""
    rng = random.Random(seed)
    while plies > 0 and state.outcome is None:
        if state.is_chance:
            resolve_chance(state, rng)
            continue
        moves = list(state.legal_moves())
        move = rng.choice(moves)
        while len(moves) > 1 and decides_game(state, move):
            moves.remove(move)
            move = rng.choice(moves)
        state.play(move)
        plies -= 1


def decides_game(state: State, move) -> bool:
    """Whether ``move`` ends the game, or leaves the player after it a move that wins."""
    state.play_unchecked(move)
    try:
        if state.outcome is not None:
            return True
        mover = state.to_move
        if state.is_chance or mover is None:
            return False  # the next move depends on a draw: no reply to look at yet
        for reply in list(state.legal_moves()):
            state.play_unchecked(reply)
            try:
                if state.outcome is not None and mover in state.outcome.winners:
                    return True
            finally:
                state.undo()
        return False
    finally:
        state.undo()


@dataclass(frozen=True)
class TournamentGame:
    """What a worker process needs to play one game: everything by name, so it pickles."""

    preset: str
    options: tuple
    agents: tuple[str, str]  # agent specs ("mcts:iterations=200") on seats 0 and 1
    seed: int
    opening_plies: int
    max_plies: int | None
    clock: str | None = None  # the agents' clock ("cpu" on a busy machine); None: the process's


def play_tournament_game(job: TournamentGame) -> dict:
    """Play one game (in any process): the result as plain data."""
    with agent_clock(job.clock):
        return _play_tournament_game(job)


def _play_tournament_game(job: TournamentGame) -> dict:
    from ..core.registry import load as load_game
    from .base import load as load_agent
    from .base import parse_agent

    game = load_game(job.preset, **dict(job.options))
    state = game.new(players=2, seed=job.seed)
    play_opening(state, job.opening_plies, job.seed)
    opening = [m.text for m in state.history]
    agents = []
    for seat, text in enumerate(job.agents):
        name, params = parse_agent(text)
        params.setdefault("seed", job.seed * 2 + seat)
        agents.append(load_agent(name, game=game, players=2, **params))
    rng = random.Random(job.seed ^ 0x5EED)
    start = time.process_time()
    while state.outcome is None and (job.max_plies is None or state.ply < job.max_plies):
        if state.is_chance:
            resolve_chance(state, rng)
        else:
            state.play(agents[state.to_move].choose(state))
    outcome = state.outcome
    return {
        "score": None if outcome is None else outcome.reward(0),  # seat 0's score
        "reason": "unfinished" if outcome is None else outcome.reason,
        "plies": state.ply,
        "opening": opening,
        "moves": [m.text for m in state.history],
        "cpu_seconds": round(time.process_time() - start, 3),
    }


@dataclass
class TournamentResult:
    preset: str
    options: dict
    entrants: list[str]
    gauntlet: bool
    seed: int
    #: Every game that counts, in the order played (pairings interleaved): its number, the
    #: entrants on seats 0 and 1, their specs, the seed, and the result (score of seat 0).
    games: list[dict]
    ratings: list
    #: Per pairing "a vs b": "H1", "H0" or None (the SPRT's decision, with ``sprt`` on).
    sprt: dict[str, str | None]

    def to_dict(self) -> dict:
        return {
            "format": "qipan-arena/1",
            "game": self.preset,
            "options": self.options,
            "entrants": self.entrants,
            "mode": "gauntlet" if self.gauntlet else "round-robin",
            "seed": self.seed,
            "ratings": [
                {
                    "agent": r.name,
                    "elo": round(r.elo, 1),
                    "error": round(r.error, 1),
                    "games": r.games,
                    "points": r.points,
                }
                for r in self.ratings
            ],
            "sprt": self.sprt,
            "games": self.games,
        }

    def csv_rows(self) -> list[list]:
        head = ["game", "white", "black", "opening", "seed", "score_white", "plies", "reason"]
        rows = [head]
        for g in self.games:
            rows.append(
                [
                    g["number"],
                    g["agents"][0],
                    g["agents"][1],
                    g["opening_index"],
                    g["seed"],
                    g["score"],
                    g["plies"],
                    g["reason"],
                ]
            )
        return rows


def _game_seed(seed: int, pairing: int, opening: int) -> int:
    """Both games of an opening pair share the seed: the same opening and chance draws."""
    return (seed * 1_000_003 + pairing * 7_919 + opening) % (1 << 62)


def run_tournament(
    preset: str,
    entrants: list[str],
    rounds: int = 2,
    gauntlet: bool = False,
    seed: int = 0,
    jobs: int = 1,
    opening_plies: int = 2,
    max_plies: int | None = None,
    sprt=None,
    progress=None,
    clock: str | None = None,
    **options,
) -> TournamentResult:
    """Play a round robin (or a gauntlet of ``entrants[0]`` against the others) of the
    2-player game ``preset`` between agent specs (``"mcts:iterations=200"``), in ``jobs``
    processes, and rate it. ``sprt`` (an ``elo.SPRT``) stops a pairing once it decides,
    looking at its games in schedule order, so the result does not depend on which process
    finished first. ``progress(done, total, game)`` is called after every game. ``clock``
    ("wall" or "cpu"; None: the process default) is what the agents' time limits count, in
    every process."""
    from ..core.registry import load as load_game
    from .base import load as load_agent
    from .base import parse_agent
    from .elo import ratings

    game = load_game(preset, **options)
    if 2 not in game.players:
        raise QipanError(f"the arena pairs agents two by two: {game.title} is not a 2-player game")
    for text in entrants:  # refuse an agent that cannot play before any game starts
        name, params = parse_agent(text)
        load_agent(name, game=game, players=2, **params)
    plan = schedule(len(entrants), rounds, gauntlet)
    frozen = tuple(sorted(options.items()))
    jobs_of: dict[int, TournamentGame] = {}
    pair_of: dict[int, int] = {}
    for p, games in enumerate(plan):
        for pg in games:
            pair_of[pg.number] = p
            jobs_of[pg.number] = TournamentGame(
                preset,
                frozen,
                (entrants[pg.first], entrants[pg.second]),
                _game_seed(seed, p, pg.opening),
                opening_plies,
                max_plies,
                clock,
            )
    by_number = {pg.number: pg for games in plan for pg in games}
    # Interleave the pairings so that every one advances at the same pace.
    order = [games[k].number for k in range(2 * rounds) for games in plan]
    done: dict[int, dict] = {}
    decided: dict[int, str | None] = {p: None for p in range(len(plan))}
    counted: dict[int, int] = {p: 0 for p in range(len(plan))}  # games of the prefix used

    def first_score(number: int) -> float:
        pg, result = by_number[number], done[number]
        score = 0.5 if result["score"] is None else result["score"]
        return score if pg.first < pg.second else 1 - score  # for the pairing's lower index

    def settle(p: int) -> None:
        """Extend pairing p's counted prefix over finished games; apply the SPRT to it."""
        games = plan[p]
        while decided[p] is None and counted[p] < len(games) and games[counted[p]].number in done:
            counted[p] += 1
            if sprt is not None:
                decided[p] = sprt.decide([first_score(g.number) for g in games[: counted[p]]])

    def wanted(number: int) -> bool:
        return decided[pair_of[number]] is None

    total = len(order)
    if jobs <= 1:
        for number in order:
            if wanted(number):
                done[number] = play_tournament_game(jobs_of[number])
                settle(pair_of[number])
                if progress is not None:
                    progress(len(done), total, done[number])
    else:
        from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = {pool.submit(play_tournament_game, jobs_of[n]): n for n in order}
            pending = set(futures)
            while pending:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    number = futures[future]
                    if future.cancelled():
                        continue
                    done[number] = future.result()
                    settle(pair_of[number])
                    if progress is not None:
                        progress(len(done), total, done[number])
                for future in list(pending):
                    if not wanted(futures[future]) and future.cancel():
                        pending.discard(future)
    # The games that count: each pairing's settled prefix, in schedule order.
    games_out, results = [], []
    for p, games in enumerate(plan):
        for pg in games[: counted[p]]:
            r = done[pg.number]
            job = jobs_of[pg.number]
            games_out.append(
                {
                    "number": pg.number,
                    "entrants": [pg.first, pg.second],
                    "agents": list(job.agents),
                    "opening_index": pg.opening,
                    "seed": job.seed,
                    **r,
                }
            )
            score = 0.5 if r["score"] is None else r["score"]
            results.append((pg.first, pg.second, score))
    position = {number: k for k, number in enumerate(order)}
    games_out.sort(key=lambda g: position[g["number"]])  # the order they were scheduled in
    names = [f"{i + 1}:{e}" if entrants.count(e) > 1 else e for i, e in enumerate(entrants)]
    table = sorted(ratings(names, results), key=lambda r: -r.elo)
    labels = {p: f"{names[games[0].first]} vs {names[games[0].second]}" for p, games in enumerate(plan)}
    return TournamentResult(
        preset,
        dict(options),
        names,
        gauntlet,
        seed,
        games_out,
        table,
        {labels[p]: decided[p] for p in range(len(plan))} if sprt is not None else {},
    )
