"""Black Path: the compact solver (``compact.py``) against the memoised one (``solver.py``)
in the same run: CPU seconds (min/median/max of ``--runs``) and memory per board.

    .venv/bin/python benchmarks/blackpath_compact.py [--boards 6x6,6x7,6x8] [--runs 3] [--big 7x7]
    .venv/bin/python benchmarks/blackpath_compact.py --boards= --big= --capped 7x8 --cpu-minutes 20

Each solve runs in a fresh process so its peak memory (``ru_maxrss``) is its own; the
compact solver's memo is its fixed table (10 bytes a slot), reported beside the process
peak. ``--big`` boards are solved by the compact solver only (the memoised one needs GBs).
``--capped`` boards run ``CompactSolver.analyse`` under a CPU cap (``--cpu-minutes``, with
``--capped-bits`` slots) and print what was decided: each first move and player 2's replies."""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys

CHILD = r"""
import json, resource, sys, time
rows, cols, which, bits = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
if which == "capped":
    from qipan.games.blackpath.compact import CompactSolver
    CompactSolver(4, 4, table_bits=8).solve()  # compile (cached on disk) outside the cap
    solver = CompactSolver(rows, cols, table_bits=bits, cpu_seconds=float(sys.argv[5]))
    start = time.process_time()
    report = solver.analyse()
    report.update(seconds=time.process_time() - start, table=solver.table_bytes,
                  used=int(solver.stats[1]), overwritten=int(solver.stats[2]),
                  peak=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024)
    print(json.dumps(report))
    sys.exit()
if which == "compact":
    from qipan.games.blackpath.compact import CompactSolver
    solver = CompactSolver(rows, cols, table_bits=bits)
    solver.solve()  # compile (cached on disk) outside the timing with a fresh table
    solver = CompactSolver(rows, cols, table_bits=bits)
else:
    from qipan.games.blackpath.solver import Solver
    solver = Solver(rows, cols)
start = time.process_time()
result = solver.solve()
seconds = time.process_time() - start
positions = int(solver.stats[0]) if which == "compact" else len(solver.memo)
table = solver.table_bytes if which == "compact" else None
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(json.dumps({"result": result, "seconds": seconds, "positions": positions, "table": table, "peak": peak}))
"""


def run(rows: int, cols: int, which: str, bits: int, *extra: str) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(rows), str(cols), which, str(bits), *extra],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def fmt(xs):
    return f"{min(xs):.2f}/{statistics.median(xs):.2f}/{max(xs):.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", default="6x6,6x7,6x8")
    parser.add_argument("--big", default="7x7")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--bits", type=int, default=23)
    parser.add_argument("--capped", default="")
    parser.add_argument("--cpu-minutes", type=float, default=20)
    parser.add_argument("--capped-bits", type=int, default=27)
    args = parser.parse_args()
    for board in filter(None, args.boards.split(",")):
        rows, cols = map(int, board.split("x"))
        old = [run(rows, cols, "memo", args.bits) for _ in range(args.runs)]
        new = [run(rows, cols, "compact", args.bits) for _ in range(args.runs)]
        assert all(r["result"] == old[0]["result"] for r in old + new), "the solvers disagree"
        o, n = old[0], new[0]
        print(
            f"{board}: {o['result']}; memo {fmt([r['seconds'] for r in old])} CPU s, {o['positions']:,} positions, "
            f"peak {o['peak'] / 1e6:.0f} MB; compact {fmt([r['seconds'] for r in new])} CPU s, "
            f"{n['positions']:,} searched, table {n['table'] / 1e6:.0f} MB, peak {n['peak'] / 1e6:.0f} MB; "
            f"speed x{statistics.median([r['seconds'] for r in old]) / statistics.median([r['seconds'] for r in new]):.1f}, "
            f"memory (memo peak / compact peak) x{o['peak'] / n['peak']:.1f}",
            flush=True,
        )
    for board in filter(None, args.big.split(",")):
        rows, cols = map(int, board.split("x"))
        bits = max(args.bits, 25)
        r = run(rows, cols, "compact", bits)
        print(
            f"{board} (compact only, 2**{bits} slots): {r['result']} in {r['seconds']:.1f} CPU s, "
            f"{r['positions']:,} searched, table {r['table'] / 1e6:.0f} MB, peak {r['peak'] / 1e6:.0f} MB",
            flush=True,
        )

    for board in filter(None, args.capped.split(",")):
        rows, cols = map(int, board.split("x"))
        r = run(rows, cols, "capped", args.capped_bits, str(60 * args.cpu_minutes))
        winner = {0: "player 1 wins", 1: "player 2 wins", None: "not decided"}[r["winner"]]
        print(
            f"{board} (compact, capped at {args.cpu_minutes:g} CPU min, 2**{args.capped_bits} slots): {winner} "
            f"after {r['seconds']:.0f} CPU s; {r['searched']:,} positions searched, {r['used']:,} slots used, "
            f"{r['overwritten']:,} overwritten, table {r['table'] / 1e6:.0f} MB, peak {r['peak'] / 1e6:.0f} MB",
            flush=True,
        )
        for move, part in r["first_moves"].items():
            print(f"  {move}: {part['result'] or 'not decided'}; replies {part['replies']}", flush=True)


if __name__ == "__main__":
    main()
