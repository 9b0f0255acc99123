"""Every error qipan raises on bad input derives from QipanError and says why."""


class QipanError(Exception):
    """Base class of qipan's own errors."""


class IllegalMove(QipanError, ValueError):
    """A move that the rules do not allow here. The state is unchanged."""

    def __init__(self, reason: str, move: object = None):
        super().__init__(reason)
        self.reason = reason
        self.move = move


class NotationError(QipanError, ValueError):
    """Text that is not a move (or position) in the game's notation."""


class OptionError(QipanError, ValueError):
    """An unknown game or agent, or an option value that is not allowed."""


class RecordError(QipanError):
    """A game record that cannot be read or does not replay under the rules."""

    def __init__(self, reason: str, ply: int | None = None):
        where = f"ply {ply}: " if ply is not None else ""
        super().__init__(where + reason)
        self.reason = reason
        self.ply = ply


class SearchTimeout(Exception):
    """Raised inside a search when its deadline passes; the agent catches it and answers
    with the best move of the last finished iteration. Not an error for the user."""
