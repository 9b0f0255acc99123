"""MOD X (十字連環棋): 2–4 players or 2v2 teams; X, plus and line patterns with jokers.

Registers ``modx`` (2, 3 or 4 players; 2 by default), the presets ``modx-3``, ``modx-4``,
``modx-teams`` and ``modx-claims`` (the seed's manual claims), the ``modx`` agent and the ``modx-turns`` record format (one line per turn)."""

from ...agents.base import AgentSpec, register_agent
from ...core.formats import register_format
from ...core.registry import GameSpec, Option, register
from .agent import ModXAgent
from .classic import ModXClassicAgent
from .records import FORMAT
from .rules import ModXGame, ModXState

OPTIONS = (
    Option(
        "jokers", int, 5, "jokers in play (5 by default; 6-8 for the 'crazy' variant)", minimum=5, maximum=8
    ),
    Option(
        "random_jokers",
        bool,
        False,
        "place the setup jokers at random (no two touching) instead of by player 1",
    ),
    Option("teams", bool, False, "4 players as 2 teams of 2 (partners sit opposite), playing to 12 together"),
    Option(
        "manual_claims",
        bool,
        False,
        "the seed's table rule: patterns are claimed, not scored by themselves; one left unclaimed "
        "may be claimed by another player with an X next to it",
    ),
)

MODX = GameSpec(
    "modx",
    "MOD X",
    "modx",
    ModXGame,
    options=OPTIONS,
    players=(2, 3, 4),
    description="Place X pieces to make X, plus and line-of-five patterns; score them with markers.",
)

register(
    MODX,
    MODX.preset("modx-3", "MOD X, 3 players", players=(3,)),
    MODX.preset("modx-4", "MOD X, 4 players", players=(4,)),
    MODX.preset("modx-teams", "MOD X, 2 teams of 2", players=(4,), teams=True),
    MODX.preset(
        "modx-claims",
        "MOD X, patterns claimed by hand",
        "The seed's table rule: a pattern its maker leaves unclaimed can be claimed by another player.",
        manual_claims=True,
    ),
)

register_format(FORMAT)

_SEARCH_OPTIONS = (
    Option(
        "width",
        int,
        None,
        "candidate placements searched (modx with two players: at the root, default 16; else default 24, "
        "64 with a time limit; iterations overrides)",
        minimum=1,
        maximum=64,
        allow_none=True,
    ),
    Option("replies", int, 8, "answers of the next player tried per candidate", minimum=1, maximum=64),
)

register_agent(
    AgentSpec(
        "modx",
        ModXAgent,
        "MOD X: two players, iterative-deepening alpha-beta over whole turns (as deep as its time "
        "allows); three or four, a two-ply selective search; on points, threats, forks and (a quarter of "
        "the classic) pattern potential, safe joker relocation, its move ordering summed pattern by "
        "pattern; caution<1 blends a candidate's worst answer with their mean (3-4 players)",
        families=("modx",),
        players=(2, 3, 4),
        strength=2,
        options=_SEARCH_OPTIONS
        + (
            Option(
                "caution",
                float,
                1.0,
                "a candidate's value: this share of its worst answer, the rest their mean (1: the worst)",
                minimum=0.0,
                maximum=1.0,
            ),
        ),
    )
)

register_agent(
    AgentSpec(
        "modx-classic",
        ModXClassicAgent,
        "MOD X, the earlier agent kept as a fixed reference: two-ply selective search on "
        "pattern potential, threats and safe joker relocation",
        families=("modx",),
        players=(2, 3, 4),
        strength=1,
        options=_SEARCH_OPTIONS,
    )
)

__all__ = ["ModXAgent", "ModXClassicAgent", "ModXGame", "ModXState"]
