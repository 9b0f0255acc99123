"""Which serving process runs a game's bots, clocks and real-time ticks.

A game's lease (a row of ``game_leases``) names its holder; the lease lasts while the
holder's heartbeat (``server_processes.alive``, written every HEARTBEAT_SECONDS) is younger
than LEASE_SECONDS, so one heartbeat renews every lease a process holds. When a holder
stops beating (killed, stuck, cut off from the database), any other process takes its
games over: the claim is conditional on the old holder, so exactly one process gets each.

A process trusts its own leases only up to LEASE_SECONDS - MARGIN after its last
successful heartbeat; a late process first reads back which leases it still holds. The
store refuses a change made against an old version in any case, so even two processes
that both believed they held a game could not both apply a bot's move or a flag."""

from __future__ import annotations

import time

#: A lease lasts this long after its holder's last heartbeat.
LEASE_SECONDS = 3.0
#: How much earlier than the others a holder stops trusting its own leases.
MARGIN = 0.5


class Leases:
    """This process's view of the leases it holds."""

    def __init__(self, process: str):
        self.process = process
        self.held: set[str] = set()
        #: Wall time until which no other process can have taken a lease of ours.
        self.fresh_until = 0.0

    def holds(self, game_id: str, now: float | None = None) -> bool:
        now = time.time() if now is None else now
        return game_id in self.held and now < self.fresh_until

    def beat(self, at: float) -> bool:
        """A heartbeat written at ``at`` renewed every lease. Returns True if the previous
        one was so late that another process may have taken leases meanwhile (then read
        back which are still ours: ``keep_only``)."""
        late = at >= self.fresh_until
        self.fresh_until = at + LEASE_SECONDS - MARGIN
        return late

    def keep_only(self, still_held: set[str]) -> set[str]:
        """The store says these are ours; returns the games lost to other processes."""
        lost = self.held - still_held
        self.held = set(still_held)
        return lost


def served(since: float, now: float, periods: list[tuple[float, float]]) -> float:
    """The seconds between ``since`` and ``now`` during which some serving process ran
    (``periods``: each process's (started, last alive)). A clock that was running charges
    only these when it is resumed: time does not run while every process is down."""
    total, reached = 0.0, since
    for start, end in sorted(periods):
        start, end = max(start, reached), min(end, now)
        if end > start:
            total += end - start
            reached = end
    return total
