"""Which game family has retrograde tables, and how to open them.

A game package registers ``"module:attr"`` of a class taking ``(game, directory=None,
max_stones=None)`` with ``value(state)``, ``move_values(state)``, ``covers(state)``, ``why_not(state)``,
``build(progress, check)`` and ``db`` (a :class:`~qipan.solve.database.Database`); generic
front ends (``qipan probe``) find it here by the game's family, without knowing the game."""

from __future__ import annotations

from ..core.errors import QipanError
from ..core.refs import load_ref

_PROVIDERS: dict[str, str] = {}


def register_tables(family: str, ref: str) -> None:
    _PROVIDERS[family] = ref


def has_tables(game) -> bool:
    return game.family in _PROVIDERS


def open_tables(game, directory=None, max_stones: int | None = None):
    ref = _PROVIDERS.get(game.family)
    if ref is None:
        raise QipanError(f"there are no retrograde tables for {game.title}")
    return load_ref(ref)(game, directory, max_stones)
