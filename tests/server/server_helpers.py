"""Small helpers shared by the server tests."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def create(client, seats=None, **body) -> tuple[str, list[str]]:
    """Create a toy game; returns its id and the human seats' tokens by seat."""
    body.setdefault("game", "toy-ttt")
    if seats is not None:
        body["seats"] = seats
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    data = r.json()
    tokens = [None] * data["state"]["players"]
    for s in data["seats"]:
        tokens[s["seat"]] = s["token"]
    return data["id"], tokens


def two_humans(client, **body) -> tuple[str, list[str]]:
    return create(
        client,
        [{"kind": "human", "name": "Ann", "join": True}, {"kind": "human", "name": "Bob", "join": True}],
        **body,
    )


def wait_for(predicate, timeout: float = 10.0, step: float = 0.02):
    """Poll until ``predicate()`` is truthy (bots and timers run in the background)."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError("condition not reached in time")
        time.sleep(step)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ServerProcess:
    """The real server (uvicorn) in a subprocess, with the toy games registered."""

    def __init__(
        self,
        db_url: str,
        port: int | None = None,
        redis_url: str | None = None,
        env=None,
        descriptors: tuple[int, int] | None = None,
    ):
        self.db_url = db_url
        self.port = port or free_port()
        self.redis_url = redis_url
        self.env = env or {}
        #: (soft, hard) limit on open files the server starts with (its ``ulimit -n``).
        self.descriptors = descriptors
        self.proc: subprocess.Popen | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, wait: bool = True) -> ServerProcess:
        env = {**os.environ, "PYTHONUNBUFFERED": "1", **self.env}
        args = [sys.executable, str(HERE / "serve_toys.py"), str(self.port), self.db_url]
        # The log goes to a file: a pipe nobody reads would stop a talkative server.
        self.log = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(
            args + ([self.redis_url] if self.redis_url else []),
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            preexec_fn=self._limit_descriptors if self.descriptors else None,
        )
        return self.wait_ready() if wait else self

    def _limit_descriptors(self) -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_NOFILE, self.descriptors)

    def output(self) -> str:
        if self.log.closed:
            return ""
        self.log.seek(0)
        return self.log.read().decode(errors="replace")

    def wait_ready(self, seconds: float = 300.0) -> ServerProcess:
        """Until the server answers (it takes a while to import on a busy machine)."""
        import httpx

        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("server exited:\n" + self.output())
            try:
                if httpx.get(self.base + "/healthz", timeout=0.5).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        raise RuntimeError("server did not start:\n" + self.output())

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)
