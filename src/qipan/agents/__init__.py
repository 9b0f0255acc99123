"""AI players. ``qipan.agents.load("mcts", time=1.0)``; game packages add their own."""

from ..core.registry import Option
from .alphabeta import OPTIONS as ALPHABETA_OPTIONS
from .alphabeta import AlphaBetaAgent
from .base import (
    LIMIT_OPTIONS,
    Agent,
    AgentSpec,
    agent_spec,
    agent_specs,
    agents_for,
    load,
    parse_agent,
    register_agent,
    strongest_agent_name,
)
from .budget import Allotment, Budget, allot
from .engine import EngineAgent
from .levels import HIGHEST, LOWEST, LevelAgent
from .mcts import MCTSAgent
from .random_agent import RandomAgent

register_agent(AgentSpec("random", RandomAgent, "uniformly random legal moves"))
register_agent(
    AgentSpec(
        "mcts",
        MCTSAgent,
        "Monte Carlo tree search (UCT), any game, n players, chance",
        options=(
            Option("exploration", float, 1.4, "UCT exploration constant", minimum=0.0, maximum=100.0),
            Option(
                "playout_cap",
                int,
                400,
                "plies after which a playout is scored by the evaluation",
                minimum=1,
                maximum=100_000,
            ),
        ),
    )
)
register_agent(
    AgentSpec(
        "alphabeta",
        AlphaBetaAgent,
        "alpha-beta with iterative deepening and a transposition table (2 players)",
        players=(2,),
        options=ALPHABETA_OPTIONS,
    )
)

register_agent(
    AgentSpec(
        "level",
        LevelAgent,
        "levels 1-8 for people: 1-3 a softmax over one or two plies (plausible blunders), "
        "4-8 the game's strongest agent with a growing share of the time (time: the full level's)",
        options=(
            Option(
                "level",
                int,
                HIGHEST,
                "strength, 1 (beginner) to 8 (full strength)",
                minimum=LOWEST,
                maximum=HIGHEST,
            ),
        ),
        # Not itself "the strongest agent": level 8 is that agent.
        default_ai=False,
    )
)

register_agent(
    AgentSpec(
        "engine",
        EngineAgent,
        "an external program speaking the qipan engine protocol (cmd=...)",
        options=(
            Option("cmd", str, "", "the engine program's command line (qipan engine GAME, another program)"),
            Option("timeout", float, 10.0, "seconds the engine may take beyond the move's time", minimum=0.1),
        ),
        # It starts programs: never a default bot, not offered by the server or the lobby, and
        # off unless a local front end allows it.
        default_ai=False,
        local_only=True,
    )
)

__all__ = [
    "LIMIT_OPTIONS",
    "Agent",
    "AgentSpec",
    "Allotment",
    "AlphaBetaAgent",
    "Budget",
    "LevelAgent",
    "MCTSAgent",
    "RandomAgent",
    "agent_spec",
    "allot",
    "agent_specs",
    "agents_for",
    "load",
    "parse_agent",
    "register_agent",
    "strongest_agent_name",
]
