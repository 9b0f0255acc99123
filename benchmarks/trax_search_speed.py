"""The speed of the ``trax`` agent's search, in Python (``search.ThreatSearch``, what runs
without ``qipan[fast]``) or compiled (``kernel_search.CompiledSearch``): fixed-depth searches
over the 8x8 positions of ``trax_kernel.py``, so every version that plays the same rules
visits the same nodes and picks the same moves (the digest says so), and only the CPU time
differs.

    .venv/bin/python benchmarks/trax_search_speed.py --engine python [--depth 2] [--positions 24] [--rounds 3]
    .venv/bin/python benchmarks/trax_search_speed.py --engine kernel --depth 4

The peer, for a busy machine: ``evaluation.open_tracks`` over the same positions, timed in
the same run (Python code neither the placement nor the kernel's workspace touches). The figure to compare between
versions is search nodes per CPU second divided by peer calls per CPU second; rounds
alternate search and peer, and the best round of each is kept."""

from __future__ import annotations

import argparse
import hashlib
import os
import time

from qipan.games.trax import TraxAgent, TraxGame
from qipan.games.trax.evaluation import open_tracks
from trax_kernel import positions


def search_round(states, depth: int) -> tuple[int, float, str]:
    """(nodes, CPU seconds, digest of the moves chosen) of one fixed-depth search per state
    (a new agent each: no tables kept from one position to the next)."""
    nodes = 0
    digest = hashlib.sha256()
    start = time.process_time()
    for k, state in enumerate(states):
        agent = TraxAgent(depth=depth, seed=k)
        move = agent.choose(state)
        nodes += agent.last_search.nodes
        digest.update(move.text.encode())
    return nodes, time.process_time() - start, digest.hexdigest()[:12]


def peer_round(states, seconds: float) -> float:
    """``open_tracks`` calls per CPU second over the states."""
    calls = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for state in states:
            open_tracks(state.board, True)
        calls += len(states)
    return calls / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--engine", choices=("python", "kernel"), default="python")
    parser.add_argument("--depth", type=int, default=2)
    parser.add_argument("--positions", type=int, default=24)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--peer-seconds", type=float, default=2.0)
    args = parser.parse_args()
    game = TraxGame(variant="8x8")
    if game.kernel() is None:
        raise SystemExit("the kernel is off (no qipan[fast], or QIPAN_KERNELS=0): positions need it")
    states = positions(game, args.positions)  # the same positions for both engines
    if args.engine == "python":
        os.environ["QIPAN_KERNELS"] = "0"  # game.kernel() reads it at every call
    else:
        game.kernel().warm_up(game.new())  # compiled (or loaded) before anything is timed
    best_rate = best_peer = 0.0
    for r in range(args.rounds):
        nodes, seconds, digest = search_round(states, args.depth)
        peer = peer_round(states, args.peer_seconds)
        best_rate, best_peer = max(best_rate, nodes / seconds), max(best_peer, peer)
        print(
            f"round {r + 1}: {nodes:,} nodes in {seconds:.2f} CPU s ({nodes / seconds:,.0f}/s), "
            f"moves {digest}; peer {peer:,.0f} open_tracks/s",
            flush=True,
        )
    print(
        f"{args.engine}, {len(states)} positions, depth {args.depth}: best {best_rate:,.0f} nodes/s, "
        f"peer {best_peer:,.0f}/s, ratio {best_rate / best_peer:.4f}"
    )


if __name__ == "__main__":
    main()
