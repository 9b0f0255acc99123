"""A seat of a live game: a person (with the token that acts for it) or a bot (an agent
and its limits). Seats are ``Seat`` objects everywhere in the server; they become dicts
only where they are stored or sent to another process (``to_dict`` / ``from_dict``)."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Literal

SeatKind = Literal["human", "bot"]


@dataclass
class Seat:
    kind: SeatKind
    name: str | None = None
    joined: bool = False
    #: A person's bearer token (whoever holds it acts for the seat).
    token: str | None = None
    #: A free seat's one-time invite code (not its token: whoever uses it gets a fresh one).
    invite: str | None = None
    #: A bot's agent and its typed limits.
    agent: str | None = None
    limits: dict | None = None
    #: The account the seat belongs to (its name is then the username).
    account: str | None = None
    #: A player who left: a bot plays the seat now (leavers.py).
    left: bool = False

    @property
    def human(self) -> bool:
        return self.kind == "human"

    @property
    def bot(self) -> bool:
        return self.kind == "bot"

    def to_dict(self) -> dict:
        """The stored form: kind, name and joined always, the other fields when set (the
        rows written before this class have the same shape)."""
        out: dict[str, Any] = {"kind": self.kind, "name": self.name, "joined": self.joined}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name not in out and value is not None and value is not False:
                out[f.name] = value
        return out

    @classmethod
    def from_dict(cls, data: dict) -> Seat:
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})


def seats_to_dicts(seats: list[Seat]) -> list[dict]:
    return [seat.to_dict() for seat in seats]


def seats_from_dicts(rows: list[dict]) -> list[Seat]:
    return [Seat.from_dict(row) for row in rows]
