"""The parameters of one Morris variant (a frozen dataclass, so it keys caches).

A module of its own because it is neither board data nor play: ``board.py`` builds its
tables from it, ``rules.py`` plays by it, and the solvers (``solver.py``, ``tables.py``) key
their results on it. The registry options of ``__init__.py`` map onto its fields."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MorrisRules:
    """One Morris variant. Defaults are Nine Men's Morris (rules file §1.3)."""

    board: str = "nine"  # nine | twelve | six | three
    diagonals: bool = False  # twelve: diagonal mills; three: diagonal edges and lines
    stones: int = 9
    flying: int | None = 3  # fly with exactly this many stones on board and none in hand
    take_per_mill: int = 1  # 1 = one removal per ply; 2 = one per mill closed
    protection: str = "fallback"  # fallback | always_protected | no_mill_protection
    repetition_count: int | None = 3  # n-th occurrence of a position draws; None = off
    n_move: int = 100  # slides/flies without a removal or placement -> draw; 0 = off
    max_plies: int | None = None  # OpenSpiel-like cap -> draw
    full_board: str = "draw"  # draw | white_loses | each_removes
    captures: str = "mill"  # mill | zhiqi (直, 擔, 槓)
    dan_gang_moving_only: bool = False
    dan_lines: str = "sides"  # 直棋 擔 on: sides (the thesis) | any line (the seed names none)
    gang_lines: str = "radial"  # 直棋 槓 on: radial (the thesis) | any line (the seed names none)
    goal: str = "mill"  # mill (a mill removes) | line (a line wins: Three Men's Morris)
    line_moving_only: bool = False  # goal=line: only a line made by moving a stone wins
    placement_only: bool = False  # simple Three Men's Morris: no movement phase
    move_anywhere: bool = False  # Nine Holes: every move goes to any empty point
    first_player: str = "white"  # white | black | random

    @property
    def repetition_threshold(self) -> int | None:
        # 1 ("any repetition", Gasser/Malom) needs a second occurrence, like 2.
        if self.repetition_count is None:
            return None
        return max(2, self.repetition_count)
