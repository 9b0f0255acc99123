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

At the site's full level of 1 s a pair takes hundreds of CPU seconds: ``--pairs`` measures
only the given neighbouring pairs and writes their games to ``--out`` (nothing shipped), so
pairs can run in separate processes and at separate times; ``--combine`` fits the pair files
of one game into one set of ratings, writes the results file, and writes the ladder file
when all 7 pairs are there, each decided for the higher level (or played to 100 games), and
the ratings rise (a full run ships by the same rule, a round robin's pairs counted by the
games their two levels played against each other):

    .venv/bin/python benchmarks/levels_ladder.py --game trax --time 1 --rounds 0 \\
        --neighbours 50 --sprt 0,100 --opening-plies 1 --pairs 8-7,6-5 --out runs/trax-a.json
    .venv/bin/python benchmarks/levels_ladder.py --combine runs/trax-*.json

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
#: Games after which a neighbouring pair the SPRT did not decide for the higher level counts
#: as measured (``--sprt none`` plays them all).
MEASURED_GAMES = 100


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
    sprt: SPRT | None,
    jobs: int,
    seed: int,
    max_plies: int,
    opening_plies: int,
    lows: list[int] | None = None,
    finished=None,
) -> dict:
    """Each level against the one below it (or the pairs whose lower level is in ``lows``),
    up to ``rounds`` opening pairs, until the SPRT decides: the games (as the arena writes
    them) and per pair its points and decision. A pair's seed depends on its levels alone,
    so a pair measured on its own plays the games it plays in a full run. ``finished``, if
    given, is called with the result so far after each pair."""
    games, pairs = [], {}
    for low in lows if lows is not None else range(LOWEST, HIGHEST):
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
        pairs[pair_name(low)] = {
            "games": len(result["games"]),
            "points": points,
            "sprt": decision,
            "cpu_seconds": round(sum(g["cpu_seconds"] for g in result["games"]), 1),
        }
        print(f"  {preset} {low + 1} over {low}: {points:g}/{len(result['games'])}, SPRT {decision}")
        games.extend(result["games"])
        if finished is not None:
            finished({"games": games, "pairs": pairs})
    return {"games": games, "pairs": pairs}


def pair_name(low: int) -> str:
    return f"{low + 1}-{low}"


#: Every neighbouring pair, highest first: a ladder is shipped only with all of them.
ALL_PAIRS = tuple(pair_name(low) for low in range(HIGHEST - 1, LOWEST - 1, -1))


def parse_pairs(text: str) -> list[int]:
    """``"5-4,8-7"`` -> the lower levels of those neighbouring pairs, ``[4, 7]``."""
    lows = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        high, dash, low = part.partition("-")
        if not (dash and high.isdigit() and low.isdigit()) or int(high) != int(low) + 1:
            raise ValueError(f"{part!r} is not a pair of neighbouring levels such as 5-4")
        if not LOWEST <= int(low) < HIGHEST:
            raise ValueError(f"{part!r}: levels go from {LOWEST} to {HIGHEST}")
        if int(low) not in lows:
            lows.append(int(low))
    if not lows:
        raise ValueError("no pair given: expected pairs such as 5-4,8-7")
    return lows


def fit(games: list[dict], time_per_move: float) -> list:
    """Maximum-likelihood Elo of the levels over ``games`` (arena records of level entrants).
    Only the levels that played are rated, and levels linked by no chain of games (pairs
    8-7 and 2-1 of a part of a ladder) are fitted apart, each group on its own mean."""
    levels = [[level_of_entrant(agent) for agent in g["agents"]] for g in games]
    group = {level: level for pair in levels for level in pair}

    def root(level):
        while group[level] != level:
            level = group[level]
        return level

    for a, b in levels:
        group[root(a)] = root(b)
    out = []
    for top in sorted({root(level) for level in group}):
        played = sorted(level for level in group if root(level) == top)
        index = {level: k for k, level in enumerate(played)}
        results = [
            (index[a], index[b], 0.5 if g["score"] is None else g["score"])
            for (a, b), g in zip(levels, games, strict=True)
            if a in index
        ]
        out += ratings(ladder_entrants(played, time_per_move), results)
    return out


def rating_rows(games: list[dict], time_per_move: float) -> list[dict]:
    return [
        {
            "agent": r.name,
            "elo": round(r.elo, 1),
            "error": round(r.error, 1),
            "games": r.games,
            "points": r.points,
        }
        for r in fit(games, time_per_move)
    ]


#: What the runs of one ladder must share to be fitted together.
SHARED_SETTINGS = ("game", "level_time", "opening_plies", "clock")


def pair_of_game(game: dict) -> str:
    low = min(level_of_entrant(agent) for agent in game["agents"])
    return pair_name(low)


def same_play(a: dict, b: dict) -> bool:
    return (a["seed"], a["agents"], a["moves"]) == (b["seed"], b["agents"], b["moves"])


def pooled(a: dict, b: dict) -> dict:
    """One pair's record from two samples of it: games and points summed, no single SPRT
    decision (each sample's stays under ``samples``)."""
    samples = a.get("samples", [a]) + b.get("samples", [b])
    return {
        "games": a["games"] + b["games"],
        "points": a["points"] + b["points"],
        "sprt": None,
        "cpu_seconds": round(sum(p.get("cpu_seconds", 0.0) for p in samples), 1),
        "samples": samples,
    }


def combine(runs: list[dict]) -> dict:
    """The runs of separately measured pairs of one game (``--pairs ... --out``) as one
    result: their pairs and games together, fitted into one set of ratings. A pair measured
    in two runs: where one run's games begin the other's (the same seeds, moves and results:
    the same test let run to a higher cap), the longer one counts; where the runs share no
    game seed (a further sample, other openings: ``--seed``), every game of both counts, as
    one pair without a single SPRT decision; otherwise the runs are refused, as some games
    would count twice."""
    if not runs:
        raise ValueError("no runs to combine")
    first = runs[0]
    for run in runs[1:]:
        for key in SHARED_SETTINGS:
            if run.get(key) != first.get(key):
                raise ValueError(f"runs differ in {key}: {first.get(key)!r} and {run.get(key)!r}")
    pairs, games, commands = {}, {}, {}
    for run in runs:
        for name, pair in run["neighbours"].items():
            mine = [g for g in run["games"] if pair_of_game(g) == name]
            if name in pairs:
                if {g["seed"] for g in games[name]}.isdisjoint(g["seed"] for g in mine):
                    pairs[name] = pooled(pairs[name], pair)
                    games[name] = games[name] + mine
                    commands[name] = f"{commands[name]}; {run.get('command')}"
                    continue
                short, long = sorted((games[name], mine), key=len)
                if not all(same_play(a, b) for a, b in zip(short, long, strict=False)):
                    raise ValueError(f"pair {name} is in two runs that played different games")
                if long is games[name]:
                    continue
            pairs[name], games[name], commands[name] = pair, mine, run.get("command")
    order = [name for name in ALL_PAIRS if name in pairs]
    out = {key: first.get(key) for key in SHARED_SETTINGS}
    out["neighbours"] = {name: pairs[name] for name in order}
    out["commands"] = {name: commands[name] for name in order}
    out["complete"] = len(order) == len(ALL_PAIRS)
    out["games"] = [g for name in order for g in games[name]]
    out["ratings"] = rating_rows(out["games"], first["level_time"])
    return out


def rises(data: dict) -> bool:
    """Every level rated, each one's fitted Elo above the one below it."""
    by_level = {level_of_entrant(r["agent"]): r["elo"] for r in data["ratings"]}
    levels = range(LOWEST, HIGHEST + 1)
    return all(n in by_level for n in levels) and all(by_level[n] < by_level[n + 1] for n in levels[:-1])


def direct_games(games: list[dict], name: str) -> int:
    """Games the two levels of the neighbouring pair ``name`` played against each other."""
    high, low = (int(n) for n in name.split("-"))
    return sum(1 for g in games if sorted(level_of_entrant(a) for a in g["agents"]) == [low, high])


def not_shippable(data: dict) -> str | None:
    """Why a ladder may not go to the site, or None when it may: every neighbouring pair
    measured (the SPRT found the higher level stronger, or else the issue's MEASURED_GAMES
    games were played: two close levels then keep their small measured gap) and the fitted
    ratings rising level by level. A pair a round robin measured without ``--neighbours``
    counts by the games its two levels played against each other."""
    measured = data.get("neighbours") or {}
    missing, undecided = [], []
    for name in ALL_PAIRS:
        pair = measured.get(name)
        if pair is None:
            played = direct_games(data["games"], name)
            if not played:
                missing.append(name)
            elif played < MEASURED_GAMES:
                undecided.append(name)
        elif pair["sprt"] != "H1" and pair["games"] < MEASURED_GAMES:
            undecided.append(name)
    if missing:
        return f"pairs {', '.join(missing)} not measured"
    if undecided:
        return f"pairs {', '.join(undecided)} neither H1 nor {MEASURED_GAMES} games"
    if not rises(data):
        return "the ratings do not rise"
    return None


def ladder_entry(data: dict, preset: str, command: str) -> dict:
    """The game's entry in levels_ladder.json (what the site shows) from a fitted result."""
    by_level = {level_of_entrant(r["agent"]): r for r in data["ratings"]}
    return {
        "measured": datetime.now(UTC).strftime("%Y-%m-%d"),
        "command": command,
        **({"commands": data["commands"]} if "commands" in data else {}),
        "games": len(data["games"]),
        **({"neighbours": data["neighbours"]} if data.get("neighbours") else {}),
        "level_time": data["level_time"],
        "opening_plies": data["opening_plies"],
        "strongest_agent": strongest_agent_name(load_game(preset), 2),
        "elo": {str(n): by_level[n]["elo"] for n in sorted(by_level)},
        "error": {str(n): by_level[n]["error"] for n in sorted(by_level)},
        "ratings": {str(n): round(SITE_MEAN + by_level[n]["elo"]) for n in sorted(by_level)},
    }


def print_table(preset: str, data: dict) -> None:
    by_level = {level_of_entrant(r["agent"]): r for r in data["ratings"]}
    print(f"{preset}: {len(data['games'])} games, full level {data['level_time']:g} CPU s/move")
    for name, pair in data.get("neighbours", {}).items():
        print(f"  {name}: {pair['points']:g}/{pair['games']}, SPRT {pair['sprt']}")
    print("level  Elo   ±95%  points/games")
    for n in sorted(by_level):
        r = by_level[n]
        print(f"{n:>5} {r['elo']:+6.0f} {r['error']:5.0f}  {r['points']:g}/{r['games']}")


def write_ladder(preset: str, entry: dict) -> None:
    # Read just before writing: another run may have added a game meanwhile.
    ladder = json.loads(DATA.read_text(encoding="utf-8"))
    ladder["games"][preset] = entry
    DATA.write_text(json.dumps(ladder, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def write_json(path: Path, data: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


def relative(spec: str) -> str:
    path = Path(spec).resolve()
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else spec


def read_run(spec: str) -> dict:
    """A pair file, or with ``FILE:8-7,6-5`` only those pairs of it (the pairs a later change
    left as they were, beside pairs measured again)."""
    path, colon, pairs = spec.rpartition(":") if ":" in Path(spec).name else (spec, "", "")
    run = json.loads(Path(path).read_text(encoding="utf-8"))
    if colon:
        keep = {pair_name(low) for low in parse_pairs(pairs)}
        run["neighbours"] = {n: p for n, p in run["neighbours"].items() if n in keep}
        run["games"] = [g for g in run["games"] if pair_of_game(g) in keep]
    return run


def run_combine(files: list[str], no_write: bool) -> None:
    runs = [read_run(f) for f in files]
    data = combine(runs)
    preset = data["game"]
    command = "benchmarks/levels_ladder.py --combine " + " ".join(map(relative, files))
    data["command"] = command
    print_table(preset, data)
    why = not_shippable(data)
    if not data["complete"]:  # a part of a ladder: no results file either
        print(f"{preset}: {why}: the ladder file is left alone")
        return
    write_json(RESULTS / f"levels_ladder-{preset}.json", data)
    if why:
        print(f"{preset}: {why}: the ladder file is left alone")
        return
    if not no_write:
        write_ladder(preset, ladder_entry(data, preset, command))


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
        "--sprt",
        default="0,100",
        metavar="ELO0,ELO1",
        help="stops a neighbouring pair (with --neighbours); 'none' plays every opening pair",
    )
    parser.add_argument(
        "--opening-plies",
        type=int,
        default=2,
        help="random plies of each pair's shared opening (fewer where random moves decide the game)",
    )
    parser.add_argument(
        "--pairs",
        metavar="HIGH-LOW,...",
        help="measure only these neighbouring pairs (e.g. 5-4,8-7; with --neighbours and --out)",
    )
    parser.add_argument("--out", help="with --pairs: the file the pairs' raw results go to")
    parser.add_argument(
        "--combine",
        nargs="+",
        metavar="FILE",
        help="fit the pair files of one game together (FILE:8-7,6-5 takes only those pairs of "
        "FILE); write the ladder when all 7 pairs are measured and rise",
    )
    parser.add_argument("--no-write", action="store_true", help="print only; leave the data file alone")
    args = parser.parse_args()
    if args.combine:
        try:  # every file is read and checked before anything is written
            run_combine(args.combine, args.no_write)
        except (OSError, ValueError) as e:
            parser.error(f"--combine: {e}")
        return
    if args.rounds < 0 or args.neighbours < 0 or not (args.rounds or args.neighbours):
        parser.error("--rounds and --neighbours count opening pairs: at least one of them above 0")
    if args.opening_plies < 0:
        parser.error("--opening-plies counts random plies: 0 or more")
    lows = None
    if args.pairs is not None:
        try:
            lows = parse_pairs(args.pairs)
        except ValueError as e:
            parser.error(f"--pairs: {e}")
        if not (args.out and args.neighbours and not args.rounds and len(args.game or []) == 1):
            parser.error("--pairs takes one --game, --neighbours N, --rounds 0 and --out FILE")
    elif args.out:
        parser.error("--out goes with --pairs")
    os.environ["QIPAN_AGENT_CLOCK"] = "cpu"  # worker processes read it
    use_cpu_clock()
    RESULTS.mkdir(exist_ok=True)
    sprt = None if args.sprt == "none" else SPRT(*map(float, args.sprt.split(",")))
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
        if args.max_plies != 200:
            command += f" --max-plies {args.max_plies}"
        data["opening_plies"] = args.opening_plies
        if args.neighbours:
            command += f" --neighbours {args.neighbours} --sprt {args.sprt}"
            round_robin = data["games"]

            def take(apart, data=data, round_robin=round_robin, command=command):
                data["neighbours"] = apart["pairs"]
                data["games"] = round_robin + apart["games"]
                data["ratings"] = rating_rows(data["games"], args.time)
                if lows is not None:  # written as each pair ends: a run stopped later keeps them
                    data["command"] = f"{command} --pairs {','.join(apart['pairs'])}"
                    write_json(Path(args.out), data)

            neighbours(
                preset,
                args.time,
                args.neighbours,
                sprt,
                args.jobs,
                args.seed,
                args.max_plies,
                args.opening_plies,
                lows,
                take,
            )
        if lows is not None:
            print_table(preset, data)
            continue  # a part of a ladder: ``--combine`` fits and ships it
        write_json(RESULTS / f"levels_ladder-{preset}.json", data)
        print_table(preset, data)
        why = not_shippable(data)  # the same rule as --combine's
        if why:
            print(f"{preset}: {why}: the ladder file is left alone")
        elif not args.no_write:
            write_ladder(preset, ladder_entry(data, preset, command))


if __name__ == "__main__":
    main()
