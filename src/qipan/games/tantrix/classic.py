"""The ``tantrix-classic`` agent: the Tantrix agent as it was before the fast playouts, kept
unchanged as the fixed reference for matches: the search of ``search.py`` on the slower
paths (every position evaluated from scratch, playouts that list every placement, in
uniform rounds, in Python) with the old default weights ``evaluation.CLASSIC``. Pinned by
recorded decisions (``tests/games/tantrix/test_classic_decisions.py``)."""

from __future__ import annotations

from .evaluation import CLASSIC
from .playouts import BUILD_SHARE, CANDIDATES, PRIOR_PLAYOUTS
from .search import REPLY_SHARE, REPLY_WEIGHT, TantrixSearch


class TantrixClassicAgent(TantrixSearch):
    name = "tantrix-classic"
    fast_playouts = False
    rank_unreplied = False
    whole_rounds = False
    incremental = False
    base_weights = CLASSIC
    halving = False
    reply_share = REPLY_SHARE
    reply_weight = REPLY_WEIGHT
    playout_prior = PRIOR_PLAYOUTS
    candidates = CANDIDATES
    build_share = BUILD_SHARE
    kernel_playouts = False


__all__ = ["TantrixClassicAgent"]
