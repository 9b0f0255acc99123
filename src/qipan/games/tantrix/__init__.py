"""Tantrix: the 56 tiles, the 2-4 player game and the solitaire puzzles (rules/tantrix.md)."""

from ...agents.base import AgentSpec, register_agent
from ...core import GameSpec, Option, register
from ...core.formats import register_format
from ...core.registry import register_command
from .agent import TantrixAgent
from .classic import TantrixClassicAgent
from .records import FORMAT
from .rules import TantrixGame, TantrixState
from .search import OPTIONS as AGENT_OPTIONS
from .solitaire import SolitaireGame, SolitaireState

_OPTIONS = (
    Option(
        "setup",
        str,
        "casual",
        "casual: keep the start-order tile; tournament: return it before dealing",
        choices=("casual", "tournament"),
    ),
    Option(
        "tiebreak",
        str,
        "draw",
        "tied players draw, or compare the second-best track",
        choices=("draw", "second_best"),
    ),
    Option("doubles", bool, False, "4 players in two teams; partners sit opposite and share a colour"),
    Option("colours", str, "", "the players' colours in seat order, e.g. RY (default RYGB)"),
    Option(
        "forced_space",
        str,
        "any_three",
        "any_three: a space touching three tiles is forced (official); consecutive: only three "
        "consecutive sides (the seed)",
        choices=("any_three", "consecutive"),
    ),
)
_SOLITAIRE_OPTIONS = (
    Option(
        "puzzle",
        str,
        "discovery",
        "discovery: tiles 1..n into one loop; flower: 7 random tiles in a flower",
        choices=("discovery", "flower"),
    ),
    Option("n", int, 3, "Discovery: use tiles 1..n", minimum=3, maximum=10),
    Option(
        "colour",
        str,
        "",
        "Discovery: the loop colour (default: the back colour of tile n)",
        choices=("", "R", "Y", "B"),
    ),
)

TANTRIX = GameSpec(
    "tantrix",
    "Tantrix",
    "tantrix",
    TantrixGame,
    _OPTIONS,
    players=(2, 3, 4),
    description="Hexagonal tiles with coloured links; the longest line or loop of your colour wins",
)
SOLITAIRE = GameSpec(
    "tantrix-solitaire",
    "Tantrix solitaire",
    "tantrix",
    SolitaireGame,
    _SOLITAIRE_OPTIONS,
    players=(1,),
    description="The Discovery puzzle (default) or the Flower puzzle",
)
_ALL = (
    TANTRIX,
    TANTRIX.preset("tantrix-tournament", "Tantrix (tournament setup)", players=(2,), setup="tournament"),
    TANTRIX.preset("tantrix-doubles", "Tantrix doubles", players=(4,), doubles=True),
    TANTRIX.preset(
        "tantrix-seed-spaces",
        "Tantrix (the seed's forced spaces)",
        "Tantrix where only a space with tiles on three consecutive sides is forced, as the seed counts it",
        forced_space="consecutive",
    ),
    SOLITAIRE,
    SOLITAIRE.preset("tantrix-discovery", "Tantrix Discovery puzzle", puzzle="discovery"),
    SOLITAIRE.preset("tantrix-flower", "Tantrix Flower puzzle", puzzle="flower"),
)
register(*_ALL)
register_command("qipan.games.tantrix.commands:tiles")  # qipan tiles: the 56 tiles
register_format(FORMAT)
register_agent(
    AgentSpec(
        "tantrix",
        TantrixAgent,
        "Tantrix player: longest own line/loop with live ends, kills opponents' ends, looks at "
        "the forced fills and the reply it leaves, playouts, endgame search; solves the "
        "solitaire puzzles (iterations: candidate moves evaluated; depth: endgame plies)",
        families=("tantrix",),
        players=(1, 2, 3, 4),
        options=AGENT_OPTIONS,
        strength=2,
    )
)
register_agent(
    AgentSpec(
        "tantrix-classic",
        TantrixClassicAgent,
        "Tantrix, the earlier agent kept as a fixed reference: the same search with playouts "
        "that list every legal placement at each step",
        families=("tantrix",),
        players=(1, 2, 3, 4),
        options=AGENT_OPTIONS,
        strength=1,
    )
)
#: This package's games and presets by id (also in the registry).
SPECS = {s.id: s for s in _ALL}

__all__ = [
    "SPECS",
    "TantrixAgent",
    "TantrixClassicAgent",
    "SolitaireGame",
    "SolitaireState",
    "TantrixGame",
    "TantrixState",
]
