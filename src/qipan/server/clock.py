"""Time controls: per-move time, or total time with an increment. Pure bookkeeping; the
game session asks it who has run out and when the next deadline falls."""

from __future__ import annotations

from dataclasses import dataclass, field

MODES = ("total", "move")


class ClockError(ValueError):
    pass


@dataclass
class Clock:
    """``mode="total"``: each seat starts with ``initial`` seconds and gains ``increment``
    after each of its moves. ``mode="move"``: each move must be made within ``initial``
    seconds. Wall times are passed in, so the clock is easy to test."""

    mode: str
    initial: float
    increment: float = 0.0
    remaining: list[float] = field(default_factory=list)
    #: Seat whose time is running, and since when (wall time); None while stopped.
    running: int | None = None
    since: float | None = None
    #: Correspondence: time also runs while the server is down (it counts wall time).
    wall: bool = False

    @classmethod
    def from_request(cls, data: dict, seats: int) -> Clock:
        mode = data.get("mode", "total")
        if mode not in MODES:
            raise ClockError(f"clock mode must be one of {', '.join(MODES)}, not {mode!r}")
        try:
            initial = float(data.get("initial", data.get("seconds")))
            increment = float(data.get("increment", 0) or 0)
        except (TypeError, ValueError):
            raise ClockError(
                "clock needs a number of seconds ('initial') and an optional 'increment'"
            ) from None
        wall = data.get("wall", False)
        if not isinstance(wall, bool):
            raise ClockError("clock wall must be true or false")
        longest = (14 if wall else 7) * 24 * 3600
        if not 0 < initial <= longest or not 0 <= increment <= 24 * 3600:
            raise ClockError(
                "clock seconds must be positive (at most a week, two for correspondence) "
                "and the increment not negative"
            )
        return cls(mode, initial, increment if mode == "total" else 0.0, [initial] * seats, wall=wall)

    # -- persistence -------------------------------------------------------------------
    def to_dict(self) -> dict:
        return {
            "mode": self.mode,
            "initial": self.initial,
            "increment": self.increment,
            "remaining": list(self.remaining),
            "running": self.running,
            "since": self.since,
            "wall": self.wall,
        }

    @classmethod
    def from_dict(cls, data: dict) -> Clock:
        return cls(
            data["mode"],
            data["initial"],
            data.get("increment", 0.0),
            list(data["remaining"]),
            data.get("running"),
            data.get("since"),
            data.get("wall", False),
        )

    # -- play --------------------------------------------------------------------------
    def start(self, seat: int | None, now: float) -> None:
        """Start ``seat``'s time (None stops the clock, e.g. at a chance node or the end)."""
        self.running = seat
        self.since = now if seat is not None else None
        if seat is not None and self.mode == "move":
            self.remaining[seat] = self.initial

    def resume(self, now: float, alive_until: float | None) -> None:
        """Restart the running seat's time after the server was down from ``alive_until``
        to ``now``: its time up to ``alive_until`` counts, the downtime does not. (With no
        record of when the server went down, the turn restarts at ``now``.)"""
        if self.running is None or self.since is None:
            return
        used = 0.0 if alive_until is None else max(0.0, min(alive_until, now) - self.since)
        self.since = now - used

    def left(self, seat: int, now: float) -> float:
        """Seconds ``seat`` has left at ``now``."""
        if seat == self.running and self.since is not None:
            return self.remaining[seat] - (now - self.since)
        return self.remaining[seat]

    def flagged(self, now: float) -> int | None:
        """The seat whose time has run out, if any."""
        if self.running is not None and self.left(self.running, now) <= 0:
            return self.running
        return None

    def deadline(self) -> float | None:
        """Wall time at which the running seat runs out."""
        if self.running is None or self.since is None:
            return None
        return self.since + self.remaining[self.running]

    def stop(self, now: float) -> float:
        """Stop the running seat's time after its move; returns the seconds it spent and
        adds the increment."""
        if self.running is None or self.since is None:
            return 0.0
        seat, spent = self.running, now - self.since
        self.remaining[seat] -= spent
        if self.mode == "total":
            self.remaining[seat] += self.increment
        self.running, self.since = None, None
        return spent

    def snapshot(self, now: float) -> dict:
        return {
            "mode": self.mode,
            "initial": self.initial,
            "increment": self.increment,
            "remaining": [max(0.0, self.left(s, now)) for s in range(len(self.remaining))],
            "running": self.running,
        }
