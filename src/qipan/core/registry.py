"""Every game and preset by name, with its options, their types, defaults and allowed
values. Game packages under ``qipan.games`` register themselves when imported; the
registry imports them all on first use, so a new game plugs in by existing."""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from importlib.metadata import entry_points
from typing import Any

from .errors import OptionError
from .game import Game

_TRUE = {"1", "true", "yes", "on", "y"}
_FALSE = {"0", "false", "no", "off", "n"}


@dataclass(frozen=True)
class Option:
    """One rule switch. ``type`` is bool, int, float or str; ``choices`` limits values;
    ``minimum``/``maximum`` bound numbers; ``allow_none`` admits None (e.g. "no flying")."""

    name: str
    type: type
    default: Any
    help: str = ""
    choices: tuple | None = None
    minimum: float | None = None
    maximum: float | None = None
    allow_none: bool = False

    def allowed(self) -> str:
        parts = []
        if self.choices is not None:
            parts.append("one of " + ", ".join(map(str, self.choices)))
        else:
            parts.append(self.type.__name__)
            if self.minimum is not None and self.maximum is not None:
                parts.append(f"{self.minimum}..{self.maximum}")
            elif self.minimum is not None:
                parts.append(f">= {self.minimum}")
            elif self.maximum is not None:
                parts.append(f"<= {self.maximum}")
        if self.allow_none:
            parts.append("or none")
        return " ".join(parts)

    def coerce(self, value: Any) -> Any:
        """The validated value; strings (from a command line or a form) are converted."""
        shown = repr(value)
        if len(shown) > 40:  # never echo a huge input back
            shown = shown[:37] + "..."
        bad = OptionError(f"option {self.name}={shown} is not allowed: expected {self.allowed()}")
        if value is None or (isinstance(value, str) and value.strip().lower() in {"none", "null"}):
            if self.allow_none:
                return None
            raise bad
        if self.type is bool:
            if isinstance(value, bool):
                out = value
            elif isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
                out = value.strip().lower() in _TRUE
            elif isinstance(value, int) and value in (0, 1):
                out = bool(value)
            else:
                raise bad
        elif self.type is int:
            if isinstance(value, bool):
                raise bad
            if isinstance(value, int):
                out = value
            elif isinstance(value, str):
                if len(value) > 40:  # int() of a huge digit string is slow
                    raise bad
                try:
                    out = int(value.strip())
                except ValueError:
                    raise bad from None
            elif isinstance(value, float) and value.is_integer():
                out = int(value)
            else:
                raise bad
        elif self.type is float:
            if isinstance(value, bool):
                raise bad
            try:
                out = float(value)
            except (TypeError, ValueError, OverflowError):
                raise bad from None
            if not math.isfinite(out):  # NaN passes every bound check
                raise bad
        else:
            if not isinstance(value, str):
                raise bad
            out = value.strip()
        if self.choices is not None and out not in self.choices:
            raise bad
        if self.minimum is not None and out < self.minimum:
            raise bad
        if self.maximum is not None and out > self.maximum:
            raise bad
        return out

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "type": self.type.__name__,
            "default": self.default,
            "help": self.help,
            "choices": list(self.choices) if self.choices is not None else None,
            "minimum": self.minimum,
            "maximum": self.maximum,
            "allow_none": self.allow_none,
        }


@dataclass(frozen=True)
class GameSpec:
    """A registered game or preset: ``make(**options)`` builds the Game. A preset is a
    spec with other defaults (``spec.preset(...)``)."""

    id: str
    title: str
    family: str
    make: Callable[..., Game]
    options: tuple[Option, ...] = ()
    players: tuple[int, ...] = (2,)
    description: str = ""
    defaults: dict = field(default_factory=dict)
    #: Options a preset fixes: changing them would make it another preset.
    fixed: tuple[str, ...] = ()
    #: A cap for random conformance games where a game could run long (None = no cap).
    random_game_cap: int | None = None
    #: The game a lobby shows first (the registry's best-known game).
    featured: bool = False

    def option(self, name: str) -> Option:
        for opt in self.options:
            if opt.name == name:
                return opt
        names = ", ".join(o.name for o in self.options) or "none"
        raise OptionError(f"{self.id} has no option {name!r}; its options are: {names}")

    def default_options(self) -> dict:
        out = {o.name: o.default for o in self.options}
        out.update(self.defaults)
        return out

    def resolve(self, **options: Any) -> dict:
        resolved = self.default_options()
        for name, value in options.items():
            opt = self.option(name)
            resolved[name] = opt.coerce(value)
        return resolved

    def preset(self, id: str, title: str, description: str = "", players=None, **defaults) -> GameSpec:
        for name in defaults:
            self.option(name)
        return replace(
            self,
            id=id,
            title=title,
            description=description or self.description,
            players=players or self.players,
            defaults={**self.defaults, **defaults},
            featured=False,
        )

    def to_dict(self) -> dict:
        defaults = self.default_options()
        opts = []
        for o in self.options:
            d = o.to_dict()
            d["default"] = defaults[o.name]
            opts.append(d)
        return {
            "id": self.id,
            "title": self.title,
            "family": self.family,
            "players": list(self.players),
            "description": self.description,
            "options": opts,
            "capabilities": load(self.id).capabilities(),
            "featured": self.featured,
        }


_SPECS: dict[str, GameSpec] = {}
_loaded = False


def register(*specs: GameSpec) -> None:
    for spec in specs:
        if spec.id in _SPECS and _SPECS[spec.id] is not spec:
            raise ValueError(f"game id {spec.id!r} registered twice")
        _SPECS[spec.id] = spec


def unregister(game_id: str) -> None:
    """Remove a registered game (for tests that register throw-away games)."""
    _SPECS.pop(game_id, None)


#: Entry-point group through which distributions offer game packages.
ENTRY_POINT_GROUP = "qipan.games"


def _load_all() -> None:
    """Import every game package offered under the ``qipan.games`` entry points (ours in
    pyproject.toml, or another distribution's): each registers itself when imported."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    found = entry_points(group=ENTRY_POINT_GROUP)
    if not found:
        raise RuntimeError(
            "no qipan game packages are installed (entry points 'qipan.games'): install qipan "
            "with pip (pip install -e .) rather than running it from a bare source tree"
        )
    for ep in sorted(found, key=lambda e: e.name):
        importlib.import_module(ep.value)


@dataclass(frozen=True)
class CommandSpec:
    """A command a game package adds to the ``qipan`` CLI: ``ref`` is ``"module:attr"`` of
    a Click command, added under ``group`` (e.g. ``solve`` for ``qipan solve blackpath``)
    or at the top level (``group=None``). Strings keep the core free of Click."""

    ref: str
    group: str | None = None


_COMMANDS: list[CommandSpec] = []


def register_command(ref: str, group: str | None = None) -> None:
    command = CommandSpec(ref, group)
    if command not in _COMMANDS:
        _COMMANDS.append(command)


def commands() -> list[CommandSpec]:
    """Every command the game packages register."""
    _load_all()
    return list(_COMMANDS)


def specs() -> list[GameSpec]:
    """Every registered game and preset, by family then id."""
    _load_all()
    return sorted(_SPECS.values(), key=lambda s: (s.family, s.id))


def spec(name: str) -> GameSpec:
    _load_all()
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    if key not in _SPECS:
        known = ", ".join(sorted(_SPECS))
        raise OptionError(f"unknown game {name!r}; known games: {known}")
    return _SPECS[key]


def load(name: str, **options: Any) -> Game:
    """The game ``name`` (a game or preset id) with ``options`` applied and validated."""
    s = spec(name)
    resolved = s.resolve(**options)
    game = s.make(**resolved)
    game.preset = s.id
    # A preset can narrow the player counts, and so can an option (Tantrix doubles: 4).
    game.players = tuple(p for p in s.players if p in game.players) or s.players
    return game
