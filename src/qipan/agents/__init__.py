"""AI players. ``qipan.agents.load("mcts", time=1.0)``; game packages add their own."""

from ..core.registry import Option
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
from .engine import EngineAgent
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
        options=(
            Option(
                "table_size",
                int,
                1_000_000,
                "transposition-table entries kept",
                minimum=1,
                maximum=100_000_000,
            ),
        ),
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
    "AlphaBetaAgent",
    "MCTSAgent",
    "RandomAgent",
    "agent_spec",
    "agent_specs",
    "agents_for",
    "load",
    "parse_agent",
    "register_agent",
    "strongest_agent_name",
]
