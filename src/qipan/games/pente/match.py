"""Scoring matches (計分, pente.md §2.5-2.7): games are played to their normal end, each
scores points, and the match goes on (the loser of a game starts the next) until a side
reaches the agreed target (21 by default; the seed says "usually 21 or 50", any positive
number of points is accepted). A module of its own: a match is a sequence of
games with its own scoring and record, not part of one game's rules.

The Game declares ``scoring_match = "qipan.games.pente.match:Match"``; ``qipan play
--match`` (``cli/match.py``) drives any game's declared class through this interface, so
another family's match class offers the same:

* ``Match(preset, target=..., players=..., options=..., names=..., first_player=...,
  seed=...)``: ``preset`` is the registry id (``game.preset``), ``options`` the game
  options, ``names`` one per seat, ``first_player`` the first game's first player (an
  index, or ``"lot"``: drawn with ``random.Random(seed)``, as the seed's "猜子決定誰先");
  QipanError for a target, player count, first player or option the match does not allow.
* ``start_game() -> State``: the next game, already set up so that ``next_starter`` moves
  first; QipanError once the match is over.
* ``finish_game(state, resigned=None) -> list[int]``: score the game ``start_game``
  returned, finished or given up by player ``resigned``; returns the game's points.
* ``over`` (bool), ``winner`` (the winning player indices, a team: both; None until over),
  ``scores`` (running totals, one per player), ``side_scores()`` (one total per side),
  ``next_starter`` (player index), ``to_json()`` (the match record as text).

    from qipan.games.pente.match import Match

    match = Match("pente", target=21, names=["ann", "bob"])   # or "pente-team", "pente-4"
    while not match.over:
        state = match.start_game()        # a new game; the right player places first
        ...                               # play it: state.play(...) until state.outcome
        match.finish_game(state)          # or finish_game(state, resigned=player)
        match.scores                      # running totals, one per player
    match.winner                          # the winning player indices (a team: both)
    data = match.to_dict()                # one record: every game's qipan record
    again = Match.from_dict(data)         # replays every game and checks every score

Scoring, per game:
  * 2 players: +5 to the player who completed the five; +1 per captured pair; +1 per four
    (a maximal run of exactly 4 own stones) left on the board. A side = a player.
  * team (``pente-team``): five -> 10; each four left (one colour) -> 2; each captured
    stone -> 1 (partner stones too unless count_partner_captures=false). A side = a team;
    its score is the sum of its two players.
  * free for all (``pente-4``): four in a row -> 10; each three left (maximal run of
    exactly 3) -> 1; each captured stone -> 1.
A game won by a double open tria (C2) or by resignation scores no line bonus; a board-full
draw scores pairs and runs only.
End: when at least one side reaches the target, the side with the highest total wins; if
several sides share the highest total, another game is played.
Who starts: the first game, player 1 unless ``first_player`` says otherwise (``"lot"``:
drawn; the record keeps the drawn player, so a replay needs no seed); then the loser of
the previous game; with more than two players, the player after
the winner in turn order (always a loser); after a resignation the resigner; after a draw
the player after the previous starter."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

from ...core.errors import QipanError, RecordError
from ...core.outcome import Outcome
from ...core.records import Record
from ...core.registry import load
from .rules import PenteGame, PenteState

FORMAT = "qipan-pente-match/1"
#: The targets the seed names ("通常為21或50"); any positive number of points may be agreed.
USUAL_TARGETS = (21, 50)
#: ``first_player="lot"``: the first game's first player is drawn.
BY_LOT = "lot"


@dataclass
class PlayedGame:
    record: Record
    points: list[int]
    starter: int
    resigned: int | None = None


def runs(state: PenteState, player: int, length: int) -> int:
    """Maximal runs of exactly ``length`` stones of ``player`` in the four directions."""
    return sum(1 for n in state.run_lengths(player) if n == length)


def mode(game: PenteGame, players: int) -> str:
    if players == 2:
        return "two"
    return "team" if game.teams else "free"


def game_points(state: PenteState, resigned: int | None = None) -> list[int]:
    """The points each player scores for a finished (or resigned) game."""
    game, n = state.game, state.num_players
    kind = mode(game, n)
    line_bonus, run_length, run_value = {"two": (5, 4, 1), "team": (10, 4, 2), "free": (10, 3, 1)}[kind]
    points = [0] * n
    for p in range(n):
        points[p] += state.captures[p] // 2 if kind == "two" else state.captures[p]
        points[p] += run_value * runs(state, p, run_length)
    outcome = state.outcome
    if resigned is None and outcome is not None and outcome.winners and "in a row" in outcome.reason:
        maker = state.stone(state.last)  # the line is made by the mover of the last ply
        if maker in outcome.winners and state.has_line(maker):
            points[maker] += line_bonus
    return points


class Match:
    def __init__(
        self,
        game_id: str = "pente",
        target: int = 21,
        players: int | None = None,
        options: dict | None = None,
        names: list[str] | None = None,
        first_player: int | str = 0,
        seed: int | None = None,
    ):
        if isinstance(target, bool) or not isinstance(target, int) or target < 1:
            raise QipanError(
                f"a Pente match is played to a positive number of points (usually "
                f"{' or '.join(map(str, USUAL_TARGETS))}), not {target!r}"
            )
        self.game_id = game_id
        self.target = target
        self.options = {k: v for k, v in (options or {}).items() if k != "first_player"}
        template = load(game_id, **self.options)
        if template.family != "pente":
            raise QipanError(f"{game_id} is not a Pente game")
        self.players = players or template.players[0]
        if self.players not in template.players:
            raise QipanError(f"{game_id} is played by {template.players[0]} players, not {self.players}")
        if first_player == BY_LOT:
            first_player = random.Random(seed).randrange(self.players)
        if isinstance(first_player, bool) or not isinstance(first_player, int):
            raise QipanError(f"first_player is a player index or {BY_LOT!r}, not {first_player!r}")
        if not 0 <= first_player < self.players:
            raise QipanError(f"first_player must be 0..{self.players - 1} or {BY_LOT!r}")
        self.kind = mode(template, self.players)
        self.names = list(names or [])
        self.games: list[PlayedGame] = []
        self.scores = [0] * self.players
        self.next_starter = first_player
        self.winner: tuple[int, ...] | None = None
        self._current: PenteState | None = None

    # -- sides -------------------------------------------------------------------------
    def sides(self) -> list[tuple[int, ...]]:
        if self.kind == "team":
            return [(0, 2), (1, 3)]
        return [(p,) for p in range(self.players)]

    def side_scores(self) -> list[int]:
        return [sum(self.scores[p] for p in side) for side in self.sides()]

    @property
    def over(self) -> bool:
        return self.winner is not None

    # -- playing -----------------------------------------------------------------------
    def start_game(self) -> PenteState:
        """A new game in which ``next_starter`` places the first stone."""
        if self.over:
            raise QipanError("the match is over")
        game = load(self.game_id, **self.options, first_player=self.next_starter + 1)
        self._current = game.new(players=self.players)
        return self._current

    def finish_game(self, state: PenteState, resigned: int | None = None) -> list[int]:
        """Score a finished game (or one that ``resigned`` gave up); returns its points."""
        if self.over:
            raise QipanError("the match is over")
        if state is not self._current:
            raise QipanError("finish the game that start_game returned")
        if resigned is None and state.outcome is None:
            raise QipanError("the game is not over: play on or give the player who resigned")
        if resigned is not None and (state.outcome is not None or not 0 <= resigned < self.players):
            raise QipanError("only a player of an unfinished game can resign")
        record = Record.from_state(state, names=self.names)
        if resigned is not None:
            losers = {resigned} | {p for side in self.sides() if resigned in side for p in side}
            record.result = Outcome.win(
                [p for p in range(self.players) if p not in losers], self.players, "resignation"
            )
        self._score(PlayedGame(record, game_points(state, resigned), self.next_starter, resigned), state)
        self._current = None
        return self.games[-1].points

    def _score(self, played: PlayedGame, state: PenteState) -> None:
        self.games.append(played)
        self.scores = [a + b for a, b in zip(self.scores, played.points, strict=True)]
        self.next_starter = self._next_starter(played, state)
        totals = self.side_scores()
        if max(totals) >= self.target:
            best = max(totals)
            leaders = [side for side, total in zip(self.sides(), totals, strict=True) if total == best]
            if len(leaders) == 1:
                self.winner = leaders[0]

    def _next_starter(self, played: PlayedGame, state: PenteState) -> int:
        n = self.players
        if played.resigned is not None:
            return played.resigned
        outcome = state.outcome
        if not outcome.winners:
            return (played.starter + 1) % n
        mover = state.stone(state.last)
        winner = mover if mover in outcome.winners else outcome.winners[0]
        return (winner + 1) % n

    # -- one record --------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "game": self.game_id,
            "options": self.options,
            "players": self.players,
            "names": self.names,
            "target": self.target,
            "first_player": self.games[0].starter if self.games else self.next_starter,
            "games": [
                {"record": g.record.to_dict(), "points": g.points, "resigned": g.resigned} for g in self.games
            ],
            "scores": self.scores,
            "winner": list(self.winner) if self.winner is not None else None,
        }

    to_record = to_dict

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=1)

    @classmethod
    def from_json(cls, text: str) -> Match:
        try:
            return cls.from_dict(json.loads(text))
        except json.JSONDecodeError as exc:
            raise RecordError(f"not valid JSON: {exc}") from exc

    @classmethod
    def from_dict(cls, data: Any) -> Match:
        """Rebuild a match by replaying every game; raises RecordError naming the game
        if a game breaks the rules, starts with the wrong player or a score differs."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RecordError(f"not a Pente match record (expected format {FORMAT})")
        try:
            match = cls(
                data["game"],
                int(data["target"]),
                int(data["players"]),
                dict(data.get("options") or {}),
                list(data.get("names") or []),
                int(data.get("first_player", 0)),
            )
            games = list(data["games"])
        except (KeyError, TypeError, ValueError, QipanError) as exc:
            raise RecordError(f"malformed match record: {exc}") from exc
        for number, entry in enumerate(games, start=1):
            try:
                match._replay_game(entry)
            except (KeyError, TypeError, ValueError, QipanError) as exc:
                raise RecordError(f"match game {number}: {exc}") from exc
        if data.get("scores") is not None and list(data["scores"]) != match.scores:
            raise RecordError(f"the record says scores {data['scores']}, the games give {match.scores}")
        return match

    def _replay_game(self, entry: dict) -> None:
        if self.over:
            raise RecordError("a game after the match was already won")
        record = Record.from_dict(entry["record"])
        state = self.start_game()
        if record.game != self.game_id or record.players != self.players:
            raise RecordError(f"the game is {record.game} with {record.players} players")
        if record.options.get("first_player", 1) - 1 != self.next_starter:
            raise RecordError(f"player {self.next_starter + 1} should start this game")
        for ply, text in enumerate(record.moves, start=1):
            try:
                state.play(text)
            except QipanError as exc:
                raise RecordError(f"{text!r}: {exc}", ply) from exc
        resigned = entry.get("resigned")
        points = self.finish_game(state, resigned)
        if list(entry.get("points", points)) != points:
            raise RecordError(f"the record says points {entry['points']}, the game gives {points}")
