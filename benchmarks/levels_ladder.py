"""The levels' ladder: a round robin of levels 1-8 per game (paired random openings, colours
alternating, CPU-time limits), maximum-likelihood Elo per level, written where the site
reads it (src/qipan/agents/levels_ladder.json: site rating = 1500 + Elo, the pool's mean at
1500) and as the full arena results in benchmarks/results/levels_ladder-<game>.json.

    .venv/bin/python benchmarks/levels_ladder.py --game nine-mens-morris --game pente \\
        --time 0.05 --rounds 2 --jobs 2

A round robin of a few rounds cannot tell close levels apart (levels 4 and 5 of Nine Men's
Morris scored alike against every level in 8 games each and got one rating). ``--neighbours N``
plays each pair of neighbouring levels apart as well, up to N opening pairs (2N games), each
pair stopped early by an SPRT (``--sprt``: the higher level stronger by ELO1 rather than by
ELO0), and fits every game, round robin and neighbours, into one set of ratings:

    .venv/bin/python benchmarks/levels_ladder.py --game nine-mens-morris --time 0.05 \\
        --rounds 2 --neighbours 50 --sprt 0,100

The same measurement by hand: ``qipan arena pente --levels 1-8 --level-time 0.05 --cpu-clock``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from datetime import UTC, datetime
from pathlib import Path

from qipan import load as load_game
from qipan.agents import strongest_agent_name
from qipan.agents.arena import run_tournament
from qipan.agents.clock import use_cpu_clock
from qipan.agents.elo import SPRT, ratings
from qipan.agents.levels import HIGHEST, LOWEST, LevelAgent, ladder_entrants, level_of_entrant
from qipan.core.game import resolve_chance

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "src" / "qipan" / "agents" / "levels_ladder.json"
RESULTS = ROOT / "benchmarks" / "results"
#: The site's scale: the ladder's pool mean sits at the usual starting rating.
SITE_MEAN = 1500.0


def warm_up(preset: str, time_per_move: float) -> None:
    """Compile the game's kernels and its agents' code before the first game, so that no
    level's first move pays for compiling (it would count on the CPU clock)."""
    from qipan.fast import warm_up as warm_up_kernels

    warm_up_kernels([preset])
    state = load_game(preset).new(players=2, seed=0)
    rng = random.Random(0)
    while state.is_chance:  # the tiles drawn before the first move (Tantrix, Pipe Mania)
        resolve_chance(state, rng)
    for level in (LOWEST, HIGHEST // 2 - 1, HIGHEST):
        LevelAgent(level=level, time=time_per_move, seed=0).choose(state)


def measure(
    preset: str, time_per_move: float, rounds: int, jobs: int, seed: int, max_plies: int, opening_plies: int
) -> dict:
    entrants = ladder_entrants(list(range(LOWEST, HIGHEST + 1)), time_per_move)
    done = [0]

    def progress(n, total, game):
        done[0] = n
        print(f"  {preset}: {n}/{total} games (last: {game['reason']}, {game['plies']} plies)", flush=True)

    start = time.process_time()
    result = run_tournament(
        preset,
        entrants,
        rounds=rounds,
        seed=seed,
        jobs=jobs,
        opening_plies=opening_plies,
        max_plies=max_plies,
        progress=progress,
    )
    data = result.to_dict()
    data["level_time"] = time_per_move
    data["clock"] = "cpu"
    data["driver_cpu_seconds"] = round(time.process_time() - start, 1)
    return data


def neighbours(
    preset: str,
    time_per_move: float,
    rounds: int,
    sprt: SPRT,
    jobs: int,
    seed: int,
    max_plies: int,
    opening_plies: int,
) -> dict:
    """Each level against the one below it, up to ``rounds`` opening pairs, until the SPRT
    decides: the games (as the arena writes them) and per pair its points and decision."""
    games, pairs = [], {}
    for low in range(LOWEST, HIGHEST):
        entrants = ladder_entrants([low + 1, low], time_per_move)  # the higher level first

        def progress(n, total, game, low=low):
            print(f"  {preset} {low + 1}-{low}: {n} games (last: {game['reason']})", flush=True)

        result = run_tournament(
            preset,
            entrants,
            rounds=rounds,
            seed=seed + low,
            jobs=jobs,
            opening_plies=opening_plies,
            max_plies=max_plies,
            sprt=sprt,
            progress=progress,
        ).to_dict()
        points = sum(
            (0.5 if g["score"] is None else g["score"]) if g["entrants"][0] == 0 else
            (0.5 if g["score"] is None else 1 - g["score"])
            for g in result["games"]
        )  # fmt: skip
        decision = next(iter(result["sprt"].values()), None)
        pairs[f"{low + 1}-{low}"] = {"games": len(result["games"]), "points": points, "sprt": decision}
        print(f"  {preset} {low + 1} over {low}: {points:g}/{len(result['games'])}, SPRT {decision}")
        games.extend(result["games"])
    return {"games": games, "pairs": pairs}


def fit(games: list[dict], time_per_move: float) -> list:
    """Maximum-likelihood Elo of the levels over ``games`` (arena records of level entrants)."""
    results = []
    for g in games:
        a, b = (level_of_entrant(agent) for agent in g["agents"])
        results.append((a - LOWEST, b - LOWEST, 0.5 if g["score"] is None else g["score"]))
    names = ladder_entrants(list(range(LOWEST, HIGHEST + 1)), time_per_move)
    return ratings(names, results)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", help="preset (repeatable); default: 9MM and Pente")
    parser.add_argument("--time", type=float, default=0.05, help="the full level's CPU seconds per move")
    parser.add_argument(
        "--rounds",
        type=int,
        default=2,
        help="opening pairs per pairing of levels in the round robin (0: none)",
    )
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-plies", type=int, default=200, help="a longer game counts as a draw")
    parser.add_argument(
        "--neighbours", type=int, default=0, help="opening pairs (at most) of each neighbouring pair apart"
    )
    parser.add_argument(
        "--sprt", default="0,100", metavar="ELO0,ELO1", help="stops a neighbouring pair (with --neighbours)"
    )
    parser.add_argument(
        "--opening-plies",
        type=int,
        default=2,
        help="random plies of each pair's shared opening (fewer where random moves decide the game)",
    )
    parser.add_argument("--no-write", action="store_true", help="print only; leave the data file alone")
    args = parser.parse_args()
    if args.rounds < 0 or args.neighbours < 0 or not (args.rounds or args.neighbours):
        parser.error("--rounds and --neighbours count opening pairs: at least one of them above 0")
    if args.opening_plies < 0:
        parser.error("--opening-plies counts random plies: 0 or more")
    os.environ["QIPAN_AGENT_CLOCK"] = "cpu"  # worker processes read it
    use_cpu_clock()
    RESULTS.mkdir(exist_ok=True)
    sprt = SPRT(*map(float, args.sprt.split(",")))
    for preset in args.game or ["nine-mens-morris", "pente"]:
        warm_up(preset, args.time)
        if args.rounds:
            data = measure(
                preset, args.time, args.rounds, args.jobs, args.seed, args.max_plies, args.opening_plies
            )
        else:  # the neighbouring pairs alone
            data = {"game": preset, "games": [], "level_time": args.time, "clock": "cpu"}
        command = f"benchmarks/levels_ladder.py --game {preset} --time {args.time:g} --rounds {args.rounds} --seed {args.seed}"
        if args.opening_plies != 2:
            command += f" --opening-plies {args.opening_plies}"
        data["opening_plies"] = args.opening_plies
        if args.neighbours:
            apart = neighbours(
                preset,
                args.time,
                args.neighbours,
                sprt,
                args.jobs,
                args.seed,
                args.max_plies,
                args.opening_plies,
            )
            data["neighbours"] = apart["pairs"]
            data["games"] += apart["games"]
            table = fit(data["games"], args.time)
            data["ratings"] = [
                {
                    "agent": r.name,
                    "elo": round(r.elo, 1),
                    "error": round(r.error, 1),
                    "games": r.games,
                    "points": r.points,
                }
                for r in table
            ]
            command += f" --neighbours {args.neighbours} --sprt {args.sprt}"
        (RESULTS / f"levels_ladder-{preset}.json").write_text(
            json.dumps(data, indent=1) + "\n", encoding="utf-8"
        )
        by_level = {level_of_entrant(r["agent"]): r for r in data["ratings"]}
        print(f"{preset}: {len(data['games'])} games, full level {args.time:g} CPU s/move")
        print("level  Elo   ±95%  points/games")
        for n in sorted(by_level):
            r = by_level[n]
            print(f"{n:>5} {r['elo']:+6.0f} {r['error']:5.0f}  {r['points']:g}/{r['games']}")
        # Read just before writing: another run may have added a game meanwhile.
        ladder = json.loads(DATA.read_text(encoding="utf-8"))
        ladder["games"][preset] = {
            "measured": datetime.now(UTC).strftime("%Y-%m-%d"),
            "command": command,
            "games": len(data["games"]),
            **({"neighbours": data["neighbours"]} if args.neighbours else {}),
            "level_time": args.time,
            "opening_plies": args.opening_plies,
            "strongest_agent": strongest_agent_name(load_game(preset), 2),
            "elo": {str(n): by_level[n]["elo"] for n in sorted(by_level)},
            "error": {str(n): by_level[n]["error"] for n in sorted(by_level)},
            "ratings": {str(n): round(SITE_MEAN + by_level[n]["elo"]) for n in sorted(by_level)},
        }
        if not args.no_write:
            DATA.write_text(json.dumps(ladder, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
