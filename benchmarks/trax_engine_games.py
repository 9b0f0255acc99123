"""Replay the Trax games the old agent lost against an independent 8x8 engine (issue 17) and
locate the losing moves: at each of qipan's moves, what the new ``trax`` agent plays within
``--time`` CPU seconds and whether its search proves the move played then a loss.

    .venv/bin/python benchmarks/trax_engine_games.py --time 1.0 [--data PATH]

Prints, per lost game, the first qipan move the new search proves lost (ply, the move, the
agent's choice instead), and a summary: in how many lost games the new agent would have
left the game's line at a move it proves losing."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from qipan.agents import clock
from qipan.games.trax import TraxAgent, TraxGame
from qipan.games.trax.search import PROVEN

DATA = (
    Path(__file__).resolve().parents[1] / "tests" / "data" / "ai" / "games_against_independent_engines.json"
)


def lost_games(path: Path):
    data = json.loads(path.read_text(encoding="utf-8"))
    for match in data["matches"]:
        if not match["game"].startswith("trax"):
            continue
        for game in match["games"]:
            if game["winner"] == "opponent":
                yield match["qipan_agent"], game


def locate(moves: list[str], side: int, seconds: float) -> tuple[int, str, str] | None:
    """The first ply where qipan (``side``) played a move the new search proves lost while
    it chooses another: (ply, played, chosen), or None."""
    state = TraxGame(variant="8x8").new()
    for ply, text in enumerate(moves, start=1):
        if state.to_move == side and state.board.cells:
            agent = TraxAgent(time=seconds, seed=ply)
            chosen = agent.choose(state)
            scores = {state.move_for(*m).text: v for m, v in agent.last_search.scores.items()}
            refuted = {state.move_for(*m).text for m in agent.last_search.refuted}
            lost = scores.get(text, 0.0) <= -PROVEN or text in refuted
            if lost and chosen.text != text and scores.get(chosen.text, 0.0) > -PROVEN:
                return ply, text, chosen.text
        state.play(text)
    return None


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--time", type=float, default=1.0, help="CPU seconds per move for the new agent")
    parser.add_argument("--data", type=Path, default=DATA)
    args = parser.parse_args()
    clock.use_cpu_clock()
    found = total = 0
    for label, game in lost_games(args.data):
        total += 1
        side = 0 if game["qipan_plays"] == "white" else 1
        where = locate(game["moves"].split(), side, args.time)
        head = f"{label}, qipan {game['qipan_plays']}, {game['reason']}: {game['moves']}"
        if where is None:
            print(f"{head}\n    no move proved lost by the new search at {args.time} s", flush=True)
        else:
            found += 1
            ply, played, chosen = where
            print(
                f"{head}\n    ply {ply}: {played} is lost (new search); the new agent plays {chosen}",
                flush=True,
            )
    print(f"\n{found} of {total} lost games: the new agent leaves the game at a move it proves lost")


if __name__ == "__main__":
    main()
