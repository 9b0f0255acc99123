"""Pente tactical positions: a win by five or by captures within 7 plies.

``--build``: play short games (the ``pente`` agent against itself and against
``pente-classic``, random openings), take positions 1, 3, 5 or 7 plies before the end of the
winner's game, keep those whose win within that many plies the exhaustive prover
(``kernel_search.prove``: every defence tried, no evaluation) confirms, with the move the new
threat search (VCF, then VCT) finds there when that move is proved to keep the win; writes
``tests/games/pente/data/tactics.json``.

Default: the ``pente`` agent gets ``--time`` CPU seconds on each stored position; a position
is solved when the move it picks is proved to keep the win within the stored plies. Prints
the share solved (target: >= 95% within 1 s).

    .venv/bin/python benchmarks/pente_tactics.py --build --count 120
    .venv/bin/python benchmarks/pente_tactics.py --time 1"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

import qipan
from qipan.agents import clock
from qipan.agents import load as load_agent
from qipan.games.pente.kernel_search import searcher_for

DATA = Path(__file__).resolve().parent.parent / "tests" / "games" / "pente" / "data" / "tactics.json"
#: Positions wanted per number of plies.
QUOTA = {1: 12, 3: 40, 5: 40, 7: 36}
PROOF_NODES = 300_000
SEARCH_NODES = 100_000


def random_opening(game, rng: random.Random, plies: int):
    state = game.new()
    state.play(state.legal_moves()[0])
    g = state.geom
    for _ in range(plies):
        stones = [i for i in g.points if state.cells[i] not in (0, 7)]
        near = [
            m
            for m in state.legal_moves()
            if any(
                max(abs(g.col[m.data[0]] - g.col[i]), abs(g.row[m.data[0]] - g.row[i])) <= 2 for i in stones
            )
        ]
        state.play(rng.choice(near))
    return state


def proved_plies(searcher, kernel, state, bound: int) -> int | None:
    """``bound`` (1, 3, 5 or 7) when the side to move is proved to win within it, else None."""
    return bound if searcher.prove(kernel.state(state), bound, nodes=PROOF_NODES) else None


def search_move(searcher, kernel, state):
    """The move the new threat search (VCF, then VCT) plays, or None."""
    s = kernel.state(state)
    searcher.new_search()
    searcher.budget(SEARCH_NODES)
    code = searcher.vcf(s, 10)
    if code < 0:
        searcher.budget(SEARCH_NODES)
        code = searcher.vct(s, 3, 6)
    return None if code < 0 else kernel.move(code)


def keeps_win(searcher, kernel, state, move, plies: int) -> bool:
    """Whether ``move`` (by the side to move) wins within ``plies`` against every defence."""
    attacker = state.to_move
    after = state.copy()
    after.play(move)
    if after.outcome is not None:
        return attacker in after.outcome.winners
    if plies <= 1:
        return False
    return bool(searcher.prove(kernel.state(after), plies - 1, attacker=attacker, nodes=PROOF_NODES))


def build(count: int, seed: int) -> None:
    clock.use_cpu_clock()
    game = qipan.load("pente")
    kernel = game.kernel()
    searcher = searcher_for(kernel)
    rng = random.Random(seed)
    found: dict[str, dict] = {}
    per_plies = dict.fromkeys(QUOTA, 0)
    start = time.process_time()
    k = 0
    while len(found) < count and k < 2000:
        k += 1
        state = random_opening(game, rng, rng.randrange(2, 6))
        opponent = "pente" if k % 2 else "pente-classic"
        agents = [load_agent("pente", time=0.01, seed=k), load_agent(opponent, time=0.01, seed=k + 7)]
        if k % 4 >= 2:
            agents.reverse()
        history = [state.copy()]
        while state.outcome is None and state.ply < 200:
            state.play(agents[state.to_move].choose(state))
            history.append(state.copy())
        if state.outcome is None or not state.outcome.winners:
            continue
        winner = state.outcome.winners[0]
        reason = state.outcome.reason
        last = len(history) - 2  # the position before the winning move
        for back in range(0, 8, 2):
            if last - back < 0:
                break
            position = history[last - back]
            text = position.position()
            bound = back + 1  # the game itself took this many plies from here
            if position.to_move != winner or text in found or per_plies[bound] >= QUOTA[bound]:
                continue
            plies = proved_plies(searcher, kernel, position, bound)
            if plies is None:
                continue
            move = search_move(searcher, kernel, position)
            if move is None or not keeps_win(searcher, kernel, position, move, plies):
                continue  # only positions whose solution the new search found
            found[text] = {
                "position": text,
                "plies": plies,
                "winner": winner + 1,
                "move": move.text,
                "game_end": reason,
            }
            per_plies[plies] += 1
        print(
            f"game {k}: {reason}; {len(found)} positions {per_plies}; {time.process_time() - start:.0f} cpu s",
            flush=True,
        )
    DATA.parent.mkdir(parents=True, exist_ok=True)
    about = (
        "Pente (19x19, default rules) positions where the side to move wins within `plies` plies "
        "(1, 3, 5 or 7; a faster win may exist) by five or by captures, proved by the exhaustive "
        "search qipan.games.pente.kernel_search.prove; `move` is a winning move found by the new threat "
        "search (VCF/VCT) and proved too. Written by benchmarks/pente_tactics.py --build."
    )
    ordered = sorted(found.values(), key=lambda e: (e["plies"], e["position"]))
    DATA.write_text(json.dumps({"about": about, "positions": ordered}, indent=1) + "\n")
    print(f"wrote {len(ordered)} positions to {DATA}: {per_plies}")


def measure(seconds: float, limit: int | None, offset: int = 0) -> None:
    clock.use_cpu_clock()
    game = qipan.load("pente")
    kernel = game.kernel()
    searcher = searcher_for(kernel)
    entries = json.loads(DATA.read_text())["positions"][offset:]
    entries = entries[:limit] if limit is not None else entries
    solved = 0
    by_plies: dict[int, list[int]] = {}
    slowest = 0.0
    for n, entry in enumerate(entries, 1):
        state = game.position(entry["position"])
        agent = load_agent("pente", time=seconds, seed=n)
        searcher.new_search()
        start = time.process_time()
        move = agent.choose(state)
        spent = time.process_time() - start
        slowest = max(slowest, spent)
        ok = keeps_win(searcher, kernel, state, move, entry["plies"])
        solved += ok
        tally = by_plies.setdefault(entry["plies"], [0, 0])
        tally[0] += ok
        tally[1] += 1
        if not ok:
            print(
                f"  not solved: {entry['position']} (plies {entry['plies']}): played {move.text}, stage {agent.stage}"
            )
    total = len(entries)
    per = ", ".join(f"{p} plies {a}/{b}" for p, (a, b) in sorted(by_plies.items()))
    print(
        f"pente agent at {seconds}s (CPU) per position: solved {solved}/{total} = {solved / total:.1%} "
        f"({per}); slowest move {slowest:.2f} cpu s (target >= 95%)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", action="store_true")
    parser.add_argument("--count", type=int, default=120)
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--time", type=float, default=1.0)
    parser.add_argument("--limit", type=int, default=None, help="measure N positions only")
    parser.add_argument("--offset", type=int, default=0, help="skip the first N positions")
    args = parser.parse_args()
    if args.build:
        build(args.count, args.seed)
    else:
        measure(args.time, args.limit, args.offset)


if __name__ == "__main__":
    main()
