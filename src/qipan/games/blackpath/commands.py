"""The Black Path package's CLI command: ``qipan solve blackpath --rows R --cols C [-o …]``
(registered in ``__init__.py`` under the ``solve`` group; the CLI extra provides Click)."""

from __future__ import annotations

import time

import click
from rich.console import Console

from ...cli.options import parse_options
from ...core.errors import OptionError
from ...core.registry import spec as game_spec
from .solver import solve as solve_board

console = Console(highlight=False)


@click.command("blackpath")
@click.option("--rows", type=int, required=True)
@click.option("--cols", type=int, required=True)
@click.option(
    "--option",
    "-o",
    "options",
    multiple=True,
    metavar="KEY=VALUE",
    help="a rule option, e.g. -o variant=ww (repeatable)",
)
@click.option(
    "--compact",
    is_flag=True,
    help="the compiled solver with a fixed memo of 10-byte slots (needs qipan[solve]; up to 8x8)",
)
@click.option("--table-bits", type=int, default=25, show_default=True, help="--compact: 2**BITS slots")
@click.option(
    "--cpu-seconds",
    type=float,
    default=None,
    help="--compact: stop after this much CPU time and print what was decided (each first move "
    "and player 2's replies)",
)
def solve(rows, cols, options, compact, table_bits, cpu_seconds):
    """Solve the Black Path game exactly: who wins and a winning first move."""
    spec = game_spec("blackpath")
    opts = {k: spec.option(k).coerce(v) for k, v in parse_options(options).items()}
    for name in ("rows", "cols"):
        if name in opts:
            raise OptionError(f"the board size is given by --rows and --cols, not -o {name}=")
    start = time.perf_counter()
    detail = ""
    if compact:
        from .compact import CompactSolver

        solver = CompactSolver(rows, cols, table_bits=table_bits, cpu_seconds=cpu_seconds, **opts)
        report = solver.analyse()
        winner = report["winner"]
        won = [m for m, part in report["first_moves"].items() if part["result"] == "P1"]
        move = won[0] if won else None
        searched, _, overwritten, _ = (int(x) for x in solver.stats)
        detail = (
            f"; {searched:,} positions searched, table {solver.table_bytes / 1e6:.0f} MB "
            f"(10 bytes a slot, {overwritten:,} entries overwritten)"
        )
        if winner is None:
            console.print(f"{rows}x{cols}: not decided within {cpu_seconds:g} CPU s{detail}")
            for first, part in report["first_moves"].items():
                console.print(
                    f"  {first}: {part['result'] or 'not decided'}; player 2's replies {part['replies']}"
                )
            return
    else:
        try:
            winner, move = solve_board(rows, cols, **opts)
        except ValueError as exc:  # a board the solver cannot take (e.g. --rows 0)
            raise OptionError(str(exc)) from None
    elapsed = time.perf_counter() - start
    console.print(
        f"{rows}x{cols}: player {winner + 1} wins"
        + (f"; a winning first move: {move}" if move is not None else "")
        + f" ({elapsed:.1f} s{detail})"
    )
