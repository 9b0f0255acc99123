"""``qipan engine GAME``: speak the engine protocol (docs/engine-protocol.md) on
stdin/stdout, so other programs (GUIs, tournament managers, another qipan) can use
qipan's agents."""

from __future__ import annotations

import sys

import click

import qipan

from ..agents.engine_protocol import EngineLoop


@click.command()
@click.argument("game")
@click.option("--agent", default=None, help="the agent that searches (default: the strongest for the game)")
def engine(game, agent):
    """Speak the qipan engine protocol on stdin/stdout (commands: qpi, isready,
    setoption, newgame, position, go, stop, quit; queries: legal, tomove, result,
    position, undo). The game's fast engines compile before readyok."""

    def write(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    loop = EngineLoop(game, write, agent=agent, version=qipan.__version__)
    for line in sys.stdin:
        if not loop.handle(line):
            break
    loop.stop()
