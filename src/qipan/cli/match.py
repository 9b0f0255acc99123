"""``qipan play pente --match 21``: a scoring match in the terminal, for any game that
declares a scoring-match driver (``Game.scoring_match``)."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console
from rich.table import Table

from ..agents import Agent
from ..core.errors import QipanError
from ..core.game import Game
from ..core.refs import load_ref
from .session import Session


def run_match_session(
    game: Game,
    seats: list[Agent | None],
    seed: int | None,
    target: int,
    console: Console,
    read,
    show_board,
    save_path: str | None = None,
    by_lot: bool = False,
):
    if game.scoring_match is None:
        raise QipanError(f"{game.title} has no scoring matches")
    Match = load_ref(game.scoring_match)

    options = {k: v for k, v in game.options.items() if k != "first_player"}
    names = ["human" if a is None else a.describe() for a in seats]
    first = "lot" if by_lot else 0  # who starts the first game: player 1, or drawn
    match = Match(
        game.preset,
        target=target,
        players=len(seats),
        options=options,
        names=names,
        first_player=first,
        seed=seed,
    )
    number = 0
    while not match.over:
        number += 1
        state = match.start_game()
        console.print(f"[bold]Game {number}[/bold]: player {match.next_starter + 1} starts")
        session = Session(
            game,
            seats,
            None if seed is None else seed + number,
            read=read,
            write=console.print,
            show_board=show_board,
            state=state,
        )
        session.run()
        if state.outcome is None and session.resigned is None:
            console.print("match abandoned")
            break
        points = match.finish_game(state, resigned=session.resigned)
        table = Table("player", "this game", "match")
        for p in range(len(seats)):
            table.add_row(f"{p + 1} ({names[p]})", str(points[p]), str(match.scores[p]))
        console.print(table)
    if match.over:
        console.print(
            f"[bold]Match won by player {' and '.join(str(p + 1) for p in match.winner)}[/bold] "
            f"({' - '.join(map(str, match.side_scores()))})"
        )
    if save_path:
        Path(save_path).write_text(match.to_json(), encoding="utf-8")
        console.print(f"match saved to {save_path}")
    return match
