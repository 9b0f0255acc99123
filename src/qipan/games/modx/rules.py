"""MOD X rules (docs/games/modx.md, rules/modx.md): state, move generation, scoring.

A turn is one or more moves by the same player: an X placement (scored automatically),
then one ``J>sq`` move per joker that the scoring removed. The setup is one ``J@sq`` move
per joker by the joker placer (player 1), after which player 2 makes the first placement.

With ``manual_claims`` (the seed's "忽略創造的圖案", rules §3.8) patterns are announced, not
scored by themselves: a placement that completes some may leave them unclaimed (``E4 {}``),
and another player may, on their turn, claim a player's unclaimed patterns by placing an X
next to them (``C1 claim {B2 C3 D4 E5 F6}``), scoring them as if they had made them.
"""

from __future__ import annotations

import random

from ...core.errors import IllegalMove, OptionError
from ...core.game import Game, State
from ...core.move import Move
from ...core.outcome import Outcome
from .board import (
    BIT,
    FULL,
    KING_AREA,
    MARKERS,
    NAMES,
    PATTERN_IDS_THROUGH,
    PATTERNS,
    PATTERNS_THROUGH,
    PLAY,
    RELOCATE,
    SETUP,
    SQUARES,
    TARGETS,
    TEAM_TARGET,
    X_PIECES,
    completed,
    completed_with,
    names_of,
    squares_of,
)

#: Moves that never change, made once: joker setup, relocation and non-scoring placement.
SETUP_MOVES = tuple(Move(f"J@{n}", (n,), ("setup", s)) for s, n in enumerate(NAMES))
RELOCATE_MOVES = tuple(Move(f"J>{n}", (n,), ("relocate", s)) for s, n in enumerate(NAMES))
PLACE_MOVES = tuple(Move(n, (n,), ("place", s)) for s, n in enumerate(NAMES))
#: ``manual_claims``: a placement that completes patterns and leaves them unclaimed.
LEAVE_MOVES = tuple(Move(f"{n} {{}}", (n,), ("leave", s)) for s, n in enumerate(NAMES))


def placement_move(s: int, scored: int) -> Move:
    """The placement at ``s``; a scoring one carries its scored squares, ``E4 {C2 D3 E4 F5 G6}``."""
    if not scored:
        return PLACE_MOVES[s]
    name = NAMES[s]
    return Move(f"{name} {{{names_of(scored)}}}", (name,), ("place", s))


def claim_move(s: int, owner: int, claimed: int) -> Move:
    """``manual_claims``: an X on ``s`` claiming ``owner``'s unclaimed patterns ``claimed``."""
    name = NAMES[s]
    return Move(f"{name} claim {{{names_of(claimed)}}}", (name,), ("claim", s, owner))


def _one_click_each(moves: list[Move]) -> list[Move]:
    """Where several moves share a square (claim, leave unclaimed, claim another's), each
    takes its text as a second click (a button), so that a click on the board never stops
    between two moves."""
    on: dict[str, int] = {}
    for m in moves:
        on[m.path[0]] = on.get(m.path[0], 0) + 1
    return [m if on[m.path[0]] == 1 else Move(m.text, (m.path[0], m.text), m.data) for m in moves]


class ModXGame(Game):
    id = "modx"
    title = "MOD X"
    family = "modx"
    action_space = "qipan.games.modx.actions:ModXActions"
    players = (2, 3, 4)

    def __init__(
        self, jokers: int = 5, random_jokers: bool = False, teams: bool = False, manual_claims: bool = False
    ):
        super().__init__(jokers=jokers, random_jokers=random_jokers, teams=teams, manual_claims=manual_claims)
        if not 5 <= jokers <= 8:
            raise OptionError(f"jokers must be 5..8, not {jokers}")
        self.jokers = jokers
        self.random_jokers = random_jokers
        self.teams = teams
        self.manual_claims = manual_claims

    def new_state(self, players: int, rng: random.Random) -> ModXState:
        if self.teams and players != 4:
            raise OptionError(f"teams are played by 4 players (2 against 2), not {players}")
        state = ModXState(self, players)
        if self.random_jokers:
            state.random_setup(rng)
        return state

    def parse(self, text: str, state: State) -> Move:
        from .notation import parse_move

        return parse_move(state, text)

    def position(self, text: str) -> ModXState:
        from .position import read_position

        return read_position(self, text)

    has_evaluation = True

    def evaluate(self, state: State, player: int) -> float:
        from .evaluation import evaluate

        return evaluate(state, player)

    def order_moves(self, state: State, moves: list[Move]) -> list[Move]:
        from .evaluation import order_moves

        return order_moves(state, moves)


class ModXState(State):
    def __init__(self, game: ModXGame, players: int):
        super().__init__(game, players)
        self.teams = game.teams
        self.manual_claims = game.manual_claims
        self.target = TEAM_TARGET if game.teams else TARGETS[players]
        #: Each player's X pieces on the board, and the jokers on the board, as bitmasks.
        self.xs = [0] * players
        self.jokers = 0
        #: Marker stacks, bottom to top, one tuple of player indices per square.
        self.stacks: list[tuple[int, ...]] = [()] * SQUARES
        #: The owner of each square's top marker, or -1.
        self.top = [-1] * SQUARES
        #: The squares whose top marker is each player's, as bitmasks.
        self.topmask = [0] * players
        self.points = [0] * players
        self.supply_x = [X_PIECES] * players
        self.supply_m = [MARKERS] * players
        self.phase = SETUP
        #: Jokers still to place: in the setup, or removed by scoring and waiting to be relocated.
        self.pending = game.jokers
        self.to_move: int | None = 0
        self.outcome: Outcome | None = None
        #: Per player, how many squares of each pattern their X pieces and the jokers cover,
        #: and the patterns at four of five as a bitmask of pattern indices (``_pattern_counts``).
        self._cover: list[list[int]] | None = None
        self._fours: list[int] | None = None

    # -- helpers -----------------------------------------------------------------------
    def friends(self, player: int) -> tuple[int, ...]:
        """The players whose markers count as ``player``'s own (the partner in 2v2)."""
        if self.teams:
            return (player, (player + 2) % 4)
        return (player,)

    def side_points(self, player: int) -> int:
        return sum(self.points[p] for p in self.friends(player))

    def x_mask(self) -> int:
        """Squares holding an X piece of any colour."""
        union = 0
        for x in self.xs:
            union |= x
        return union

    def open_mask(self) -> int:
        """Squares with no X piece and no joker (markers allowed)."""
        return ~(self.x_mask() | self.jokers) & FULL

    def scored_by(self, player: int, s: int) -> int:
        """The squares ``player`` would score by placing an X on the open square ``s``."""
        return completed_with(self.xs[player], self.jokers, s)

    def unclaimed(self, claimer: int) -> list[tuple[int, int, int]]:
        """``manual_claims``: (owner, their complete patterns' union, the open squares next to
        it) for each other player with complete patterns on the board: what ``claimer``
        may claim, by an X on one of those squares."""
        out = []
        open_ = self.open_mask()
        for owner in range(self.num_players):
            if owner == claimer:
                continue
            union = completed(self.xs[owner], self.jokers)
            if union:
                near = 0
                for sq in squares_of(union):
                    near |= KING_AREA[sq]
                out.append((owner, union, near & open_))
        return out

    def threats(self, player: int) -> tuple[int, dict[int, int]]:
        """(already complete union, {open square: union it would complete}) for ``player``:
        only the patterns the incremental counts have at four of five are looked at."""
        own = self.xs[player]
        cover = own | self.jokers
        open_ = self.open_mask()
        near: dict[int, int] = {}
        fours = self._pattern_counts()[1][player]
        while fours:  # ascending pattern index, as a scan of PATTERNS would find them
            low = fours & -fours
            fours ^= low
            pat = PATTERNS[low.bit_length() - 1]
            missing = pat & ~cover
            if missing & open_:
                near[missing] = near.get(missing, 0) | pat
        return completed(own, self.jokers), near

    # -- incremental pattern counts ------------------------------------------------------
    # ``threats`` (and so ``legal_moves``) needs the mover's patterns with exactly one square
    # not covered by their X pieces or a joker. Rather than scan all 168 patterns every ply,
    # each player's cover count per pattern is updated through the patterns of the squares a
    # move changes (about 13 a square). The counts are built on first use, so a position read
    # from text (which sets the masks directly) is counted from what it holds.
    def _pattern_counts(self) -> tuple[list[list[int]], list[int]]:
        if self._cover is None:
            jokers = self.jokers
            self._cover = [[(pat & (x | jokers)).bit_count() for pat in PATTERNS] for x in self.xs]
            self._fours = [sum(1 << i for i, c in enumerate(counts) if c == 4) for counts in self._cover]
        return self._cover, self._fours

    def _shift_cover(self, players, s: int, delta: int) -> None:
        """Square ``s`` became covered (+1) or uncovered (-1) for each of ``players``."""
        cover = self._cover
        if cover is None:  # not built yet: built from the masks when first needed
            return
        ids = PATTERN_IDS_THROUGH[s]
        all_fours = self._fours
        for p in players:
            counts = cover[p]
            fours = all_fours[p]
            for i in ids:
                c = counts[i] + delta
                counts[i] = c
                if c == 4:
                    fours |= 1 << i
                elif c - delta == 4:
                    fours &= ~(1 << i)
            all_fours[p] = fours

    def _shift_joker(self, s: int, delta: int) -> None:
        self._shift_cover(range(self.num_players), s, delta)

    def relocation_ok(self, s: int) -> bool:
        """May the mover put a joker on the open square ``s``? Not if it completes one of their
        patterns, unless it completes an all-joker pattern (an instant win)."""
        own = self.xs[self.to_move]
        jokers = self.jokers | BIT[s]
        cover = own | jokers
        bad = False
        for pat in PATTERNS_THROUGH[s]:
            if pat & jokers == pat:
                return True
            if pat & cover == pat:
                bad = True
        return not bad

    def _all_jokers_through(self, s: int) -> bool:
        return any(pat & self.jokers == pat for pat in PATTERNS_THROUGH[s])

    def random_setup(self, rng: random.Random) -> None:
        """Place every joker at random on a square with no joker next to it."""
        while self.phase == SETUP:
            free = [s for s in range(SQUARES) if not KING_AREA[s] & self.jokers]
            self._apply(SETUP_MOVES[rng.choice(free)])

    # -- the contract ------------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        if self.outcome is not None:
            return []
        if self.phase == SETUP:
            jokers = self.jokers
            return [SETUP_MOVES[s] for s in range(SQUARES) if not KING_AREA[s] & jokers]
        open_squares = squares_of(self.open_mask())
        if self.phase == RELOCATE:
            return [RELOCATE_MOVES[s] for s in open_squares if self.relocation_ok(s)]
        done, near = self.threats(self.to_move)
        moves = [placement_move(s, done | near.get(BIT[s], 0)) for s in open_squares]
        if self.manual_claims:
            # Each scoring placement (not the plain one) may also leave its patterns unclaimed.
            moves += [LEAVE_MOVES[m.data[1]] for m in moves if m is not PLACE_MOVES[m.data[1]]]
            for owner, union, near_squares in self.unclaimed(self.to_move):
                moves += [claim_move(s, owner, union) for s in squares_of(near_squares)]
            moves = _one_click_each(moves)
        return moves

    #: Draws of ``random_move`` per square before it falls back to ``legal_moves``.
    RANDOM_TRIES_PER_SQUARE = 2

    def random_move(self, rng: random.Random) -> Move:
        """Uniform over ``legal_moves()`` without building them: draw a square uniformly
        and keep it if the phase's move is legal there (open, and for a relocation not
        completing one of the mover's patterns through it; in the setup, no joker next to
        it), else draw again. Only the drawn square's scoring is worked out. A run of failed
        draws ends in a draw from ``legal_moves()``: uniform too, so the mixture is uniform."""
        if self.outcome is not None or (self.manual_claims and self.phase == PLAY):
            return super().random_move(rng)  # claims and leaves: drawn from legal_moves()
        phase = self.phase
        blocked = self.jokers if phase == SETUP else ~self.open_mask()
        for _ in range(self.RANDOM_TRIES_PER_SQUARE * SQUARES):
            s = rng.randrange(SQUARES)
            if phase == SETUP:
                if not KING_AREA[s] & blocked:
                    return SETUP_MOVES[s]
            elif not blocked & BIT[s]:
                if phase == PLAY:
                    return placement_move(s, self.scored_by(self.to_move, s))
                if self.relocation_ok(s):
                    return RELOCATE_MOVES[s]
        return rng.choice(self.legal_moves())

    def check_legal(self, move: Move) -> None:
        data = move.data
        shapes = {"setup": 2, "relocate": 2, "place": 2, "leave": 2, "claim": 3}
        if not (isinstance(data, tuple) and data and shapes.get(data[0]) == len(data)):
            raise IllegalMove(f"{move} is not a MOD X move", move)
        kind, s = data[:2]
        self.check_square(kind, s, move)
        if kind == "claim":
            expected = claim_move(s, data[2], self.claimable(s, data[2], move))
        elif kind == "leave":
            expected = LEAVE_MOVES[s]
        elif kind == "place":
            expected = placement_move(s, self.scored_by(self.to_move, s))
        else:
            expected = (SETUP_MOVES if kind == "setup" else RELOCATE_MOVES)[s]
        if expected.text != move.text:
            raise IllegalMove(f"{move} is not a legal move here; did you mean {expected}?", move)

    def check_square(self, kind: str, s: int, move: object = None) -> None:
        """Raise IllegalMove saying why a ``kind`` move (setup, place, relocate) on ``s`` is illegal."""
        name = NAMES[s]
        if kind == "setup":
            if self.phase != SETUP:
                raise IllegalMove("the jokers are already placed", move)
            if KING_AREA[s] & self.jokers:
                raise IllegalMove(f"{name} is next to a joker: setup jokers may not touch", move)
            return
        if self.phase == SETUP:
            raise IllegalMove("place the jokers first (J@square)", move)
        if kind == "relocate" and self.phase != RELOCATE:
            raise IllegalMove("there is no joker to relocate", move)
        if kind in ("leave", "claim") and not self.manual_claims:
            raise IllegalMove("patterns are scored by themselves here: there is nothing to claim", move)
        if kind in ("place", "leave", "claim") and self.phase == RELOCATE:
            raise IllegalMove(f"relocate the removed joker first (J>square), {self.pending} left", move)
        if not self.open_mask() & BIT[s]:
            what = "a joker" if self.jokers & BIT[s] else "an X piece"
            raise IllegalMove(f"{name} is not open: it holds {what}", move)
        if kind == "relocate" and not self.relocation_ok(s):
            raise IllegalMove(f"a joker on {name} would complete your own pattern", move)
        if kind == "leave" and not self.scored_by(self.to_move, s):
            raise IllegalMove(f"{name} completes no pattern: there is nothing to leave unclaimed", move)

    def claimable(self, s: int, owner: object, move: object = None) -> int:
        """The patterns of ``owner`` an X on the open square ``s`` claims (IllegalMove why not)."""
        if not isinstance(owner, int) or not 0 <= owner < self.num_players or owner == self.to_move:
            raise IllegalMove("a claim takes another player's patterns", move)
        for who, union, near in self.unclaimed(self.to_move):
            if who == owner:
                if not near & BIT[s]:
                    raise IllegalMove(f"{NAMES[s]} is not next to the patterns claimed", move)
                return union
        raise IllegalMove(f"player {owner + 1} has no unclaimed pattern", move)

    def _apply(self, move: Move):
        kind, s = move.data[:2]
        saved = (self.phase, self.pending, self.to_move, self.outcome)
        player = self.to_move
        if kind == "setup":
            self.jokers |= BIT[s]
            self._shift_joker(s, 1)
            self.pending -= 1
            if self.pending == 0:
                self.phase = PLAY
                self.to_move = 1 % self.num_players
            return (saved, s)
        if kind == "relocate":
            self.jokers |= BIT[s]
            self._shift_joker(s, 1)
            self.pending -= 1
            if self._all_jokers_through(s):
                pattern = next(pat for pat in PATTERNS_THROUGH[s] if pat & self.jokers == pat)
                self._finish(self.friends(player), "completed a pattern of jokers only", pattern)
            elif self.pending == 0:
                self._end_turn()
            else:
                self._drop_stuck_jokers()
            return (saved, s)
        self.xs[player] |= BIT[s]
        self._shift_cover((player,), s, 1)
        self.supply_x[player] -= 1
        owner = move.data[2] if kind == "claim" else player
        scored = completed(self.xs[owner], self.jokers) if kind != "leave" else 0
        if not scored:
            self._end_turn()
            return (saved, s, 0, 0, (), owner)
        return (saved, s) + self._score(player, owner, scored) + (owner,)

    def _score(self, player: int, owner: int, scored: int):
        """``player`` scores the squares ``scored`` of ``owner``'s patterns (their own, or
        claimed): jokers are set aside, ``owner``'s X pieces go back to ``owner``'s supply
        and ``player``'s markers go on (rules §3.5 step 4)."""
        removed_jokers = scored & self.jokers
        own = scored & self.xs[owner]
        self.jokers ^= removed_jokers
        self.xs[owner] ^= own
        if self._cover is not None:
            for sq in squares_of(removed_jokers):
                self._shift_joker(sq, -1)
            for sq in squares_of(own):
                self._shift_cover((owner,), sq, -1)
        self.supply_x[owner] += own.bit_count()
        friends = self.friends(player)
        cover, empty = [], []
        for sq in squares_of(own):
            t = self.top[sq]
            if t == -1:
                empty.append(sq)
            elif t not in friends:
                cover.append(sq)
        placed = []
        for sq in cover + empty:
            if self.supply_m[player] == 0:
                break
            below = self.top[sq]
            self.stacks[sq] = self.stacks[sq] + (player,)
            self.top[sq] = player
            self.topmask[player] |= BIT[sq]
            self.points[player] += 1
            if below >= 0:
                self.points[below] -= 1
                self.topmask[below] ^= BIT[sq]
            self.supply_m[player] -= 1
            placed.append((sq, below))
        if self.side_points(player) >= self.target:
            self._finish(friends, f"reached {self.target} points", scored)
        elif removed_jokers:
            self.phase = RELOCATE
            self.pending = removed_jokers.bit_count()
            self._drop_stuck_jokers()
        else:
            self._end_turn()
        return (removed_jokers, own, tuple(placed))

    def _drop_stuck_jokers(self) -> None:
        """A joker with no legal square leaves play (rules §3.5 step 6)."""
        if not any(self.relocation_ok(s) for s in squares_of(self.open_mask())):
            self.pending = 0
            self._end_turn()

    def _end_turn(self) -> None:
        self.phase = PLAY
        self.pending = 0
        if min(self.supply_x) == 0 or min(self.supply_m) == 0:
            self._finish_on_points()
        else:
            self.to_move = (self.to_move + 1) % self.num_players

    def _finish(self, winners, reason: str, cells: int) -> None:
        """``cells``: the squares that decided it (the outcome names them for the pictures)."""
        names = tuple(NAMES[s] for s in squares_of(cells))
        self.outcome = Outcome(tuple(sorted(winners)), tuple(float(p) for p in self.points), reason, names)
        self.to_move = None

    def _finish_on_points(self) -> None:
        who = "markers" if min(self.supply_m) == 0 else "X pieces"
        sides = {tuple(sorted(self.friends(p))): self.side_points(p) for p in range(self.num_players)}
        best = max(sides.values())
        leaders = [side for side, pts in sides.items() if pts == best]
        if len(leaders) > 1:
            self.outcome = Outcome(
                (), tuple(float(p) for p in self.points), f"a player ran out of {who}: tie"
            )
            self.to_move = None
        else:
            # On points: the squares whose top markers are the winning side's are its score.
            markers = 0
            for p in leaders[0]:
                markers |= self.topmask[p]
            self._finish(leaders[0], f"a player ran out of {who}: highest score", markers)

    def _revert(self, token) -> None:
        saved, s = token[0], token[1]
        self.phase, self.pending, self.to_move, self.outcome = saved
        if len(token) == 2:  # a joker placed in the setup or relocated
            self.jokers &= ~BIT[s]
            self._shift_joker(s, -1)
            return
        player = saved[2]
        removed_jokers, own, placed, owner = token[2:]
        for sq, below in reversed(placed):
            self.stacks[sq] = self.stacks[sq][:-1]
            self.top[sq] = below
            self.topmask[player] ^= BIT[sq]
            self.points[player] -= 1
            if below >= 0:
                self.points[below] += 1
                self.topmask[below] |= BIT[sq]
            self.supply_m[player] += 1
        self.xs[owner] |= own
        self.supply_x[owner] -= own.bit_count()
        self.jokers |= removed_jokers
        self.xs[player] &= ~BIT[s]
        self.supply_x[player] += 1
        if self._cover is not None:
            for sq in squares_of(own):
                self._shift_cover((owner,), sq, 1)
            for sq in squares_of(removed_jokers):
                self._shift_joker(sq, 1)
            self._shift_cover((player,), s, -1)

    def key(self):
        return (tuple(self.xs), self.jokers, tuple(self.stacks), self.phase, self.pending, self.to_move)

    def _copy_parts(self, new: ModXState) -> None:
        for name in ("xs", "stacks", "top", "topmask", "points", "supply_x", "supply_m"):
            setattr(new, name, list(getattr(self, name)))
        if self._cover is not None:
            new._cover = [list(counts) for counts in self._cover]
            new._fours = list(self._fours)

    def seat_colours(self) -> list[tuple[str, str]]:
        from .board import COLOURS
        from .render import FILL

        return [(COLOURS[p].capitalize(), FILL[p]) for p in range(self.num_players)]

    def text(self) -> str:
        from .render import text

        return text(self)

    def svg(self) -> str:
        from .render import svg

        return svg(self)

    def position(self) -> str:
        from .position import write_position

        return write_position(self)
