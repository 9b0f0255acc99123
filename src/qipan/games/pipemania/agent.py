"""The ``pipemania`` agent (``qipan.agents.load("pipemania")``): the generic alpha-beta over
Pipe Mania's evaluation and move ordering (``evaluation.py``), the strongest two-player
agent the game has, with the levels set by lapses.

Why an agent of its own: on the shared grid (rules §3.5: each tick P1 acts, then P2, then
the flow) the second seat wins nine games in ten between players who search, whatever
their time. A shorter budget then does not make a weaker level, so levels 4-8 search with
the full level's time and differ by how often they play level 3's move instead; the rates
are this game's own (benchmarks/results/levels.md)."""

from __future__ import annotations

from ...agents.alphabeta import AlphaBetaAgent


class PipeManiaAgent(AlphaBetaAgent):
    name = "pipemania"
    levels_by_lapses = True
    #: Levels 4-7: the chance that a move is level 3's. A few searched moves gain most (at
    #: 85/70/55/40 %, level 4 scored 76.5/100 over level 3 and 8 over 7 only 54/100, in a run
    #: cut at 200 plies), so the rates stay high until level 7.
    steady_lapses = (0.96, 0.91, 0.83, 0.7)


__all__ = ["PipeManiaAgent"]
