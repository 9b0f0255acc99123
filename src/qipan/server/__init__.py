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
) -> None:
    """Serve the app with uvicorn until interrupted (``qipan serve``); ``limits`` is a
    ``qipan.server.limits.Limits`` (the defaults otherwise); ``redis`` a ``redis://`` URL
    for one of several processes sharing ``db`` (see docs/server.md)."""
    import sys

    import uvicorn

    from .socket_reads import SlicedReads

    # Bots think in threads; a short GIL switch interval lets the event loop answer people
    # quickly while they do (5 ms by default).
    sys.setswitchinterval(0.0005)

    # No per-message deflate: on a LAN or loopback it costs more CPU than it saves. A
    # socket's bytes are parsed a slice at a time (socket_reads.py: a flood waits, not the
    # other games).
    uvicorn.run(
        create_app(db, limits=limits, redis_url=redis, settle_heap=True),
        host=host,
        port=port,
        log_level=log_level,
        ws_max_size=1 << 20,
        ws_per_message_deflate=False,
        ws=SlicedReads,
    )
