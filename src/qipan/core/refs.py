"""``"module:attr"`` references: how packages name the pieces that front ends load lazily
(terminal front ends, match drivers, commands, action spaces, pictures, table providers),
so that importing a package never imports its optional dependencies."""

from __future__ import annotations

import importlib
from typing import Any


def load_ref(ref: str) -> Any:
    """The object that ``"package.module:attr"`` names (its module imported on demand)."""
    module, _, attr = ref.partition(":")
    return getattr(importlib.import_module(module), attr)
