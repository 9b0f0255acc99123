"""The Morris rules: the Game (registry options -> MorrisRules -> states) and one State
class for every variant, driven by MorrisRules and the board's Geometry.

The board is two bitmasks (White, Black). A ply is one Move: a placement, slide or fly plus
the removals it causes (folded into the same ply, rules file §1.1). Legal moves are cached
until the next play/undo; ``_apply`` returns a small token that ``_revert`` uses to restore
the position exactly (the cache is cleared, not kept in the token: that kept every ply's
move list alive for the whole game)."""

from __future__ import annotations

import random
import sys
from dataclasses import fields

from ...core.errors import IllegalMove, OptionError
from ...core.game import Game, State
from ...core.move import Move
from ...core.outcome import Outcome
from .board import COLOUR, Geometry, bits, geometry_for
from .table_rules import supported, whole_game_tabled
from .variant import MorrisRules

_RULE_FIELDS = {f.name for f in fields(MorrisRules)}
#: Registry option name -> MorrisRules field, where they differ.
_RENAMED = {"diagonal_mills": "diagonals", "diagonal_lines": "diagonals"}


class MorrisGame(Game):
    family = "morris"
    action_space = "qipan.games.morris.actions:MorrisActions"
    symmetric_keys = "qipan.games.morris.position:symmetric_keys"
    position_editor = "qipan.games.morris.position:EDITOR"
    puzzle_finder = "qipan.games.morris.puzzles:FINDER"

    def __init__(self, variant: dict, **options):
        super().__init__(**options)
        self.id = variant["id"]
        self.title = variant["title"]
        params = dict(variant["rules"])
        for name, value in options.items():
            field = _RENAMED.get(name, name)
            if field not in _RULE_FIELDS:
                raise OptionError(f"{self.id} has no option {name!r}")
            params[field] = value
        rules = MorrisRules(**params)
        points = {"nine": 24, "twelve": 24, "six": 16, "three": 9}[rules.board]
        if 2 * rules.stones > points:
            raise OptionError(f"stones={rules.stones} is too many for a {points}-point board")
        self.rules = rules
        self.geometry = geometry_for(rules)
        #: The exhaustive solver plays the 3x3 boards perfectly, the retrograde tables the 3x3
        #: and 16-point boards (agent.py).
        self.solved_by = ("morris-solver",) if rules.board == "three" else ()
        if whole_game_tabled(rules):
            self.solved_by += ("morris-perfect",)
        if rules.board == "three":  # the analysis page asks the solver: nothing to build
            self.perfect_value = "qipan.games.morris.solver:probe"
        elif supported(rules) is None:  # ... or the tables, where built
            self.perfect_value = "qipan.games.morris.perfect:probe"
        if rules.board == "six" and whole_game_tabled(rules):
            # 3.7 MB of tables, ~20 s of one core here: a server builds them at start.
            self.perfect_build = "qipan.games.morris.perfect:build"
            self.perfect_build_seconds = 30.0
        self.random_setup = rules.first_player == "random"

    def new_state(self, players: int, rng: random.Random | None) -> MorrisState:
        first = {"white": 0, "black": 1}.get(self.rules.first_player)
        if first is None:
            first = rng.randrange(2)  # first_player=random: the seed decides (the seed's die)
        return MorrisState(self, players, first)

    def parse(self, text: str, state: MorrisState) -> Move:
        return notation.parse_move(state, text)

    def position(self, text: str) -> MorrisState:
        from .position import read_position

        return read_position(self, text)

    has_evaluation = True

    def evaluate(self, state: MorrisState, player: int) -> float:
        return evaluation.evaluate(state, player)

    def order_moves(self, state: MorrisState, moves: list[Move]) -> list[Move]:
        return evaluation.order_moves(state, moves)

    def kernel(self):
        """The compiled twin of these rules (``kernel.py``), every board and option; None
        without ``qipan[fast]`` or with ``QIPAN_KERNELS=0``."""
        from .kernel import kernel_for

        return kernel_for(self)


class MorrisState(State):
    def __init__(self, game, players: int, first: int = 0):
        super().__init__(game, players)
        t: Geometry = game.geometry
        self.t = t
        self.rules = t.rules
        self.bb = [0, 0]  # stones on board per player
        self.hand = [self.rules.stones, self.rules.stones]
        self.to_move: int | None = first
        self.outcome: Outcome | None = None
        self.nmove = 0  # slides/flies since the last removal or placement
        self.plies = 0  # plies since the start (for max_plies)
        self.pending = 0  # full-board removals still to make (full_board=each_removes)
        self.reps: dict[int, int] = {}
        self._moves: list[Move] | None = None
        #: Captures are mills only (no 直棋 擔/槓, no line-wins goal): the fast path.
        r = self.rules
        self._plain_mills = r.goal == "mill" and r.captures == "mill"
        self._take_one = self._plain_mills and r.take_per_mill == 1
        self._placement_only = r.placement_only
        self._line_goal = r.goal == "line"
        self._repetition = r.repetition_count is not None
        #: Fly with at most this many stones on the board (hand empty).
        self._fly_at = self.t.n if r.move_anywhere else (-1 if r.flying is None else r.flying)
        #: A side can have fewer than three stones without a removal only if it starts so.
        self._few_stones = r.stones < 3
        #: The draw rules as limits a count reaches (a rule that is off never: sys.maxsize).
        self._nmove_limit = r.n_move or sys.maxsize
        self._plies_limit = sys.maxsize if r.max_plies is None else r.max_plies
        self._count_position()

    # -- position key --------------------------------------------------------------------
    def key(self) -> int:
        """The exact position as one int: both boards, hands, side to move, pending removals."""
        return (
            self.bb[0]
            | self.bb[1] << 24
            | self.hand[0] << 48
            | self.hand[1] << 53
            | (self.to_move if self.to_move is not None else 2) << 58
            | self.pending << 60
        )

    def _count_position(self) -> int | None:
        """Count the current position for the repetition rule; return its key if counted."""
        if self.rules.repetition_count is None or self.hand[0] or self.hand[1] or self.outcome:
            return None  # with stones in hand a position can never recur
        k = self.key()
        self.reps[k] = self.reps.get(k, 0) + 1
        return k

    # -- phases --------------------------------------------------------------------------
    def flies(self, player: int) -> bool:
        r = self.rules
        if self.hand[player]:
            return False
        return r.move_anywhere or (r.flying is not None and self.bb[player].bit_count() <= r.flying)

    def phase(self, player: int) -> str:
        if self.pending:
            return "removing"
        if self.hand[player]:
            return "placing"
        return "flying" if self.flies(player) else "moving"

    # -- move generation -----------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        moves = self._moves
        if moves is None:
            moves = self._moves = self._generate() if self.outcome is None else []
        return list(moves)

    def _legal(self) -> list[Move]:
        """The cached list itself (internal use; never mutated)."""
        moves = self._moves
        if moves is None:
            moves = self._moves = self._generate() if self.outcome is None else []
        return moves

    def _generate(self) -> list[Move]:
        t = self.t
        c = self.to_move
        own, opp = self.bb[c], self.bb[1 - c]
        empty = t.full ^ (own | opp)
        if self.pending:
            return self._bare_removals(opp)
        if self._plain_mills:
            hot = (t.known_closers_and_mills.get(own) or t.closers_and_mills(own))[0] & empty
        else:
            hot = self._hot(own, opp, empty)
        plain = empty ^ hot
        pih = t.points_in_half
        # Landings on a hot point: (from, to) pairs that may remove a stone. With plain mills
        # every slide and placement among them closes a mill; a flight is checked below.
        landings: list[tuple[int, int]] = []
        flying = False
        if self.hand[c]:
            ph = t.place_halves
            moves = [*ph[0][plain & 4095], *ph[1][plain >> 12]]
            if hot:
                for to in pih[0][hot & 4095] + pih[1][hot >> 12]:
                    landings.append((-1, to))
        elif self._placement_only:
            return []
        elif own.bit_count() <= self._fly_at:
            moves = []
            flying = True
            b0, b1, b2 = plain & 255, plain >> 8 & 255, plain >> 16 & 255
            fly_tab = t.fly_tab
            targets = pih[0][hot & 4095] + pih[1][hot >> 12]
            for f in pih[0][own & 4095] + pih[1][own >> 12]:
                ft = fly_tab[f]
                moves += ft[0][b0]
                moves += ft[1][b1]
                moves += ft[2][b2]
                for to in targets:
                    landings.append((f, to))
        else:
            src0, src1, dst0, dst1, r0, r1, r2, r3, w1, w2, w3, m = t.slide_plan
            arcs = (src0[own & 4095] | src1[own >> 12]) & (dst0[plain & 4095] | dst1[plain >> 12])
            try:  # the slides of the four runs of arcs, in arc order
                moves = [*r0[arcs & m], *r1[arcs >> w1 & m], *r2[arcs >> w2 & m], *r3[arcs >> w3]]
            except (TypeError, KeyError):  # a row not made yet
                moves = t.slides_after_miss(arcs)
            if self._plain_mills:
                scope, hot_slides = t.hot_scope, t.hot_slides
                # The slides onto points that may close a mill, by look-up.
                for to in pih[0][hot & 4095] + pih[1][hot >> 12]:
                    local = own & scope[to]
                    plain_slides, closers = hot_slides[to].get(local) or t.hot_slide(to, local)
                    if plain_slides:
                        moves += plain_slides
                    if closers:
                        landings += closers
            else:  # 直棋: 擔 and 槓 landings are checked one by one
                nbr = t.nbr
                h = hot
                while h:
                    low = h & -h
                    to = low.bit_length() - 1
                    h ^= low
                    sources = nbr[to] & own
                    while sources:
                        lf = sources & -sources
                        landings.append((lf.bit_length() - 1, to))
                        sources ^= lf
        if not landings:
            return moves
        if self._take_one:
            # The common case: one removal, chosen among the removable stones (found once).
            pairs, simple, rows = t.pairs, t.simple, t.capture_rows
            victims = None
            for f, to in landings:
                if flying:  # a flight closes a mill only if no full pair holds the moved stone
                    own2 = own ^ 1 << f
                    for pm in pairs[to]:
                        if own2 & pm == pm:
                            break
                    else:
                        moves.append(simple[f][to])
                        continue
                if victims is None:
                    removable = self.removable(opp)
                    victims = pih[0][removable & 4095] + pih[1][removable >> 12]
                if victims:
                    row = rows[f][to] or t.capture_row(f, to)
                    moves += map(row.__getitem__, victims)
                else:
                    moves.append(simple[f][to])
        else:
            for f, to in landings:
                moves += self._landing_moves(f, to, own, opp)
        return moves

    def _bare_removals(self, opp: int) -> list[Move]:
        """The removals of the full-board phase (``full_board=each_removes``). Apart from
        ``_generate``: a comprehension there would make ``t`` a closure cell, created on
        every call."""
        return [self.t.move(-1, -1, 1 << v) for v in bits(self.removable(opp))]

    def _hot(self, own: int, opp: int, empty: int) -> int:
        """A superset of the empty points where landing can remove a stone."""
        r = self.rules
        if r.goal != "mill":
            return 0
        hot = self.t.closers(own) & empty
        if r.captures == "zhiqi":
            for mid, ends in self.t.dan_lines:
                if opp & ends == ends:
                    hot |= mid
            for a, m, b in self.t.gang_lines:
                if opp & m:
                    if own & b:
                        hot |= a
                    if own & a:
                        hot |= b
            hot &= empty
        return hot

    def _landing_moves(self, f: int, to: int, own: int, opp: int) -> list[Move]:
        t = self.t
        options = self.capture_options(f, to, own, opp)
        if not options:
            return [t.move(f, to, 0)]
        return [t.move(f, to, r) for r in options]

    def capture_options(self, f: int, to: int, own: int, opp: int) -> list[int]:
        """Every removal set (mask) the mover may choose after landing on ``to`` (from ``f``,
        -1 for a placement). Empty: the ply removes nothing."""
        t, r = self.t, self.rules
        own2 = (own & ~(1 << f) if f >= 0 else own) | 1 << to
        mills = sum(1 for pm in t.pairs[to] if own2 & pm == pm)
        if r.captures == "zhiqi":
            out: list[int] = []
            if mills:  # 直: any one stone (subject to the protection option)
                out.extend(1 << v for v in bits(self.removable(opp)))
            if not (r.dan_gang_moving_only and f < 0):
                for ends in t.dan_at[to]:  # 擔: both ends of the side line
                    if opp & ends == ends and ends not in out:
                        out.append(ends)
                for mid, other in t.gang_at[to]:  # 槓: the enemy stone in the middle
                    if opp & mid and own2 & other and mid not in out:
                        out.append(mid)
            return out
        if not mills:
            return []
        first = self.removable(opp)
        if r.take_per_mill == 1 or mills == 1:
            return [1 << v for v in bits(first)]
        out = []
        for v in bits(first):  # take 2: the second removal is chosen after the first
            rest = opp & ~(1 << v)
            second = self.removable(rest) if rest else 0
            if not second:
                out.append(1 << v)
            for w in bits(second):
                pair = 1 << v | 1 << w
                if pair not in out:
                    out.append(pair)
        return out

    def in_mills(self, stones: int) -> int:
        """The stones of ``stones`` that stand in a mill."""
        return self.t.in_mills(stones)

    def removable(self, opp: int) -> int:
        """The enemy stones a removal may take (mill protection, rules file §1.3 item 5)."""
        protection = self.rules.protection
        if protection == "no_mill_protection" or not opp:
            return opp
        t = self.t  # in_mills(opp), without the call: a removal is asked for in a third of the plies
        mills = (t.known_closers_and_mills.get(opp) or t.closers_and_mills(opp))[1]
        if not mills:
            return opp
        free = opp & ~mills
        if free:
            return free
        return opp if protection == "fallback" else 0

    # -- playing -------------------------------------------------------------------------
    def check_legal(self, move: Move) -> None:
        moves = self._moves
        if moves is None:
            moves = self._legal()
        for m in moves:
            if m is move:
                return
        if move in moves:
            return
        raise IllegalMove(notation.explain_illegal(self, move.text), move)

    def _apply(self, move: Move):
        data = move.data
        f, to, removed, fb, tb = data
        c = self.to_move
        # No outcome in the token: a move is applied only while the game is on (play refuses
        # a finished game, whose to_move is None), so undo sets the outcome back to None.
        token = (data, c, self.nmove, self.pending, None)
        if tb:
            if fb:
                self.bb[c] ^= fb | tb
                self.nmove += 1
            else:
                self.bb[c] |= tb
                self.hand[c] -= 1
                self.nmove = 0
        else:
            self.pending -= 1
        if removed:
            self.bb[1 - c] ^= removed
            self.nmove = 0
        self.plies += 1
        self._moves = None
        self._settle(c, to, f, removed)
        if self._repetition and self.outcome is None:
            k = self._count_position()
            if k is not None:
                token = token[:4] + (k,)
                if self.reps[k] >= self.rules.repetition_threshold:
                    self._end(Outcome.draw(2, "repetition of the position"))
        return token

    def _revert(self, token) -> None:
        (f, to, removed, fb, tb), c, nmove, pending, rep_key = token
        if rep_key is not None:
            n = self.reps[rep_key] - 1
            if n:
                self.reps[rep_key] = n
            else:
                del self.reps[rep_key]
        bb = self.bb
        if removed:
            bb[1 - c] |= removed
        if tb:
            if fb:
                bb[c] ^= fb | tb
            else:
                bb[c] ^= tb
                self.hand[c] += 1
        self.nmove = nmove
        self.pending = pending
        self.plies -= 1
        self.outcome = None
        self.to_move = c
        self._moves = None

    def _end(self, outcome: Outcome) -> None:
        self.outcome = outcome
        self.to_move = None
        self._moves = []

    def _settle(self, c: int, to: int, moved_from: int = -1, removed: int = 1) -> None:
        """After player ``c``'s ply (``moved_from``: the point a stone slid or flew from to
        ``to``, -1 for none; ``removed`` nonzero: it removed a stone, or may have: a set-up
        position): decide who moves next, or how the game ended."""
        o = 1 - c
        bb = self.bb
        if self._line_goal:
            # The stone on ``to`` stands in a line (a plain test: a generator expression over
            # ``bb`` and ``c`` would make both closure cells, created on every call).
            if (
                to >= 0
                and (moved_from >= 0 or not self.rules.line_moving_only)
                and self.t.in_mills(bb[c]) >> to & 1
            ):
                self._end(Outcome.win((c,), 2, "three in a line"))
                return
        elif (removed or self._few_stones) and self.hand[o] + bb[o].bit_count() < 3:
            self._end(Outcome.win((c,), 2, f"{COLOUR[o]} has fewer than three stones"))
            return
        self.to_move = o
        if self.pending:
            return
        if not self.hand[o]:
            t = self.t
            own = bb[o]
            if moved_from >= 0 and t.nbr[moved_from] & own:
                # The point just left is empty and next to a stone of o: the board is not
                # full and o can slide (the common case, without the full test below).
                pass
            elif self._placement_only:
                if not self.hand[c]:
                    self._end(Outcome.draw(2, "all stones placed without a line"))
                    return
            elif not (empty := t.full ^ (own | bb[c])):
                r = self.rules
                if r.full_board == "draw":
                    self._end(Outcome.draw(2, "the board is full"))
                    return
                if r.full_board == "each_removes":
                    self.pending = 2
                    return
                self._end(Outcome.win((c,), 2, f"the board is full: {COLOUR[o]} cannot move"))
                return
            elif own.bit_count() > self._fly_at:  # slides only: blocked?
                nh = t.nbr_halves
                if not (nh[0][own & 4095] | nh[1][own >> 12]) & empty:
                    self._end(Outcome.win((c,), 2, f"{COLOUR[o]} cannot move"))
                    return
        if self.nmove >= self._nmove_limit:
            self._end(Outcome.draw(2, f"{self.rules.n_move} plies without a removal"))
        elif self.plies >= self._plies_limit:
            self._end(Outcome.draw(2, f"the {self.rules.max_plies}-ply cap"))

    # -- copies --------------------------------------------------------------------------
    def _copy_parts(self, new: MorrisState) -> None:
        # The cached move list is never mutated (legal_moves hands out copies), so it is shared.
        new.bb = self.bb[:]
        new.hand = self.hand[:]
        new.reps = dict(self.reps)

    # -- views ---------------------------------------------------------------------------
    def stones(self, player: int) -> list[str]:
        return [self.t.names[i] for i in bits(self.bb[player])]

    def at(self, point: str) -> int | None:
        """0 (White), 1 (Black) or None at ``point``."""
        i = self.t.index[point]
        if self.bb[0] >> i & 1:
            return 0
        if self.bb[1] >> i & 1:
            return 1
        return None

    def seat_colours(self) -> list[tuple[str, str]]:
        return [("White", "#f7f3ea"), ("Black", "#1d1d1d")]  # as render.py draws the stones

    def text(self) -> str:
        from .render import text

        return text(self)

    def svg(self) -> str:
        from .render import svg

        return svg(self)

    def position(self) -> str:
        from .position import write_position

        return write_position(self)


# evaluation.py and notation.py read States but import only board.py (rules.py for type hints),
# so they are imported once, last: evaluate is on the path of every search leaf, parse_move on
# that of every played text (an import inside the method cost ~1.5 µs a call).
from . import evaluation, notation  # noqa: E402
