"""Speed of the compiled Pente searches, in nodes per CPU second, beside the kernel's perft
(the rules alone, a peer in the same run that a change to the searches does not touch): the
``pente`` agent's alpha-beta (iterative deepening to ``--depth``, width 12, 24 roots), VCF and
VCT, the four-player paranoid search (``--depth`` less one), and the generic ``alphabeta``'s
PVS (``PenteKernel.alphabeta``, full width to ``--generic-depth``). The positions are those of
``benchmarks/pente_reference_decisions.py`` (pente.org games, seeded four-player games).
Prints min / median / max of ``--runs`` runs, each about ``--seconds`` CPU seconds per part,
and each search's median rate per million of perft's.

    .venv/bin/python benchmarks/pente_search_speed.py --seconds 3 --runs 3
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import qipan  # noqa: E402
from cpu_timing import cpu_rate  # noqa: E402
from pente_reference_decisions import positions  # noqa: E402
from qipan.games.pente.kernel_search import searcher_for  # noqa: E402

BIG = 10**12  # a node budget no call here reaches


def states() -> list:
    return [qipan.load(preset).position(text) for preset, text in positions()]


def parts(depth: int, generic_depth: int) -> dict:
    """Each part: a function doing its work over every position, returning the nodes."""
    two = [st for st in states() if st.num_players == 2]
    four = [st for st in states() if st.num_players == 4 and st.game.teams]

    def searched(refs, call):
        def work() -> int:
            nodes = 0
            for ref in refs:
                kernel = ref.game.kernel()
                searcher = searcher_for(kernel)
                searcher.new_search()
                searcher.budget(BIG)
                call(searcher, kernel.state(ref))
                nodes += searcher.nodes
            return nodes

        return work

    def deepen(searcher, s):
        roots = searcher.root_moves(s)[0][:24]
        for d in range(1, depth + 1):
            searcher.iterate(s, d, 12, roots)

    def generic() -> int:
        return sum(ref.game.kernel().alphabeta(ref, depth=generic_depth).nodes for ref in two)

    def perft() -> int:
        return sum(ref.game.kernel().perft(ref, 2) for ref in two)

    return {
        "perft": perft,
        "alphabeta (pente)": searched(two, deepen),
        "vcf": searched(two, lambda searcher, s: searcher.vcf(s, 10)),
        "vct": searched(two, lambda searcher, s: searcher.vct(s, 3, 6)),
        "paranoid": searched(four, lambda searcher, s: searcher.paranoid(s, depth - 1, 8)),
        "alphabeta (generic)": generic,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--generic-depth", type=int, default=2)
    parser.add_argument("--only", nargs="*", help="these parts (and perft) only, e.g. vcf")
    args = parser.parse_args()
    work = parts(args.depth, args.generic_depth)
    if args.only:
        work = {name: call for name, call in work.items() if name == "perft" or name.split()[0] in args.only}
    for call in work.values():
        call()  # compiled (or loaded from the cache) before any timing
    rates: dict[str, list[float]] = {name: [] for name in work}
    for _ in range(args.runs):
        for name, call in work.items():  # the parts interleaved, so a busy spell hits all
            rates[name].append(cpu_rate(call, args.seconds))
    peer = statistics.median(rates["perft"])
    for name, got in rates.items():
        low, mid, high = min(got), statistics.median(got), max(got)
        print(
            f"{name:22s} {low:12,.0f} {mid:12,.0f} {high:12,.0f} nodes/CPU s   {1e6 * mid / peer:9.1f} per 1M perft"
        )


if __name__ == "__main__":
    main()
