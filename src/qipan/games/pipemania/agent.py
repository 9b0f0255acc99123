"""The ``pipemania`` agent: the generic alpha-beta (``qipan.agents.alphabeta``) on Pipe
Mania's evaluation and move ordering (``evaluation.py``), for two players.

It is a name of its own for one reason: measured at the site's full level, it plays as well
with a sixth of a second a move as with a whole second (level 6 against level 8 at 1 s, 62
of 127 games, ``benchmarks/results/levels.md``). Shorter budgets therefore cannot set its
levels, so it says it gains little from time and the levels set its strength by lapses."""

from __future__ import annotations

from ...agents.alphabeta import AlphaBetaAgent


class PipeManiaAgent(AlphaBetaAgent):
    name = "pipemania"
    gains_little_from_time = True


__all__ = ["PipeManiaAgent"]
