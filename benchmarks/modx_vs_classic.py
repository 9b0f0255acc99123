"""The ``modx`` agent against ``modx-classic`` (the earlier agent, kept as a fixed
reference) at equal CPU time per move, two players.

Paired openings, as ``qipan arena`` plays them (``qipan.agents.arena``: ``schedule``,
``play_tournament_game``): each pair starts from the same random joker setup
(``--opening-plies`` random setup moves; all five jokers by default) and the same chance
seed, played twice with the seats swapped; every pair has its own seed. Games run in
``--jobs`` processes, each agent's time limit counted in CPU seconds of its own process
(``QIPAN_AGENT_CLOCK=cpu``), so a busy machine slows both alike. Prints every game with the
running score, and the new agent's score share (draws ½) with a 95 % interval over the
pairs. ``--max-minutes`` stops starting games (the figure is then over the pairs done).
``--sprt P0,P1`` (score shares, e.g. ``0.55,0.65`` for the 60 % target) stops once the SPRT of
``qipan.agents.elo`` (alpha = beta = 0.05) decides between them, checked over the games of the
complete pairs whenever a pair completes; ``--pairs`` is then the most pairs played.

``--knobs`` sets weights of the new agent's evaluation (``evaluation_outlook.Knobs`` fields) in every
worker, for screening them, e.g. ``--knobs long_scale=0.5,fork_mover=0``.

    .venv/bin/python benchmarks/modx_vs_classic.py --pairs 100 --time 0.05 --jobs 2
    .venv/bin/python benchmarks/modx_vs_classic.py --pairs 300 --sprt 0.55,0.65 --jobs 2
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
os.environ["QIPAN_AGENT_CLOCK"] = "cpu"  # before qipan is imported, here and in the workers

from qipan.agents.arena import TournamentGame, play_tournament_game  # noqa: E402
from qipan.agents.elo import SPRT, elo_of_score  # noqa: E402


def share_of_pairs(pairs: dict[int, list[float]]) -> tuple[float, float, int]:
    """(mean score of the new agent, half-width of its 95 % interval over the pairs, games)."""
    means = [sum(p) / len(p) for p in pairs.values()]
    share = sum(means) / len(means)
    var = sum((m - share) ** 2 for m in means) / max(1, len(means) - 1)
    return share, 1.96 * math.sqrt(var / len(means)), sum(len(p) for p in pairs.values())


def sprt_of(text: str) -> SPRT:
    """``P0,P1`` (score shares of the new agent) as the Elo SPRT."""
    try:
        p0, p1 = (float(x) for x in text.split(","))
    except ValueError:
        raise SystemExit(f"--sprt wants two score shares like 0.55,0.65, not {text!r}") from None
    if not 0 < p0 < p1 < 1:
        raise SystemExit(f"--sprt wants 0 < P0 < P1 < 1, not {text!r}")
    return SPRT(elo_of_score(p0), elo_of_score(p1))


def set_knobs(text: str) -> None:
    """Replace fields of ``evaluation_outlook.KNOBS`` from ``name=value,...`` (in each worker process).
    Nothing to set: nothing imported (``tantrix_vs_classic.py`` runs this ``main`` too)."""
    if not text:
        return
    from dataclasses import fields, replace

    from qipan.games.modx import evaluation_outlook as outlook

    types = {f.name: f.type for f in fields(outlook.Knobs)}
    changes = {}
    for item in filter(None, text.split(",")):
        name, _, value = item.partition("=")
        if name not in types or name == "weight":
            raise SystemExit(f"--knobs: no scalar weight {name!r}; known: {', '.join(sorted(types))}")
        changes[name] = int(value) if types[name] == "int" else float(value)
    outlook.KNOBS = replace(outlook.KNOBS, **changes)


def paired_scores(pairs: dict[int, list[float]]) -> list[float]:
    """The new agent's scores in the games of the complete pairs, pair by pair."""
    return [s for k in sorted(pairs) if len(pairs[k]) == 2 for s in pairs[k]]


def set_up_worker(knobs: str, configure, settings: str) -> None:
    """Each worker's set-up: the MOD X knobs, and ``configure(settings)`` when given."""
    set_knobs(knobs)
    if configure is not None:
        configure(settings)


def main(
    preset: str = "modx", new: str = "modx", old: str = "modx-classic", opening: int = 5, configure=None
) -> None:
    """``configure(text)``: sets up the new agent from ``--set`` (in each worker)."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--pairs", type=int, default=100, help="opening pairs (two games each)")
    parser.add_argument("--time", type=float, default=0.05, help="CPU seconds per move for both agents")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--opening-plies", type=int, default=opening)
    parser.add_argument("--max-minutes", type=float, default=600.0)
    parser.add_argument("--new-options", default="", help="parameters of the new agent, e.g. caution=0.7")
    parser.add_argument("--sprt", metavar="P0,P1", help="stop once an SPRT decides, e.g. 0.55,0.65")
    parser.add_argument("--knobs", default="", help="the new agent's evaluation weights, e.g. long_scale=0.5")
    if configure is not None:
        parser.add_argument("--set", default="", help=configure.__doc__)
    args = parser.parse_args()
    settings = getattr(args, "set", "")
    set_up_worker(args.knobs, configure, settings)  # checked here, set again in each worker
    sprt = sprt_of(args.sprt) if args.sprt else None
    decision = None
    extra = f",{args.new_options}" if args.new_options else ""
    entrants = [f"{new}:time={args.time}{extra}", f"{old}:time={args.time}"]
    print(
        f"{preset}: {entrants[0]} vs {entrants[1]}, {args.pairs} pairs, CPU clock, {args.jobs} jobs"
        + (f", knobs {args.knobs}" if args.knobs else "")
        + (f", set {settings}" if settings else ""),
        flush=True,
    )
    started = time.perf_counter()
    # Game 2k has the new agent first, game 2k+1 the old one; both on pair k's seed.
    jobs = [
        TournamentGame(
            preset,
            (),
            tuple(entrants[::-1] if g % 2 else entrants),
            args.seed * 100_003 + g // 2,
            args.opening_plies,
            None,
        )
        for g in range(2 * args.pairs)
    ]
    pairs: dict[int, list[float]] = {}
    with ProcessPoolExecutor(
        max_workers=args.jobs, initializer=set_up_worker, initargs=(args.knobs, configure, settings)
    ) as pool:
        futures = {pool.submit(play_tournament_game, job): g for g, job in enumerate(jobs)}
        pending = set(futures)
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                if future.cancelled():
                    continue
                g, r = futures[future], future.result()
                score = 0.5 if r["score"] is None else r["score"]
                mine = 1 - score if g % 2 else score
                pairs.setdefault(g // 2, []).append(mine)
                done = sum(len(p) for p in pairs.values())
                points = sum(sum(p) for p in pairs.values())
                print(
                    f"  game {g:3d} ({new} {'second' if g % 2 else 'first'}): {mine:g} for {new}, "
                    f"{r['reason']}, {r['plies']} plies, {r['cpu_seconds']:.1f} CPU s; "
                    f"{new} {points:.1f}/{done}",
                    flush=True,
                )
                if sprt is not None and len(pairs[g // 2]) == 2:
                    decision = sprt.decide(paired_scores(pairs))
            if decision is not None:
                print(f"SPRT decided {decision}: no more games are started", flush=True)
            elif (time.perf_counter() - started) / 60 > args.max_minutes:
                print("time limit reached: no more games are started", flush=True)
            else:
                continue
            for future in pending:
                future.cancel()
            break
    complete = {k: p for k, p in pairs.items() if len(p) == 2}
    share, half, games = share_of_pairs(complete)
    print(
        f"result: {new} scored {share:.1%} (95 % interval {share - half:.1%}..{share + half:.1%}) "
        f"over {games} games ({len(complete)} complete pairs) against {old} at {args.time} CPU s "
        f"per move; target 60 %; wall {time.perf_counter() - started:.0f} s"
    )
    if sprt is not None:
        print(
            f"SPRT {args.sprt} (Elo {sprt.elo0:.1f} against {sprt.elo1:.1f}): "
            f"{decision or 'undecided'}, LLR {sprt.llr(paired_scores(pairs)):.2f} "
            f"(bounds {sprt.bounds[0]:.2f}, {sprt.bounds[1]:.2f})"
        )


if __name__ == "__main__":
    main()
