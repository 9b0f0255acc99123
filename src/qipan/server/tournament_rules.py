"""The rules of the site's tournaments, apart from the database: what a valid event is,
who plays whom (Swiss rounds by the FIDE Dutch system and round robins by the FIDE Berger
tables, both from the ``caissify-pairings`` library; arenas pair whoever is free), how
points are counted and how ties are broken.

Entrants are known by their starting number in the event (``number``); a game is
``{"round", "entrants": [number by seat], "scores": [points by seat] or None while it is
played, "berserk": [seats], "finished"}``; a bye is a game of one entrant scored at once."""

from __future__ import annotations

import time
from dataclasses import dataclass

from .errors import ApiError

KINDS = ("arena", "swiss", "round_robin")
#: Points a Swiss or round-robin bye is worth (FIDE's pairing-allocated bye: a win).
BYE_POINTS = 1.0
MAX_ENTRANTS = 200
MAX_ROUNDS = 20
ARENA_MINUTES = (1, 24 * 60)
#: How far ahead an event may be scheduled.
MAX_LEAD_DAYS = 30
#: Clock skew allowed between the browser that sent a start time and the server.
START_SLACK = 5.0


@dataclass(frozen=True)
class Entrant:
    number: int
    rating: float
    withdrawn: bool = False


def parse_schedule(data: dict, now: float | None = None) -> dict:
    """The event's own settings from a request (ApiError 400 saying what is wrong); the
    game's terms are checked by ``seeks.parse_terms``."""
    now = time.time() if now is None else now
    kind = data.get("kind")
    if kind not in KINDS:
        raise ApiError(400, f"kind must be one of {', '.join(KINDS)}")
    name = data.get("name")
    if not isinstance(name, str) or not 1 <= len(name.strip()) <= 60:
        raise ApiError(400, "give the event a name of 1 to 60 characters")
    starts = data.get("starts")
    if isinstance(starts, bool) or not isinstance(starts, int | float):
        raise ApiError(400, "starts is the start time in seconds since 1970 (UTC)")
    if starts < now - START_SLACK:
        raise ApiError(400, "the start time is in the past")
    if starts > now + MAX_LEAD_DAYS * 86400:
        raise ApiError(400, f"an event starts within {MAX_LEAD_DAYS} days")
    minutes = rounds = None
    if kind == "arena":
        minutes = data.get("minutes")
        low, high = ARENA_MINUTES
        if isinstance(minutes, bool) or not isinstance(minutes, int | float) or not low <= minutes <= high:
            raise ApiError(400, f"an arena lasts {low} to {high} minutes")
    elif kind == "swiss":
        rounds = data.get("rounds")
        if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS:
            raise ApiError(400, f"a Swiss event has 1 to {MAX_ROUNDS} rounds")
    max_entrants = data.get("max_entrants", 64)
    if (
        isinstance(max_entrants, bool)
        or not isinstance(max_entrants, int)
        or not 2 <= max_entrants <= MAX_ENTRANTS
    ):
        raise ApiError(400, f"max_entrants is a whole number from 2 to {MAX_ENTRANTS}")
    flags = {}
    for key in ("bots_allowed", "berserk"):
        value = data.get(key, False)
        if not isinstance(value, bool):
            raise ApiError(400, f"{key} must be true or false")
        flags[key] = value
    if flags["berserk"] and kind != "arena":
        raise ApiError(400, "berserk is for arenas")
    return {
        "kind": kind,
        "name": " ".join(name.split()),
        "starts": float(starts),
        "minutes": float(minutes) if minutes is not None else None,
        "rounds": rounds,
        "max_entrants": max_entrants,
        **flags,
    }


def seat_points(result: dict | None, players: int) -> list[float]:
    """Points by seat from a finished game's result: 1 to each winner and 0 to the others,
    1/2 each for a draw (no winner, or everyone winning). Games that keep points (Tantrix,
    MOD X) count by who won, as the event's score table does."""
    winners = set((result or {}).get("winners") or ())
    if not winners or len(winners) == players:
        return [0.5] * players
    return [1.0 if seat in winners else 0.0 for seat in range(players)]


# -- Swiss and round robin -------------------------------------------------------------
def starting_order(entrants: list[Entrant]) -> dict[int, int]:
    """Starting rank by rating at the start (highest first), ties by who joined first."""
    ordered = sorted(entrants, key=lambda e: (-e.rating, e.number))
    return {e.number: rank for rank, e in enumerate(ordered, 1)}


def _histories(entrants: list[Entrant], games: list[dict], rounds: int) -> dict[int, dict]:
    """Each entrant's score, colours, floats and byes over the first ``rounds`` rounds,
    as the Dutch engine wants them (its README, "Caller responsibilities")."""
    out = {e.number: {"score": 0.0, "colors": [], "floats": [], "byes": 0} for e in entrants}
    for rnd in range(1, rounds + 1):
        before = {n: h["score"] for n, h in out.items()}
        seen = set()
        for g in (g for g in games if g["round"] == rnd):
            scores = g["scores"] or [0.0] * len(g["entrants"])
            if len(g["entrants"]) == 1:  # a bye: a downfloat without an opponent
                n = g["entrants"][0]
                if n in out:
                    out[n]["score"] += scores[0]
                    out[n]["colors"].append("none")
                    out[n]["floats"].append("down")
                    out[n]["byes"] += 1
                    seen.add(n)
                continue
            white, black = g["entrants"]
            for n, colour, points, other in (
                (white, "white", scores[0], black),
                (black, "black", scores[1], white),
            ):
                if n not in out:
                    continue
                out[n]["score"] += points
                out[n]["colors"].append(colour)
                mine, theirs = before[n], before.get(other, 0.0)
                out[n]["floats"].append("down" if mine > theirs else "up" if mine < theirs else "none")
                seen.add(n)
        for n, h in out.items():  # absent that round
            if n not in seen:
                h["colors"].append("none")
                h["floats"].append("none")
    return out


def swiss_pairings(
    entrants: list[Entrant],
    games: list[dict],
    round_number: int,
    total_rounds: int,
    initial_color: str = "white",
) -> list[list[int]]:
    """Round ``round_number`` of a Swiss event by the FIDE Dutch system: ``[white, black]``
    pairs and ``[number]`` for the bye. Withdrawn entrants are not paired. The top seed has
    ``initial_color`` in round 1 (C.04.3 E: drawn by lot; the site gives the first move)."""
    from caissify_pairings import generate_pairings

    order = starting_order(entrants)
    history = _histories(entrants, games, round_number - 1)
    players = [
        {
            "id": e.number,
            "name": str(e.number),
            "score": history[e.number]["score"],
            "rating": round(e.rating),
            "starting_number": order[e.number],
            "color_hist": history[e.number]["colors"],
            "float_history": history[e.number]["floats"],
            "bye_count": history[e.number]["byes"],
        }
        for e in entrants
        if not e.withdrawn
    ]
    met = {tuple(sorted(g["entrants"])) for g in games if len(g["entrants"]) == 2}
    pairs = generate_pairings(
        "dutch", players, met, round_number, total_rounds, bye_value=BYE_POINTS, initial_color=initial_color
    )
    return [_pair(p) for p in sorted(pairs, key=lambda p: p["table"])]


def round_robin_rounds(count: int) -> int:
    return count - 1 if count % 2 == 0 else count


def round_robin_pairings(entrants: list[Entrant], round_number: int) -> list[list[int]]:
    """Round ``round_number`` of a round robin by the FIDE Berger tables (starting ranks
    by rating); a withdrawn entrant's opponent has a bye."""
    from caissify_pairings import generate_pairings

    order = starting_order(entrants)
    players = [
        {"id": e.number, "name": str(e.number), "score": 0.0, "rating": round(e.rating),
         "starting_number": order[e.number], "color_hist": [], "float_history": [], "bye_count": 0}
        for e in entrants
    ]  # fmt: skip
    total = round_robin_rounds(len(entrants))
    pairs = [_pair(p) for p in generate_pairings("round_robin", players, set(), round_number, total)]
    gone = {e.number for e in entrants if e.withdrawn}
    out = []
    for pair in pairs:
        present = [n for n in pair if n not in gone]
        if len(present) == len(pair) or (present and len(pair) == 2):
            out.append(present)
    return out


def _pair(p: dict) -> list[int]:
    return [p["white_id"]] if p.get("black_id") is None else [p["white_id"], p["black_id"]]


# -- arenas ----------------------------------------------------------------------------
def arena_points(results: list[tuple[float, bool]]) -> tuple[int, list[bool]]:
    """lichess's arena scoring over one entrant's finished games in order, each
    (points, berserk): a win 2, a draw 1, a loss 0; after two wins in a row the entrant is
    "on fire" and scores double until a game is not won; a berserk win earns 1 more.
    Returns the total and, by game, whether it was played on fire."""
    total, streak, fire = 0, 0, []
    for points, berserk in results:
        on_fire = streak >= 2
        fire.append(on_fire)
        base = 2 if points == 1.0 else 1 if points == 0.5 else 0
        total += base * (2 if on_fire else 1) + (1 if berserk and points == 1.0 else 0)
        streak = streak + 1 if points == 1.0 else 0
    return total, fire


def arena_groups(
    waiting: list[int], points: dict[int, float], ratings: dict[int, float], last: dict[int, set], size: int
) -> list[list[int]]:
    """Games for the entrants free to play: ranked by points (then rating), neighbours
    play each other, and an entrant does not meet again the ones of their last game while
    someone else is free."""
    pool = sorted(waiting, key=lambda n: (-points.get(n, 0), -ratings.get(n, 0), n))
    groups = []
    while len(pool) >= size:
        group = [pool.pop(0)]
        while len(group) < size:
            fresh = next(
                (n for n in pool if all(n not in last.get(m, ()) for m in group)),
                pool[0],
            )
            pool.remove(fresh)
            group.append(fresh)
        groups.append(group)
    return groups


# -- standings -------------------------------------------------------------------------
def standings(kind: str, entrants: list[Entrant], games: list[dict]) -> list[dict]:
    """The table: rank, points and the tie-breaks of the event's kind.

    - arena: points (``arena_points``), then wins, then fewer games (lichess ranks equal
      scores by performance; the site has no per-event performance, so efficiency).
    - swiss: points, then Buchholz (the sum of the opponents' points), then
      Sonneborn-Berger (the sum of the points of the opponents beaten, half of those
      drawn), then the starting rank (FIDE C.07 tie-breaks 1 and 2).
    - round_robin: points, then Sonneborn-Berger, then wins."""
    order = starting_order(entrants)
    finished = sorted((g for g in games if g["scores"] is not None), key=lambda g: g["finished"] or 0)
    rows = {
        e.number: {"number": e.number, "points": 0.0, "games": 0, "wins": 0, "draws": 0, "losses": 0,
                   "opponents": [], "withdrawn": e.withdrawn, "fire": False}
        for e in entrants
    }  # fmt: skip
    per_entrant: dict[int, list[tuple[float, bool]]] = {n: [] for n in rows}
    for g in finished:
        for seat, n in enumerate(g["entrants"]):
            if n not in rows:
                continue
            points = g["scores"][seat]
            others = [m for m in g["entrants"] if m != n]
            row = rows[n]
            if others:
                row["games"] += 1
                row["wins" if points == 1.0 else "draws" if points == 0.5 else "losses"] += 1
                row["opponents"].extend((m, points) for m in others)
            per_entrant[n].append((points, seat in g["berserk"]))
    for n, row in rows.items():
        if kind == "arena":
            row["points"], fire = arena_points(per_entrant[n])
            streak = 0
            for points, _ in per_entrant[n]:
                streak = streak + 1 if points == 1.0 else 0
            row["fire"] = streak >= 2
        else:
            row["points"] = sum(p for p, _ in per_entrant[n])
    for row in rows.values():
        row["buchholz"] = sum(rows[m]["points"] for m, _ in row["opponents"] if m in rows)
        row["sonneborn_berger"] = sum(rows[m]["points"] * p for m, p in row["opponents"] if m in rows)
    if kind == "arena":
        key = lambda r: (-r["points"], -r["wins"], r["games"], order[r["number"]])  # noqa: E731
    elif kind == "swiss":
        key = lambda r: (-r["points"], -r["buchholz"], -r["sonneborn_berger"], order[r["number"]])  # noqa: E731
    else:
        key = lambda r: (-r["points"], -r["sonneborn_berger"], -r["wins"], order[r["number"]])  # noqa: E731
    table = sorted(rows.values(), key=key)
    for rank, row in enumerate(table, 1):
        row["rank"] = rank
        del row["opponents"]
    return table
