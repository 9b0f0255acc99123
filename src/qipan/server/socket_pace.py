"""New WebSocket connections from one address are set up at a steady pace, not in bursts.

Setting up a WebSocket connection (the app's routing, the game's state described and sent,
and later the close) costs this process about 2.5 ms of CPU. A client that reconnects as
soon as it is closed (after each over-size frame, say: 40 sockets x 5 frames in
benchmarks/frame_flood.py) makes the process spend that as fast as it can. On a machine
where the process gets a small share of a core it then uses its share up, and the
scheduler leaves it off the core for hundreds of milliseconds at a time while every game
waits: another game's move took 0.4 to 1.8 s, though the event loop was never blocked
(benchmarks/loop_stalls.py: the loop's thread was waiting for a core).

So an address's setups beyond ``burst`` start at most ``rate`` a second
(socket_reads.SlicedReads asks before it runs the app; the handshake's parsing is all
that was spent). The others wait, holding a sleeping task (the per-address cap on open
connections bounds how many). One that would wait longer than ``longest_wait`` waits
that long and is then refused with 429, not set up. Waiting rather than refusing at once:
a refused client reconnects at once and costs the handshake again. Paced per process, as
the CPU it protects is the process's own; the reverse proxy's connections are not paced
here (they carry many visitors; the proxy paces each: deploy/nginx).

The pace is the generic cell rate algorithm: each address has a theoretical arrival time
that every admitted setup moves ``1 / rate`` later, so waiting setups take their turns in
order, and a burst is allowed only after the address has been quiet."""

from __future__ import annotations

import time


class SetupPace:
    """Per address: when its next setup may start (one process's count)."""

    #: Addresses kept at most; those whose turn is in the past are dropped beyond it.
    MAX_KEYS = 50_000

    def __init__(self, rate: float, burst: int, longest_wait: float):
        if rate <= 0 or burst < 1 or longest_wait < 0:
            raise ValueError(
                f"a setup pace needs a rate above 0, a burst of at least 1 and a wait of at least 0 "
                f"(got {rate}, {burst}, {longest_wait})"
            )
        self.interval = 1.0 / rate
        self.tolerance = (burst - 1) * self.interval
        self.longest_wait = longest_wait
        self.arrivals: dict[str, float] = {}  # address -> its theoretical arrival time

    @classmethod
    def of(cls, limits) -> SetupPace | None:
        """The pace a ``Limits`` asks for (None: no pace)."""
        if limits.ws_setup_rate is None:
            return None
        return cls(limits.ws_setup_rate, limits.ws_setup_burst, limits.ws_setup_wait)

    def turn(self, address: str, now: float | None = None) -> float | None:
        """Seconds until this address's next setup may start (0: now), its turn taken; or
        None if that is longer than ``longest_wait`` (no turn taken)."""
        now = time.monotonic() if now is None else now
        arrival = max(self.arrivals.get(address, now), now)
        wait = max(0.0, arrival - self.tolerance - now)
        if wait > self.longest_wait:
            return None
        self.arrivals[address] = arrival + self.interval
        if len(self.arrivals) > self.MAX_KEYS:
            self.arrivals = {a: t for a, t in self.arrivals.items() if t > now}
        return wait
