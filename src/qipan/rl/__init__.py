"""Programs as users: PettingZoo, Gymnasium and OpenSpiel adapters over the contract
(``qipan[rl]``). Every game plugs in through its declared ``Game.actions()``
(``core/actions.py``); nothing here knows a game.

    env = qipan.rl.env("pente", tournament=True)       # PettingZoo AEC environment
    single = qipan.rl.single_agent("pente", opponent="mcts:iterations=200")   # Gymnasium
"""

from __future__ import annotations

from typing import Any


def env(
    name: str, players: int | None = None, max_plies: int | None = None, render_mode=None, **options: Any
):
    """The PettingZoo AEC environment of game or preset ``name`` with ``options``."""
    from .aec import QipanAECEnv

    return QipanAECEnv.of(name, players=players, max_plies=max_plies, render_mode=render_mode, **options)


def single_agent(
    name: str,
    opponent: Any = "random",
    seat: int = 0,
    players: int | None = None,
    illegal: str = "lose",
    max_plies: int | None = None,
    render_mode=None,
    **options: Any,
):
    """A Gymnasium environment: the learner plays ``seat``, qipan agents (an agent, a spec
    such as ``"mcts:iterations=200"``, or one per other seat) play the rest. An action
    outside the mask is refused: the episode ends with reward -1 and ``info["illegal"]``
    (``illegal="raise"`` raises IllegalMove instead)."""
    from .aec import QipanAECEnv
    from .gym import SingleAgentEnv

    aec = QipanAECEnv.of(name, players=players, max_plies=max_plies, render_mode=render_mode, **options)
    return SingleAgentEnv(aec, opponent=opponent, seat=seat, illegal=illegal)


__all__ = ["env", "single_agent"]
