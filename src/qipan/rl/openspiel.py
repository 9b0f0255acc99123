"""Every qipan game and preset as a Python game of OpenSpiel (``pyspiel``), so OpenSpiel's
own algorithms (MCTS, CFR, its tests) run on them.

    import qipan.rl.openspiel as qos
    game = qos.load("pente", tournament=True)        # a pyspiel.Game
    pyspiel.load_game("qipan_nine_mens_morris(players=2)")  # after qos.register()

A preset ``p`` is registered as ``qipan_<p>`` (hyphens as underscores). Its parameters are
``players`` and the game's options with their defaults (an option whose default is None
is a string parameter, ``"none"`` by default). Actions are the game's declared action
space (``Game.actions()``); chance nodes are OpenSpiel chance nodes whose outcomes are the
game's chance moves in the order the rules list them; observation tensors are the action
space's planes; returns are ``2 · outcome.reward(player) - 1``. The initial state is the
game's ``new(players, seed=0)``."""

from __future__ import annotations

import math

import numpy as np
import pyspiel

from ..core.registry import load as load_game
from ..core.registry import specs

PREFIX = "qipan_"


def short_name(preset: str) -> str:
    return PREFIX + preset.replace("-", "_")


def _parameters(preset: str) -> dict:
    """The pyspiel parameter specification: players and every option's default."""
    game = load_game(preset)
    params: dict = {"players": game.players[0]}
    for name, value in game.options.items():
        params[name] = "none" if value is None else value
    return params


def _options(preset: str, params: dict) -> tuple[int, dict]:
    """(players, qipan options) from pyspiel parameters (``"none"`` back to None)."""
    params = dict(params or {})
    players = params.pop("players", None)
    defaults = _parameters(preset)
    options = {k: (None if v == "none" and defaults.get(k) == "none" else v) for k, v in params.items()}
    return players, options


def _game_type(preset: str, game) -> pyspiel.GameType:
    space = game.actions()
    two = tuple(game.players) == (2,)
    return pyspiel.GameType(
        short_name=short_name(preset),
        long_name=f"qipan {game.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(
            pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
            if space.chance_outcomes
            else pyspiel.GameType.ChanceMode.DETERMINISTIC
        ),
        information=(
            pyspiel.GameType.Information.IMPERFECT_INFORMATION
            if game.hides_information
            else pyspiel.GameType.Information.PERFECT_INFORMATION
        ),
        utility=pyspiel.GameType.Utility.ZERO_SUM if two else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(game.players),
        min_num_players=min(game.players),
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(preset),
    )


class QipanGame(pyspiel.Game):
    """One preset's game; subclassed per preset by ``register`` (``preset`` set)."""

    preset = ""
    game_type: pyspiel.GameType

    def __init__(self, params=None):
        players, options = _options(self.preset, params)
        self.qgame = load_game(self.preset, **options)
        self.players = self.qgame.players[0] if players is None else int(players)
        if self.players not in self.qgame.players:
            allowed = ", ".join(map(str, self.qgame.players))
            raise ValueError(f"{self.qgame.title} is played by {allowed} players, not {self.players}")
        self.space = self.qgame.actions()
        info = pyspiel.GameInfo(
            num_distinct_actions=self.space.size,
            max_chance_outcomes=self.space.chance_outcomes,
            num_players=self.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if self.players == 2 and tuple(self.qgame.players) == (2,) else None,
            max_game_length=self.space.max_game_length,
        )
        super().__init__(self.game_type, info, params or {})

    def new_initial_state(self):
        return QipanState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return QipanObserver(self, history=recall)


class _Shared:
    """Holds what a clone shares (the action space and, through it, the game's tables):
    pyspiel clones a Python state by deep-copying its attributes."""

    def __init__(self, space):
        self.space = space

    def __deepcopy__(self, memo):
        return self


class _Position:
    """Holds the qipan state; a deep copy is the contract's fast ``copy()``."""

    def __init__(self, state):
        self.state = state

    def __deepcopy__(self, memo):
        return _Position(self.state.copy())


class QipanState(pyspiel.State):
    def __init__(self, game: QipanGame):
        super().__init__(game)
        self._shared = _Shared(game.space)
        self._position = _Position(game.qgame.new(game.players, seed=0))

    @property
    def space(self):
        return self._shared.space

    @property
    def qstate(self):
        return self._position.state

    def current_player(self):
        s = self.qstate
        if s.outcome is not None:
            return pyspiel.PlayerId.TERMINAL
        if s.is_chance:
            return pyspiel.PlayerId.CHANCE
        return s.to_move

    def _legal_actions(self, player):
        return self.space.legal_actions(self.qstate)

    def chance_outcomes(self):
        return [(i, p) for i, (_, p) in enumerate(self.qstate.chance_outcomes())]

    def _move(self, action):
        if self.qstate.is_chance:
            return self.qstate.chance_outcomes()[action][0]
        return self.space.move(self.qstate, action)

    def _apply_action(self, action):
        self.qstate.play(self._move(action))

    def _action_to_string(self, player, action):
        return self._move(action).text

    def is_terminal(self):
        return self.qstate.outcome is not None

    def returns(self):
        outcome = self.qstate.outcome
        if outcome is None:
            return [0.0] * self.qstate.num_players
        return [2.0 * outcome.reward(p) - 1.0 for p in range(self.qstate.num_players)]

    def __str__(self):
        return self.qstate.text()


class QipanObserver:
    """The PyObserver of OpenSpiel: the action space's planes, the position's text (or, for
    a perfect-recall observation, the moves so far)."""

    def __init__(self, game: QipanGame, history: bool = False):
        self.space, self.history = game.space, history
        shape = self.space.observation_shape(game.players)
        self.tensor = np.zeros(math.prod(shape), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: QipanState, player: int) -> None:
        self.tensor[:] = self.space.observe(state.qstate, player)

    def string_from(self, state: QipanState, player: int) -> str:
        if self.history:
            return " ".join(m.text for m in state.qstate.history)
        return state.qstate.text()


_REGISTERED: dict[str, str] = {}


def register(*presets: str) -> list[str]:
    """Register presets (all of them by default) with pyspiel; their short names."""
    names = []
    for preset in presets or [spec.id for spec in specs()]:
        if preset not in _REGISTERED:
            game = load_game(preset)
            if game.actions() is None:
                continue
            cls = type(f"QipanGame_{preset}", (QipanGame,), {"preset": preset})
            cls.game_type = _game_type(preset, game)
            pyspiel.register_game(cls.game_type, cls)
            _REGISTERED[preset] = short_name(preset)
        names.append(_REGISTERED[preset])
    return names


def load(name: str, players: int | None = None, **options) -> pyspiel.Game:
    """The pyspiel game of preset ``name`` with ``players`` and ``options``."""
    from ..core.registry import spec

    preset = spec(name).id
    register(preset)
    params = dict(options)
    if players is not None:
        params["players"] = players
    return pyspiel.load_game(short_name(preset), params)
