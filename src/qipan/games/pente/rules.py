"""Pente rules (``rules.en.md`` beside this file): placement, pair captures, five (or four in
``pente-4``) and capture wins, the tournament rule, exact five (C1), double open tria
(C2), ``max_pairs_per_move`` and the two four-player games."""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Iterator
from itertools import combinations
from typing import Any

from ...core.errors import IllegalMove, OptionError
from ...core.game import Game, State
from ...core.move import Move
from ...core.outcome import Outcome
from .board import CAPTURE_TARGET, EMPTY, OFF, TESSERA, TRIA, Geometry, geometry


class PenteGame(Game):
    id = "pente"
    title = "Pente"
    family = "pente"
    players = (2, 4)
    action_space = "qipan.games.pente.actions:PenteActions"
    symmetric_keys = "qipan.games.pente.position:symmetric_keys"
    position_editor = "qipan.games.pente.position:EDITOR"
    scoring_match = "qipan.games.pente.match:Match"

    def __init__(self, **options: Any):
        super().__init__(**options)
        o = self.options
        self.size: int = o.get("board_size", 19)
        if self.size % 2 == 0 or not 7 <= self.size <= 19:
            raise OptionError(f"board_size must be odd and 7..19, not {self.size}")
        self.geom: Geometry = geometry(self.size)
        self.tournament: bool = o.get("tournament", False)
        self.exact: bool = o.get("exact_five", False)
        self.double_tria: bool = o.get("double_tria", False)
        self.capture_win_overrides: bool = o.get("capture_win_overrides", False)
        self.max_pairs: int | None = o.get("max_pairs_per_move")
        self.teams: bool = o.get("teams", False)
        self.win_length: int = o.get("win_length", 5)
        self.count_partner: bool = o.get("count_partner_captures", True)
        self.first_player: int = o.get("first_player", 1) - 1

    def new_state(self, players: int, rng: random.Random) -> PenteState:
        if self.first_player >= players:
            raise OptionError(f"first_player={self.first_player + 1} but there are {players} players")
        return PenteState(self, players)

    def partner(self, player: int, players: int) -> int | None:
        return (player + 2) % 4 if self.teams and players == 4 else None

    # -- notation (notation.py) ---------------------------------------------------------
    def point(self, text: str) -> int:
        """The board index of a point written ``K10`` (pente.org) or ``(0,0)`` (centred)."""
        from .notation import point

        return point(self, text)

    def parse(self, text: str, state: State) -> Move:
        i = self.geom.by_name.get(text)
        if i is not None:  # a plain point as records write it (K10): no notation to read
            return state.resolve(i, [])
        from .notation import parse_move

        return parse_move(state, text)

    def position(self, text: str) -> PenteState:
        from .position import read_position

        return read_position(self, text)

    # -- knowledge for generic agents --------------------------------------------------
    has_evaluation = True

    def evaluate(self, state: State, player: int) -> float:
        from .evaluation import evaluate

        return evaluate(state, player)

    def order_moves(self, state: State, moves: list[Move]) -> list[Move]:
        from .evaluation import order_moves

        return order_moves(state, moves)

    @property
    def forced_line(self) -> str | None:
        """Forced wins by threats (``threats.forced_lines``) where the search is exact."""
        from .threats import supports

        return "qipan.games.pente.threats:forced_lines" if supports(self) else None

    @property
    def puzzle_finder(self) -> str | None:
        """Puzzles from the threat search (``puzzles.py``) where the search is exact."""
        from .threats import supports

        return "qipan.games.pente.puzzles:FINDER" if supports(self) else None

    def kernel(self):
        """The compiled twin of these rules (``kernel.py``), every option; None without
        ``qipan[fast]`` or with ``QIPAN_KERNELS=0``."""
        from .kernel import kernel_for

        return kernel_for(self)


class PenteState(State):
    game: PenteGame

    def __init__(self, game: PenteGame, players: int):
        super().__init__(game, players)
        g = self.geom = game.geom
        self.cells = g.blank_cells[:]
        self.to_move: int | None = game.first_player
        self.outcome: Outcome | None = None
        #: Stones captured by each player (as counted: see count_partner_captures).
        self.captures = [0] * players
        #: Plies played since the start of the game (also by a set-up position).
        self.placed = 0
        self.stones = 0
        #: C2: the player whose double open tria wins unless the reply makes five; -1 none.
        self.pending = -1
        #: C1: bit p set when a capture may have cut p's overline down to an exact five.
        self.maybe_line = 0
        self.last = -1
        self.zhash = 0
        # Every point empty: the templates' copies (what _rebuild_free makes, at list-copy cost).
        self.empty = g.points[:]
        self.free = g.point_moves[:]

    def _rebuild_free(self) -> None:
        """The empty points in index order and their moves, kept in step by play/undo so
        that listing the legal moves is a list copy."""
        g = self.geom
        self.empty = [i for i in g.points if self.cells[i] == EMPTY]
        self.free = [g.moves[i] for i in self.empty]

    # -- copying -----------------------------------------------------------------------
    def _copy_parts(self, new: PenteState) -> None:
        new.cells = self.cells[:]
        new.captures = self.captures[:]
        new.empty = self.empty[:]
        new.free = self.free[:]

    # -- queries -----------------------------------------------------------------------

    def stone(self, i: int) -> int | None:
        """The player whose stone is on point ``i``, or None."""
        c = self.cells[i]
        return c - 1 if EMPTY < c < OFF else None

    def first_mover_second_stone(self) -> bool:
        return self.placed == self.num_players

    def capture_dirs(self, i: int, player: int) -> list[int]:
        """Directions in which a stone of ``player`` placed on ``i`` brackets a pair."""
        cells, me = self.cells, player + 1
        out = []
        for d in self.geom.dirs8:
            a = cells[i + d]
            if a != me and EMPTY < a < OFF:
                b = cells[i + 2 * d]
                if b != me and EMPTY < b < OFF and cells[i + 3 * d] == me:
                    out.append(d)
        return out

    def team_captures(self, player: int) -> int:
        partner = self.game.partner(player, self.num_players)
        return self.captures[player] + (self.captures[partner] if partner is not None else 0)

    def run_length(self, i: int, d: int, me: int) -> int:
        cells = self.cells
        n, j = 1, i + d
        while cells[j] == me:
            n += 1
            j += d
        j = i - d
        while cells[j] == me:
            n += 1
            j -= d
        return n

    def line_wins(self, i: int, me: int) -> bool:
        """Whether a stone of cell value ``me`` on ``i`` is (or, on an empty ``i``, would be)
        part of a qualifying line."""
        need, exact = self.game.win_length, self.game.exact
        for d in self.geom.dirs4:
            n = self.run_length(i, d, me)
            if n == need or (n > need and not exact):
                return True
        return False

    def run_lengths(self, player: int) -> Iterator[int]:
        """The length of every maximal run of ``player``'s stones in the four directions
        (a lone stone is a run of 1 in each)."""
        cells, me = self.cells, player + 1
        for i in self.geom.points:
            if cells[i] != me:
                continue
            for d in self.geom.dirs4:
                if cells[i - d] == me:
                    continue  # not the start of the run
                n, j = 1, i + d
                while cells[j] == me:
                    n += 1
                    j += d
                yield n

    def has_line(self, player: int) -> bool:
        """Whether ``player`` owns a qualifying line anywhere (full scan)."""
        need, exact = self.game.win_length, self.game.exact
        return any(n == need or (n > need and not exact) for n in self.run_lengths(player))

    def line_cells(self, player: int) -> tuple[str, ...]:
        """The point names of ``player``'s first qualifying line (what a five-win shows);
        empty when there is none. A full scan: run once, when the game ends."""
        need, exact = self.game.win_length, self.game.exact
        cells, me, g = self.cells, player + 1, self.geom
        for i in g.points:
            if cells[i] != me:
                continue
            for d in g.dirs4:
                if cells[i - d] == me:
                    continue  # not the start of the run
                run = [i]
                while cells[run[-1] + d] == me:
                    run.append(run[-1] + d)
                if len(run) == need or (len(run) > need and not exact):
                    return tuple(g.name[j] for j in run)
        return ()

    def open_tria_lines(self, player: int) -> int:
        """How many board lines hold an open tria of ``player``: one more stone on the line
        makes an open four ``_XXXX_`` (the clarified definition)."""
        return len(self.formations(player, TRIA))

    def formations(
        self, player: int, patterns: tuple[str, ...], through: int | None = None
    ) -> list[tuple[int, ...]]:
        """The points of one window per board line matching one of ``patterns`` (``board.TRIA``,
        ``board.TESSERA``) for ``player``; with ``through``, only windows in which that
        point is one of the player's stones (what a stone just placed formed)."""
        cells, me = self.cells, player + 1
        fewest = min(pattern.count("x") for pattern in patterns)
        found = []
        for line in self.geom.lines:
            if through is not None and through not in line:  # (the picture asks this each move)
                continue
            s = "".join("x" if cells[j] == me else "." if cells[j] == EMPTY else "o" for j in line)
            if s.count("x") < fewest:
                continue
            window = next(self._windows(line, s, patterns, through), None)
            if window is not None:
                found.append(window)
        return found

    @staticmethod
    def _windows(
        line: list[int], s: str, patterns: tuple[str, ...], through: int | None
    ) -> Iterator[tuple[int, ...]]:
        for pattern in patterns:
            k = s.find(pattern)
            while k >= 0:
                window = tuple(line[k : k + len(pattern)])
                if through is None or any(
                    j == through and c == "x" for j, c in zip(window, pattern, strict=True)
                ):
                    yield window
                k = s.find(pattern, k + 1)

    def announcements(self) -> list[str]:
        """What the etiquette (禮節) has the player who just moved announce: ``["tessera"]``
        when the stone just placed makes a four one stone from five, else ``["tria"]`` when
        it makes an open tria; ``[]`` otherwise or when the game is over."""
        if self.last < 0 or self.outcome is not None:
            return []
        p = self.stone(self.last)
        for word, patterns in (("tessera", TESSERA), ("tria", TRIA)):
            if self.formations(p, patterns, through=self.last):
                return [word]
        return []

    # -- moves -------------------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        if self.outcome is not None:
            return []
        g = self.geom
        if self.placed == 0:
            return [g.moves[g.centre]] if self.cells[g.centre] == EMPTY else self._plain_moves()
        return self._plain_moves()

    def _plain_moves(self) -> list[Move]:
        g, cells = self.geom, self.cells
        points = g.points
        if self.game.tournament and self.first_mover_second_stone():
            inner = g.inner
            points = [i for i in points if i not in inner]
        if self.game.max_pairs is None:
            if points is g.points:
                return self.free[:]
            moves = g.moves
            return [moves[i] for i in points if cells[i] == EMPTY]
        out = []
        for i in points:
            if cells[i] == EMPTY:
                out.extend(self._choices(i))
        return out

    def _choices(self, i: int) -> list[Move]:
        """The moves placing on ``i``: one, or one per allowed choice of pairs to capture."""
        g = self.geom
        m = self.game.max_pairs
        if m is None:  # every pair is taken: one move, whatever it captures (found by _apply)
            return [g.moves[i]]
        dirs = self.capture_dirs(i, self.to_move)
        if len(dirs) <= m:
            return [g.moves[i]]
        return [g.choice_move(i, combo) for combo in combinations(dirs, m)]

    def _placement_error(self, i: int) -> str | None:
        g = self.geom
        if self.cells[i] != EMPTY:
            return f"{g.name[i]} is occupied"
        if self.placed == 0 and i != g.centre and self.cells[g.centre] == EMPTY:
            return f"the first stone must go on the centre {g.name[g.centre]}"
        if self.game.tournament and self.first_mover_second_stone() and i in g.inner:
            return (
                f"tournament rule: the first player's second stone may not go on {g.name[i]}, "
                "it must be at least 3 points from the centre"
            )
        return None

    def resolve(self, i: int, taken: list[int]) -> Move:
        """The legal move placing on ``i`` and capturing the pairs whose nearer stones are
        ``taken`` (only needed under max_pairs_per_move). Raises IllegalMove."""
        if self.outcome is not None:
            raise IllegalMove(f"the game is over ({self.outcome.reason})")
        g = self.geom
        error = self._placement_error(i)
        if error:
            raise IllegalMove(error, g.name[i])
        choices = self._choices(i)
        if len(choices) == 1:
            move = choices[0]
            if taken and self._takes(move, i) != set(taken):
                raise IllegalMove(f"{g.name[i]} captures {self._describe(move, i)}, not what was written")
            return move
        for move in choices:
            if self._takes(move, i) == set(taken):
                return move
        options = ", ".join(m.text for m in choices)
        raise IllegalMove(
            f"{g.name[i]} can capture more pairs than allowed: choose one of {options}", g.name[i]
        )

    def _takes(self, move: Move, i: int) -> set[int]:
        dirs = move.data[1]
        if dirs is None:
            dirs = self.capture_dirs(i, self.to_move)
        return {i + d for d in dirs}

    def _describe(self, move: Move, i: int) -> str:
        taken = sorted(self.geom.name[j] for j in self._takes(move, i))
        return "the pairs at " + ", ".join(taken) if taken else "nothing"

    def check_legal(self, move: Move) -> None:
        data = move.data
        if type(data) is tuple and len(data) == 2 and type(data[0]) is int and 0 <= data[0] < len(self.cells):
            i = data[0]
            if self.geom.name[i] is not None:
                error = self._placement_error(i)
                if error:
                    raise IllegalMove(error, move)
                if move in self._choices(i):
                    return
                raise IllegalMove(f"{move} is not a legal move here: {self._choices_text(i)}", move)
        if move not in self.legal_moves():
            raise IllegalMove(f"{move} is not a legal move here", move)

    def _choices_text(self, i: int) -> str:
        return "the moves on " + self.geom.name[i] + " are " + ", ".join(m.text for m in self._choices(i))

    # -- playing -----------------------------------------------------------------------
    def _apply(self, move: Move) -> Any:
        data = move.data
        if type(data) is not tuple:  # a Move built from text only: use the engine's own
            data = self.game.parse(move.text, self).data
        i, chosen = data
        game, g, cells = self.game, self.geom, self.cells
        p = self.to_move
        me = p + 1
        token = (i, p, self.captures[p], self.pending, self.maybe_line, self.last, self.zhash, self.stones)
        z = self.zhash ^ g.zobrist[i][me]
        cells[i] = me
        empty, free = self.empty, self.free
        k = bisect_left(empty, i)
        del empty[k]
        del free[k]
        self.stones += 1
        self.placed += 1
        self.last = i
        dirs = self.capture_dirs(i, p) if chosen is None else chosen
        removed = []
        if dirs:
            partner = game.partner(p, self.num_players)
            counted = 0
            for d in dirs:
                for j in (i + d, i + 2 * d):
                    c = cells[j]
                    removed.append((j, c))
                    z ^= g.zobrist[j][c]
                    cells[j] = EMPTY
                    k = bisect_left(empty, j)
                    empty.insert(k, j)
                    free.insert(k, g.moves[j])
                    if c - 1 != partner or game.count_partner:
                        counted += 1
                    if game.exact:
                        self.maybe_line |= 1 << (c - 1)
            self.stones -= len(removed)
            self.captures[p] += counted
        self.zhash = z
        self._decide(i, p, me)
        return token, removed

    def _decide(self, i: int, p: int, me: int) -> None:
        game = self.game
        made_line = self.line_wins(i, me)
        if not made_line and self.maybe_line >> p & 1:
            made_line = self.has_line(p)
        self.maybe_line &= ~(1 << p)
        capture_win = self.team_captures(p) >= CAPTURE_TARGET
        players = self.num_players
        line_word = "five" if game.win_length == 5 else "four"
        pending = self.pending
        if pending >= 0:
            self.pending = -1
            if made_line:
                self._win(p, f"{line_word} in a row answers the double open tria", self.line_cells(p))
            elif capture_win and game.capture_win_overrides:
                self._win(p, "capture win answers the double open tria")
            else:
                self._win(pending, "double open tria")
            return
        if made_line:
            self._win(p, f"{line_word} in a row", self.line_cells(p))
            return
        if capture_win:
            self._win(p, f"{CAPTURE_TARGET} stones captured")
            return
        if game.double_tria and self.open_tria_lines(p) >= 2:
            self.pending = p
        if self.stones == game.geom.n * game.geom.n:
            if self.pending >= 0:
                self._win(self.pending, "double open tria (board full)")
            else:
                self.outcome = Outcome.draw(players, "board full")
                self.to_move = None
            return
        self.to_move = (p + 1) % players

    def _win(self, p: int, reason: str, cells: tuple[str, ...] = ()) -> None:
        partner = self.game.partner(p, self.num_players)
        winners = (p,) if partner is None else (p, partner)
        self.outcome = Outcome.win(winners, self.num_players, reason, cells)
        self.to_move = None

    def _revert(self, token: Any) -> None:
        (i, p, caps, pending, maybe_line, last, zhash, stones), removed = token
        cells, empty, free = self.cells, self.empty, self.free
        for j, c in removed:
            cells[j] = c
            k = bisect_left(empty, j)
            del empty[k]
            del free[k]
        cells[i] = EMPTY
        k = bisect_left(empty, i)
        empty.insert(k, i)
        free.insert(k, self.geom.moves[i])
        self.captures[p] = caps
        self.pending = pending
        self.maybe_line = maybe_line
        self.last = last
        self.zhash = zhash
        self.stones = stones
        self.placed -= 1
        self.to_move = p
        self.outcome = None

    # -- keys and views ----------------------------------------------------------------
    def key(self) -> Any:
        opening = self.placed if self.placed <= self.num_players else -1
        # maybe_line is left out: it only saves a scan whose answer the position already fixes
        return (self.zhash, self.to_move, tuple(self.captures), self.pending, opening)

    def seat_colours(self) -> list[tuple[str, str]]:
        from .render import COLOUR_NAMES, FILLS

        return [(COLOUR_NAMES[p], FILLS[p]) for p in range(self.num_players)]

    def text(self) -> str:
        from .render import text

        return text(self)

    def svg(self) -> str:
        from .render import svg

        return svg(self)

    def position(self) -> str:
        from .position import write_position

        return write_position(self)

    def captured_by_last_move(self) -> list[int]:
        """Points emptied by the last ply's captures."""
        if not self._undo_stack:
            return []
        return [j for j, _ in self._undo_stack[-1][1]]
