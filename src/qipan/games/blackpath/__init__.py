"""The Black Path Game (挖地道遊戲): registration of the game, its agents and its command."""

from ...agents.base import AgentSpec, register_agent
from ...core import GameSpec, Option, register
from ...core.registry import register_command
from .agent import MIDGAMES, DominoAgent, SolverAgent
from .rules import BlackPathGame, BlackPathState
from .solver import Solver, solve

SPEC = GameSpec(
    id="blackpath",
    title="The Black Path Game",
    family="blackpath",
    make=BlackPathGame,
    options=(
        Option("rows", int, 8, "rows of the board", minimum=2, maximum=26),
        Option("cols", int, 8, "columns of the board", minimum=2, maximum=26),
        Option(
            "variant",
            str,
            "seed",
            "seed: forced cross, goal in the bottom-right cell; ww: Winning Ways, free first tile, no goal",
            choices=("seed", "ww"),
        ),
        Option(
            "start_arm",
            str,
            "horizontal",
            "the path enters the top-left cell from the left (horizontal) or from the top (vertical)",
            choices=("horizontal", "vertical"),
        ),
        Option(
            "no_voluntary_exit",
            bool,
            False,
            "the seed's reading of 被迫: a tile that runs the path into the border is refused while "
            "one that stays on the board exists (default: allowed, and it loses)",
        ),
    ),
    players=(2,),
    description="Two players extend one path with tiles; whoever runs it into the border loses.",
)

register(
    SPEC,
    SPEC.preset(
        "blackpath-ww",
        "The Black Path Game (Winning Ways)",
        "Winning Ways rules: no goal cell, player 1 chooses the first tile.",
        variant="ww",
    ),
    SPEC.preset(
        "blackpath-forced-exit",
        "The Black Path Game (forced exits only)",
        "The seed's rules, reading rule 6 strictly: a tile into the border only when every tile goes there.",
        no_voluntary_exit=True,
    ),
)

register_agent(
    AgentSpec(
        "blackpath-domino",
        DominoAgent,
        "Winning Ways domino-tiling strategy (never loses as player 1 on even boards, ww variant)",
        families=("blackpath",),
        players=(2,),
    )
)
register_agent(
    AgentSpec(
        "blackpath-solver",
        SolverAgent,
        "perfect play by exhaustive search with memoisation (practical up to about 7x7); with a time "
        "limit, where the solve does not finish in a share of it, Monte Carlo tree search with safe playouts",
        families=("blackpath",),
        players=(2,),
        strength=10,
        options=(
            Option(
                "midgame",
                str,
                "search",
                "what plays before the solver finishes in time: the tree search, or the domino move "
                "(the earlier agent, kept to measure against)",
                choices=MIDGAMES,
            ),
        ),
    )
)

register_command("qipan.games.blackpath.commands:solve", group="solve")

__all__ = ["BlackPathGame", "BlackPathState", "DominoAgent", "Solver", "SolverAgent", "solve"]
