"""The ``tantrix`` agent (``qipan.agents.load("tantrix")``): the search of ``search.py`` on
its fast paths -- incremental evaluation, playouts drawn without listing every placement
(in the compiled kernel when there is one) and spent by sequential halving -- with the
tuned weights ``evaluation.AGENT``. The agent it replaced is ``classic.py``
(``tantrix-classic``), kept as the fixed reference."""

from __future__ import annotations

from .evaluation import AGENT
from .playouts import BUILD_SHARE, CANDIDATES
from .search import REPLY_SHARE, REPLY_WEIGHT, TantrixSearch

#: How many playouts a candidate's evaluation is worth in the halving: two, with the
#: kernel's 150-200 playouts a decision at 0.05 s (four scored about 7 points less over
#: 400 screening games but level on the confirmation seeds: within the noise,
#: ``benchmarks/results/tantrix.md``).
AGENT_PRIOR = 2.0


class TantrixAgent(TantrixSearch):
    name = "tantrix"
    # It stops gaining at a fraction of a second a move: the levels set its strength by lapses.
    levels_by_lapses = True
    fast_playouts = True
    rank_unreplied = True
    whole_rounds = True
    incremental = True
    base_weights = AGENT
    halving = True
    reply_share = REPLY_SHARE
    reply_weight = REPLY_WEIGHT
    playout_prior = AGENT_PRIOR
    candidates = CANDIDATES
    build_share = BUILD_SHARE
    kernel_playouts = True


__all__ = ["AGENT_PRIOR", "TantrixAgent"]
