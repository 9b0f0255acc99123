"""Build the puzzle starter set shipped in the package (src/qipan/server/puzzles_starter.json)
from the records the repository carries: the GnuTrax games, the Trax and Nine Men's Morris
games our agents played against independent engines, and the pente.org games where a player
missed a forced win (``pente/forced_wins.json`` marks them; the threat search proposes, the
solution tree is built and checked over every defence). The Nine Men's Morris puzzles need the
endgame tables (3 and 4 stones a side), built here into a temporary folder first.

    python -m tests.data.puzzle_starter [--trax 80] [--pente 32] [--only pente]

With ``--only``, the puzzles of the other games are kept from the shipped file as they are.
With QIPAN_TABLES set, the Morris tables already built there are used and none are built.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from pathlib import Path

from qipan import load as load_game
from qipan.records import Record, read_records

from . import DATA

OUT = Path(__file__).resolve().parents[2] / "src" / "qipan" / "server" / "puzzles_starter.json"


def engine_games() -> list[Record]:
    """Every game of the records of games against independent engines (the Morris losses
    scored move by move in morris_black_losses_scored.json are among them)."""
    out = []
    matches = json.loads((DATA / "ai" / "games_against_independent_engines.json").read_text())["matches"]
    for match in matches:
        out += [Record(match["game"], {}, 2, moves=g["moves"].split()) for g in match["games"]]
    return out


def pente_missed_wins(limit: int) -> list[dict]:
    """Puzzles from the pente.org games: the positions where the player missed a forced win of
    at most ``MAX_MOVES`` moves (as mined in forced_wins.json), one per game, each checked."""
    from qipan.server.puzzles import MAX_MOVES, check_puzzle, puzzle_at

    records = read_records(DATA / "pente" / "pente_org_games.pgn")
    mined = json.loads((DATA / "pente" / "forced_wins.json").read_text())["positions"]
    found, games = [], set()
    for position in sorted(mined, key=lambda p: (p["plies"], p["game"], p["ply"])):  # shortest first
        if len(found) >= limit:
            break
        if position["found"] or position["plies"] > 2 * MAX_MOVES - 1 or position["game"] in games:
            continue
        # The mining marked the move played as no forced win within 9 plies ("found": false,
        # checked by brute force), so the tree of the move played is not searched again here.
        puzzle = puzzle_at(records[position["game"]], position["ply"])
        if puzzle is not None and puzzle["source"].endswith("(missed)"):
            check_puzzle(puzzle)
            found.append(puzzle)
            games.add(position["game"])
            print(f"pente {len(found)}: game {position['game']} ply {position['ply']}", flush=True)
    return found


FAMILIES = ("morris", "trax", "pente")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--trax", type=int, default=80, help="Trax puzzles from the GnuTrax games")
    parser.add_argument("--pente", type=int, default=32, help="Pente puzzles from the pente.org games")
    parser.add_argument(
        "--only", choices=FAMILIES, action="append", help="rebuild these games' puzzles, keep the others"
    )
    args = parser.parse_args()
    families = set(args.only or FAMILIES)
    found = []
    with tempfile.TemporaryDirectory() as folder:
        build = "QIPAN_TABLES" not in os.environ and "morris" in families  # else as they are
        os.environ.setdefault("QIPAN_TABLES", str(Path(folder) / "tables"))
        import qipan
        from qipan.games.morris.perfect import PerfectTables
        from qipan.server.gamedb import GameDatabase
        from qipan.server.puzzles import Puzzles
        from qipan.server.storage import Storage

        for stones in (3, 4) if build else ():
            PerfectTables(qipan.load("nine-mens-morris"), max_stones=stones).build()
        storage = Storage(f"sqlite:///{folder}/starter.sqlite3")
        database = GameDatabase(storage.engine)
        database.add(engine_games())
        database.add(read_records(DATA / "trax" / "trax_8x8_gnutrax_sample.tsv"))
        store = Puzzles(storage.engine)
        if "morris" in families:
            found += store.generate_from_db(game="nine-mens-morris", limit=100)
        if "trax" in families:
            found += store.generate_from_db(game="trax-8x8", limit=args.trax)
        if "pente" in families:
            found += pente_missed_wins(args.pente)
        storage.close()
    if args.only:
        kept = json.loads(OUT.read_text(encoding="utf-8"))["puzzles"]
        found = [p for p in kept if load_game(p["game"]).family not in families] + found
    OUT.write_text(
        json.dumps({"puzzles": found}, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8"
    )
    counts: dict[str, int] = {}
    for p in found:
        counts[p["game"]] = counts.get(p["game"], 0) + 1
    print(f"{len(found)} puzzles written to {OUT}: {counts}")


if __name__ == "__main__":
    main()
