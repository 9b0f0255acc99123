"""The end of a game: who won, the score of every player, and why."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Outcome:
    """``winners`` is empty for a draw, or for a one-player game (puzzle) that was lost.
    ``scores`` has one number per player: game points where the game keeps them
    (Tantrix, MOD X, Pipe Mania), otherwise 1 / 0 / 0.5.

    ``cells`` names the cells of what decided the game where it has one (a winning line,
    loop or pattern), in the names the game's moves and pictures use (``data-target``):
    front ends highlight them. It describes the result, it is not part of it: two outcomes
    that differ only in ``cells`` are equal (a record without them replays to the same)."""

    winners: tuple[int, ...]
    scores: tuple[float, ...]
    reason: str
    cells: tuple[str, ...] = field(default=(), compare=False)

    @classmethod
    def win(cls, winners, players: int, reason: str, cells=()) -> Outcome:
        winners = tuple(sorted(winners))
        scores = tuple(1.0 if p in winners else 0.0 for p in range(players))
        return cls(winners, scores, reason, tuple(cells))

    @classmethod
    def draw(cls, players: int, reason: str) -> Outcome:
        return cls((), tuple(0.5 for _ in range(players)), reason)

    def with_cells(self, cells) -> Outcome:
        """The same result naming ``cells`` as what decided it."""
        return Outcome(self.winners, self.scores, self.reason, tuple(cells))

    @property
    def is_draw(self) -> bool:
        return not self.winners and len(self.scores) > 1

    def reward(self, player: int) -> float:
        """The result for ``player`` in [0, 1]: 1 for a winner, 0.5 for a draw, 0 otherwise
        (a lost puzzle included)."""
        if not self.winners:
            return 0.5 if len(self.scores) > 1 else 0.0
        return 1.0 if player in self.winners else 0.0

    def result_text(self) -> str:
        """``1-0``, ``0-1``, ``1/2-1/2`` for two players; ``winners 1,3`` or ``draw`` otherwise."""
        n = len(self.scores)
        if n == 1:
            return "won" if self.winners else "lost"
        if n == 2:
            if not self.winners:
                return "1/2-1/2"
            if self.winners == (0,):
                return "1-0"
            if self.winners == (1,):
                return "0-1"
        if not self.winners:
            return "draw"
        return "winners " + ",".join(str(p + 1) for p in self.winners)

    def to_dict(self) -> dict:
        out = {"winners": list(self.winners), "scores": list(self.scores), "reason": self.reason}
        if self.cells:
            out["cells"] = list(self.cells)
        return out

    @classmethod
    def from_dict(cls, data: dict) -> Outcome:
        return cls(
            tuple(data["winners"]), tuple(data["scores"]), data["reason"], tuple(data.get("cells", ()))
        )
