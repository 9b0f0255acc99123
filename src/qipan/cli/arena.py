"""``qipan arena GAME -a AGENT -a AGENT …``: a round robin (or ``--gauntlet``) between
agents with paired openings and alternating colours, in parallel processes, with a
progress bar, maximum-likelihood Elo with 95% error bars, optional SPRT early stopping,
and the results as JSON, CSV and PNG plots (``qipan[plots]``). ``--levels 1-8`` enters the
levels of play (``qipan.agents.levels``) to measure their ladder."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ..agents.arena import TournamentResult, run_tournament
from ..agents.elo import SPRT
from ..agents.engine import allow_programs
from ..agents.levels import ladder_entrants, parse_levels
from ..core.errors import QipanError
from .options import parse_options

console = Console(highlight=False)


def write_plots(result: TournamentResult, prefix: str) -> list[Path]:
    """``<prefix>-ratings.png`` (Elo with error bars) and ``<prefix>-scores.png`` (each
    agent's running score over the games)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise QipanError(f"plots need matplotlib: pip install 'qipan[plots]' ({exc})") from None
    out = []
    table = list(reversed(result.ratings))
    fig, ax = plt.subplots(figsize=(7, 0.5 * len(table) + 1.5))
    ax.errorbar([r.elo for r in table], range(len(table)), xerr=[r.error for r in table], fmt="o", capsize=4)
    ax.set_yticks(range(len(table)), [r.name for r in table])
    ax.axvline(0, color="grey", linewidth=0.5)
    ax.set_xlabel("Elo (pool mean 0, 95% interval)")
    ax.set_title(f"{result.preset}: {len(result.games)} games")
    fig.tight_layout()
    path = Path(f"{prefix}-ratings.png")
    fig.savefig(path, dpi=100)
    plt.close(fig)
    out.append(path)
    fig, ax = plt.subplots(figsize=(7, 4))
    for k, name in enumerate(result.entrants):
        xs, ys, points, played = [], [], 0.0, 0
        for i, g in enumerate(result.games, start=1):
            if k not in g["entrants"]:
                continue
            score = 0.5 if g["score"] is None else g["score"]
            points += score if g["entrants"][0] == k else 1 - score
            played += 1
            xs.append(i)
            ys.append(points / played)
        ax.plot(xs, ys, label=name)
    ax.axhline(0.5, color="grey", linewidth=0.5)
    ax.set_xlabel("games played")
    ax.set_ylabel("score so far")
    ax.set_ylim(0, 1)
    ax.legend(fontsize="small")
    fig.tight_layout()
    path = Path(f"{prefix}-scores.png")
    fig.savefig(path, dpi=100)
    plt.close(fig)
    out.append(path)
    return out


@click.command()
@click.argument("game")
@click.option(
    "--agent",
    "-a",
    "agents",
    multiple=True,
    metavar="SPEC",
    help="an entrant, e.g. -a random -a mcts:iterations=200 (repeatable)",
)
@click.option(
    "--levels",
    "levels",
    default=None,
    metavar="LEVELS",
    help="enter the levels of play, e.g. 1-8 or 1,4,8 (after any -a entrants)",
)
@click.option(
    "--level-time",
    default=0.1,
    show_default=True,
    type=click.FloatRange(0.001, 3600),
    help="with --levels: the full level's seconds per move",
)
@click.option(
    "--cpu-clock",
    is_flag=True,
    help="agents' time limits count CPU seconds (fair on a busy machine; set for every process)",
)
@click.option(
    "--option", "-o", "options", multiple=True, metavar="KEY=VALUE", help="a rule option (repeatable)"
)
@click.option(
    "--gauntlet", is_flag=True, help="the first agent plays each of the others (default: round robin)"
)
@click.option(
    "--rounds",
    default=2,
    show_default=True,
    type=click.IntRange(1, 100_000),
    help="opening pairs per pairing (each opening is played twice, colours swapped)",
)
@click.option(
    "--opening-plies",
    default=2,
    show_default=True,
    type=click.IntRange(0, 1000),
    help="random plies of the shared opening",
)
@click.option("--max-plies", default=None, type=click.IntRange(1), help="stop a game here (counts as a draw)")
@click.option(
    "--jobs", "-j", default=1, show_default=True, type=click.IntRange(1, 256), help="parallel processes"
)
@click.option("--seed", default=0, show_default=True, type=int)
@click.option(
    "--sprt", default=None, metavar="ELO0,ELO1", help="stop a pairing once H0: elo0 or H1: elo1 holds"
)
@click.option("--alpha", default=0.05, show_default=True, type=click.FloatRange(0.0001, 0.5, min_open=False))
@click.option("--beta", default=0.05, show_default=True, type=click.FloatRange(0.0001, 0.5, min_open=False))
@click.option(
    "--json", "json_path", default=None, type=click.Path(dir_okay=False), help="write the results as JSON"
)
@click.option(
    "--csv", "csv_path", default=None, type=click.Path(dir_okay=False), help="write one row per game"
)
@click.option(
    "--plot",
    "plot_prefix",
    default=None,
    metavar="PREFIX",
    help="write PREFIX-ratings.png, PREFIX-scores.png",
)
def arena(
    game,
    agents,
    levels,
    level_time,
    cpu_clock,
    options,
    gauntlet,
    rounds,
    opening_plies,
    max_plies,
    jobs,
    seed,
    sprt,
    alpha,
    beta,
    json_path,
    csv_path,
    plot_prefix,
):
    """Play agents against each other and rate them (maximum-likelihood Elo).

    \b
    Examples:
      qipan arena pente -a pente:time=0.2 -a mcts:time=0.2 --rounds 2
      qipan arena nine-mens-morris --levels 1,4,8 --level-time 0.05 --rounds 1 --max-plies 100 --cpu-clock
    """
    allow_programs()  # a local command line may pit engine programs
    agents = list(agents) + (ladder_entrants(parse_levels(levels), level_time) if levels else [])
    if len(agents) < 2:
        raise QipanError("the arena needs at least two entrants: -a SPEC (repeatable) or --levels 1-8")
    test = None
    if sprt is not None:
        try:
            elo0, elo1 = (float(x) for x in sprt.split(","))
        except ValueError:
            raise QipanError(f"--sprt {sprt!r}: expected two Elo values, e.g. --sprt 0,50") from None
        test = SPRT(elo0, elo1, alpha, beta)
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    ) as bar:
        task = bar.add_task(game, total=None)

        def progress(done, total, _result):
            bar.update(task, completed=done, total=total)

        result = run_tournament(
            game,
            list(agents),
            rounds=rounds,
            gauntlet=gauntlet,
            seed=seed,
            jobs=jobs,
            opening_plies=opening_plies,
            max_plies=max_plies,
            sprt=test,
            progress=progress,
            clock="cpu" if cpu_clock else None,
            **parse_options(options),
        )
    table = Table(title=f"{game}: {len(result.games)} games")
    for column in ("agent", "Elo", "±95%", "games", "points"):
        table.add_column(column, justify="left" if column == "agent" else "right")
    for r in result.ratings:
        table.add_row(r.name, f"{r.elo:+.0f}", f"{r.error:.0f}", str(r.games), f"{r.points:g}")
    console.print(table)
    for pairing, decision in result.sprt.items():
        console.print(f"SPRT {pairing}: {decision or 'undecided'}")
    if json_path:
        Path(json_path).write_text(json.dumps(result.to_dict(), indent=1) + "\n", encoding="utf-8")
    if csv_path:
        with open(csv_path, "w", newline="", encoding="utf-8") as fh:
            csv.writer(fh).writerows(result.csv_rows())
    if plot_prefix:
        for path in write_plots(result, plot_prefix):
            console.print(f"wrote {path}")
