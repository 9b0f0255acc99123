"""Published Swiss pairings (TRF-16 files in tests/data/tournaments/, see its README) as
the site's tournament rules read them: entrants and games by round."""

from __future__ import annotations

from pathlib import Path

from qipan.server.tournament_rules import Entrant

DATA = Path(__file__).resolve().parent.parent / "data" / "tournaments"
POINTS = {"1": 1.0, "+": 1.0, "=": 0.5, "0": 0.0, "-": 0.0}


def read_trf(name: str) -> tuple[list[Entrant], list[dict], int]:
    """Entrants (by starting number and rating), every game of every round (white first),
    and how many rounds the file holds."""
    from caissify_pairings.trf import parse_trf

    trf = parse_trf((DATA / name).read_text())
    entrants = [Entrant(p["starting_number"], float(p["rating"])) for p in trf["players"]]
    games, rounds = [], 0
    for p in trf["players"]:
        for rnd, r in p["results"].items():
            opponent = r.get("opponent") or 0
            if opponent == 0:
                if r.get("result") in ("U", "F", "+", "1"):  # a bye that scored
                    games.append({"round": rnd, "entrants": [p["starting_number"]], "scores": [1.0],
                                  "berserk": [], "finished": rnd})  # fmt: skip
                continue
            rounds = max(rounds, rnd)
            if r["color"] != "w":
                continue
            black = next(q for q in trf["players"] if q["starting_number"] == opponent)
            games.append(
                {"round": rnd, "entrants": [p["starting_number"], opponent],
                 "scores": [POINTS[r["result"]], POINTS[black["results"][rnd]["result"]]],
                 "berserk": [], "finished": rnd}
            )  # fmt: skip
    return entrants, games, rounds


def pairs_of(games: list[dict], rnd: int) -> set[tuple[int, ...]]:
    return {tuple(g["entrants"]) for g in games if g["round"] == rnd}
