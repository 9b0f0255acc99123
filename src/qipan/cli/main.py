"""``qipan``: list games, play in the terminal, replay records, perft, bench, solve, serve."""

from __future__ import annotations

import json
import random
import sys
import time

try:
    import click
    from rich.console import Console
    from rich.panel import Panel
    from rich.table import Table
except ImportError:  # pragma: no cover - the message is the point
    sys.exit("The qipan command needs its extra: pip install 'qipan[cli]'")

import qipan

from ..agents import agent_specs
from ..core.errors import QipanError
from ..core.game import CHANCE
from ..core.outcome import Outcome
from ..core.perft import perft
from ..core.refs import load_ref
from ..core.registry import commands
from ..records import Record, now_iso, read_records, save
from .options import parse_options
from .players import parse_players
from .session import Session

console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False, soft_wrap=True)


class QipanGroup(click.Group):
    """Turns qipan's own errors into one clear line and exit status 2."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except QipanError as exc:
            err_console.print(f"[red]error:[/red] {exc}")
            sys.exit(2)


@click.group(cls=QipanGroup)
@click.version_option(qipan.__version__, prog_name="qipan")
def cli():
    """qipan (棋盤): Black Path, Trax, Pipe Mania, Tantrix, Morris, Pente and MOD X."""


option_flag = click.option(
    "--option",
    "-o",
    "options",
    multiple=True,
    metavar="KEY=VALUE",
    help="a rule option, e.g. -o flying=none (repeatable)",
)


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="machine-readable output")
def games(as_json):
    """Every game and preset with its options."""
    specs = qipan.specs()
    if as_json:
        click.echo(json.dumps([s.to_dict() for s in specs], ensure_ascii=False, indent=1))
        return
    for spec in specs:
        table = Table(
            title=f"[bold]{spec.id}[/bold] — {spec.title} ({spec.family}; "
            f"players {', '.join(map(str, spec.players))})",
            title_justify="left",
            show_header=bool(spec.options),
        )
        table.add_column("option")
        table.add_column("default")
        table.add_column("allowed")
        table.add_column("meaning")
        defaults = spec.default_options()
        for opt in spec.options:
            table.add_row(opt.name, str(defaults[opt.name]), opt.allowed(), opt.help)
        console.print(table)


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="machine-readable output")
def agents(as_json):
    """Every AI agent, what it plays and its parameters."""
    if as_json:
        click.echo(json.dumps([a.to_dict() for a in agent_specs()], ensure_ascii=False, indent=1))
        return
    table = Table("agent", "games", "players", "parameters", "what it does")
    for a in agent_specs():
        table.add_row(
            a.name,
            ", ".join(a.families) if a.families else "all",
            ", ".join(map(str, a.players)) if a.players else "any",
            ", ".join(o.name for o in a.all_options()),
            a.description,
        )
    console.print(table)


@cli.command()
@click.argument("game")
@option_flag
@click.option(
    "--players",
    "-p",
    default=None,
    metavar="SEATS",
    help="comma-separated seats: human, ai (the strongest agent for the game) or an agent name "
    "with parameters, e.g. human,ai or mcts:time=2,human (default: human against ai)",
)
@click.option("--time", "move_time", default=2.0, show_default=True, help="seconds per AI move")
@click.option(
    "--level",
    default=None,
    type=click.IntRange(1, 8),
    help="the ai seats play this level, 1 (beginner) to 8 (full strength; --time is its time)",
)
@click.option("--seed", default=None, type=int, help="seed for setup, chance and agents")
@click.option(
    "--count", "count", default=None, type=int, help="number of players (default: the game's first)"
)
@click.option(
    "--match",
    "match_target",
    default=None,
    type=int,
    help="play a scoring match to this many points, for games that have scoring matches",
)
@click.option(
    "--by-lot",
    is_flag=True,
    help="with --match: draw who starts the first game (seeded by --seed)",
)
@click.option(
    "--save",
    "save_path",
    default=None,
    type=click.Path(dir_okay=False),
    help="write the record (or the match record) here at the end",
)
def play(game, options, players, move_time, level, seed, count, match_target, by_lot, save_path):
    """Play GAME in the terminal against people or AI.

    \b
    Examples:
      qipan play nine-mens-morris
      qipan play pente --players human,human
      qipan play nine-mens-morris -o flying=none --players human,mcts:time=1
      qipan play pente --level 3
      qipan play pente --match 21 --save match.json
      qipan play pente --match 30 --by-lot --players human,human
    """
    g = qipan.load(game, **parse_options(options))
    if g.terminal:
        load_ref(g.terminal)(g, players=count or g.players[0], seed=seed)
        return
    seats = parse_players(players, g, count, move_time, seed, level)
    if match_target is not None:
        from .match import run_match_session

        run_match_session(g, seats, seed, match_target, console, _read, _show_board, save_path, by_lot)
        return
    if by_lot:
        raise click.UsageError("--by-lot draws the first player of a match: give --match too")
    session = Session(g, seats, seed, read=_read, write=console.print, show_board=_show_board)
    state = session.run()
    if save_path:
        record = Record.from_state(state, names=session.names(), started=session.started, ended=now_iso())
        if session.resigned is not None:
            record.result = Outcome.win(
                [p for p in range(state.num_players) if p != session.resigned],
                state.num_players,
                "resignation",
            )
        save(record, save_path)
        console.print(f"saved to {save_path}")


def _read(prompt: str) -> str:
    return console.input(f"[bold]{prompt}[/bold]")


def _show_board(state) -> None:
    over = state.outcome
    status = (
        f"{over.result_text()} — {over.reason}"
        if over
        else "chance"
        if state.to_move == CHANCE
        else f"player {state.to_move + 1} to move"
    )
    ref = state.game.terminal_picture  # a coloured picture where the game declares one
    shown = load_ref(ref)(state) if ref else state.text()
    console.print(Panel(shown, title=f"{state.game.title} · ply {state.ply}", subtitle=status, expand=False))


@cli.command()
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--quiet", "-q", is_flag=True, help="summary only, no final board")
def replay(path, quiet):
    """Validate the game record(s) in PATH and print the result(s)."""
    records = read_records(path)
    if len(records) == 1:
        record = records[0]
        state = record.replay()
        if not quiet:
            _show_board(state)
        result = state.outcome or record.result
        console.print(
            f"{len(record.moves)} moves; result: "
            f"{result.result_text() + ' (' + result.reason + ')' if result else 'unfinished'}"
        )
        return
    ok = 0
    results: dict[str, int] = {}
    failures = []
    for i, record in enumerate(records, start=1):
        try:
            state = record.replay()
        except QipanError as exc:
            failures.append((i, str(exc)))
            continue
        ok += 1
        result = state.outcome or record.result
        label = f"{result.result_text()} ({result.reason})" if result else "unfinished"
        results[label] = results.get(label, 0) + 1
    table = Table("result", "games")
    for label, n in sorted(results.items(), key=lambda kv: -kv[1]):
        table.add_row(label, str(n))
    console.print(table)
    for i, msg in failures[:20]:
        console.print(f"[red]game {i} rejected:[/red] {msg}")
    if len(failures) > 20:
        console.print(f"... and {len(failures) - 20} more rejected")
    console.print(f"{len(records)} games: {ok} replayed, {len(failures)} rejected")
    if failures:
        sys.exit(1)


@cli.command(name="perft")
@click.argument("game")
@click.option("--depth", "-d", required=True, type=click.IntRange(0, 12))
@option_flag
@click.option("--divide", is_flag=True, help="count per first move")
def perft_cmd(game, depth, options, divide):
    """Count the move sequences of length DEPTH from the start."""
    state = qipan.load(game, **parse_options(options)).new(seed=0)
    if divide and depth > 0:
        total = 0
        for move in state.legal_moves():
            state.play_unchecked(move)
            n = perft(state, depth - 1)
            state.undo()
            total += n
            console.print(f"{move}: {n}")
        console.print(total)
        return
    console.print(perft(state, depth))


@cli.command()
@click.argument("game")
@option_flag
@click.option("--seconds", default=3.0, show_default=True, help="how long to run")
@click.option("--seed", default=0, show_default=True)
def bench(game, options, seconds, seed):
    """Random-playout speed: actions per CPU second (the machine may be shared).

    Moves come from ``State.random_move`` (chance moves too) and are played unchecked,
    as in a search's playouts."""
    g = qipan.load(game, **parse_options(options))
    rng = random.Random(seed)
    actions = games_done = 0
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        state = g.new(seed=rng.randrange(1 << 30))
        while state.outcome is None and state.ply < 10_000:
            state.play_unchecked(state.random_move(rng))
            actions += 1
        games_done += 1
    elapsed = time.process_time() - start
    console.print(
        f"{g.preset}: {actions} actions in {games_done} games, {elapsed:.2f} CPU s: "
        f"{actions / elapsed:,.0f} actions/s, {games_done / elapsed:,.1f} games/s"
    )


@cli.group(cls=QipanGroup)
def solve():
    """Solve a game exactly; the game packages add one subcommand each."""


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, show_default=True, type=int)
@click.option(
    "--db",
    default=None,
    help="database URL, e.g. postgresql://user@host/db (default: SQLite in the user data directory)",
)
@click.option(
    "--redis",
    default=None,
    metavar="URL",
    help="redis://host:port: one of several processes serving the same --db (PostgreSQL)",
)
def serve(host, port, db, redis):
    """Run the web app: play in the browser, online and against bots."""
    try:
        from ..server import run
    except ImportError as exc:
        raise QipanError(f"the server needs its extra: pip install 'qipan[server]' ({exc})") from exc
    if redis is not None:
        if not redis.startswith(("redis://", "rediss://", "unix://")):
            raise QipanError(f"--redis takes a redis:// URL, not {redis!r}")
        if db is None or not db.startswith(("postgresql", "postgres://")):
            raise QipanError(
                "several processes (--redis) share one PostgreSQL database: give --db postgresql://..."
            )
    run(host=host, port=port, db=db, redis=redis)


def _add_package_commands() -> None:
    """The commands the game packages register (``qipan solve blackpath``, ...)."""
    groups = {None: cli, "solve": solve}
    for command in commands():
        groups[command.group].add_command(load_ref(command.ref))


_add_package_commands()
cli.add_command(load_ref("qipan.cli.engine:engine"))
cli.add_command(load_ref("qipan.cli.arena:arena"))
cli.add_command(load_ref("qipan.cli.admin:admin"))
cli.add_command(load_ref("qipan.cli.db:db"))
cli.add_command(load_ref("qipan.cli.puzzles:puzzles"))


def main():
    cli()


if __name__ == "__main__":
    main()
