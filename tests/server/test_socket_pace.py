"""An address's new WebSocket connections are set up at a pace (server/socket_pace.py): a
burst at once, then ``rate`` a second in order, and one that would wait too long is refused
(429) without being set up. The reverse proxy's address is not paced. On the real server
(``qipan serve``'s uvicorn, default limits): 60 connections opened at once from 127.0.0.2."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from qipan.server.limits import Limits
from qipan.server.socket_pace import SetupPace

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_helpers import ServerProcess  # noqa: E402

ATTACKER = "127.0.0.2"  # all of 127.0.0.0/8 is loopback on Linux
SEATS = [{"kind": "human", "join": True}, {"kind": "human", "join": True}]


def test_a_burst_goes_at_once_then_setups_take_turns():
    pace = SetupPace(rate=2.0, burst=3, longest_wait=1.0)
    assert [pace.turn("a", now=10.0) for _ in range(3)] == [0.0, 0.0, 0.0]
    assert pace.turn("a", now=10.0) == pytest.approx(0.5)  # the fourth: one interval
    assert pace.turn("a", now=10.0) == pytest.approx(1.0)  # the fifth: two
    assert pace.turn("a", now=10.0) is None  # beyond the longest wait: refused...
    assert pace.turn("a", now=10.0) is None  # ...and it took no turn
    assert pace.turn("b", now=10.0) == 0.0  # another address has its own
    # Quiet for a while: the burst is there again.
    assert [pace.turn("a", now=20.0) for _ in range(3)] == [0.0, 0.0, 0.0]


def test_a_pace_refuses_nonsense():
    for rate, burst, wait in [(0, 1, 1.0), (-1, 1, 1.0), (1, 0, 1.0), (1, 1, -1.0)]:
        with pytest.raises(ValueError):
            SetupPace(rate, burst, wait)
    assert SetupPace.of(Limits.unlimited_rates()) is None
    default = SetupPace.of(Limits())
    assert default is not None and default.interval == pytest.approx(1 / Limits().ws_setup_rate)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    if sys.platform != "linux":
        pytest.skip("binds 127.0.0.2, which only Linux routes to loopback by default")
    db = f"sqlite:///{tmp_path_factory.mktemp('pace')}/pace.sqlite3"
    server = ServerProcess(db, env={"QIPAN_KERNELS": "0"}).start()
    yield server
    server.kill()


async def _open_at_once(server, count: int, address: str | None) -> tuple[int, list[int]]:
    """Open ``count`` spectator sockets of one game at once; how many got their first
    state, and the HTTP statuses of those refused."""
    created = httpx.post(
        server.base + "/api/games", json={"game": "toy-ttt", "seats": SEATS}, timeout=30
    ).json()
    url = server.base.replace("http", "ws", 1) + f"/ws/games/{created['id']}"
    extra = {"local_addr": (address, 0)} if address else {}

    async def one():
        try:
            ws = await connect(url, open_timeout=60, **extra)
        except InvalidStatus as exc:
            return exc.response.status_code
        for _ in range(2):  # hello and the state: it was set up
            await asyncio.wait_for(ws.recv(), 60)
        return ws

    results = await asyncio.gather(*(one() for _ in range(count)))
    opened = [r for r in results if not isinstance(r, int)]
    for ws in opened:
        await ws.close()
    return len(opened), [r for r in results if isinstance(r, int)]


@pytest.mark.slow
@pytest.mark.timeout(180)
def test_one_address_cannot_have_sockets_set_up_in_a_burst(server):
    limits = Limits()
    opened, refused = asyncio.run(_open_at_once(server, 60, ATTACKER))
    # The burst, then some in their turn (about rate x longest wait; more if opening them
    # took a while), the rest refused with 429 rather than set up.
    assert opened >= limits.ws_setup_burst + 1
    assert refused and set(refused) == {429}
    assert opened + len(refused) == 60
    # The server is fine, and the same address is set up again once its turns come round.
    assert httpx.get(server.base + "/healthz", timeout=10).status_code == 200
    asyncio.run(asyncio.sleep(limits.ws_setup_burst / limits.ws_setup_rate))
    assert asyncio.run(_open_at_once(server, 1, ATTACKER)) == (1, [])


@pytest.mark.slow
@pytest.mark.timeout(180)
def test_the_reverse_proxys_address_is_not_paced(server):
    opened, refused = asyncio.run(_open_at_once(server, 40, None))  # from 127.0.0.1
    assert (opened, refused) == (40, [])
