"""Pente: ``pente``, ``pente-tournament``, ``pente-team`` and ``pente-4``; the pente.org
record format; scoring matches (``qipan.games.pente.match``); the ``pente`` agent (``agent.py``:
compiled threat-space search and alpha-beta, ``kernel_search.py``; forced wins by threats,
``threats.py``), and the fixed references ``pente-2026`` (that agent before ``threats.py``) and
``pente-classic`` (the earlier Python agent), both in ``classic.py``."""

from ...agents.base import AgentSpec, register_agent
from ...core.formats import register_format
from ...core.registry import GameSpec, Option, register
from .records import FORMAT, SEED_FORMAT
from .rules import PenteGame, PenteState

OPTIONS = (
    Option("board_size", int, 19, "points per side (odd)", choices=(7, 9, 11, 13, 15, 17, 19)),
    Option("tournament", bool, False, "the first player's second stone at least 3 points from the centre"),
    Option("exact_five", bool, False, "C1: only a line of exactly five (four in pente-4) wins"),
    Option("double_tria", bool, False, "C2: two open trias win unless the reply makes five"),
    Option("capture_win_overrides", bool, False, "C2: a capture win on the reply also beats the double tria"),
    Option(
        "max_pairs_per_move",
        int,
        None,
        "capture at most this many pairs per move (mover chooses)",
        minimum=1,
        allow_none=True,
    ),
    Option("teams", bool, False, "four players: partners sit opposite (players 1+3 against 2+4)"),
    Option("win_length", int, 5, "stones in a row that win", choices=(4, 5)),
    Option("count_partner_captures", bool, True, "team game: captured partner stones count for the team"),
    Option("first_player", int, 1, "who places the first stone (1-based)", minimum=1, maximum=4),
)

PENTE = GameSpec(
    "pente",
    "Pente",
    "pente",
    PenteGame,
    options=OPTIONS,
    players=(2,),
    description="Five in a row or five captured pairs wins on a 19x19 board.",
    random_game_cap=None,
)
register(
    PENTE,
    PENTE.preset("pente-tournament", "Pente (tournament rule)", tournament=True),
    PENTE.preset(
        "pente-team",
        "Pente, four players in two teams",
        players=(4,),
        teams=True,
        description="Partners sit opposite; mixed and partner pairs can be captured.",
    ),
    PENTE.preset(
        "pente-4",
        "Pente, four players each for themselves",
        players=(4,),
        win_length=4,
        description="Four in a row or five captured pairs wins.",
    ),
)


def _make_classic(**limits):
    from .classic import PenteClassicAgent

    return PenteClassicAgent(**limits)


def _make_agent(**limits):
    from .agent import PenteAgent

    return PenteAgent(**limits)


def _make_2026(**limits):
    from .classic import Pente2026Agent

    return Pente2026Agent(**limits)


SEARCH_OPTIONS = (
    Option("width", int, 12, "moves searched per inner node (best first)", minimum=1, maximum=361),
    Option("root_width", int, 24, "moves searched at the root (best first)", minimum=1, maximum=361),
    Option("vcf_depth", int, 10, "fours in a row the VCF looks for (0: none)", minimum=0, maximum=30),
    Option("vct_depth", int, 3, "threes in a row the VCT looks for (0: none)", minimum=0, maximum=8),
    Option("book", bool, True, "play the opening book (tournament rule)"),
)

register_format(FORMAT)
register_format(SEED_FORMAT)
register_agent(
    AgentSpec(
        "pente",
        _make_agent,
        "exact threat-space search for forced wins and against the opponent's, VCT, PVS alpha-beta, "
        "opening book (Pente)",
        families=("pente",),
        players=(2, 4),
        strength=21,
        options=(
            *SEARCH_OPTIONS,
            Option(
                "threat_plies", int, 11, "longest forced win by threats it looks for", minimum=1, maximum=29
            ),
            Option(
                "defence_plies",
                int,
                7,
                "longest forced win of the opponent it defends",
                minimum=1,
                maximum=29,
            ),
        ),
    )
)
register_agent(
    AgentSpec(
        "pente-2026",
        _make_2026,
        "the pente agent before the exact threat-space search (VCF, VCT, PVS; the fixed reference)",
        families=("pente",),
        players=(2, 4),
        strength=20,
        options=SEARCH_OPTIONS,
    )
)
register_agent(
    AgentSpec(
        "pente-classic",
        _make_classic,
        "the earlier Python agent: threat-aware alpha-beta with a VCF search (the fixed reference)",
        families=("pente",),
        players=(2, 4),
        strength=10,
        options=(
            Option(
                "width",
                int,
                12,
                "moves searched per node (near the stones, best first)",
                minimum=1,
                maximum=361,
            ),
            Option(
                "vcf_depth",
                int,
                6,
                "threats in a row the VCF search looks for (0: no VCF)",
                minimum=0,
                maximum=20,
            ),
            Option(
                "inner_radius",
                int,
                2,
                "how far from the stones inner search nodes look",
                minimum=1,
                maximum=4,
            ),
            Option("even_depths", bool, True, "with leaf=sum, search even depths only"),
            Option(
                "leaf",
                str,
                "eval",
                "value of a line: the position at its end, or its moves' sum",
                choices=("eval", "sum"),
            ),
        ),
    )
)

__all__ = ["PenteGame", "PenteState"]
