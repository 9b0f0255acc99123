"""The CPU cost of the Tantrix agents' stages on fixed work, and a digest of what they
computed, for two source trees in one run: this tree's ``src`` and ``--against`` (for
example ``git archive <commit> src | tar -x -C /tmp/base``). Each stage runs in a fresh
process per tree, the trees interleaved run by run (a busy moment slows both), and the
digests must match: the same values, the same moves, the same playout results.

Stages, on the choice positions (before the endgame) of seeded games:

* ``one ply + replies``: ``tantrix`` with ``playouts=0`` and no time limit (every move
  scored with the opponent's fills, then the reply check on the 14 best free moves); the
  digest covers every one-ply value and every reply-ranked value;
* ``playouts``: ``playouts.playout`` on the fast path (``tantrix``) and on the listing
  path (``tantrix-classic``), seeded;
* ``decision``: ``tantrix`` and ``tantrix-classic`` with a fixed ``playouts`` budget and seed.

    .venv/bin/python benchmarks/tantrix_speed.py --against /tmp/base/src --runs 3
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

STAGES = ("one ply + replies", "fast playouts", "listing playouts", "tantrix decision", "classic decision")


def positions(qipan, games: int) -> list:
    """The choice positions before the endgame of ``games`` seeded two-player games
    (played by ``tantrix`` with one-ply lookahead only, so they are cheap and fixed)."""
    from qipan.core import CHANCE, resolve_chance

    game = qipan.load("tantrix")
    out = []
    for g in range(games):
        state = game.new(players=2)
        rng = random.Random(7000 + g)
        agent = qipan.agents.load("tantrix", seed=g, lookahead=False)
        while state.outcome is None:
            if state.to_move == CHANCE:
                resolve_chance(state, rng)
                continue
            if not state.endgame and len(state.legal_moves()) > 1:
                out.append(state.copy())
            state.play(agent.choose(state))
    return out


def run_stage(stage: str, games: int) -> dict:
    """Run one stage in this process (the tree on ``sys.path``): CPU seconds and a digest."""
    import qipan
    from qipan.games.tantrix import agent as agent_module
    from qipan.games.tantrix import playouts

    work = positions(qipan, games)[::2]
    seen: list = []
    if stage == "one ply + replies":
        real = agent_module.TantrixAgent._reply_search

        def recorded(self, state, player, scored, deadline):
            ranked = real(self, state, player, scored, deadline)
            seen.append(
                ([(round(v, 12), m.text) for v, m in scored], [(round(v, 12), m.text) for v, m in ranked])
            )
            return ranked

        agent_module.TantrixAgent._reply_search = recorded
    start = time.process_time()
    for i, state in enumerate(work):
        if stage == "one ply + replies":
            agent = qipan.agents.load("tantrix", seed=i, playouts=0)
            seen.append(agent.choose(state).text)
        elif stage in ("fast playouts", "listing playouts"):
            rng = random.Random(i)
            for _ in range(4):
                seen.append(playouts.playout(state.copy(), state.to_move, rng, fast=stage == "fast playouts"))
        else:
            name = "tantrix" if stage == "tantrix decision" else "tantrix-classic"
            agent = qipan.agents.load(name, seed=i, playouts=12)
            seen.append(agent.choose(state).text)
    seconds = time.process_time() - start
    digest = hashlib.sha256(repr(seen).encode()).hexdigest()[:16]
    return {"seconds": seconds, "digest": digest, "positions": len(work)}


def measure(src: Path, stage: str, games: int) -> dict:
    out = subprocess.run(
        [sys.executable, __file__, "--stage", stage, "--games", str(games)],
        env={**os.environ, "PYTHONPATH": str(src), "QIPAN_AGENT_CLOCK": "cpu"},
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--against", type=Path, help="the other tree's src directory")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--stage", choices=STAGES, help=argparse.SUPPRESS)  # a child process
    parser.add_argument("--only", choices=STAGES, action="append", help="these stages only")
    args = parser.parse_args()
    if args.stage:
        print(json.dumps(run_stage(args.stage, args.games)))
        return
    here = Path(__file__).resolve().parents[1] / "src"
    trees = {"this": here} if args.against is None else {"this": here, "against": args.against.resolve()}
    for stage in args.only or STAGES:
        runs: dict[str, list] = {name: [] for name in trees}
        for _ in range(args.runs):
            for name, src in trees.items():
                runs[name].append(measure(src, stage, args.games))
        line = f"{stage:18s}"
        for name, results in runs.items():
            median = statistics.median(r["seconds"] for r in results)
            digests = {r["digest"] for r in results}
            line += f"  {name}: {median:6.2f} s (digest {','.join(sorted(digests))})"
        if len(trees) == 2:
            this = statistics.median(r["seconds"] for r in runs["this"])
            other = statistics.median(r["seconds"] for r in runs["against"])
            same = {r["digest"] for r in runs["this"]} == {r["digest"] for r in runs["against"]}
            line += f"  ratio {other / this:.2f}x  {'same' if same else 'DIFFERENT'}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
