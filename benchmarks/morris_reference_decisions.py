"""Record (or check) the decisions of a Morris agent at a fixed depth and seed on positions of
the games lost to an independent engine (``tests/data/ai/morris_black_losses_scored.json``):
the pin of the fixed reference ``morris-2026`` (``tests/data/ai/morris_2026_decisions.json``,
recorded with the ``morris`` agent of 2026-12-03 before it changed).

    .venv/bin/python benchmarks/morris_reference_decisions.py --agent morris-2026 --check
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import qipan
from qipan.agents import load as load_agent

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "ai"
PLIES = (3, 7, 11, 17, 21, 27)
DEPTH = 4


def decisions(agent_name: str) -> list[dict]:
    scored = json.loads((DATA / "morris_black_losses_scored.json").read_text())
    game = qipan.load("nine-mens-morris")
    out = []
    for lost in scored["games"]:
        moves = lost["moves"].split()
        for ply in PLIES:
            state = game.new()
            for text in moves[:ply]:
                state.play(game.parse(text, state))
            if ply >= len(moves) or state.outcome is not None or len(state.legal_moves()) == 1:
                continue
            agent = load_agent(agent_name, game=game, players=2, depth=DEPTH, seed=ply)
            move = agent.choose(state)
            out.append(
                {"game": lost["game"], "ply": ply, "moves": " ".join(moves[:ply]), "depth": DEPTH,
                 "seed": ply, "chosen": move.text, "how": agent.last}
            )  # fmt: skip
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", default="morris-2026")
    parser.add_argument("--check", action="store_true", help="compare with the recorded decisions")
    args = parser.parse_args()
    found = decisions(args.agent)
    target = DATA / "morris_2026_decisions.json"
    if args.check:
        recorded = {(d["game"], d["ply"]): d["chosen"] for d in json.loads(target.read_text())["positions"]}
        same = sum(recorded.get((d["game"], d["ply"])) == d["chosen"] for d in found)
        print(f"{args.agent}: {same}/{len(found)} decisions as recorded")
        return
    about = (
        "Decisions of the morris agent of 2026-12-03 (now morris-2026, the fixed reference) on "
        "nine-mens-morris positions of the games lost to an independent engine, at depth 4 with the "
        "given seed; recorded by benchmarks/morris_reference_decisions.py"
    )
    target.write_text(json.dumps({"about": about, "positions": found}, indent=1) + "\n")
    print(f"{len(found)} decisions written to {target}")


if __name__ == "__main__":
    main()
