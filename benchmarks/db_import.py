"""Game database import speed: the 4,000 pente.org games of tests/data into a fresh SQLite
database, on one core, in CPU seconds of this process.

    python benchmarks/db_import.py [--games 4000] [--repeat 1]

Prints games per CPU second for the whole import (the file read, every game replayed
through the reference rules with its positions keyed, duplicates checked, rows stored) and
for its parts: reading the file (parsing only: the games are replayed once, by the
database, which settles their results as it goes) and the database's own work (replay,
keys and storage). The target is 1,000 games a second."""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from qipan.records import read_records_text
from qipan.server.gamedb import GameDatabase, prepare
from qipan.server.storage import Storage

PGN = Path(__file__).resolve().parents[1] / "tests/data/pente/pente_org_games.pgn"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=4000, help="games of the file to import")
    parser.add_argument("--repeat", type=int, default=1, help="imports, each into a new database")
    args = parser.parse_args()
    text = PGN.read_text(encoding="utf-8")
    read_records_text(text[: text.index("[Game", 10)])  # the game packages load once, before timing
    for run in range(args.repeat):
        with tempfile.TemporaryDirectory() as folder:
            storage = Storage(f"sqlite:///{folder}/bench.sqlite3")
            database = GameDatabase(storage.engine)
            start = time.process_time()
            records = read_records_text(text, settle=False)[: args.games]
            read = time.process_time()
            prepared = [prepare(r) for r in records]
            replayed = time.process_time()
            report = database.store(prepared)
            stored = time.process_time()
            storage.close()
        total = stored - start
        n = len(records)
        print(
            f"run {run + 1}: {n} games ({report.added} added, {report.duplicates} duplicates) in {total:.2f} CPU s: "
            f"{n / total:,.0f} games/s overall; read {n / (read - start):,.0f}/s, "
            f"replay+keys {n / (replayed - read):,.0f}/s, store {n / (stored - replayed):,.0f}/s"
        )


if __name__ == "__main__":
    main()
