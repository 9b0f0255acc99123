"""A first ``qipan serve`` on a fresh install answers at once and says what it is doing.

The fast engines (Numba kernels) take minutes to compile the first time; the server must not
make its first visitor wait for them. Here the real command starts with an empty Numba cache
and an empty data folder, and the site answers 200 while the compilation is still going."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import pytest

pytest.importorskip("numba")
from server_helpers import free_port  # noqa: E402

from qipan.fast import enabled  # noqa: E402


def qipan_command() -> list[str]:
    script = Path(sys.executable).with_name("qipan")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "from qipan.cli.main import main; main()"]


@pytest.mark.skipif(not enabled(), reason="kernels are switched off")
def test_the_first_serve_answers_while_the_engines_compile(tmp_path):
    port = free_port()
    env = {
        **os.environ,
        "NUMBA_CACHE_DIR": str(tmp_path / "numba"),  # nothing compiled yet
        "XDG_DATA_HOME": str(tmp_path / "data"),  # the default SQLite database, new
        "QIPAN_TABLES": str(tmp_path / "tables"),  # perfect-play tables built at start go here
        "PYTHONUNBUFFERED": "1",
    }
    log = tempfile.TemporaryFile()
    server = subprocess.Popen(
        [*qipan_command(), "serve", "--port", str(port)], env=env, stdout=log, stderr=subprocess.STDOUT
    )
    try:
        status = None
        for _ in range(600):  # bounded: the server answers or the test fails
            if server.poll() is not None:
                break
            try:
                if httpx.get(f"http://127.0.0.1:{port}/", timeout=2).status_code == 200:
                    status = httpx.get(f"http://127.0.0.1:{port}/api/status", timeout=5).json()
                    break
            except httpx.TransportError:
                time.sleep(0.1)
        log.seek(0)
        console = log.read().decode(errors="replace")
        assert status is not None, console
        # The page answered before the kernels were ready: they compile behind it.
        assert status["kernels"]["compiling"] is True, status
        assert status["kernels"]["pending"], status
        assert f"http://127.0.0.1:{port}" in console
        assert "Compiling the fast game engines for the first start" in console
    finally:
        server.send_signal(signal.SIGINT)  # a clean stop also ends the compiling child
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()
