"""Retrograde tables for Morris (``qipan.solve``): cost and reproduction.

    .venv/bin/python benchmarks/morris_tables.py six            # 6MM, the four rule sets
    .venv/bin/python benchmarks/morris_tables.py nine --stones 4 --verify 10000
    .venv/bin/python benchmarks/morris_tables.py nine --stones 4 --verify 0 --prove 10000 --nodes 100000 \
        --draw-nodes 2000 --jobs 2 [--check] [--modes free,layered]
    .venv/bin/python benchmarks/morris_tables.py nine --stones 4 --verify 0 --prove 10000 --sample decisive \
        --nodes 100000 --escalate 10,100 --cpu-minutes 20 --jobs 2 --modes layered [--preset zhiqi]
    .venv/bin/python benchmarks/morris_tables.py compare        # against the old solver

``six`` solves Six Men's Morris from the start under the four rule sets of
``six_mens_morris_values.json`` and compares every start value and every moving-phase count.
``nine`` builds the Nine Men's Morris moving/flying endgames with 3..K stones a side (``--check``:
with the forward sweep) and checks sampled positions with the engine (``tables_check``);
``--prove N`` first checks every position of every segment against the kernel's successors
(``kernel_tables.check_segment``), then proves N sampled positions to the depth the tables
claim with the compiled proof search (``proof_search.py``) in ``--jobs`` processes, in each
mode of ``--modes``: ``free`` (no table value enters a result) and ``layered`` (removals into
the segments the full check verified are scored by their tables). ``--nodes`` is the budget
of each search of a win or loss (the result, then the distance), ``--draw-nodes`` of a draw's;
it prints per stored kind how many were proved at the claimed distance and exactly, the draws'
horizons, and the CPU seconds of all processes. ``--sample decisive`` draws the N positions
among the stored wins and losses only (``tables_check.sample_decisive``); ``--escalate 10,100``
searches what ran out of nodes again with 10x, then 100x the budget (results first, then
distances), until the proof run of a mode has spent ``--cpu-minutes`` of CPU over all jobs
(the base budget's pass always completes); the report gives the budget that settled each
result and distance and lists the positions left undecided. ``--preset`` takes another Morris
board (``zhiqi``, ``twelve-mens-morris``). ``compare`` solves the 6MM 3-vs-3
subspace with the new tables and with the old exhaustive solver (``solver.three_vs_three_counts``,
pure Python), min/median/max CPU seconds of 3 runs each, and prints the ratio. Costs are CPU
time (the machine is shared) and peak memory of the process."""

from __future__ import annotations

import argparse
import json
import multiprocessing
import resource
import statistics
import tempfile
import time
from pathlib import Path

import qipan
from qipan.games.morris.perfect import PerfectTables
from qipan.games.morris.solver import three_vs_three_counts
from qipan.games.morris.tables_check import ProofReport, check_sample, prove_sample, verified_segments
from qipan.solve.database import tally

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "morris" / "six_mens_morris_values.json"
RULE_SETS = {
    "flying_at_3__mill_protection_with_fallback (seed default)": {"flying": 3, "protection": "fallback"},
    "no_flying__mill_protection_with_fallback": {"flying": None, "protection": "fallback"},
    "flying_at_3__no_mill_protection": {"flying": 3, "protection": "no_mill_protection"},
    'no_flying__no_mill_protection (Murray/Ludii "Any Capture")': {
        "flying": None,
        "protection": "no_mill_protection",
    },
}
COUNTS = {3: "moving_phase_counts_flying_protected", None: "moving_phase_counts_no_flying_protected"}


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def build(tables: PerfectTables, check: bool = False) -> tuple[str, float]:
    start = time.process_time()
    digest = tables.build(check=check)
    return digest, time.process_time() - start


def six() -> None:
    data = json.loads(DATA.read_text())
    ok = True
    for name, options in RULE_SETS.items():
        with tempfile.TemporaryDirectory() as tmp:
            tables = PerfectTables(qipan.load("six-mens-morris", **options), tmp)
            digest, seconds = build(tables)
            positions = sum(s.size for s in tables.space.segments())
            start = tables.game.new()
            value = tables.value(start)[0]
            firsts = {v.value for v in tables.move_values(start)}
            expected = data["results"][name]
            match = value == expected["start"] and (
                "all_16_first_moves" not in expected or firsts == {expected["all_16_first_moves"]}
            )
            mismatched = []
            if options["protection"] == "fallback":
                for label, row in data[COUNTS[options["flying"]]]["table"].items():
                    a, b = map(int, label.split("-"))
                    got = tally(tables.db.values((a, b, 0, 0)), tables.space.weights((a, b, 0, 0)))
                    if got != row["white_to_move"]:
                        mismatched.append(label)
            ok &= match and not mismatched
            counts = (
                "" if options["protection"] != "fallback" else f", 16 counts: {16 - len(mismatched)} match"
            )
            print(
                f"{name}: start {value} (first moves {sorted(firsts)}){counts}; {positions:,} positions "
                f"in {seconds:.1f} CPU s ({positions / seconds:,.0f}/s), {positions:,} bytes on disk; "
                f"manifest {digest}"
            )
    print(f"peak memory {peak_mb():.0f} MB; {'ALL MATCH' if ok else 'MISMATCH'}")


def _prove_part(
    directory: str, preset: str, stones: int, count: int, options: dict, mode: str, k: int, jobs: int
):
    tables = PerfectTables(qipan.load(preset), directory, max_stones=stones)
    start = time.process_time()

    def progress(stage, done, total, report):
        print(
            f"  [{mode} job {k}, {stage}] {done}/{total}, {len(report.failures)} failures, "
            + ", ".join(
                f"{kind} {r.full}/{r.exact}/{r.positions}" for kind, r in sorted(report.kinds.items())
            )
            + f" (proved/exact/all), {report.nodes:,} nodes ({time.process_time() - start:.0f} CPU s)",
            flush=True,
        )

    report = prove_sample(
        tables,
        count,
        part=(k, jobs),
        progress=progress,
        layered=mode == "layered",
        **options,
    )
    return report, time.process_time() - start


def prove(
    directory: str, preset: str, stones: int, count: int, options: dict, jobs: int, mode: str, verified: list
) -> None:
    options = dict(options, verified=[tuple(v) for v in verified])
    if options.get("cpu_seconds") is not None:
        options["cpu_seconds"] /= jobs  # the cap is shared by the jobs
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        parts = pool.starmap(
            _prove_part, [(directory, preset, stones, count, options, mode, k, jobs) for k in range(jobs)]
        )
    total, seconds = ProofReport(), 0.0
    for report, cpu in parts:
        total.add(report)
        seconds += cpu
    what = (
        "table-free (no table value enters a result; the tables order the moves)"
        if mode == "free"
        else f"layered (a removal into {', '.join('-'.join(map(str, v[:2])) for v in verified)} is scored by that table)"
    )
    nodes = options["nodes"]
    ladder = ", ".join(f"{nodes * f:,}" for f in (1, *options["escalate"]))
    print(
        f"  proof search, {what}; {options['sample']} sample; node budgets {ladder} for each search of a win or "
        f"loss, {options['draw_nodes']:,} for a draw, {jobs} jobs: {total.positions} positions, "
        f"{len(total.failures)} failures; {total.nodes:,} nodes, {seconds:.0f} CPU s"
        + (" (the CPU cap stopped the escalation)" if total.capped else "")
    )
    print(
        "    sampled: "
        + ", ".join(
            f"{key[0]}-{key[1]} {kind} {n}" for (key, kind), n in sorted(total.segments.items(), key=str)
        )
    )
    order = {"base": 0, "result": 1, "distance": 2}
    stages = sorted(total.cpu.items(), key=lambda item: (order[item[0].split()[0]], len(item[0]), item[0]))
    print("    CPU s by stage (all jobs): " + ", ".join(f"{stage} {cpu:.0f}" for stage, cpu in stages))
    for kind, row in sorted(total.kinds.items()):
        print(f"    {kind}: {row.summary(kind)}")
    draws = total.kinds.get("draw")
    print(
        f"    the kernel's successors give the stored value for {total.successors_agree} of {total.positions}; "
        f"of the {draws.positions if draws else 0} draws {total.draws_consistent} have no successor lost for the "
        f"other side and a drawn one ({total.draws_only_down} drawn only through a removal)"
    )
    for line in total.failures[:10]:
        print("   ", line)
    tables = PerfectTables(qipan.load(preset), directory, max_stones=stones)
    for key, index, mover, kind, plies, phase, budget in sorted(total.unsettled, key=lambda u: u[4]):
        state = tables.space.state_at(key, index, mover)
        print(
            f"    unsettled {phase} after {budget:,} nodes: {key[0]}-{key[1]} #{index} {kind} in {plies}, "
            f"{len(state.legal_moves())} moves: {state.position()}"
        )


def nine(
    stones: int,
    verify: int,
    depth: int,
    directory: str | None,
    proofs: int = 0,
    options: dict | None = None,
    jobs: int = 1,
    check: bool = False,
    modes: tuple = ("free", "layered"),
    preset: str = "nine-mens-morris",
) -> None:
    tables = PerfectTables(qipan.load(preset), directory or tempfile.mkdtemp(), max_stones=stones)
    was_built = tables.db.complete()
    digest, seconds = build(tables, check)
    positions = sum(s.size for s in tables.space.segments())
    name = f"{preset} endgames 3..{stones} stones"
    if was_built:
        print(f"{name}: {positions:,} positions, already built in {tables.directory}")
        print("  (nothing solved now: the forward sweep was not run in this process)")
    else:
        print(f"{name}: {positions:,} positions in {seconds:.1f} CPU s")
        if check:
            print("  --check: the forward sweep recomputed every component and agrees on every value")
        print(
            f"  {positions / seconds:,.0f} positions/s, 1 byte each on disk, peak memory {peak_mb():.0f} MB"
        )
    print(f"  manifest {digest} ({tables.directory})")
    for s in tables.space.segments():
        counts = tally(tables.db.values(s.key), tables.space.weights(s.key))
        deepest = int(max(tables.db.values(s.key))) - 1
        print(
            f"  {s.key[0]}-{s.key[1]}: {s.size:,} indices; over all boards {counts}; longest {deepest} plies"
        )
    if verify:
        start = time.process_time()
        report = check_sample(tables, verify, search_depth=depth)
        print(
            f"  checked {report.positions} sampled positions with the engine (Bellman), {report.searched} "
            f"also by search to {depth} plies: {len(report.failures)} failures "
            f"({time.process_time() - start:.1f} CPU s)"
        )
        for line in report.failures[:10]:
            print("   ", line)
    if proofs and "layered" not in modes:
        for mode in modes:
            prove(str(tables.directory), preset, stones, proofs, options, jobs, mode, [])
    elif proofs:
        start = time.process_time()
        verified, problems = verified_segments(tables)
        print(
            f"  every position of every segment against the kernel's successors (kernel_tables.check_segment): "
            f"{len(verified)} segments agree on every value, {len(problems)} do not "
            f"({time.process_time() - start:.1f} CPU s)"
        )
        for line in problems:
            print("   ", line)
        for mode in modes:
            prove(
                str(tables.directory),
                preset,
                stones,
                proofs,
                options,
                jobs,
                mode,
                [list(v) for v in verified],
            )


def compare() -> None:
    game = qipan.load("six-mens-morris", flying=None, repetition_count=None, n_move=0)
    old, new = [], []
    for _ in range(3):
        start = time.process_time()
        expected = three_vs_three_counts(game)
        old.append(time.process_time() - start)
        with tempfile.TemporaryDirectory() as tmp:
            tables = PerfectTables(game, tmp, max_stones=3)
            start = time.process_time()
            tables.build()
            new.append(time.process_time() - start)
            assert tally(tables.db.values((3, 3, 0, 0)), tables.space.weights((3, 3, 0, 0))) == expected

    def fmt(xs):
        return f"{min(xs):.2f}/{statistics.median(xs):.2f}/{max(xs):.2f}"

    print(
        f"6MM 3-3 no flying (160,160 boards, both sides to move): old solver {fmt(old)} CPU s, tables {fmt(new)}"
    )
    print(
        f"  ratio (median): tables {statistics.median(old) / statistics.median(new):.1f}x faster; same counts"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    sub.add_parser("six")
    n = sub.add_parser("nine")
    n.add_argument("--stones", type=int, default=4)
    n.add_argument("--verify", type=int, default=10_000)
    n.add_argument("--depth", type=int, default=3)
    n.add_argument("--dir", default=None)
    n.add_argument("--prove", type=int, default=0, help="positions for the full-depth proof search")
    n.add_argument("--nodes", type=int, default=200_000, help="budget of each proof search of a win or loss")
    n.add_argument("--draw-nodes", type=int, default=5_000, help="budget of a draw's proof search")
    n.add_argument("--jobs", type=int, default=1)
    n.add_argument("--check", action="store_true", help="build with the forward sweep too")
    n.add_argument("--modes", default="free,layered", help="proof modes: free, layered or both")
    n.add_argument(
        "--preset", default="nine-mens-morris", help="the Morris preset (zhiqi, twelve-mens-morris)"
    )
    n.add_argument(
        "--sample",
        choices=("uniform", "decisive"),
        default="uniform",
        help="uniform over all positions, or over the stored wins and losses only",
    )
    n.add_argument(
        "--escalate",
        default="",
        help="factors of --nodes for searching again what ran out of nodes, e.g. 10,100",
    )
    n.add_argument("--cpu-minutes", type=float, default=None, help="CPU cap of the escalation, all jobs")
    n.add_argument("--table-bits", type=int, default=22, help="transposition table: 2**bits entries a job")
    sub.add_parser("compare")
    args = parser.parse_args()
    if args.what == "six":
        six()
    elif args.what == "nine":
        options = {
            "nodes": args.nodes,
            "draw_nodes": args.draw_nodes,
            "sample": args.sample,
            "escalate": tuple(int(f) for f in args.escalate.split(",") if f),
            "cpu_seconds": None if args.cpu_minutes is None else args.cpu_minutes * 60,
            "table_bits": args.table_bits,
        }
        modes = tuple(args.modes.split(","))
        nine(
            args.stones,
            args.verify,
            args.depth,
            args.dir,
            args.prove,
            options,
            args.jobs,
            args.check,
            modes,
            args.preset,
        )
    else:
        compare()


if __name__ == "__main__":
    main()
