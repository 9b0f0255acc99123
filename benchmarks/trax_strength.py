"""The ``trax`` agent against the fixed reference ``trax-classic`` at equal CPU time per move.

    .venv/bin/python benchmarks/trax_strength.py --games 200 --time 0.2 --preset trax-8x8 --jobs 2

Openings are paired: opening k (``--opening-plies`` uniformly random moves, seeded by k,
redrawn while the side to move could win at once) is played twice, the new agent taking White in one game and Red in the other. Time limits are
CPU seconds of each worker process (``qipan.agents.clock.use_cpu_clock``), so a busy machine
slows both sides alike. Prints every game as it ends, then the score of the new agent as
White, as Red and overall (draws count 1/2) with 95% Wilson intervals. Target (issue 17):
at least 75% as either colour. Games stop at ``--max-plies`` (counted as unfinished, 1/2)."""

from __future__ import annotations

import argparse
import math
import time
from concurrent.futures import ProcessPoolExecutor

from qipan.agents import clock
from qipan.agents.arena import play_opening

# Imported directly (not through the registries) so that other packages being edited
# cannot break a long benchmark run.
from qipan.games.trax import TraxAgent, TraxClassicAgent, TraxGame
from qipan.games.trax.threats import winning_moves

VARIANT_OF = {"trax": "unlimited", "trax-8x8": "8x8", "trax-loop": "loop"}


def opening_state(game: TraxGame, opening: int, plies: int):
    """Opening ``opening``: ``plies`` uniformly random moves, redrawn (seeds 1000·k + 1, …)
    while the side to move could win at once, so that no pair starts decided."""
    seed = opening * 1000
    while True:
        state = game.new(seed=seed)
        play_opening(state, plies, seed=seed)
        board = state.board
        if state.outcome is None and not winning_moves(
            board, state.to_move, game.lines_win, game.limited, game.simultaneous == "draw", first_only=True
        ):
            return state
        seed += 1


def prepare(preset: str) -> None:
    """Per worker, before any game: load the compiled kernel (``qipan[fast]``), so that no
    move's time limit pays for it (as the server's ``warm_up`` does)."""
    kernel = TraxGame(variant=VARIANT_OF[preset]).kernel()
    if kernel is not None:
        kernel.warm_up(TraxGame(variant=VARIANT_OF[preset]).new())


def play_one(preset: str, index: int, seconds: float, opening_plies: int, max_plies: int) -> dict:
    clock.use_cpu_clock()
    game = TraxGame(variant=VARIANT_OF[preset])
    state = opening_state(game, index // 2, opening_plies)
    new_side = index % 2  # 0: the new agent is White
    agents = {
        new_side: TraxAgent(time=seconds, seed=index),
        1 - new_side: TraxClassicAgent(time=seconds, seed=index),
    }
    spent = {0: 0.0, 1: 0.0}
    while state.outcome is None and state.ply < max_plies:
        mover = state.to_move
        start = time.process_time()
        move = agents[mover].choose(state)
        spent[mover] += time.process_time() - start
        state.play(move)
    if state.outcome is None:
        score, reason = 0.5, f"stopped at {max_plies} plies"
    else:
        score = state.outcome.reward(new_side)
        reason = state.outcome.reason
        score = 0.5 if not state.outcome.winners else score
    return {
        "index": index,
        "new_side": new_side,
        "score": score,
        "reason": reason,
        "plies": state.ply,
        "moves": " ".join(m.text for m in state.history),
        "cpu_new": spent[new_side],
        "cpu_old": spent[1 - new_side],
    }


def wilson(points: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 0.0
    p = points / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def summary(label: str, results: list[dict]) -> str:
    n = len(results)
    points = sum(r["score"] for r in results)
    wins = sum(1 for r in results if r["score"] == 1.0)
    losses = sum(1 for r in results if r["score"] == 0.0)
    lo, hi = wilson(points, n)
    return (
        f"{label}: {points:g}/{n} = {points / max(n, 1):.1%} (95% CI {lo:.1%}-{hi:.1%}), "
        f"{wins} won, {n - wins - losses} drawn, {losses} lost"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=200, help="games (even: openings are paired)")
    parser.add_argument("--time", type=float, default=0.2, help="CPU seconds per move for both agents")
    parser.add_argument("--preset", default="trax-8x8", choices=sorted(VARIANT_OF))
    parser.add_argument("--opening-plies", type=int, default=3, help="random plies before the agents play")
    parser.add_argument("--jobs", type=int, default=1, help="games played in parallel")
    parser.add_argument("--max-plies", type=int, default=200)
    parser.add_argument("--first", type=int, default=0, help="index of the first game (to resume)")
    args = parser.parse_args()

    print(
        f"trax vs trax-classic on {args.preset}, {args.time} CPU s per move each, {args.games} games, "
        f"paired openings of {args.opening_plies} random plies, {args.jobs} job(s)",
        flush=True,
    )
    results = []
    start = time.perf_counter()
    kernel = TraxGame(variant=VARIANT_OF[args.preset]).kernel() is not None
    print(f"the new agent searches {'in the compiled kernel' if kernel else 'in Python'}", flush=True)
    with ProcessPoolExecutor(max_workers=args.jobs, initializer=prepare, initargs=(args.preset,)) as pool:
        futures = [
            pool.submit(play_one, args.preset, i, args.time, args.opening_plies, args.max_plies)
            for i in range(args.first, args.first + args.games)
        ]
        for future in futures:
            r = future.result()
            results.append(r)
            side = "White" if r["new_side"] == 0 else "Red"
            print(
                f"game {r['index'] + 1:3}: trax as {side:5} scores {r['score']:g} in {r['plies']:3} plies "
                f"({r['reason']}); CPU {r['cpu_new']:.1f}s / {r['cpu_old']:.1f}s; {r['moves']}",
                flush=True,
            )
    print(f"\n{time.perf_counter() - start:.0f}s wall")
    print(summary("trax as White", [r for r in results if r["new_side"] == 0]))
    print(summary("trax as Red  ", [r for r in results if r["new_side"] == 1]))
    print(summary("trax overall ", results))


if __name__ == "__main__":
    main()
