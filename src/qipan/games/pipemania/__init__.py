"""Pipe Mania (接水管): registration of the tick-based model of the real-time puzzle and of
its level record format."""

from ...agents.alphabeta import OPTIONS as ALPHABETA_OPTIONS
from ...agents.base import AgentSpec, register_agent
from ...core import GameSpec, Option, register
from ...core.formats import register_format
from .agent import PipeManiaAgent
from .records import LEVEL_RECORD_FORMAT
from .rules import DEFAULTS, PipeManiaGame, PipeManiaState

_HELP = {
    "cols": "grid columns",
    "rows": "grid rows",
    "layout": "level layout text (rows split by /, cells by spaces); empty = generated levels",
    "wrap": "wrap openings in the border: all, or r<row>,c<col>,...",
    "layout_seed": "seed of generated layouts",
    "level": "first level number",
    "levels": "levels in a game (each faster than the last)",
    "goal": "length: flood min_length channels; connect: reach the drain",
    "min_length": "channels to flood",
    "start_delay": "countdown of level 1 in ticks",
    "flow_period": "ticks per flow step on level 1",
    "delay_step": "countdown shortening per level",
    "period_step": "flow period shortening per level",
    "supply": "queue (random refill), choice (switch yourself), fixed (only the pieces on screen)",
    "choice": "choice mode: free (any piece) or two_stacks",
    "queue_len": "pieces shown by the dispenser",
    "weights": "dispenser weights of H,V,WS,ES,NE,NW,X",
    "sequence": "preset dispenser sequence (then random)",
    "fixed": "pieces of the fixed supply, e.g. H,H,V,X (empty: 3 of each)",
    "replace_penalty": "points per replacement",
    "replace_delay": "ticks lost after a replacement",
    "hurry": "allow hurrying the flow",
    "reservoir_factor": "flow periods spent in a reservoir",
    "channel_points": "points per channel up to min_length",
    "long_points": "points per channel after min_length",
    "crossover_points": "points per crossover",
    "crossover_bonus": "bonus for enough crossovers in a level",
    "crossover_bonus_count": "crossovers for the bonus",
    "bonus_points": "points per bonus piece or reservoir",
    "unused_penalty": "penalty per placed piece left dry",
    "full_bonus": "bonus for flooding every cell",
    "mode": "two players: shared (one grid) or race (two grids)",
}
_CHOICES = {
    "goal": ("length", "connect"),
    "supply": ("queue", "choice", "fixed"),
    "choice": ("free", "two_stacks"),
    "mode": ("shared", "race"),
}
_BOUNDS = {
    "cols": (2, 26),
    "rows": (2, 26),
    "level": (1, 99),
    "levels": (1, 99),
    "min_length": (0, 676),
    "start_delay": (0, 1000),
    "flow_period": (1, 100),
    "delay_step": (0, 100),
    "period_step": (0, 100),
    "queue_len": (1, 10),
    "replace_delay": (0, 100),
    "reservoir_factor": (1, 20),
    "crossover_bonus_count": (1, 100),
}


def _option(name, default):
    lo, hi = _BOUNDS.get(name, (None, None))
    return Option(
        name, type(default), default, _HELP[name], choices=_CHOICES.get(name), minimum=lo, maximum=hi
    )


SPEC = GameSpec(
    id="pipemania",
    title="Pipe Mania",
    family="pipemania",
    make=PipeManiaGame,
    options=tuple(_option(k, v) for k, v in DEFAULTS.items()),
    players=(1, 2),
    description="Lay pipes from the start to the drain before the flooz arrives (the seed's goal: connect).",
)

register(
    SPEC,
    SPEC.preset(
        "pipemania-classic",
        "Pipe Mania (classic)",
        "Flood at least 14 channels; levels get faster.",
        goal="length",
        min_length=14,
        levels=5,
    ),
    SPEC.preset(
        "pipemania-choice",
        "Pipe Mania (switch by yourself)",
        "Choose any piece each time.",
        supply="choice",
        choice="free",
    ),
    SPEC.preset(
        "pipemania-two-stacks",
        "Pipe Mania (two stacks)",
        "Pick the front piece of one of two queues.",
        supply="choice",
        choice="two_stacks",
        goal="length",
        min_length=14,
    ),
    SPEC.preset(
        "pipemania-fixed",
        "Pipe Mania (only the pipes on screen)",
        "A fixed set of pieces, no refill.",
        supply="fixed",
    ),
    SPEC.preset(
        "pipemania-2p",
        "Pipe Mania (2 players, shared grid)",
        "Two players, one grid, own dispensers.",
        players=(2,),
        mode="shared",
        goal="length",
        min_length=14,
    ),
    SPEC.preset(
        "pipemania-race",
        "Pipe Mania (2 players, race)",
        "Two grids, the same pieces; higher score wins.",
        players=(2,),
        mode="race",
        goal="length",
        min_length=14,
    ),
)

register_format(LEVEL_RECORD_FORMAT)
register_agent(
    AgentSpec(
        "pipemania",
        PipeManiaAgent,
        "Pipe Mania, two players: alpha-beta over the flow's projected scores (the generic "
        "alphabeta with the game's evaluation; its levels are set by lapses)",
        families=("pipemania",),
        players=(2,),
        options=ALPHABETA_OPTIONS,
    )
)

__all__ = ["PipeManiaAgent", "PipeManiaGame", "PipeManiaState"]
