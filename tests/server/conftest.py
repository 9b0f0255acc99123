"""Fixtures for server tests: the toy game, an app on SQLite or PostgreSQL, clients."""

from __future__ import annotations

import os
import sys
import uuid
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from server_helpers import ServerProcess  # noqa: E402

PG_ADMIN_URL = os.environ.get("QIPAN_TEST_PG", "postgresql+psycopg://postgres@127.0.0.1:5432/test")


sys.path.insert(0, str(HERE.parent.parent))  # the checkout: tests.toys, shared with the core's tests

from tests import toys  # noqa: E402


@pytest.fixture(scope="session", autouse=True)
def toy_games():
    toys.register_toys()
    yield toys


def postgres_available() -> bool:
    import sqlalchemy as sa

    try:
        engine = sa.create_engine(PG_ADMIN_URL)
        with engine.connect():
            pass
        engine.dispose()
        return True
    except Exception:
        return False


@pytest.fixture(scope="session")
def pg_database():
    """A fresh PostgreSQL database for this run, dropped at the end."""
    import sqlalchemy as sa

    if not postgres_available():
        pytest.fail(f"PostgreSQL is not reachable at {PG_ADMIN_URL} (set QIPAN_TEST_PG)")
    name = f"qipan_test_{uuid.uuid4().hex[:10]}"
    admin = sa.create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    url = PG_ADMIN_URL.rsplit("/", 1)[0] + "/" + name
    yield url
    with admin.connect() as conn:
        conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db_url(request, tmp_path):
    """A database URL for each backend; PostgreSQL tables are emptied between tests."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'qipan.sqlite3'}"
        return
    url = request.getfixturevalue("pg_database")
    yield url
    import sqlalchemy as sa

    engine = sa.create_engine(url)
    with engine.begin() as conn:
        # Every table, whichever migrations created them.
        conn.execute(sa.text("DROP SCHEMA public CASCADE"))
        conn.execute(sa.text("CREATE SCHEMA public"))
    engine.dispose()


@pytest.fixture
def redis_url():
    """The machine's Redis (``QIPAN_TEST_REDIS``) for the several-process tests."""
    from cluster_helpers import REDIS_URL, absent, redis_answers

    if not redis_answers(REDIS_URL):
        absent(f"Redis is not answering at {REDIS_URL}")
    return REDIS_URL


@pytest.fixture
def sqlite_url(tmp_path):
    return f"sqlite:///{tmp_path / 'qipan.sqlite3'}"


@pytest.fixture
def client(sqlite_url):
    from fastapi.testclient import TestClient

    from qipan.server import create_app

    with TestClient(create_app(sqlite_url)) as c:
        yield c


@pytest.fixture
def server_process():
    started: list[ServerProcess] = []

    def start(db_url: str, port: int | None = None) -> ServerProcess:
        server = ServerProcess(db_url, port).start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.kill()
