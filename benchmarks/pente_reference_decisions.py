"""Record (or check) Pente agents' decisions with fixed limits and seeds on positions of
pente.org games (``tests/data/pente/pente_org_sample.pgn``, plies 9, 17 and 25) and of seeded
four-player games: the pin of the fixed references ``pente-classic`` and ``pente-2026``, and of
the generic ``alphabeta`` agent's compiled PVS (move and node count at a fixed depth), in
``tests/games/pente/data/reference_decisions.json``. ``--agents pente`` checks the live agent
through a refactoring that must not change its play (the live agent is not pinned by a test).

    .venv/bin/python benchmarks/pente_reference_decisions.py --write
    .venv/bin/python benchmarks/pente_reference_decisions.py --check --agents pente-classic pente
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

import qipan
from qipan.agents import load as load_agent
from qipan.games.pente.records import read

ROOT = Path(__file__).resolve().parents[1]
GAMES = ROOT / "tests" / "data" / "pente" / "pente_org_sample.pgn"
DATA = ROOT / "tests" / "games" / "pente" / "data" / "reference_decisions.json"
PLIES = (9, 17, 25)
RECORDS = 6
#: Each agent's limits: small enough to record in seconds, large enough to search.
LIMITS = {
    "pente-classic": {"depth": 2},
    "pente-2026": {"iterations": 20_000},
    "pente": {"iterations": 20_000},
    "alphabeta": {"depth": 2},
}
#: Agents recorded by ``--write`` (the live ``pente`` only on request).
PINNED = ("pente-classic", "pente-2026", "alphabeta")


def positions() -> list[tuple[str, str]]:
    """(preset, position text): two-player positions from pente.org games, then seeded
    random four-player ones (teams and each for themselves)."""
    out = []
    for record in read(GAMES.read_text())[:RECORDS]:
        state = record.new_state()
        for ply, text in enumerate(record.moves, start=1):
            state.play(state.game.parse(text, state))
            if state.outcome is not None:
                break
            if ply in PLIES:
                out.append(
                    ("pente-tournament" if record.options.get("tournament") else "pente", state.position())
                )
    for preset in ("pente-team", "pente-4"):
        rng = random.Random(7)
        state = qipan.load(preset).new(players=4)
        for _ in range(16):
            state.play(rng.choice(state.legal_moves()))
        out.append((preset, state.position()))
    return out


def fresh_kernels() -> None:
    """Forget the kernels made so far: the ``pente`` agent's searcher (one per kernel) keeps
    its transposition table and history from move to move, as in a game, so a decision would
    depend on what the process searched before."""
    from qipan.games.pente import kernel

    kernel._KERNELS.clear()


def decide(agent_name: str, preset: str, position: str, seed: int) -> dict:
    fresh_kernels()
    game = qipan.load(preset)
    state = game.position(position)
    agent = load_agent(agent_name, seed=seed, **LIMITS[agent_name])
    move = agent.choose(state)
    return {"agent": agent_name, "preset": preset, "position": position, "seed": seed,
            "limits": LIMITS[agent_name], "move": move.text, "nodes": int(getattr(agent, "nodes", 0))}  # fmt: skip


def decisions(agents: list[str]) -> list[dict]:
    rows = []
    for name in agents:
        for k, (preset, position) in enumerate(positions()):
            if name == "alphabeta" and preset in ("pente-team", "pente-4"):
                continue  # two players only
            rows.append(decide(name, preset, position, seed=k))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--write", action="store_true", help="record the pinned agents' decisions")
    parser.add_argument("--check", action="store_true", help="compare with the stored decisions")
    parser.add_argument("--agents", nargs="*", default=list(PINNED))
    parser.add_argument("--out", type=Path, default=DATA, help="where --write stores (or --check reads)")
    args = parser.parse_args()
    rows = decisions(args.agents)
    if args.write:
        about = (
            "Decisions of Pente agents with fixed limits and seeds (benchmarks/pente_reference_decisions.py): "
            "the pin of the fixed references and of the generic alphabeta's compiled PVS (move and nodes)."
        )
        args.out.write_text(json.dumps({"about": about, "decisions": rows}, indent=1) + "\n")
        print(f"{len(rows)} decisions written to {args.out}")
    if args.check:
        stored = {
            (r["agent"], r["preset"], r["position"]): r for r in json.loads(args.out.read_text())["decisions"]
        }
        differ = [
            r
            for r in rows
            if (r["agent"], r["preset"], r["position"]) in stored
            and stored[r["agent"], r["preset"], r["position"]] != r
        ]
        checked = sum((r["agent"], r["preset"], r["position"]) in stored for r in rows)
        for r in differ:
            was = stored[r["agent"], r["preset"], r["position"]]
            print(
                f"{r['agent']} {r['position']}: was {was['move']} ({was['nodes']}), now {r['move']} ({r['nodes']})"
            )
        print(f"{checked - len(differ)} of {checked} decisions as stored")


if __name__ == "__main__":
    main()
