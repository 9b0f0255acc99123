"""The levels' ladder: a round robin of levels 1-8 per game (paired random openings, colours
alternating, CPU-time limits), maximum-likelihood Elo per level, written where the site
reads it (src/qipan/agents/levels_ladder.json: site rating = 1500 + Elo, the pool's mean at
1500) and as the full arena results in benchmarks/results/levels_ladder-<game>.json.

    .venv/bin/python benchmarks/levels_ladder.py --game nine-mens-morris --game pente \\
        --time 0.05 --rounds 2 --jobs 2

The same measurement by hand: ``qipan arena pente --levels 1-8 --level-time 0.05 --cpu-clock``.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from datetime import UTC, datetime
from pathlib import Path

from qipan import load as load_game
from qipan.agents import strongest_agent_name
from qipan.agents.arena import run_tournament
from qipan.agents.clock import use_cpu_clock
from qipan.agents.levels import HIGHEST, LOWEST, ladder_entrants, level_of_entrant

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "src" / "qipan" / "agents" / "levels_ladder.json"
RESULTS = ROOT / "benchmarks" / "results"
#: The site's scale: the ladder's pool mean sits at the usual starting rating.
SITE_MEAN = 1500.0


def measure(preset: str, time_per_move: float, rounds: int, jobs: int, seed: int, max_plies: int) -> dict:
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
        opening_plies=2,
        max_plies=max_plies,
        progress=progress,
    )
    data = result.to_dict()
    data["level_time"] = time_per_move
    data["clock"] = "cpu"
    data["driver_cpu_seconds"] = round(time.process_time() - start, 1)
    return data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", help="preset (repeatable); default: 9MM and Pente")
    parser.add_argument("--time", type=float, default=0.05, help="the full level's CPU seconds per move")
    parser.add_argument("--rounds", type=int, default=2, help="opening pairs per pairing of levels")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-plies", type=int, default=200, help="a longer game counts as a draw")
    parser.add_argument("--no-write", action="store_true", help="print only; leave the data file alone")
    args = parser.parse_args()
    os.environ["QIPAN_AGENT_CLOCK"] = "cpu"  # worker processes read it
    use_cpu_clock()
    RESULTS.mkdir(exist_ok=True)
    for preset in args.game or ["nine-mens-morris", "pente"]:
        data = measure(preset, args.time, args.rounds, args.jobs, args.seed, args.max_plies)
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
            "command": f"benchmarks/levels_ladder.py --game {preset} --time {args.time:g} "
            f"--rounds {args.rounds} --seed {args.seed}",
            "games": len(data["games"]),
            "level_time": args.time,
            "strongest_agent": strongest_agent_name(load_game(preset), 2),
            "elo": {str(n): by_level[n]["elo"] for n in sorted(by_level)},
            "error": {str(n): by_level[n]["error"] for n in sorted(by_level)},
            "ratings": {str(n): round(SITE_MEAN + by_level[n]["elo"]) for n in sorted(by_level)},
        }
        if not args.no_write:
            DATA.write_text(json.dumps(ladder, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
