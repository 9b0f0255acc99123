"""One live game on the server: the rules' state, the seats, offers, clock and result,
and how it is described to clients. No I/O here: the manager persists and broadcasts."""

from __future__ import annotations

import hmac
import random
import secrets
import time
from dataclasses import dataclass, field, replace
from datetime import UTC
from typing import Any

from .. import agents as _agents
from ..agents import AgentSpec, Budget
from ..core import CHANCE, Game, OptionError, Outcome, QipanError, State, load, resolve_chance
from ..core.records import POSITION_TAG
from ..records import Record
from .clock import Clock
from .errors import ApiError
from .seats import Seat
from .storage import Status, StoredGame, StoredMove

#: The server's caps on a bot's limits (the agents' own bounds are wider).
MAX_BOT_SECONDS = 60.0
MAX_BOT_ITERATIONS = 1_000_000
MAX_BOT_DEPTH = 32
#: The move a real-time game's player makes by letting a tick pass (a pass).
IDLE_MOVE = "-"
#: Moves a seat may queue for its next real-time ticks.
QUEUED_MOVES = 3


def start_state(game: Game, players: int, seed: int, position: str | None) -> State:
    """The state a game starts from: the rules' start, or the position it was set up from
    (the position editor's text, read by the game's own reader)."""
    if position is None:
        return game.new(players=players, seed=seed)
    state = game.position(position)
    state.seed = seed
    return state


def new_token() -> str:
    return secrets.token_urlsafe(18)


def new_game_id() -> str:
    return secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")


def no_offers() -> dict:
    return {"draw": set(), "undo": set(), "undo_to": None}


def offers_from(stored: dict | None) -> dict:
    """Offers as a session keeps them, from their stored form (None: no offer)."""
    stored = stored or {}
    return {
        "draw": set(stored.get("draw", ())),
        "undo": set(stored.get("undo", ())),
        "undo_to": stored.get("undo_to"),
    }


def bot_request(seat: dict) -> tuple[str, Any]:
    """The agent and raw parameters a bot seat asks for: ``{"agent": "mcts", "limits":
    {...}}``, or a level of play ``{"level": 3}`` (the ``level`` agent, limits optional)."""
    if "level" not in seat:
        return seat.get("agent", "random"), seat.get("limits")
    limits = seat.get("limits")
    if limits is not None and not isinstance(limits, dict):
        raise ApiError(400, 'bot limits must be an object such as {"time": 1.0}')
    if seat.get("agent", "level") != "level":
        raise ApiError(400, "a bot seat names a level or an agent, not both")
    return "level", {**(limits or {}), "level": seat["level"]}


def bot_name(agent: str, limits: dict) -> str:
    """A bot's default name: its agent, or "level 3" for a level."""
    return f"level {limits['level']}" if agent == "level" and "level" in limits else agent


def bot_limits(spec: AgentSpec, limits: Any) -> dict:
    """A bot's validated, typed parameters from a request: the agent's own typed options
    (the parser the CLI and the lobby use), then the server's caps, so one request cannot
    tie up the bots of every game."""
    if limits is None:
        return {}
    if not isinstance(limits, dict):
        raise ApiError(400, 'bot limits must be an object such as {"time": 1.0}')
    try:
        out = spec.parse(limits)
    except OptionError as exc:
        raise ApiError(400, str(exc)) from exc
    if out.get("time", 0) > MAX_BOT_SECONDS:
        raise ApiError(400, f"bot time limit is at most {MAX_BOT_SECONDS:g} seconds")
    if out.get("iterations", 0) > MAX_BOT_ITERATIONS:
        raise ApiError(400, f"bot iterations are at most {MAX_BOT_ITERATIONS:,}")
    if out.get("depth", 0) > MAX_BOT_DEPTH:
        raise ApiError(400, f"bot depth is at most {MAX_BOT_DEPTH}")
    return out


@dataclass
class Session:
    stored: StoredGame
    game: Game
    state: State
    clock: Clock | None = None
    #: The final result: the rules' outcome or a meta result (resignation, agreement, time).
    result: Outcome | None = None
    offers: dict = field(default_factory=no_offers)
    #: Bumped whenever the position changes (move or undo): stale bot results are dropped.
    epoch: int = 0
    spent: list[float | None] = field(default_factory=list)
    agents: dict[int, Any] = field(default_factory=dict)
    bot_thinking: bool = False
    #: A bot of this game thinking in the process holding its lease (several processes):
    #: (the version it thinks at, until when that holds unless renewed), or None.
    thinking_elsewhere: tuple[int, float] | None = None
    online: dict[int, int] = field(default_factory=dict)
    #: Seats online through other serving processes (presence.py; several processes only).
    online_elsewhere: set[int] = field(default_factory=set)
    #: When the current turn began (wall time), for the seconds spent per move.
    turn_started: float = field(default_factory=time.time)
    _cache: dict = field(default_factory=dict)
    #: Real time: each seat's moves waiting for its next tick, as (row id, text): the rows
    #: of ``queued_moves`` this process knows of (queued.py; the table is what counts).
    queued: dict[int, list[tuple[int, str]]] = field(default_factory=dict)

    # -- construction ------------------------------------------------------------------
    @classmethod
    def restore(cls, stored: StoredGame) -> Session:
        """Rebuild a game from storage by replaying its moves through the rules."""
        game = load(stored.game, **stored.options)
        state = start_state(game, stored.players, stored.seed, stored.position)
        for m in stored.moves:
            state.play(m.text)
        session = cls(stored, game, state)
        session.spent = [m.spent for m in stored.moves]
        session.offers = offers_from(stored.offers)
        if stored.clock:
            session.clock = Clock.from_dict(stored.clock)
        if stored.result:
            session.result = Outcome.from_dict(stored.result)
        elif state.outcome is not None:
            session.result = state.outcome
        return session

    def catch_up(self, stored: StoredGame, moves_from: int = 0) -> bool:
        """Become the game as another process stored it: ``stored`` holds its row (offers
        included) and its moves from ply ``moves_from`` on. Moves the two share are kept,
        the rest taken back and played (through the rules, so a record that no longer
        replays raises QipanError). True if the position changed."""
        local = self.stored.moves
        new = stored.moves
        same = 0
        while (
            same < len(new)
            and moves_from + same < len(local)
            and (local[moves_from + same].text, local[moves_from + same].player)
            == (new[same].text, new[same].player)
        ):
            same += 1
        cut = moves_from + same
        changed = cut < len(local) or same < len(new)
        if changed:
            self.take_back(len(local) - cut)
            for m in new[same:]:
                self.state.play(m.text)
                self.spent.append(m.spent)
            self.stored.moves = local[:cut] + new[same:]
            self.epoch += 1
            self.turn_started = stored.updated or time.time()
        row = self.stored
        row.status, row.public, row.seats = stored.status, stored.public, stored.seats
        row.clock, row.result, row.updated, row.version = (
            stored.clock,
            stored.result,
            stored.updated,
            stored.version,
        )
        self.clock = Clock.from_dict(stored.clock) if stored.clock else None
        if stored.result:
            self.result = Outcome.from_dict(stored.result)
        else:
            self.result = self.state.outcome
        self.offers = offers_from(stored.offers)
        return changed

    def stored_result(self) -> dict | None:
        """The result as stored and published (None: not over)."""
        return self.result.to_dict() if self.result else None

    def stored_clock(self) -> dict | None:
        return self.clock.to_dict() if self.clock else None

    def stored_offers(self) -> dict | None:
        """The offers as stored and published (None: no offer)."""
        offers = self.offers
        if not offers["draw"] and not offers["undo"]:
            return None
        return {"draw": sorted(offers["draw"]), "undo": sorted(offers["undo"]), "undo_to": offers["undo_to"]}

    @property
    def id(self) -> str:
        return self.stored.id

    @property
    def version(self) -> int:
        """The stored version (bumped by every stored change): the state version clients
        hold (see updates.py), the same in every serving process."""
        return self.stored.version

    @property
    def seats(self) -> list[Seat]:
        return self.stored.seats

    @property
    def status(self) -> Status:
        return self.stored.status

    @property
    def realtime_tick(self) -> float | None:
        """Seconds per tick for a game played in real time: chosen at creation, or the
        game's declared ``realtime_tick``."""
        if self.stored.realtime:
            return self.stored.realtime
        return self.game.realtime_tick

    @property
    def idle_move(self) -> str:
        """What the server plays for a seat that lets a real-time tick pass."""
        return self.game.idle_move or IDLE_MOVE

    # -- seats -------------------------------------------------------------------------
    def seat_of(self, token: str | None) -> int | None:
        """The seat a bearer token belongs to (None for none)."""
        if not token:
            return None
        for i, seat in enumerate(self.seats):
            if seat.token and hmac.compare_digest(seat.token, token):
                return i
        raise ApiError(401, "this token is not a seat of this game")

    def seat_of_invite(self, code: str) -> int:
        """The seat an invite link's code was made for (used or not)."""
        for i, seat in enumerate(self.seats):
            if seat.invite and hmac.compare_digest(seat.invite, code):
                return i
        raise ApiError(401, "this invite link is not for this game")

    def require_seat(self, token: str | None) -> int:
        seat = self.seat_of(token)
        if seat is None:
            raise ApiError(401, "this action needs a seat's token (Authorization: Bearer <token>)")
        return seat

    def human_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.human]

    def bot_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.bot]

    def name(self, seat: int) -> str:
        s = self.seats[seat]
        return s.name or (s.agent if s.bot else None) or f"player {seat + 1}"

    def bot_budget(self, seat: int) -> Budget | None:
        """The bot's clock as its agent sees it, None without a clock. A per-move clock
        (correspondence included) is capped at the bots' longest think."""
        if self.clock is None:
            return None
        left = max(0.0, self.clock.left(seat, time.time()))
        if self.clock.mode == "move":
            return Budget.per_move(min(left, MAX_BOT_SECONDS))
        return Budget(left, self.clock.increment)

    def agent(self, seat: int):
        if seat not in self.agents:
            s = self.seats[seat]
            limits = dict(s.limits or {})
            limits.setdefault("seed", (self.stored.seed * 31 + seat) % 2**31)
            agent = _agents.load(s.agent, **limits)
            if "time" not in limits and (agent.open_ended or "depth" in limits or "iterations" in limits):
                # A depth or a node count alone can take minutes (depth 32, a million
                # playouts), an exact solve hours: the longest think stops such a bot too.
                # Set after construction, so that the agent's own defaults stay as they were.
                agent.time = MAX_BOT_SECONDS
            self.agents[seat] = agent
        return self.agents[seat]

    # -- play --------------------------------------------------------------------------
    def require_active(self) -> None:
        if self.status == "open":
            raise ApiError(409, "the game has not started: waiting for every seat to be taken")
        if self.status == "over":
            raise ApiError(409, f"the game is over ({self.result.reason if self.result else 'finished'})")

    def resolve_chance(self) -> list[StoredMove]:
        """Play every pending chance move with an RNG seeded by the game seed and the ply,
        so the same game gets the same draws even across restarts."""
        played = []
        while self.state.outcome is None and self.state.to_move == CHANCE:
            rng = random.Random(f"{self.stored.seed}:{self.state.ply}")
            move = resolve_chance(self.state, rng)
            played.append(StoredMove(self.state.ply - 1, move.text, CHANCE, None))
            self.spent.append(None)
        return played

    def play(self, seat: int, text: str, now: float) -> list[StoredMove]:
        """Play ``seat``'s move (notation), then any chance moves. Raises ApiError (400)
        for text that is no move or an illegal one; the state is then unchanged."""
        try:
            move = self.game.parse(text, self.state)
            self.state.play(move)
        except QipanError as exc:
            raise ApiError(400, str(exc)) from exc
        spent = self.clock.stop(now) if self.clock else max(0.0, now - self.turn_started)
        self.turn_started = now
        self.spent.append(spent)
        played = [StoredMove(self.state.ply - 1, move.text, seat, spent)]
        played += self.resolve_chance()
        return played

    def check_queued(self, seat: int, text: str) -> None:
        """Refuse at once a real-time move that cannot wait for ``seat``'s next tick:
        QUEUED_MOVES wait already (409), or it is not legal now (400, the rules' reason)."""
        waiting = self.queued.get(seat, [])
        if len(waiting) >= QUEUED_MOVES:
            raise ApiError(409, f"{QUEUED_MOVES} moves already wait for your next ticks")
        if self.state.to_move == seat and not waiting:
            try:
                self.game.parse(text, self.state)
            except QipanError as exc:
                raise ApiError(400, str(exc)) from exc

    def add_queued(self, seat: int, row: int, text: str) -> None:
        """A move stored for ``seat``'s next tick (row ``row`` of ``queued_moves``)."""
        self.queued.setdefault(seat, []).append((row, text))

    def set_queued(self, rows: list[tuple[int, int, str]]) -> None:
        """The waiting moves as the store holds them: (row id, seat, text), oldest first."""
        self.queued = {}
        for row, seat, text in rows:
            self.add_queued(seat, row, text)

    def pick_queued(self, seat: int) -> tuple[str | None, list[int]]:
        """The oldest move ``seat`` queued that is legal now (None if none is) and the rows
        this tick takes: that move's and those of the older ones no longer legal. Nothing
        leaves the queue until the tick is stored (``drop_queued``)."""
        taken = []
        for row, text in self.queued.get(seat, []):
            taken.append(row)
            try:
                return self.game.parse(text, self.state).text, taken
            except QipanError:
                continue
        return None, taken

    def drop_queued(self, rows: list[int]) -> None:
        """The rows a stored tick took leave the queue."""
        gone = set(rows)
        for seat, waiting in list(self.queued.items()):
            waiting[:] = [(row, text) for row, text in waiting if row not in gone]
            if not waiting:
                del self.queued[seat]

    def thinking(self, now: float) -> bool:
        """Whether a bot of the game is choosing its move: here, or in the lease holder
        as it told (at the version held here, and not past the time its lease could end)."""
        other = self.thinking_elsewhere
        return self.bot_thinking or (other is not None and other[0] == self.version and other[1] > now)

    def take_back(self, count: int) -> None:
        for _ in range(count):
            self.state.undo()
            self.spent.pop()

    def snapshot(self) -> Snapshot:
        """What a change may alter, so a change whose storage write failed can be undone."""
        # Shallow where a change replaces rather than edits (results, seat limits, moves).
        return Snapshot(
            history=list(self.state.history),
            spent=list(self.spent),
            stored=(
                self.stored.status,
                [replace(seat) for seat in self.stored.seats],
                self.stored.clock,
                self.stored.result,
            ),
            moves=list(self.stored.moves),
            clock=replace(self.clock, remaining=list(self.clock.remaining)) if self.clock else None,
            result=self.result,
            offers={key: set(v) if isinstance(v, set) else v for key, v in self.offers.items()},
            epoch=self.epoch,
            turn_started=self.turn_started,
        )

    def roll_back(self, snap: Snapshot) -> None:
        """Back to ``snap``: moves played since are taken back, moves taken back since
        are played again (a change only ever adds or removes moves at the end)."""
        while self.state.ply > len(snap.history):
            self.state.undo()
        for move in snap.history[self.state.ply :]:
            self.state.play(move)
        self.spent = snap.spent
        status, seats, clock, result = snap.stored
        self.stored.status, self.stored.seats, self.stored.clock, self.stored.result = (
            status,
            seats,
            clock,
            result,
        )
        self.stored.moves = snap.moves
        self.clock, self.result, self.offers = snap.clock, snap.result, snap.offers
        self.epoch, self.turn_started = snap.epoch, snap.turn_started

    def finish(self, outcome: Outcome) -> None:
        self.result = outcome
        self.stored.status = "over"
        if self.clock:
            self.clock.start(None, time.time())

    def every_side_moved(self) -> bool:
        """True once each seat has made a move of its own (before that a rated game can be
        aborted: fair_play.py)."""
        movers = {m.player for m in self.stored.moves}
        return all(seat in movers for seat in range(self.stored.players))

    def aborted(self, seat: int) -> Outcome:
        """The result of a game called off by ``seat`` before each side had moved: nobody
        won, nobody scored, and it is not rated."""
        return Outcome(
            (), (0.0,) * self.stored.players, f"aborted by {self.name(seat)} before each side had moved"
        )

    def others_win(self, seat: int, reason: str) -> Outcome:
        others = [i for i in range(self.stored.players) if i != seat]
        return Outcome.win(others, self.stored.players, reason)

    # -- description -------------------------------------------------------------------
    def summary(self) -> dict:
        """A short description for game lists."""
        return {
            "id": self.id,
            "game": self.stored.game,
            "title": self.game.title,
            "players": self.stored.players,
            "status": self.status,
            "ply": self.state.ply,
            "to_move": self._to_move(),
            "seats": self._seats(),
            "result": self._result(),
            "updated": self.stored.updated,
        }

    def describe(self, viewer: int | None = None, now: float | None = None, with_text: bool = False) -> dict:
        """The full state for a client. ``viewer`` matters only for hidden information.
        The text form is left out of broadcasts (it costs a render per move); the page asks
        for it (``with_text``) when the player opens it."""
        now = time.time() if now is None else now
        state = self.state
        hidden = state.game.hides_information
        shown = state.view(viewer) if hidden and viewer is not None else state
        key = (self.epoch, len(state.history), self.status, viewer if hidden else None)
        cached = self._cache.get("board")
        if cached is None or cached[0] != key:
            legal = []
            if self.status == "active" and (not hidden or viewer == state.to_move):
                legal = [{"text": m.text, "path": list(m.path)} for m in state.legal_moves()]
            cached = (key, _safe(shown.svg), legal)
            self._cache["board"] = cached
        _, svg, legal = cached
        return {
            "type": "state",
            "id": self.id,
            "version": self.version,
            "game": self.stored.game,
            "title": self.game.title,
            "family": self.game.family,
            "options": self.stored.options,
            "players": self.stored.players,
            "status": self.status,
            "public": self.stored.public,
            "seats": self._seats(),
            "ply": state.ply,
            # The edited position the game was set up from (None: the rules' start).
            "start_position": self.stored.position,
            "to_move": self._to_move(),
            "moves": [
                {"text": m.text, "player": p} for m, p in zip(state.history, self._movers(), strict=True)
            ],
            "svg": svg,
            "legal": legal,
            "result": self._result(),
            "clock": self.clock.snapshot(now) if self.clock else None,
            "offers": {"draw": sorted(self.offers["draw"]), "undo": sorted(self.offers["undo"])},
            "realtime": self.realtime_tick,
            "bot_thinking": self.thinking(now),
        } | ({"text": _safe(shown.text)} if with_text else {})

    def preview(self, viewer: int | None, text: str) -> dict:
        """The picture after ``text`` were played now, for the page to show before the
        player commits (Trax faces with their forced tiles, a Tantrix rotation); the rules'
        reason (ApiError 400) for a move that is not legal, so a click can be explained.
        A game that hides information previews only for the seat to move, in its view."""
        state = self.state
        if state.game.hides_information:
            if viewer is None or viewer != state.to_move:
                raise ApiError(403, "this game hides information: only the seat to move sees previews")
            state = state.view(viewer)
        state = state.copy()
        try:
            move = self.game.parse(text, state)
            state.play(move)
        except QipanError as exc:
            raise ApiError(400, str(exc)) from exc
        return {"move": move.text, "svg": _safe(state.svg)}

    def record(self) -> Record:
        from datetime import datetime

        def iso(t: float) -> str:
            return datetime.fromtimestamp(t, UTC).replace(microsecond=0).isoformat()

        rec = Record.from_state(self.state, names=[self.name(i) for i in range(self.stored.players)])
        rec.result = self.result
        rec.started = iso(self.stored.created)
        rec.ended = iso(self.stored.updated) if self.status == "over" else None
        if any(s is not None for s in self.spent):
            rec.times = [round(s, 3) if s is not None else 0.0 for s in self.spent]
        if self.stored.position is not None:  # the moves start from the edited position
            rec.tags[POSITION_TAG] = self.stored.position
        rec.tags["Site"] = "qipan server"
        rec.tags["GameId"] = self.id
        return rec

    def _to_move(self) -> int | None:
        return self.state.to_move if self.status == "active" else None

    def _movers(self) -> list[int]:
        return [m.player for m in self.stored.moves]

    def _seats(self) -> list[dict]:
        out = []
        colours = self.state.seat_colours()
        for i, s in enumerate(self.seats):
            out.append(
                {
                    "seat": i,
                    "kind": s.kind,
                    "name": self.name(i),
                    "agent": s.agent,
                    "limits": s.limits,
                    "joined": s.joined,
                    "account": s.account,
                    "online": self.online.get(i, 0) > 0 or i in self.online_elsewhere or s.bot,
                    "left": s.left,
                }
                | ({"colour": colours[i][0], "fill": colours[i][1]} if i < len(colours) else {})
            )
        return out

    def _result(self) -> dict | None:
        if self.result is None:
            return None
        return {**self.result.to_dict(), "text": self.result.result_text()}


@dataclass
class Snapshot:
    """A session's changeable parts at one moment (see ``Session.snapshot``)."""

    history: list
    spent: list
    stored: tuple
    moves: list
    clock: Clock | None
    result: Outcome | None
    offers: dict
    epoch: int
    turn_started: float


def _safe(render) -> str:
    try:
        return render()
    except NotImplementedError:
        return ""
