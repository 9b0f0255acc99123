"""The fixed reference of the ``morris`` agent: ``morris-2026``, the agent as it played on
2026-12-03, which the live agent (``agent.py``) is measured against. Its decisions are pinned
by ``tests/games/morris/test_morris_reference.py`` (65 recorded decisions)."""

from __future__ import annotations

from .agent import MorrisSearching


class MorrisClassicAgent(MorrisSearching):
    """The ``morris`` agent as it played on 2026-12-03 (main 11f9e26, 662cae2): the same
    tables, solver and book, the kernel's 2026 search style (the hand-set evaluation
    ``strong_evaluate``, a fixed contempt)."""

    name = "morris-2026"
    style = 0  # kernel_search.STYLE_2026
