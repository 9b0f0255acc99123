"""The solve extra is optional: without NumPy, qipan and the Morris games load, the CLI
starts, and asking for tables says which extra to install."""

from __future__ import annotations

import subprocess
import sys

BLOCK = """
import sys
class _NoNumpy:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("numpy", "numba"):
            raise ImportError("blocked for the test: " + name)
sys.meta_path.insert(0, _NoNumpy())
"""


def run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", BLOCK + code], capture_output=True, text=True, timeout=120)


def test_qipan_and_the_cli_work_without_numpy():
    out = run(
        "import qipan, qipan.cli.main\n"
        "from qipan.agents import agent_specs\n"
        "state = qipan.load('six-mens-morris').new()\n"
        "assert state.legal_moves() and any(a.name == 'morris-perfect' for a in agent_specs())\n"
        "print('ok')\n"
    )
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr


def test_asking_for_tables_without_numpy_names_the_extra():
    out = run(
        "import qipan\n"
        "from qipan.core.errors import QipanError\n"
        "from qipan.agents import load\n"
        "try:\n"
        "    load('morris-perfect').choose(qipan.load('six-mens-morris').new())\n"
        "except QipanError as exc:\n"
        "    print(exc)\n"
    )
    assert "pip install 'qipan[solve]'" in out.stdout, out.stdout + out.stderr
