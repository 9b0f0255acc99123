"""The Tantrix game for 2-4 players (rules/tantrix.md 4.3-4.5).

Every draw from the bag is a chance move (``+17``) so a record replays without the seed
and no agent sees the bag order. A turn is a run of moves by the same player: forced fills
(``F 33@2,-1r4``), one free placement (``12@-1,0r0``), forced fills again, each placement
followed by the replacement draw while the bag has tiles."""

from __future__ import annotations

import random
from bisect import insort

from ...core import CHANCE, Game, IllegalMove, Move, Outcome, State
from ...core.errors import OptionError
from .board import (
    ALL_NUMBERS,
    DEAL,
    FREE,
    ORDER,
    ORIENTED,
    PLAY,
    AnyOf,
    Cell,
    Layout,
    best_tracks,
    neighbours,
    three_in_a_row,
    track_value,
    tracks,
)
from .notation import draw_move, parse_move, placement_move


class TantrixGame(Game):
    id = "tantrix"
    title = "Tantrix"
    family = "tantrix"
    action_space = "qipan.games.tantrix.actions:TantrixActions"
    terminal_picture = "qipan.games.tantrix.terminal:picture"
    players = (2, 3, 4)
    pictures = (("tiles", "qipan.games.tantrix.render:gallery_svg"),)  # the 56 tiles by number

    def __init__(self, **options):
        forced_space = options.pop("forced_space", "any_three")
        if forced_space not in ("any_three", "consecutive"):
            raise OptionError(f"forced_space must be any_three or consecutive, not {forced_space!r}")
        if forced_space != "any_three":  # only when set: the default game's options stay as they were
            options["forced_space"] = forced_space
        #: The seed's forced space (three consecutive sides) instead of the official any three.
        self.consecutive_forced = forced_space == "consecutive"
        options.setdefault("setup", "casual")
        options.setdefault("tiebreak", "draw")
        options.setdefault("doubles", False)
        options.setdefault("colours", "")
        super().__init__(**options)
        if self.options["doubles"]:
            self.players = (4,)  # two teams of two

    def colours_for(self, players: int) -> tuple[str, ...]:
        """Each player's colour; in doubles partners (seats i and i + 2) share one."""
        from ...core import QipanError

        wanted = self.options["colours"].upper() or "RYGB"
        teams = 2 if self.options["doubles"] else players
        if self.options["doubles"] and players != 4:
            raise QipanError("doubles is played by 4 players (two teams of two)")
        if len(set(wanted)) != len(wanted) or set(wanted) - set("RYGB") or len(wanted) < teams:
            raise QipanError(f"colours={wanted!r}: need {teams} different colours from R, Y, G, B")
        return tuple(wanted[i % teams] for i in range(players))

    def new_state(self, players: int, rng: random.Random) -> TantrixState:
        # The bag is shuffled by chance moves, not here: the RNG is the driver's.
        return TantrixState(self, players)

    def parse(self, text: str, state: State) -> Move:
        return parse_move(state, text)

    def position(self, text: str) -> TantrixState:
        from .position import read_position

        return read_position(self, text)

    #: Hands are open and the bag is drawn by chance moves no one sees ahead (rules 4.3).
    hides_information = False
    has_evaluation = True

    def evaluate(self, state: State, player: int) -> float:
        from .evaluation import AGENT, evaluate

        # The ``tantrix`` agent's tuned weights: one definition for the agent and the levels.
        return evaluate(state, player, weights=AGENT)

    def order_moves(self, state: State, moves: list[Move]) -> list[Move]:
        from .evaluation import order_moves

        return order_moves(state, moves)

    def kernel(self):
        """The compiled twin of these rules (``kernel.py``), every option and seat count;
        None without ``qipan[fast]`` or with ``QIPAN_KERNELS=0``."""
        from .kernel import kernel_for

        return kernel_for(self)


class TantrixState(Layout, State):
    def __init__(self, game: TantrixGame, players: int, bag=ALL_NUMBERS):
        super().__init__(game, players)
        self.consecutive_forced = game.consecutive_forced
        self.colours = game.colours_for(players)
        self.board: dict[Cell, tuple[int, int]] = {}
        #: Oriented edge string of every occupied cell.
        self.edges: dict[Cell, str] = {}
        #: Every space (empty cell next to a tile) -> number of occupied neighbours.
        self.counts: dict[Cell, int] = {}
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.bag: set[int] = set(bag)
        #: The start-order draw of each seat.
        self.order_draws: list[int] = []
        self.phase = ORDER
        self.current = 0
        self.step = 1
        self.starter = 0
        self.to_move = CHANCE
        self.outcome = None
        self._moves: list[Move] = self._draws()

    # -- queries -----------------------------------------------------------------------
    @property
    def endgame(self) -> bool:
        """The restrictions are lifted from the moment the last tile is drawn."""
        return self.phase == PLAY and not self.bag

    @property
    def forced_spaces(self) -> list[Cell]:
        return sorted(c for c, n in self.counts.items() if self.is_forced(c, n))

    @property
    def draw_pending(self) -> bool:
        return self.phase == PLAY and self.to_move == CHANCE

    def legal_moves(self) -> list[Move]:
        return list(self._legal())

    def _legal(self) -> list[Move]:
        """The legal moves, built when first asked for: the turn machine only settles
        whether there are any (``None`` until then), so playouts that sample with
        ``random_move`` never build them."""
        moves = self._moves
        if moves is None:
            if self.to_move == CHANCE:
                moves = self._draws()
            else:
                moves = self.placements(self.current, forced=self.step != FREE)
            self._moves = moves
        return moves

    def chance_outcomes(self) -> list[tuple[Move, float]]:
        if self.to_move != CHANCE:
            return []
        moves = self._legal()
        p = 1.0 / len(moves)
        return [(m, p) for m in moves]

    def check_legal(self, move: Move) -> None:
        if move in self._legal():
            return
        from .notation import explain_illegal

        raise IllegalMove(explain_illegal(self, move), move)

    def scores(self) -> tuple[int, ...]:
        best = {c: best_tracks(self.edges, c)[0] for c in set(self.colours)}
        return tuple(best[c] for c in self.colours)

    def key(self):
        return (
            frozenset(self.board.items()),
            tuple(tuple(sorted(h)) for h in self.hands),
            frozenset(self.bag),
            tuple(self.order_draws),
            self.phase,
            self.current,
            self.step,
            self.to_move,
        )

    # -- legal placements --------------------------------------------------------------
    def placements(self, player: int, forced: bool) -> list[Move]:
        """The legal fills (``forced``) or free placements of ``player``'s hand."""
        return list(self._placements(player, forced))

    def has_placement(self, player: int, forced: bool) -> bool:
        """Is there any legal fill (``forced``) or free placement? Stops at the first."""
        return next(self._placements(player, forced), None) is not None

    def placement_cells(self, forced: bool) -> list[Cell]:
        """The cells the fills (``forced``) or the free placements may use, in order."""
        if not self.edges:
            return [] if forced else [(0, 0)]
        if forced:
            return self.forced_spaces
        # A space where some tile could legally go would have been a fill in step 1.
        return sorted(c for c, n in self.counts.items() if not self.is_forced(c, n))

    def _placements(self, player: int, forced: bool):
        """The legal placements in order."""
        hand = sorted(set(self.hands[player]))
        if not hand:
            return
        restricted = not self.endgame
        for cell in self.placement_cells(forced):
            fit = self.space_fits(cell)
            if not any(tile in fit for tile in hand):
                continue
            if restricted and not self.geometry_ok(cell):
                continue
            doubled = self._doubled_colours(cell) if restricted else ()
            for tile in hand:
                for rot in fit.get(tile, ()):
                    oriented = ORIENTED[tile][rot]
                    if any(oriented[d] in colours for d, colours in doubled):
                        continue
                    yield placement_move(tile, cell, rot, forced)

    #: Draws of ``random_move`` before it falls back to building the legal moves.
    RANDOM_TRIES = 300

    def random_move(self, rng: random.Random) -> Move:
        """Uniform over ``legal_moves()`` without building them. A draw takes a tile from
        the bag uniformly (as ``chance_outcomes``). A placement draws a cell of those
        ``placements`` looks at, a hand tile and "the first or the second rotation in which
        it fits there" uniformly, and keeps them if there is such a rotation and the
        restriction rules allow it (worked out for the drawn cell only, once per call); else
        it draws again. Each legal placement is exactly one such draw, so each is equally
        likely. After ``RANDOM_TRIES`` failed
        draws it picks from ``legal_moves()``: uniform too, so the mixture is uniform."""
        if self.outcome is not None:
            return super().random_move(rng)
        if self.to_move == CHANCE:
            if self._moves is not None:
                return rng.choice(self._moves)
            return draw_move(rng.choice(sorted(self.bag)))
        forced = self.step != FREE
        hand = sorted(set(self.hands[self.current]))
        cells = self.placement_cells(forced)
        edges = self.edges
        restricted = not self.endgame
        # A tile shows each of its colours on two edges, so it fits a space with a
        # neighbour in at most two rotations: draw "the first or second fitting one".
        turns = 2 if edges else 6
        per_cell = len(hand) * turns
        doubled: dict[Cell, list | None] = {}  # cell -> R1's doubled colours; None: R2/R3 forbid
        for _ in range(self.RANDOM_TRIES):
            k = rng.randrange(len(cells) * per_cell)
            cell = cells[k // per_cell]
            tile, nth = hand[k % per_cell // turns], k % turns
            rots = self.space_fits(cell).get(tile, ())
            if nth >= len(rots):
                continue
            rot = rots[nth]
            if restricted:
                if cell not in doubled:
                    ok = self.geometry_ok(cell)
                    doubled[cell] = self._doubled_colours(cell) if ok else None
                rule = doubled[cell]
                if rule is None:
                    continue
                oriented = ORIENTED[tile][rot]
                if any(oriented[d] in colours for d, colours in rule):
                    continue
            return placement_move(tile, cell, rot, forced)
        return rng.choice(self._legal())

    def _doubled_colours(self, cell: Cell) -> list[tuple[int, str]]:
        """For R1: (direction, colours already leading twice into that neighbour) for each
        empty neighbour of ``cell`` that a placement at ``cell`` would make forced."""
        out = []
        for d, nb in enumerate(neighbours(cell)):
            if nb in self.edges or self.counts.get(nb, 0) + 1 < 3:
                continue
            if self.consecutive_forced and not three_in_a_row(nb, AnyOf(self.edges, (cell,))):
                continue  # not forced by the seed's definition
            seen: dict[str, int] = {}
            for d2, nb2 in enumerate(neighbours(nb)):
                e = self.edges.get(nb2)
                if e is not None:
                    colour = e[(d2 + 3) % 6]
                    seen[colour] = seen.get(colour, 0) + 1
            doubled = {c for c, k in seen.items() if k >= 2}
            if doubled:
                out.append((d, doubled))
        return out

    def why_restricted(self, tile: int, cell: Cell, rot: int) -> str | None:
        """Which restriction rule forbids this (fitting) placement, if any."""
        if self.endgame:
            return None
        for nb in neighbours(cell):
            if nb not in self.edges and self.counts.get(nb, 0) + 1 >= 4:
                return f"rule R2: the space {nb[0]},{nb[1]} would have four tiles around it"
        if not self.geometry_ok(cell):
            return (
                "rule R3: controlled side: filling the forced spaces would eventually "
                "create a four-sided space"
            )
        oriented = ORIENTED[tile][rot]
        for d, colours in self._doubled_colours(cell):
            if oriented[d] in colours:
                nb = neighbours(cell)[d]
                return f"rule R1: three {oriented[d]} links would lead into the space {nb[0]},{nb[1]}"
        return None

    def _draws(self) -> list[Move]:
        return [draw_move(t) for t in sorted(self.bag)]

    # -- the turn machine --------------------------------------------------------------
    def _control(self):
        return (self.phase, self.current, self.step, self.starter, self.to_move, self.outcome, self._moves)

    def _restore(self, control) -> None:
        (self.phase, self.current, self.step, self.starter, self.to_move, self.outcome, self._moves) = control

    def _advance(self) -> None:
        """Settle who acts next from (current, step) in the play phase."""
        while True:
            p = self.current
            if self.step != FREE:
                if self.has_placement(p, forced=True):
                    self.to_move, self._moves = p, None  # built when asked for (_legal)
                    return
                if self.step == 1:
                    self.step = FREE
                    continue
                if not self.bag and not any(self.hands):
                    self._finish("all tiles are placed")
                    return
                nxt = (p + 1) % self.num_players
                while not self.hands[nxt]:  # players with empty hands skip their turns
                    nxt = (nxt + 1) % self.num_players
                self.current, self.step = nxt, 1
                continue
            if not self.hands[p]:
                self.step = 3
                continue
            if not self.has_placement(p, forced=False):
                scores = self.scores()
                self.outcome = Outcome(
                    (),
                    tuple(float(s) for s in scores),
                    f"deadlock: player {p + 1} has no legal placement",
                    scored_cells(self.edges, self.colours, scores),
                )
                self.to_move, self._moves = None, []
                return
            self.to_move, self._moves = p, None
            return

    def _finish(self, reason: str) -> None:
        values = {c: best_tracks(self.edges, c) for c in set(self.colours)}
        best = tuple(values[c][0] for c in self.colours)
        second = tuple(values[c][1] for c in self.colours)
        winners = rank_players(best, second, self.game.options["tiebreak"])
        cells = scored_cells(self.edges, self.colours, best)
        self.outcome = Outcome(tuple(winners), tuple(float(s) for s in best), reason, cells)
        self.to_move, self._moves = None, []

    def _apply(self, move: Move):
        control = self._control()
        if move.data[0] == "draw":
            return self._apply_draw(move.data[1], control)
        _, tile, cell, rot, forced = move.data
        self._place(tile, cell, rot)
        self.hands[self.current].remove(tile)
        if not forced:
            self.step = 3
        if self.bag:
            self.to_move, self._moves = CHANCE, None
        else:
            self._advance()
        return ("place", tile, cell, control)

    def _apply_draw(self, tile: int, control):
        if self.phase != PLAY:
            saved = ([list(h) for h in self.hands], set(self.bag), list(self.order_draws))
            self._setup_draw(tile)
            return ("setup", saved, control)
        self.bag.remove(tile)
        insort(self.hands[self.current], tile)
        self._advance()
        return ("draw", tile, control)

    def _setup_draw(self, tile: int) -> None:
        self.bag.remove(tile)
        n = self.num_players
        if self.phase == ORDER:
            self.order_draws.append(tile)
            if self.game.options["setup"] == "casual":
                self.hands[self.current].append(tile)
            self.current += 1
            if self.current < n:
                self._moves = self._draws()
                return
            self.starter = max(range(n), key=lambda p: self.order_draws[p])
            if self.game.options["setup"] == "tournament":
                self.bag.update(self.order_draws)  # the start tiles go back into the bag
            self.phase, self.current = DEAL, self.starter
        else:
            insort(self.hands[self.current], tile)
        # Deal in seat order from the starter until every hand holds 6.
        for i in range(n):
            p = (self.starter + i) % n
            if len(self.hands[p]) < 6:
                self.current = p
                self._moves = self._draws()
                return
        for h in self.hands:
            h.sort()
        self.phase, self.current, self.step = PLAY, self.starter, 1
        self._advance()

    def _revert(self, token) -> None:
        kind = token[0]
        if kind == "place":
            _, tile, cell, control = token
            self._restore(control)
            self._unplace(cell)
            insort(self.hands[self.current], tile)
        elif kind == "draw":
            _, tile, control = token
            self._restore(control)
            self.hands[self.current].remove(tile)
            self.bag.add(tile)
        else:
            _, (hands, bag, order), control = token
            self._restore(control)
            # Copies: an earlier copy of this state may still hold the same token.
            self.hands = [list(h) for h in hands]
            self.bag, self.order_draws = set(bag), list(order)

    # -- copies, text, pictures --------------------------------------------------------
    def _copy_parts(self, new: TantrixState) -> None:
        super()._copy_parts(new)  # the table: board, edges, counts
        new.hands = [list(h) for h in self.hands]
        new.bag = set(self.bag)
        new.order_draws = list(self.order_draws)

    def seat_colours(self) -> list[tuple[str, str]]:
        from .board import COLOUR_NAMES
        from .render import PAINT

        return [(COLOUR_NAMES[c].capitalize(), PAINT[c]) for c in self.colours]

    def text(self) -> str:
        from .render import text

        return text(self)

    def svg(self) -> str:
        from .render import svg

        return svg(self)

    def position(self) -> str:
        from .position import write_position

        return write_position(self)


def rank_players(best, second, tiebreak: str) -> list[int]:
    """The winners from each player's best (and second-best) track; [] for a draw of all.

    Tied players draw: they all count as winners unless every player is tied. Doubles
    partners have equal values and so win or draw together."""
    players = range(len(best))
    winners = [p for p in players if best[p] == max(best)]
    if tiebreak == "second_best":
        top_second = max(second[p] for p in winners)
        winners = [p for p in winners if second[p] == top_second]
    return [] if len(winners) == len(best) else winners


def scored_cells(edges, colours, scores) -> tuple[str, ...]:
    """The cells (``q,r``, the pictures' ``data-cell``) of the line or loop that gave each
    top-scoring player their score: the winners' tracks, or every tied player's in a draw.
    Partners in doubles share a colour and so a track."""
    top = max(scores)
    cells: dict[str, None] = {}  # ordered and without repeats: two colours' tracks may cross
    for colour in dict.fromkeys(c for c, s in zip(colours, scores, strict=True) if s == top and s > 0):
        found = tracks(edges, colour)
        path, _ = max(found, key=lambda t: track_value(*t))  # the first of the best, as scored
        cells.update((f"{q},{r}", None) for q, r in path)
    return tuple(cells)


__all__ = ["TantrixGame", "TantrixState", "rank_players", "scored_cells"]
