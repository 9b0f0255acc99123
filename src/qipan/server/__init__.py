"""The qipan server: play any registered game over HTTP and WebSocket, with bots,
clocks and storage in SQLite (default) or PostgreSQL. See docs/server.md."""

from __future__ import annotations

from .app import create_app

__all__ = ["create_app", "run"]


def run(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | None = None,
    log_level: str = "info",
    limits=None,
    redis: str | None = None,
    build_tables: bool = True,
) -> None:
    """Serve the app with uvicorn until interrupted (``qipan serve``); ``limits`` is a
    ``qipan.server.limits.Limits`` (the defaults otherwise); ``redis`` a ``redis://`` URL
    for one of several processes sharing ``db`` (see docs/server.md); ``build_tables``: build
    the perfect-play tables small enough to build at start, in the background."""
    import os
    import sys

    import uvicorn

    from .connections import GuardedHttp, guarded, raise_descriptor_limit, trusted_proxies
    from .limits import Limits
    from .socket_pace import SetupPace
    from .socket_reads import SlicedReads

    limits = limits or Limits()
    raise_descriptor_limit()  # each connection is a descriptor
    # Requests' headers and WebSocket handshakes have a deadline, and an address a cap on
    # its open connections (connections.py), the proxy's connections excepted.
    proxies = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1,::1")
    http, ws = guarded(
        GuardedHttp,
        SlicedReads,
        limits.connections_per_address,
        limits.header_timeout,
        trusted_proxies(proxies),
        SetupPace.of(limits),
    )
    # Bots think in threads; a short GIL switch interval lets the event loop answer people
    # quickly while they do (5 ms by default).
    sys.setswitchinterval(0.0005)

    # No per-message deflate: on a LAN or loopback it costs more CPU than it saves. A
    # socket's bytes are parsed a slice at a time (socket_reads.py: a flood waits, not the
    # other games).
    where = f"http://{'[' + host + ']' if ':' in host else host}:{port}"
    print(
        f"qipan: starting the site at {where} (open it in a browser; Ctrl+C stops)",
        file=sys.stderr,
        flush=True,
    )
    uvicorn.run(
        create_app(
            db,
            limits=limits,
            redis_url=redis,
            settle_heap=True,
            kernels="background",
            build_tables=build_tables,
        ),
        host=host,
        port=port,
        log_level=log_level,
        ws_max_size=limits.max_frame,
        ws_per_message_deflate=False,
        http=http,
        ws=ws,
        forwarded_allow_ips=proxies,
    )
