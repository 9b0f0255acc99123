"""AI players. ``qipan.agents.load("mcts", time=1.0)``; game packages add their own."""

from .base import Agent, AgentSpec, agent_specs, load, register_agent
from .random_agent import RandomAgent

register_agent(AgentSpec("random", RandomAgent, "uniformly random legal moves"))

__all__ = ["Agent", "AgentSpec", "RandomAgent", "agent_specs", "load", "register_agent"]
