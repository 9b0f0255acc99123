"""Levels 1–8 for people, in every game: from a beginner who blunders plausibly to the game's
strongest agent at full strength (``qipan play --level 3``, the lobby's "play the computer").

- Levels 1–3 look one or two plies ahead and choose by a softmax over the values of the legal
  moves (the game's ``evaluate`` where it has one, else a few short random playouts), so a
  beginner's mistakes are moves that look reasonable, not uniformly random ones: a win in one
  is nearly always seen, a subtle threat nearly never at level 1.
- Levels 4–8 are the strongest agent the game has (``strongest_agent_name``) with a shorter
  budget (a share of the full level's time), and at 4–6 an occasional softmax move instead of
  the search's (a lapse).
- Where time shares cannot set that agent's levels (``Agent.levels_by_lapses``: shorter
  budgets would not make it weaker, or only below a floor the shares cross), levels 4–8 give it the
  full level's time and set the level by lapses alone, fewer at each level (``steady_lapse``,
  or the agent's own ``steady_lapses``); a lapse there plays as level 3 does, so level 4 is
  level 3 with some of its moves searched.

``time`` is the full level's seconds per move (level 8 takes all of it); with a clock budget
(``choose(state, budget)``) the budget's share replaces it. The measured ladder (Elo of each
level, ``benchmarks/levels_ladder.py``) is data in ``levels_ladder.json``, read by the site."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from importlib import resources

from ..core.errors import OptionError
from ..core.game import CHANCE, State, sample_chance
from ..core.move import Move
from . import clock
from .base import Agent, load, strongest_agent_name

LOWEST, HIGHEST = 1, 8
#: Seconds per move of the full level when neither a time nor a clock is given.
DEFAULT_TIME = 1.0
#: Seconds the softmax levels may take without a clock, however short the full level's time
#: (a beginner's horizon is set by the level, not cut by the deadline).
SOFTMAX_SECONDS = 0.5
#: Value of a finished game beyond any evaluation ([-1, 1]): a win 2, a loss -2.
WIN_VALUE = 2.0
#: A person considers the two dozen moves the game's knowledge puts first, not all 361 points.
CANDIDATES = 24
#: Replies looked at per candidate at horizon 2, and candidates looked at that deep.
REPLIES = 8
DEEP_CANDIDATES = 6
#: Chance draws and the mover's own further moves played through before the reply at most.
LOOK_THROUGH = 8
#: Playouts per move and their length where a game has no evaluation.
PLAYOUTS = 4
PLAYOUT_PLIES = 40


@dataclass(frozen=True)
class Level:
    number: int
    #: What a person sees in the lobby and in ``qipan agents``.
    title: str
    #: Plies looked ahead by the softmax (0: the strongest agent searches instead).
    horizon: int
    #: Softmax temperature over the moves' values in standard deviations (higher: wilder).
    temperature: float
    #: Share of the full level's time the search gets (levels 4–8).
    time_share: float
    #: Chance that a move is a softmax choice (horizon 1) instead of the search's.
    lapse: float = 0.0
    #: For an agent whose levels are set by lapses, which searches with the full level's time at
    #: every level: the chance that a move is level 3's choice instead of the search's.
    steady_lapse: float = 0.0


LEVELS = (
    Level(1, "beginner", 1, 1.0, 0.0),
    Level(2, "novice", 1, 0.4, 0.0),
    Level(3, "casual", 2, 0.2, 0.0),
    # Strength grows slowly while level 3 plays most moves and fast once it plays few (Tantrix's
    # levels 4, 5 and 6 rated alike at 80/60/40 %, benchmarks/results/levels.md): the lapses
    # fall faster than evenly to spread levels 4-7 between level 3 and level 8.
    Level(4, "club", 0, 0.3, 1 / 50, lapse=0.25, steady_lapse=0.7),
    Level(5, "strong club", 0, 0.3, 1 / 16, lapse=0.1, steady_lapse=0.4),
    Level(6, "expert", 0, 0.3, 1 / 6, lapse=0.03, steady_lapse=0.2),
    Level(7, "master", 0, 0.0, 1 / 2.5, steady_lapse=0.1),
    Level(8, "full strength", 0, 0.0, 1.0),
)


def level_of(number: int) -> Level:
    if not (isinstance(number, int) and LOWEST <= number <= HIGHEST):
        raise OptionError(f"levels go from {LOWEST} to {HIGHEST}, not {number!r}")
    return LEVELS[number - 1]


class LevelAgent(Agent):
    """Plays ``level`` (1–8) of whatever game it is given."""

    name = "level"
    manages_time = True  # passes a budget's target and limit on to the search

    def __init__(self, level: int = HIGHEST, time=None, iterations=None, depth=None, seed=None):
        if iterations is not None or depth is not None:
            raise OptionError(
                "a level sets its own horizon and budget: give it time (the full level's seconds "
                "per move) or nothing, not iterations or depth"
            )
        # The full level's time is also a cap: a long clock never makes a level think longer.
        super().__init__(time=DEFAULT_TIME if time is None else time, seed=seed)
        self.level = level_of(level)
        self._inner: Agent | None = None
        self._inner_for: tuple | None = None
        self.last_method = ""

    def describe(self) -> str:
        return f"level {self.level.number} ({self.level.title})"

    def select(self, state: State) -> Move:
        full, lvl = self.time, self.level
        moves = state.legal_moves()
        if len(moves) == 1:
            self.last_method = "forced"
            return moves[0]
        # Under a clock the budget bounds everything; without one the softmax has its own time.
        plain = full if self.soft_time is not None else max(full, SOFTMAX_SECONDS)
        if lvl.horizon:
            self.last_method = f"softmax horizon {lvl.horizon}"
            return softmax_move(state, lvl.horizon, lvl.temperature, self.rng, clock.now() + plain)
        inner = self._agent_for(state)
        if inner.levels_by_lapses:
            share = 1.0  # a shorter budget would not weaken it: the lapses set the level
            rate = steady_lapse(inner, lvl)
            if rate and self.rng.random() < rate:
                self.last_method = "lapse"
                third = LEVELS[2]  # plays the move level 3 would: never weaker than level 3
                return softmax_move(state, third.horizon, third.temperature, self.rng, clock.now() + plain)
        else:
            share = lvl.time_share
            if lvl.lapse and self.rng.random() < lvl.lapse:
                self.last_method = "lapse"
                return softmax_move(state, 1, lvl.temperature, self.rng, clock.now() + plain)
        self.last_method = "search"
        if self.soft_time is None or inner.manages_time:
            # A budget's target (soft_time) shrinks with the level too; the search may
            # extend it towards the limit (``time``).
            inner.time = full * share
            inner.soft_time = None if self.soft_time is None else self.soft_time * share
        else:
            # An agent that runs to its deadline gets the target: the limit is for extensions.
            inner.time, inner.soft_time = self.soft_time * share, None
        try:
            return inner.select(state)  # choose's checks were made on this move already
        finally:
            inner.soft_time = None

    def _agent_for(self, state: State) -> Agent:
        """The strongest agent for this game (made once per game and player count, so its
        tables and caches carry over from move to move)."""
        key = (id(state.game), state.num_players)
        if self._inner is None or self._inner_for != key:
            name = strongest_agent_name(state.game, state.num_players)
            seed = None if self.seed is None else self.seed * 7 + 1
            self._inner = load(name, game=state.game, players=state.num_players, time=1.0, seed=seed)
            self._inner_for = key
        return self._inner


def steady_lapse(inner: Agent, lvl: Level) -> float:
    """The chance that ``lvl`` plays level 3's move over an agent whose levels are set by
    lapses: the agent's own rate for levels 4-7 where it names them, else the level's."""
    if inner.steady_lapses is not None and 4 <= lvl.number <= 7:
        return inner.steady_lapses[lvl.number - 4]
    return lvl.steady_lapse


# -- the softmax beginner -------------------------------------------------------------------
def softmax_move(state: State, horizon: int, temperature: float, rng, deadline: float | None) -> Move:
    """A move drawn with probability ∝ exp(z / temperature), z = the move's value in standard
    deviations of the values of the undecided moves considered (so the temperature means the
    same in every game, whatever the scale of its evaluation)."""
    scored = score_moves(state, horizon, rng, deadline)
    values = [v for v, _ in scored]
    best = max(values)
    # The spread of the undecided moves: a win (or loss) seen stands out by far, as it does
    # to a person, instead of widening the scale that the ordinary moves are compared on.
    spread = _deviation([v for v in values if abs(v) < WIN_VALUE]) or _deviation(values)
    if spread < 1e-12:
        return rng.choice(scored)[1]
    weights = [math.exp((v - best) / (spread * temperature)) for v in values]
    return rng.choices([m for _, m in scored], weights=weights)[0]


def _deviation(values: list[float]) -> float:
    if len(values) < 2:
        return 0.0
    mean = sum(values) / len(values)
    return math.sqrt(sum((v - mean) ** 2 for v in values) / len(values))


def score_moves(state: State, horizon: int, rng, deadline: float | None) -> list[tuple[float, Move]]:
    """(value for the player to move, move) for the candidate moves, 1 or 2 plies deep. At
    least one move is scored whatever the deadline; unscored moves are left out."""
    game, me = state.game, state.to_move
    moves = list(state.legal_moves())
    rng.shuffle(moves)  # equal moves in no fixed order; the cut below keeps the game's order
    if len(moves) > CANDIDATES:
        moves = game.order_moves(state, moves)[:CANDIDATES]
    work = state.copy()
    scored: list[tuple[float, Move]] = []
    for move in moves:
        if scored and deadline is not None and clock.now() > deadline:
            break
        work.play_unchecked(move)
        try:
            scored.append((leaf_value(work, me, rng), move))
        finally:
            work.undo()
    if horizon >= 2:
        return deep_scores(work, scored, me, rng, deadline) or scored
    return scored


def deep_scores(work: State, scored: list[tuple[float, Move]], me: int, rng, deadline) -> list:
    """The moves valued two plies deep, so that the softmax never weighs a one-ply value
    against two-ply ones: the DEEP_CANDIDATES best by their one-ply value, then further ones
    while their one-ply value beats the best two-ply value found (a move below it is taken
    not to become the best). Empty when the deadline left no time for any."""
    ranked = sorted(scored, key=lambda vm: -vm[0])
    deep: list[tuple[float, Move]] = []
    best = -math.inf
    for k, (shallow, move) in enumerate(ranked):
        if k >= DEEP_CANDIDATES and shallow <= best:
            break
        if deadline is not None and clock.now() > deadline:
            break
        work.play_unchecked(move)
        try:
            value = reply_value(work, me, rng, deadline)
        finally:
            work.undo()
        if value is None:
            break
        deep.append((value, move))
        best = max(best, value)
    return deep


def leaf_value(state: State, me: int, rng) -> float:
    """The value of ``state`` for ``me``: its result if it is over, else the evaluation (or
    the mean of short random playouts, for games without one)."""
    if state.outcome is not None:
        return result_value(state, me)
    if state.game.has_evaluation:
        return state.game.evaluate(state, me)
    return playout_value(state, me, rng)


def result_value(state: State, me: int) -> float:
    return WIN_VALUE * (2.0 * state.outcome.reward(me) - 1.0)


def playout_value(state: State, me: int, rng) -> float:
    total = 0.0
    for _ in range(PLAYOUTS):
        plies = 0
        while state.outcome is None and plies < PLAYOUT_PLIES:
            state.play_unchecked(state.random_move(rng))
            plies += 1
        total += result_value(state, me) / WIN_VALUE if state.outcome is not None else 0.0
        for _ in range(plies):
            state.undo()
    return total / PLAYOUTS


def reply_value(state: State, me: int, rng, deadline: float | None) -> float | None:
    """``me``'s value after the reply the next player likes best for themselves (among the
    replies the game orders first). A chance draw (sampled with ``rng``) and ``me``'s own
    further moves (the only one, or the best for ``me`` one ply deep) are played first, so the
    value is always two plies deep; None only when the deadline passed."""
    played = 0
    try:
        while state.outcome is None and state.to_move in (me, CHANCE) and played < LOOK_THROUGH:
            if state.to_move == CHANCE:
                state.play_unchecked(sample_chance(state, rng))
            else:
                state.play_unchecked(own_next_move(state, me, rng))
            played += 1
        return _best_reply_value(state, me, rng, deadline)
    finally:
        for _ in range(played):
            state.undo()


def own_next_move(state: State, me: int, rng) -> Move:
    """``me``'s move when ``me`` moves again (a forced tile, a removal): the only one, else the
    best for ``me`` one ply deep among those the game orders first."""
    moves = state.legal_moves()
    if len(moves) == 1:
        return moves[0]
    best, chosen = -math.inf, moves[0]
    for move in state.game.order_moves(state, list(moves))[:REPLIES]:
        state.play_unchecked(move)
        try:
            value = leaf_value(state, me, rng)
        finally:
            state.undo()
        if value > best:
            best, chosen = value, move
    return chosen


def _best_reply_value(state: State, me: int, rng, deadline: float | None) -> float | None:
    mover = state.to_move
    if state.outcome is not None:
        return result_value(state, me)
    if mover in (me, CHANCE, None):  # still not the opponent's turn after LOOK_THROUGH plies
        return leaf_value(state, me, rng)
    replies = state.game.order_moves(state, list(state.legal_moves()))[:REPLIES]
    best_for_mover, value = -math.inf, None
    for reply in replies:
        if deadline is not None and clock.now() > deadline:
            return None
        state.play_unchecked(reply)
        try:
            theirs = leaf_value(state, mover, rng)
            if theirs > best_for_mover:
                best_for_mover, value = theirs, leaf_value(state, me, rng)
        finally:
            state.undo()
    return value


# -- the ladder: each level's measured Elo, as data -----------------------------------------
def parse_levels(text: str) -> list[int]:
    """``"1-8"``, ``"2,4,8"`` or ``"1-3,8"`` -> the level numbers, in order, each once."""
    out: list[int] = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        low, dash, high = part.partition("-")
        try:
            numbers = range(int(low), int(high) + 1) if dash else [int(low)]
        except ValueError:
            raise OptionError(f"levels {text!r}: expected numbers such as 1-8 or 2,4,8") from None
        for n in numbers:
            level_of(n)
            if n not in out:
                out.append(n)
    if len(out) < 2:
        raise OptionError(f"levels {text!r}: a ladder needs at least two levels")
    return out


def ladder_entrants(numbers: list[int], time: float) -> list[str]:
    """Arena entrants (agent specs) for the levels ``numbers`` with the full level's ``time``."""
    return [f"level:level={n},time={time:g}" for n in numbers]


def level_of_entrant(text: str) -> int | None:
    """The level an arena entrant spec plays (``"level:level=3,time=0.1"`` -> 3), or None."""
    name, _, args = text.partition(":")
    if name.strip() != "level":
        return None
    params = dict(p.split("=", 1) for p in args.split(",") if "=" in p)
    return int(params.get("level", HIGHEST))


@cache
def ladder() -> dict:
    """The measured ladder (``levels_ladder.json``, written by benchmarks/levels_ladder.py)."""
    text = resources.files(__package__).joinpath("levels_ladder.json").read_text(encoding="utf-8")
    return json.loads(text)


def level_rating(preset: str, number: int) -> dict | None:
    """Level ``number``'s rating on ``preset`` as the ladder measured it, ``{"rating", "rd"}``
    (the deviation from the ladder's 95% interval, 1.96 standard errors), or None where it
    was not measured. The one source of every rating the site shows for a level: the level
    card (``describe_levels``) and the bots' list (``server.site.bots``) both read it."""
    entry = ladder().get("games", {}).get(preset)
    if entry is None:
        return None
    rating = entry.get("ratings", {}).get(str(number))
    if rating is None:
        return None
    error = entry.get("error", {}).get(str(number))
    return {"rating": float(rating), "rd": None if error is None else round(error / 1.96, 1)}


def measured_rating(preset: str, number: int) -> float | None:
    """Level ``number``'s rating on ``preset`` from the ladder measurement, or None."""
    found = level_rating(preset, number)
    return None if found is None else found["rating"]


def measured_ratings(number: int) -> dict[str, dict]:
    """Level ``number``'s measured rating per preset: ``{preset: {"rating", "rd"}}``."""
    out = {}
    for preset in ladder().get("games", {}):
        found = level_rating(preset, number)
        if found is not None:
            out[preset] = found
    return out


def describe_levels(preset: str | None = None) -> list[dict]:
    """The levels as the lobby and ``/api/specs`` show them, with the measured ratings of
    ``preset`` where the ladder has them."""
    out = []
    for lvl in LEVELS:
        rating = measured_rating(preset, lvl.number) if preset else None
        out.append(
            {
                "level": lvl.number,
                "title": lvl.title,
                "agent": "level",
                "limits": {"level": lvl.number},
                "rating": rating,
                "measured": rating is not None,
            }
        )
    return out
