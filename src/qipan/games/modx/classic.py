"""The ``modx-classic`` agent: the MOD X agent as it was before issue 17, kept unchanged as
the fixed reference the ``modx`` agent (``agent.py``) is measured against: the two-ply
selective search of ``search.py`` on ``evaluation.py``'s pattern-potential knowledge."""

from __future__ import annotations

from .evaluation import evaluate_raw, placement_gains, relocation_penalties
from .search import SelectiveSearch


class ModXClassicAgent(SelectiveSearch):
    name = "modx-classic"
    gains = staticmethod(placement_gains)
    penalties = staticmethod(relocation_penalties)
    evaluate = staticmethod(evaluate_raw)


__all__ = ["ModXClassicAgent"]
