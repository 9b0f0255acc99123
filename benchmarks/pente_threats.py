"""Forced wins in the 4,000 pente.org games (``tests/data/pente/pente_org_games.pgn``).

``--mine``: every position of every game where the side to move has a forced win by threats in
3..9 plies (the compiled ``threats`` search), each proof checked by brute force through the
reference rules (``threats.check_proof``: every legal reply at every defender ply); whether
the player found it (played a first move of a forced win within 9 plies). Writes
``tests/data/pente/forced_wins.json`` and prints the counts per win length and the search's
CPU time per position (a proof or a refutation within 9 plies).

``--agent NAME --time T``: the agent's move on each mined position (``--per-length N``: N
drawn per win length), found when it starts a forced win within 9 plies; per win length.

``--check``: the compiled twin against the plain-Python reference on every mined position
(shortest win, every winning first move, the line), with both times.

    nice -n 10 .venv/bin/python benchmarks/pente_threats.py --mine --jobs 2
    nice -n 10 .venv/bin/python benchmarks/pente_threats.py --mine --jobs 2 --first 1800  # go on
    nice -n 10 .venv/bin/python benchmarks/pente_threats.py --check
    nice -n 10 .venv/bin/python benchmarks/pente_threats.py --agent pente --time 1"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from qipan.games.pente import records
from qipan.games.pente.threats import MAX_PLIES, ThreatSearch, check_proof, searcher

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "pente"
GAMES = DATA / "pente_org_games.pgn"
MINED = DATA / "forced_wins.json"


def compiled_strategy(state, plies):
    search = searcher(state, compiled=True)
    found = search.shortest(plies)
    return None if found is None else state.geom.moves[search.line(found)[0]]


def read_games(first: int = 0, last: int | None = None) -> list:
    """Games ``first``..``last`` of the file (reading all 4,000 replays every one of them)."""
    texts = re.split(r"\n(?=\[Game )", GAMES.read_text())[first:last]
    return records.read("\n".join(texts))


def mine_games(first: int, last: int) -> tuple[list[dict], list[float]]:
    games = read_games(first, last)
    found, times = [], []
    searcher(games[0].new_state(), compiled=True).shortest(3)  # compiled before timing
    for number in range(first, last):
        record = games[number - first]
        state = record.new_state()
        for ply, played in enumerate(record.moves):
            if state.outcome is not None:
                break
            start = time.process_time()
            search = searcher(state, compiled=True)
            plies = search.shortest(MAX_PLIES)
            times.append(time.process_time() - start)
            if plies is not None and plies >= 3:
                names = state.geom.name
                within = [names[i] for i in search.winning_moves(MAX_PLIES)]
                entry = {
                    "game": number,
                    "ply": ply,
                    "player": state.to_move + 1,
                    "plies": plies,
                    "moves": [names[i] for i in search.winning_moves(plies)],
                    "moves_within_9": within,
                    "line": [names[i] for i in search.line(plies)],
                    "played": played,
                    "found": played.split("x")[0] in within,
                    "verified": check_proof(state, plies, compiled_strategy),
                }
                found.append(entry)
            state.play(played)
    return found, times


def mine(jobs: int, games: int, first: int = 0) -> None:
    """Mine the first ``games`` games in chunks of 50; the file is rewritten after each chunk
    (in order), so a run stopped early leaves the games before it mined. With ``first``, the
    games before it are kept from the file (which must hold at least that many) and mining
    goes on from there."""
    found, times = kept_positions(first), []
    chunks = [(k, min(k + 50, games)) for k in range(first, games, 50)]
    with ProcessPoolExecutor(jobs) as pool:
        for (_, last), (part, spent) in zip(
            chunks, pool.map(mine_games, *zip(*chunks, strict=True)), strict=True
        ):
            found += part
            times += spent
            write(found, last)
            report(found, times)


def kept_positions(first: int) -> list[dict]:
    """The mined positions of the games before ``first``, from the file (marked verified: each
    was checked when it was mined)."""
    if first == 0:
        return []
    mined = json.loads(MINED.read_text())
    if mined["games"] < first:
        raise SystemExit(f"{MINED.name} holds {mined['games']} games, fewer than --first {first}")
    return [{**e, "verified": True} for e in mined["positions"] if e["game"] < first]


def write(found: list[dict], games: int) -> None:
    unverified = [e for e in found if not e["verified"]]
    if unverified:
        raise SystemExit(f"{len(unverified)} proofs failed the brute-force check: {unverified[:3]}")
    about = (
        "Every position of pente_org_games.pgn (game = its index there, ply = moves played before it) "
        "(its first `games` games) where the side to move (player 1 or 2) has a forced win by continuous threats in 3..9 plies "
        "(qipan.games.pente.threats): plies = the shortest win, moves = the first moves of a win in that "
        "many plies, moves_within_9 = those of a win within 9, line = the shortest win against the "
        "longest defence, played = the move of the game, found = whether it was in moves_within_9. "
        "Each proof was checked by brute force through the rules (every legal reply at every defender "
        "ply). Regenerate: benchmarks/pente_threats.py --mine."
    )
    positions = [{k: v for k, v in e.items() if k != "verified"} for e in found]
    save(about, games, positions)


def save(about: str, games: int, positions: list[dict]) -> None:
    """The mined set, one position a line."""
    head = json.dumps({"about": about, "games": games}, ensure_ascii=False)[:-1]
    rows = ",\n".join(json.dumps(e, separators=(",", ":")) for e in positions)
    MINED.write_text(f'{head}, "positions": [\n{rows}\n]}}\n')


def report(found: list[dict], times: list[float]) -> None:
    print(f"positions searched: {len(times)}; with a forced win in 3..9 plies: {len(found)}")
    for plies in (3, 5, 7, 9):
        these = [e for e in found if e["plies"] == plies]
        missed = sum(not e["found"] for e in these)
        print(f"  win in {plies}: {len(these)} positions, the player missed {missed}")
    ms = sorted(1000 * t for t in times)
    if ms:
        q = statistics.quantiles(ms, n=100)
        print(
            f"search within 9 plies, CPU ms per position: median {q[49]:.2f}, 90% {q[89]:.2f}, "
            f"99% {q[98]:.2f}, max {ms[-1]:.1f}; {sum(t <= 50 for t in ms) / len(ms):.1%} within 50 ms"
        )


def check(limit: int | None) -> None:
    mined = json.loads(MINED.read_text())["positions"][:limit]
    games = read_games()
    differ, ref_ms, kernel_ms = 0, [], []
    for entry in mined:
        state = games[entry["game"]].new_state().play_many(games[entry["game"]].moves[: entry["ply"]])
        answers, spent = [], []
        for compiled in (False, True):
            start = time.process_time()
            search = searcher(state, compiled=compiled) if compiled else ThreatSearch(state)
            plies = search.shortest(MAX_PLIES)
            answers.append((plies, search.winning_moves(plies), search.line(plies)))
            spent.append(1000 * (time.process_time() - start))
        ref_ms.append(spent[0])
        kernel_ms.append(spent[1])
        if answers[0] != answers[1]:
            differ += 1
            print("differ:", entry["game"], entry["ply"], answers)
    print(f"{len(mined)} mined positions: the compiled twin and the reference differ on {differ}")
    print(
        f"CPU ms (shortest win, all winning moves, line): reference median {statistics.median(ref_ms):.1f}, "
        f"compiled median {statistics.median(kernel_ms):.2f}"
    )
    print(Counter(e["plies"] for e in mined))


def agent_finds(name: str, seconds: float, per_length: int | None, seed: int) -> None:
    """The agent ``name`` at ``seconds`` CPU seconds a move on the mined positions (or
    ``per_length`` of each win length, drawn with ``seed``): found when its move is the first
    move of a forced win within 9 plies (``moves_within_9``)."""
    from qipan.agents import clock
    from qipan.agents import load as load_agent

    clock.use_cpu_clock()
    mined = json.loads(MINED.read_text())["positions"]
    rng = random.Random(seed)
    chosen = []
    for plies in (3, 5, 7, 9):
        these = [e for e in mined if e["plies"] == plies]
        chosen += rng.sample(these, min(per_length, len(these))) if per_length else these
    games = read_games()
    agent = load_agent(name, time=seconds)
    tally: dict[int, list[int]] = {3: [0, 0], 5: [0, 0], 7: [0, 0], 9: [0, 0]}
    spent = []
    for entry in chosen:
        record = games[entry["game"]]
        state = record.new_state().play_many(record.moves[: entry["ply"]])
        start = time.process_time()
        move = agent.choose(state)
        spent.append(time.process_time() - start)
        tally[entry["plies"]][move.text.split("x")[0] in entry["moves_within_9"]] += 1
    total = [sum(v[k] for v in tally.values()) for k in (0, 1)]
    print(f"{name} at {seconds} s (CPU) a move, {len(chosen)} mined positions:")
    for plies, (missed, found) in tally.items():
        print(f"  win in {plies}: found {found}/{found + missed}")
    print(
        f"  all: found {total[1]}/{sum(total)} ({total[1] / max(sum(total), 1):.1%}); "
        f"median CPU s a move {statistics.median(spent):.3f}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mine", action="store_true")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--games", type=int, default=4000, help="the first N games (mining)")
    ap.add_argument("--first", type=int, default=0, help="keep the file's games before this one (mining)")
    ap.add_argument("--limit", type=int, default=None, help="the first N mined positions (check)")
    ap.add_argument("--agent", default=None, help="measure this agent's moves on the mined positions")
    ap.add_argument("--time", type=float, default=1.0, help="CPU seconds a move (--agent)")
    ap.add_argument("--per-length", type=int, default=None, help="positions per win length (--agent)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if args.agent:
        agent_finds(args.agent, args.time, args.per_length, args.seed)
    if args.mine:
        mine(args.jobs, args.games, args.first)
    if args.check:
        check(args.limit)


if __name__ == "__main__":
    main()
