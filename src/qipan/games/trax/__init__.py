"""Trax: unlimited (Supertrax), 8×8 and Loop Trax, with official notation and the
GnuTrax ``.trx`` record format. Rules: ``rules.en.md`` beside this file."""

from __future__ import annotations

from dataclasses import replace

from ...agents.base import AgentSpec, register_agent
from ...core.formats import register_format
from ...core.registry import GameSpec, Option, register
from .agent import TraxAgent
from .classic import TraxClassicAgent
from .records import ANNOTATED_FORMAT, TRX_FORMAT, TSV_FORMAT
from .rules import LINE_RULES, SIMULTANEOUS, VARIANTS, TraxGame, TraxState

OPTIONS = (
    Option(
        "variant", str, "unlimited", "unlimited (Supertrax), 8x8 (Limited Trax) or loop (Loop Trax)", VARIANTS
    ),
    Option(
        "simultaneous",
        str,
        "mover",
        "a turn completing a loop/line of both colours: the mover wins (official) or draw (old 8x8 sheets)",
        SIMULTANEOUS,
    ),
    Option(
        "line_rule",
        str,
        "edges",
        "a line: edges = joins the outermost edges of the whole tile area, 8 or more wide (official); "
        "span = its ends face outward on tiles 8 or more apart, anywhere (the seed's rule 8)",
        LINE_RULES,
    ),
)

TRAX = GameSpec(
    "trax",
    "Trax",
    "trax",
    TraxGame,
    options=OPTIONS,
    description="Two-colour track tiles on an unbounded grid; make a loop or an 8-long line of your colour.",
    random_game_cap=2000,
)
register(
    TRAX,
    replace(
        TRAX.preset("trax-8x8", "8x8 Trax", "Limited Trax: the tile area never exceeds 8x8.", variant="8x8"),
        fixed=("variant",),
    ),
    replace(TRAX.preset("trax-loop", "Loop Trax", "Only loops win.", variant="loop"), fixed=("variant",)),
)

register_format(TRX_FORMAT)
register_format(TSV_FORMAT)
register_format(ANNOTATED_FORMAT)

register_agent(
    AgentSpec(
        "trax",
        TraxAgent,
        "Trax principal-variation search over free tiles with forced plays, a transposition "
        "table and exact immediate wins at the horizon (threat quiescence)",
        families=("trax",),
        players=(2,),
        strength=10,
    )
)
register_agent(
    AgentSpec(
        "trax-classic",
        TraxClassicAgent,
        "The Trax alpha-beta agent before issue 17, kept unchanged as the fixed reference",
        families=("trax",),
        players=(2,),
        strength=5,
    )
)

__all__ = ["TraxClassicAgent", "TraxAgent", "TraxGame", "TraxState"]
