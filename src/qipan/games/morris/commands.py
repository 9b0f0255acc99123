"""The Morris package's CLI command: ``qipan solve morris --preset P [-o …] [--stones K]``
builds the retrograde tables of a rule set (resumable: run it again after an interruption),
shows progress and prints the manifest hash, so a rebuild is checkably identical."""

from __future__ import annotations

import time

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

import qipan

from ...cli.options import parse_options
from ...core.errors import OptionError

console = Console(highlight=False, soft_wrap=True)


@click.command("morris")
@click.option("--preset", default="six-mens-morris", show_default=True, help="a Morris preset")
@click.option(
    "--option", "-o", "options", multiple=True, metavar="KEY=VALUE", help="a rule option (repeatable)"
)
@click.option(
    "--stones", type=int, default=None, help="only the moving/flying endgames with 3..K stones a side"
)
@click.option("--dir", "directory", default=None, help="where the tables go (default: the user cache)")
@click.option("--check", is_flag=True, help="recompute every component with the forward sweep and compare")
@click.option(
    "--ray", "ray_address", default=None, metavar="auto|ADDRESS|local", help="run the components on Ray"
)
@click.option("--verify", type=int, default=0, help="then check this many sampled positions with the engine")
@click.option("--verify-depth", type=int, default=3, show_default=True, help="search depth of --verify")
def solve(preset, options, stones, directory, check, ray_address, verify, verify_depth):
    """Solve a Morris rule set by retrograde analysis (placement included, or endgames)."""
    game = qipan.load(preset, **parse_options(options))
    if game.family != "morris":
        raise OptionError(f"{preset} is not a Morris preset")
    from .perfect import PerfectTables  # NumPy and Numba only when solving

    tables = PerfectTables(game, directory, stones)
    segments = tables.space.segments()
    console.print(
        f"{preset}: {len(segments)} segments, {sum(s.size for s in segments):,} positions "
        f"({len(tables.space.symmetries)} symmetries) -> {tables.directory}"
    )
    start, wall = time.process_time(), time.perf_counter()
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
    ) as bar:
        task = bar.add_task("components", total=None)

        def progress(done, total, label, seconds):
            bar.update(task, total=total, completed=done, description=label[:40])

        if ray_address is not None:
            from ...solve.distributed import solve_on_ray

            digest = solve_on_ray(tables.db, ray_address, progress=progress, check=check)
        else:
            digest = tables.build(progress=progress, check=check)
    value = ""
    if stones is None:
        kind, plies = tables.value(game.new())
        value = f"start: {kind}" + (f" in {plies} plies" if plies is not None else "") + "; "
    cpu = f"CPU {time.process_time() - start:.1f} s" if ray_address is None else "CPU: in the Ray workers"
    console.print(f"{value}{cpu}, wall {time.perf_counter() - wall:.1f} s; manifest {digest}")
    if verify:
        from .tables_check import check_sample

        report = check_sample(tables, verify, search_depth=verify_depth)
        console.print(
            f"verified {report.positions} sampled positions against the engine's moves, {report.searched} "
            f"also by search to {verify_depth} plies: {len(report.failures)} failures"
        )
        for line in report.failures[:10]:
            console.print("  " + line)
        if report.failures:
            raise SystemExit(1)
