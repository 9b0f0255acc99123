"""The records and reference values the tests and benchmarks read (pente.org and GnuTrax
games, Morris perft counts and solved values, the Tantrix tiles, games our agents lost to
independent engines). They live in the repository: nothing reads outside the checkout."""

from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).resolve().parent
