"""Where a Tantrix agent's time goes and which stage changes its moves, at a CPU time per move:
seeded self-play games of the agent (``--agent tantrix`` or ``tantrix-classic``), each decision
with a choice before the endgame timed stage by stage (the one-ply scoring with the
opponent's fills, the reply check, the playouts; the endgame search separately), with the
number of moves the reply check covers, the playouts per decision and how often the reply
check and the playouts pick another move than the stage before them.

    .venv/bin/python benchmarks/tantrix_stages.py --time 0.05 --games 3 --agent tantrix
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
os.environ["QIPAN_AGENT_CLOCK"] = "cpu"  # before qipan is imported

import qipan  # noqa: E402
from qipan.core import CHANCE, resolve_chance  # noqa: E402
from qipan.games.tantrix import playouts as playouts_module  # noqa: E402
from qipan.games.tantrix import search as search_module  # noqa: E402
from qipan.games.tantrix.agent import TantrixAgent  # noqa: E402


def instrument(seconds: Counter, counts: Counter) -> None:
    """Wrap the stages of the ``tantrix`` agent's search (``search_module``) to add up their CPU time and what they changed."""

    def timed(label, function, changed=None):
        def wrapper(*args, **kwargs):
            start = time.process_time()
            result = function(*args, **kwargs)
            seconds[label] += time.process_time() - start
            counts[label] += 1
            if changed is not None:
                changed(args, result)
            return result

        return wrapper

    def reply_changed(args, ranked):
        scored = args[3]
        counts["reply checked"] += len(ranked)
        if len(ranked) > 1 and ranked[0][1] != scored[0][1]:
            counts["reply changed"] += 1

    def playouts_changed(args, move):
        if move != args[2][0][1]:
            counts["playouts changed"] += 1

    def had_choice(args, _move):
        if len(args[1].legal_moves()) > 1:
            counts["choice"] += 1

    agent_class = TantrixAgent
    agent_class.select = timed("decision", agent_class.select, had_choice)
    agent_class._reply_search = timed("reply check", agent_class._reply_search, reply_changed)
    for name in ("best_by_playouts", "best_by_halving"):
        setattr(search_module, name, timed("playouts", getattr(search_module, name), playouts_changed))
    search_module.endgame_move = timed("endgame", search_module.endgame_move)
    real_playout = playouts_module.playout

    def counted_playout(*args, **kwargs):
        counts["playout"] += 1
        return real_playout(*args, **kwargs)

    playouts_module.playout = counted_playout
    from qipan.fast import HAVE_NUMBA

    if HAVE_NUMBA:  # the agent's playouts on the compiled kernel (one call each)
        from qipan.games.tantrix import kernel as kernel_module

        real_after = kernel_module.Playouts.after

        def counted_after(*args, **kwargs):
            counts["playout"] += 1
            return real_after(*args, **kwargs)

        kernel_module.Playouts.after = counted_after


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--agent", default="tantrix")
    parser.add_argument("--time", type=float, default=0.05)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    seconds: Counter = Counter()
    counts: Counter = Counter()
    instrument(seconds, counts)
    game = qipan.load("tantrix")
    for g in range(args.games):
        state = game.new(players=2)
        rng = random.Random(args.seed * 1000 + g)
        agent = qipan.agents.load(args.agent, time=args.time, seed=g)
        while state.outcome is None:
            if state.to_move == CHANCE:
                resolve_chance(state, rng)
                continue
            state.play(agent.choose(state))
    decisions = counts["choice"] - counts["endgame"]  # the decisions with a choice
    search = seconds["decision"] - seconds["endgame"]
    one_ply = search - seconds["reply check"] - seconds["playouts"]
    print(
        f"{args.agent} at {args.time} CPU s a move, {args.games} games, {decisions} decisions with a choice before the endgame"
    )
    for label, value in (
        ("one ply", one_ply),
        ("reply check", seconds["reply check"]),
        ("playouts", seconds["playouts"]),
    ):
        print(f"  {label:12s} {value / max(1, decisions) * 1000:6.1f} ms a decision ({value / search:.0%})")
    replies = max(1, counts["reply check"])
    print(
        f"  reply check: {counts['reply check']} free moves, {counts['reply checked'] / replies:.1f} candidates "
        f"checked, changed the one-ply move {counts['reply changed']} times ({counts['reply changed'] / replies:.0%})"
    )
    played = max(1, counts["playouts"])
    print(
        f"  playouts: {counts['playouts']} decisions, {counts['playout'] / played:.1f} playouts each, "
        f"changed the move {counts['playouts changed']} times ({counts['playouts changed'] / played:.0%})"
    )
    print(
        f"  endgame: {counts['endgame']} decisions, {seconds['endgame'] / max(1, counts['endgame']) * 1000:.1f} ms each"
    )


if __name__ == "__main__":
    main()
