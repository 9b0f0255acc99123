"""The deployment recipe (deploy/, docs/deploy.md), run: nginx on a loopback port with the
site config rendered from deploy/nginx/qipan.conf.template, in front of two ``qipan serve``
processes on the machine's PostgreSQL and Redis. Games are played through the proxy over
WebSocket; one process is SIGKILLed mid-game, and the games go on through the proxy with
every acknowledged move kept.

Skipped where nginx is not installed (.ci/run installs it), or PostgreSQL and Redis are
absent (as the other multi-process tests)."""

from __future__ import annotations

import asyncio
import random
import shutil
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cluster_helpers import TWO_HUMANS, open_seat, play_random_move  # noqa: E402
from server_helpers import free_port, wait_for  # noqa: E402
from test_processes import cluster, cluster_db, stored_moves  # noqa: E402, F401

ROOT = Path(__file__).resolve().parents[2]
RENDER = ROOT / "deploy" / "render_nginx.py"
GAMES = 4

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.timeout(300)]


def nginx_config(folder: Path, port: int, upstreams: list[str]) -> Path:
    """A whole nginx.conf for a process of our own: the recipe's site config (rendered by
    the recipe's script, --plain) inside an http block, every path in ``folder``."""
    site = subprocess.run(
        [sys.executable, str(RENDER), "--plain", "--listen", f"127.0.0.1:{port}"]
        + [a for u in upstreams for a in ("--upstream", u)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    temp = "\n".join(
        f"    {kind}_temp_path {folder / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    config = folder / "nginx.conf"
    config.write_text(
        f"daemon off;\nworker_processes 1;\npid {folder / 'nginx.pid'};\nerror_log {folder / 'error.log'} warn;\n"
        f"events {{ worker_connections 1024; }}\n"
        f"http {{\n    access_log off;\n{temp}\n{site}\n}}\n"
    )
    return config


@pytest.fixture
def nginx(tmp_path):
    binary = shutil.which("nginx")
    if binary is None:
        pytest.skip("nginx is not installed (.ci/run installs it)")
    procs = []

    def start(upstreams: list[str]) -> str:
        port = free_port()
        config = nginx_config(tmp_path, port, upstreams)
        test = subprocess.run(
            [binary, "-t", "-p", str(tmp_path), "-e", str(tmp_path / "error.log"), "-c", str(config)],
            capture_output=True,
            text=True,
        )
        assert test.returncode == 0, test.stderr
        procs.append(
            subprocess.Popen(
                [binary, "-p", str(tmp_path), "-e", str(tmp_path / "error.log"), "-c", str(config)]
            )
        )
        base = f"http://127.0.0.1:{port}"
        wait_for(lambda: _answers(base + "/healthz"), timeout=30)
        return base

    yield start
    for proc in procs:
        proc.terminate()
        proc.wait(timeout=10)


def _answers(url: str) -> bool:
    try:
        return httpx.get(url, timeout=1).status_code == 200
    except httpx.HTTPError:
        return False


def test_games_go_on_through_nginx_when_a_process_is_killed(cluster, cluster_db, nginx):  # noqa: F811
    a, b = cluster(2)
    base = nginx([f"127.0.0.1:{a.port}", f"127.0.0.1:{b.port}"])
    games = []
    for _ in range(GAMES):
        r = httpx.post(base + "/api/games", json={"game": "toy-ttt", "seats": TWO_HUMANS}, timeout=30)
        assert r.status_code == 201, r.text
        games.append((r.json()["id"], {s["seat"]: s["token"] for s in r.json()["seats"]}))
    acked: dict[str, dict[int, str]] = {}
    halfway = asyncio.Event()
    killed = asyncio.Event()

    async def play(index: int, game_id: str, tokens: dict[int, str]) -> None:
        rng = random.Random(index)
        acked[game_id] = {}
        seats = {i: (await open_seat([base], game_id, t))[0] for i, t in tokens.items()}
        request = 0
        for _ in range(60):  # bounded: a toy game lasts at most nine moves, reconnections aside
            try:
                state = seats[0].state
                if state["status"] != "active":
                    break
                if state["ply"] >= 2 and not killed.is_set():
                    halfway.set()
                    await killed.wait()
                request += 1
                ply, move = await play_random_move(seats, rng, request, {})
                acked[game_id][ply] = move
            except AssertionError:
                raise
            except Exception:  # the process behind the socket died: reconnect through nginx
                for seat in seats.values():
                    await seat.close()
                seats = {i: (await open_seat([base], game_id, t))[0] for i, t in tokens.items()}
        for seat in seats.values():
            await seat.close()

    async def scenario():
        tasks = [asyncio.create_task(play(i, gid, tokens)) for i, (gid, tokens) in enumerate(games)]
        await asyncio.wait_for(halfway.wait(), 60)
        a.proc.kill()  # SIGKILL
        a.proc.wait()
        killed.set()
        await asyncio.wait_for(asyncio.gather(*tasks), 180)

    asyncio.run(scenario())
    for game_id, _ in games:
        final = httpx.get(f"{base}/api/games/{game_id}", timeout=30).json()
        assert final["status"] == "over", final["status"]
        moves = [m["text"] for m in final["moves"]]
        for ply, move in acked[game_id].items():
            assert moves[ply] == move, (game_id, ply)
        assert stored_moves(cluster_db, game_id) == list(enumerate(moves))  # nothing doubled
    assert sum(len(v) for v in acked.values()) >= GAMES * 5
