"""Setting up positions by hand: what a position editor needs from a game beyond its
position text (which every game reads with ``Game.position``, and which the editor always
offers). A game whose position text lists each side's pieces as ``owner:cell,cell`` declares
a ``PositionEditor`` (``Game.position_editor``), and a click on a board target then places or
removes a piece there; the game's position reader still judges the result."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PositionEditor:
    #: The owners a piece can have, as the position text writes them ("1", "2"; "W", "B").
    pieces: tuple[str, ...]
    #: The field naming the side to move ("next=", "to:") and its value for each seat.
    mover_field: str
    movers: tuple[str, ...]
    #: The field of the pieces still in hand ("hands:"), where the game has hands.
    hands_field: str | None = None
    #: Fields an edit drops, so the reader works them out again (the ply from the stones).
    derived: tuple[str, ...] = ()

    def place(self, text: str, cell: str, piece: str | None) -> str:
        """The position text with ``cell`` emptied and, unless ``piece`` is None, given to
        ``piece``'s owner (unchecked: the game's reader judges it)."""
        tokens = [t for t in text.split() if not t.startswith(self.derived)]
        lists = {p: f"{p}:" for p in self.pieces}
        out, seen = [], set()
        for token in tokens:
            owner = next((p for p, prefix in lists.items() if token.startswith(prefix)), None)
            if owner is None:
                out.append(token)
                continue
            seen.add(owner)
            cells = [c for c in token[len(lists[owner]) :].split(",") if c and c.lower() != cell.lower()]
            if owner == piece:
                cells.append(cell)
            out.append(lists[owner] + ",".join(cells))
        if piece is not None and piece not in seen:
            out.append(f"{lists[piece]}{cell}")
        return " ".join(out)

    def set_field(self, text: str, field: str, value: str) -> str:
        """The position text with ``field`` (``next=``, ``hands:``...) set to ``value``."""
        tokens = [t for t in text.split() if not t.startswith(field)]
        return " ".join([*tokens, f"{field}{value}"])

    def describe(self) -> dict:
        return {
            "pieces": list(self.pieces),
            "mover_field": self.mover_field,
            "movers": list(self.movers),
            "hands_field": self.hands_field,
        }
