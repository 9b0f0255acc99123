"""The serving process tunes the garbage collector once started (app._settle_heap); apps
that tests start in their own process leave it alone."""

from __future__ import annotations

import os
import subprocess
import sys

CHECK = """
import gc, sys
from fastapi.testclient import TestClient
from qipan.server.app import GC_YOUNG, create_app
before = gc.get_threshold()
with TestClient(create_app("sqlite:///{db}", settle_heap={settle})) as client:
    assert client.get("/healthz").status_code == 200
    print(gc.get_threshold()[0], gc.get_freeze_count() > 0, before[0], GC_YOUNG)
"""


def run_check(tmp_path, settle: bool, **env: str) -> list[str]:
    code = CHECK.format(db=tmp_path / "q.sqlite3", settle=settle)
    env = {**os.environ, "QIPAN_KERNELS": "0", **env}  # no compiling: only the heap matters here
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.split()


def test_the_serving_process_freezes_its_heap_and_collects_less_often(tmp_path):
    threshold, frozen, default, young = run_check(tmp_path, settle=True)
    assert threshold == young and frozen == "True" and default != young


def test_apps_started_by_tests_keep_pythons_defaults(tmp_path):
    threshold, frozen, default, _ = run_check(tmp_path, settle=False)
    assert threshold == default and frozen == "False"


def test_qipan_gc_default_keeps_the_defaults_when_serving(tmp_path):
    threshold, frozen, default, _ = run_check(tmp_path, settle=True, QIPAN_GC="default")
    assert threshold == default and frozen == "False"
