"""The Morris family (rules file ``rules/morris.md``): Three, Six, Nine and Twelve Men's
Morris, Taiwanese 直棋 and OpenSpiel's ``nine_mens_morris`` rules, all one engine."""

from __future__ import annotations

from functools import partial

from ...agents.base import AgentSpec, register_agent
from ...core.formats import RecordFormat, register_format
from ...core.registry import GameSpec, Option, register, register_command
from ...solve.providers import register_tables
from . import agent as _agent
from . import classic as _classic
from . import records as _records
from .rules import MorrisGame, MorrisState
from .variant import MorrisRules

__all__ = ["MorrisGame", "MorrisRules", "MorrisState"]


def _options(stones=(3, 12)):
    return {
        "stones": Option("stones", int, 9, "stones per player", minimum=stones[0], maximum=stones[1]),
        "flying": Option(
            "flying",
            int,
            3,
            "fly with exactly this many stones on board (none = no flying)",
            choices=(3,),
            allow_none=True,
        ),
        "take_per_mill": Option(
            "take_per_mill", int, 1, "1: one removal per ply; 2: one per mill closed", choices=(1, 2)
        ),
        "protection": Option(
            "protection",
            str,
            "fallback",
            "stones in mills: fallback = safe unless all are in mills; always_protected = "
            "never removed; no_mill_protection = any stone",
            choices=("fallback", "always_protected", "no_mill_protection"),
        ),
        "repetition_count": Option(
            "repetition_count",
            int,
            3,
            "draw when a position occurs this many times (1 or 2: any repetition; none: no repetition rule)",
            choices=(1, 2, 3),
            allow_none=True,
        ),
        "n_move": Option(
            "n_move", int, 100, "draw after this many slides/flies without a removal (0 = off)", minimum=0
        ),
        "max_plies": Option(
            "max_plies", int, None, "draw after this many plies (none = no cap)", minimum=1, allow_none=True
        ),
        "full_board": Option(
            "full_board",
            str,
            "draw",
            "when all points fill up",
            choices=("draw", "white_loses", "each_removes"),
        ),
        "diagonal_mills": Option("diagonal_mills", bool, True, "the four diagonals form mills"),
        "diagonal_lines": Option("diagonal_lines", bool, False, "diagonal edges and lines on the 3x3 board"),
        "dan_gang_moving_only": Option(
            "dan_gang_moving_only", bool, False, "擔 and 槓 only in the moving phase (the seed's reading)"
        ),
        "dan_lines": Option(
            "dan_lines",
            str,
            "sides",
            "lines where 擔 takes the two flanking stones: sides = square sides only (李明臻's thesis); "
            "any = every line (the seed names none)",
            choices=("sides", "any"),
        ),
        "gang_lines": Option(
            "gang_lines",
            str,
            "radial",
            "lines where 槓 takes the middle stone: radial = the 8 lines across the squares (李明臻's "
            "thesis); any = every line, square sides too (the seed names none)",
            choices=("radial", "any"),
        ),
        "line_moving_only": Option(
            "line_moving_only",
            bool,
            False,
            "Kurna: only a line made by moving a stone wins, not one made while placing (the seed's reading)",
        ),
        "move_anywhere": Option("move_anywhere", bool, False, "Nine Holes: move to any empty point"),
        "first_player": Option(
            "first_player",
            str,
            "white",
            "who moves first (random: the seed's die)",
            choices=("white", "black", "random"),
        ),
    }


_MOVING = ("flying", "take_per_mill", "protection", "repetition_count", "n_move", "max_plies", "first_player")

# id, title, fixed rules, option names, option defaults, stones range
_VARIANTS = [
    (
        "three-mens-morris",
        "Three Men's Morris (三子棋, simple)",
        dict(
            board="three",
            stones=4,
            goal="line",
            placement_only=True,
            repetition_count=None,
            n_move=0,
            flying=None,
        ),
        ("diagonal_lines", "first_player"),
        {"diagonal_lines": False},
        None,
    ),
    (
        "three-mens-morris-kurna",
        "Three Men's Morris (Kurna)",
        dict(board="three", diagonals=True, stones=3, goal="line", n_move=0, flying=None),
        (
            "diagonal_lines",
            "move_anywhere",
            "line_moving_only",
            "repetition_count",
            "max_plies",
            "first_player",
        ),
        {"diagonal_lines": True},
        None,
    ),
    (
        "six-mens-morris",
        "Six Men's Morris (六子棋)",
        dict(board="six", stones=6),
        ("stones",) + _MOVING,
        {"stones": 6},
        (3, 8),
    ),
    (
        "nine-mens-morris",
        "Nine Men's Morris (九子棋)",
        dict(board="nine"),
        ("stones",) + _MOVING + ("full_board",),
        {},
        (3, 12),
    ),
    (
        "twelve-mens-morris",
        "Twelve Men's Morris (十二子棋)",
        dict(board="twelve", diagonals=True, stones=12),
        ("stones",) + _MOVING + ("full_board", "diagonal_mills"),
        {"stones": 12},
        (3, 12),
    ),
    (
        "zhiqi",
        "Taiwanese 直棋 (Zhiqi)",
        dict(
            board="twelve",
            diagonals=True,
            stones=12,
            captures="zhiqi",
            protection="no_mill_protection",
            flying=None,
        ),
        ("stones", "dan_gang_moving_only", "dan_lines", "gang_lines")
        + tuple(o for o in _MOVING if o != "take_per_mill")
        + ("full_board",),
        {"stones": 12, "protection": "no_mill_protection", "flying": None},
        (6, 12),
    ),
    (
        "openspiel",
        "Nine Men's Morris (OpenSpiel rules)",
        dict(board="nine", repetition_count=None, n_move=0, max_plies=200),
        ("stones",) + _MOVING + ("full_board",),
        {"repetition_count": None, "n_move": 0, "max_plies": 200},
        (3, 12),
    ),
]


def _spec(vid, title, fixed, names, defaults, stones_range) -> GameSpec:
    table = _options(stones_range or (3, 12))
    opts = []
    for name in names:
        opt = table[name]
        if name in defaults:
            opt = Option(
                opt.name,
                opt.type,
                defaults[name],
                opt.help,
                opt.choices,
                opt.minimum,
                opt.maximum,
                opt.allow_none,
            )
        if name == "stones" and vid == "zhiqi":
            opt = Option(
                "stones", int, 12, "stones per player (the thesis uses 6, 9 and 12)", choices=(6, 9, 12)
            )
        opts.append(opt)
    variant = {"id": vid, "title": title, "rules": fixed}
    return GameSpec(
        vid,
        title,
        "morris",
        partial(MorrisGame, variant),
        tuple(opts),
        (2,),
        description=title,
        random_game_cap=None,
        featured=vid == "nine-mens-morris",  # the lobby's first game: the best-known Morris
    )


register(*(_spec(*v) for v in _VARIANTS))
register_format(
    RecordFormat(
        "morris-movelist", _records.sniff, _records.read, _records.write, suffixes=(".morris", ".mor")
    )
)

register_agent(
    AgentSpec(
        "morris-solver",
        _agent.MorrisSolverAgent,
        "perfect play for Three Men's Morris (exhaustive solver)",
        families=("morris",),
        supports=lambda game: game.rules.board == "three",
        strength=10,
        players=(2,),
    )
)
register_agent(
    AgentSpec(
        "morris-perfect",
        _agent.MorrisPerfectAgent,
        "perfect play from retrograde tables (whole game on the 3x3 and 16-point boards, endgames on larger ones)",
        families=("morris",),
        # Offered where its tables are installed: building them inside a game would take
        # the moves' time (the server builds Six Men's Morris at start; operators the rest).
        supports=_agent.tables_installed,
        strength=5,
        default_ai=False,  # it needs qipan[solve] and tables
        players=(2,),
        options=(
            Option("tables", str, None, "directory of the tables (default: the user cache)", allow_none=True),
            Option(
                "stones",
                int,
                None,
                "endgame tables with at most this many stones a side (default: the whole game where it fits, else 3)",
                minimum=3,
                maximum=12,
                allow_none=True,
            ),
        ),
    )
)
#: The options of the ``morris`` agent and its fixed reference ``morris-2026``.
_SEARCH_OPTIONS = (
    Option(
        "tables",
        str,
        None,
        "directory of installed tables (default: the user cache; never built)",
        allow_none=True,
    ),
    Option("book", bool, True, "play the 9MM opening book in the placement phase"),
)
register_agent(
    AgentSpec(
        "morris",
        _agent.MorrisAgent,
        "the strongest Morris player: PVS with a mobility- and mill-aware evaluation, the opening book, "
        "perfect play where installed tables or the 3x3 solver hold the position",
        families=("morris",),
        strength=20,
        players=(2,),
        options=_SEARCH_OPTIONS,
    )
)
register_agent(
    AgentSpec(
        "morris-2026",
        _classic.MorrisClassicAgent,
        "the morris agent of 2026-12-03, kept as a fixed reference: PVS without the blockade terms",
        families=("morris",),
        strength=19,
        default_ai=False,
        players=(2,),
        options=_SEARCH_OPTIONS,
    )
)
register_tables("morris", "qipan.games.morris.perfect:PerfectTables")
register_command("qipan.games.morris.commands:solve", group="solve")
register_command("qipan.solve.commands:probe")
