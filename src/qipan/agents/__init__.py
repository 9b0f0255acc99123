"""AI players. ``qipan.agents.load("mcts", time=1.0)``; game packages add their own."""

from .alphabeta import AlphaBetaAgent
from .base import Agent, AgentSpec, agent_specs, load, register_agent, strongest_agent_name
from .mcts import MCTSAgent
from .random_agent import RandomAgent

register_agent(AgentSpec("random", RandomAgent, "uniformly random legal moves"))
register_agent(AgentSpec("mcts", MCTSAgent, "Monte Carlo tree search (UCT), any game, n players, chance"))
register_agent(
    AgentSpec(
        "alphabeta",
        AlphaBetaAgent,
        "alpha-beta with iterative deepening and a transposition table (2 players)",
    )
)

__all__ = [
    "Agent",
    "AgentSpec",
    "AlphaBetaAgent",
    "MCTSAgent",
    "RandomAgent",
    "agent_specs",
    "load",
    "register_agent",
    "strongest_agent_name",
]
