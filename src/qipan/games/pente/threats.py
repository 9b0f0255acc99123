"""Threat-space search for two-player Pente: forced wins by continuous threats to win at once.

A *threat* is an attacker's move after which it could win at once: a five (exactly five with
``exact_five``), or captures reaching ten stones (at eight stones any capture threat, at six a
double capture threat). A *forced win in n plies* (n odd): the attacker wins at once (n = 1), or
makes a threat such that every defender reply that could stop it leaves a forced win in n - 2.
The replies that could stop a threat are the points where the attacker would win and every
capture of the defender (it may break the line or take the stone that brackets a pair); a
threat after which the defender can win at once is no threat. Any other reply leaves each of
the attacker's winning points as it was, so a proof holds against every legal defence:
``check_proof`` confirms that through the rules alone (every legal reply at every defender ply).

The attacker's candidate threats, in a fixed order (the twin's too): a point in a window of
five with three own stones and no other stone (it makes four there), a point that captures, a
point that brackets a pair whose far end then captures enough to win. A candidate is kept when,
played, the attacker has winning points and the defender none; threats are tried with the most
winning points first, then by point index.

This is the plain-Python reference (stdlib only). ``threats_kernel.py`` is its compiled twin,
equal on every mined position (``benchmarks/pente_threats.py``); ``forced_win`` uses the twin
when the kernels are on. Two players, ``pente``/``pente-tournament``, with or without
``exact_five``; not ``double_tria`` or ``max_pairs_per_move`` (``supports``)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from ...core.errors import QipanError
from ...core.move import Move
from .board import CAPTURE_TARGET, EMPTY, OFF
from .rules import PenteState

#: The longest forced win searched by default (plies, the attacker's moves and the replies).
MAX_PLIES = 9
#: Rough attacker nodes per CPU second (compiled twin, reference): a time limit as a node budget.
NODES_PER_SECOND = {False: 200_000, True: 3_000}


class SearchAborted(QipanError):
    """The node budget ran out before the search could answer."""


@dataclass(frozen=True)
class ForcedWin:
    """A forced win of ``attacker`` in ``plies`` plies: ``line`` is the attacker's shortest win
    against the replies that hold out longest (point names, attacker first)."""

    attacker: int
    plies: int
    line: tuple[str, ...]

    @property
    def move(self) -> str:
        return self.line[0]

    def as_dict(self) -> dict:
        return {"player": self.attacker, "plies": self.plies, "line": list(self.line)}


def supports(game) -> bool:
    """Whether the search is exact for ``game``'s rules (a two-player game is checked by callers)."""
    return (
        not game.teams
        and not game.double_tria
        and game.max_pairs is None
        and game.win_length == 5
        and not game.capture_win_overrides
    )


def _check_supported(state: PenteState) -> None:
    if state.num_players != 2 or not supports(state.game):
        raise QipanError(
            "the threat-space search plays two-player Pente without double_tria or max_pairs_per_move"
        )


# -- the threats, on the reference rules --------------------------------------------------------
def near_points(state: PenteState) -> list[int]:
    """Empty points next to a stone, by index: every point where a move wins at once is one."""
    cells, dirs8 = state.cells, state.geom.dirs8
    return [i for i in state.empty if any(EMPTY < cells[i + d] < OFF for d in dirs8)]


def immediate_wins(state: PenteState, player: int) -> list[int]:
    """The points where ``player``, moving now, would win at once (line or captures), by index."""
    if state.game.exact and state.maybe_line >> player & 1 and state.has_line(player):
        return list(state.empty)  # a capture cut an overline to five: any move wins
    me, caps = player + 1, state.captures[player]
    return [
        i
        for i in near_points(state)
        if state.line_wins(i, me) or caps + 2 * len(state.capture_dirs(i, player)) >= CAPTURE_TARGET
    ]


def candidates(state: PenteState, player: int) -> list[int]:
    """The points where a move of ``player`` might threaten to win (a superset), by index."""
    g, cells, me = state.geom, state.cells, player + 1
    found: set[int] = set()
    for i in g.points:  # fours: a window of five with three own stones and nothing else
        if cells[i] != me:
            continue
        for d in g.dirs4:
            for start in range(-4, 1):
                window = [i + (start + k) * d for k in range(5)]
                values = [cells[j] for j in window]
                if values.count(me) == 3 and values.count(EMPTY) == 2:
                    found.update(j for j, v in zip(window, values, strict=True) if v == EMPTY)
    need = -(-(CAPTURE_TARGET - state.captures[player]) // 2)  # pairs one move must take to win
    for i in near_points(state):
        if state.capture_dirs(i, player):
            found.add(i)
            continue
        for d in g.dirs8:  # X O O _ : the far point would then capture enough
            a, b, q = cells[i + d], cells[i + 2 * d], i + 3 * d
            if _enemy(a, me) and _enemy(b, me) and cells[q] == EMPTY:
                if len(state.capture_dirs(q, player)) + 1 >= need:
                    found.add(i)
                    break
    return sorted(found)


def _enemy(c: int, me: int) -> bool:
    return c != me and EMPTY < c < OFF


def threats(state: PenteState) -> list[tuple[int, list[int]]]:
    """The side to move's threats: ``(point, the winning points it leaves)``, most winning
    points first, then by point."""
    p = state.to_move
    moves = state.geom.moves
    found = []
    for i in candidates(state, p):
        state.play_unchecked(moves[i])
        try:
            if state.outcome is None and not immediate_wins(state, 1 - p):
                wins = immediate_wins(state, p)
                if wins:
                    found.append((i, wins))
        finally:
            state.undo()
    found.sort(key=lambda t: (-len(t[1]), t[0]))
    return found


def defences(state: PenteState, wins: list[int]) -> list[int]:
    """The side to move's replies that could stop the attacker's winning points ``wins``:
    those points and every capture of the side to move, by index."""
    d = state.to_move
    return sorted(set(wins).union(i for i in near_points(state) if state.capture_dirs(i, d)))


# -- the search --------------------------------------------------------------------------------
class ThreatSearch:
    """Threat-space search from ``state`` (copied) for the side to move. ``nodes`` caps the
    attacker nodes of each call (SearchAborted when spent)."""

    def __init__(self, state: PenteState, nodes: int | None = None):
        _check_supported(state)
        self.state = state.copy()
        self.limit = nodes
        self.nodes = 0
        #: position -> (fewest plies proved to win, most plies proved not to win)
        self.table: dict[tuple, tuple[int, int]] = {}

    def _key(self) -> tuple:
        s = self.state
        return (s.zhash, s.to_move, tuple(s.captures), s.maybe_line)

    def wins_within(self, plies: int) -> bool:
        """Whether the side to move has a forced win in at most ``plies`` plies."""
        s = self.state
        self.nodes += 1
        if self.limit is not None and self.nodes > self.limit:
            raise SearchAborted(f"the threat search ran out of its {self.limit} nodes")
        if s.outcome is not None:
            return False
        if immediate_wins(s, s.to_move):
            return True
        if plies < 3:
            return False
        key = self._key()
        won, lost = self.table.get(key, (MAX_PLIES + 99, -1))
        if won <= plies:
            return True
        if lost >= plies:
            return False
        result = any(self.threat_holds(i, wins, plies) for i, wins in threats(s))
        self.table[key] = (min(won, plies), lost) if result else (won, max(lost, plies))
        return result

    def threat_holds(self, point: int, wins: list[int], plies: int) -> bool:
        """Whether the threat on ``point`` (leaving ``wins``) wins within ``plies``."""
        s = self.state
        moves = s.geom.moves
        s.play_unchecked(moves[point])
        try:
            for reply in defences(s, wins):
                s.play_unchecked(moves[reply])
                try:
                    if s.outcome is not None or not self.wins_within(plies - 2):
                        return False
                finally:
                    s.undo()
            return True
        finally:
            s.undo()

    def shortest(self, max_plies: int = MAX_PLIES) -> int | None:
        """The fewest plies (odd, at most ``max_plies``) of the side to move's forced win, or None."""
        for plies in range(1, max_plies + 1, 2):
            if self.wins_within(plies):
                return plies
        return None

    def winning_moves(self, plies: int) -> list[int]:
        """Every first move (point) of a forced win within ``plies``: the immediate wins, else
        the threats that win, in the search's order."""
        s = self.state
        wins = immediate_wins(s, s.to_move)
        if wins or plies < 3:
            return wins
        return [i for i, w in threats(s) if self.threat_holds(i, w, plies)]

    def line(self, plies: int) -> list[int]:
        """The attacker's first win within ``plies`` (which must exist) against the replies
        that hold out longest, as points."""
        s = self.state
        wins = immediate_wins(s, s.to_move)
        if wins:
            return [wins[0]]
        plies = self.shortest(plies)
        point, wins = next((i, w) for i, w in threats(s) if self.threat_holds(i, w, plies))
        moves = s.geom.moves
        s.play_unchecked(moves[point])
        try:
            longest, reply = -1, None
            for r in defences(s, wins):
                s.play_unchecked(moves[r])
                n = self.shortest(plies - 2)
                s.undo()
                if n > longest:
                    longest, reply = n, r
            s.play_unchecked(moves[reply])
            try:
                return [point, reply, *self.line(longest)]
            finally:
                s.undo()
        finally:
            s.undo()


def as_attacker(state: PenteState, player: int | None) -> PenteState:
    """``state`` with ``player`` to move (a copy when that changes who moves): the opponent's
    threats are searched as if it moved now."""
    if player is None or player == state.to_move:
        return state
    if state.outcome is not None or player not in range(state.num_players):
        raise QipanError(f"no player {player} to search for here")
    flipped = state.copy()
    flipped.to_move = player
    return flipped


def forced_win(
    state: PenteState,
    max_plies: int = MAX_PLIES,
    player: int | None = None,
    nodes: int | None = None,
    compiled: bool | None = None,
) -> ForcedWin | None:
    """The shortest forced win by threats within ``max_plies`` plies of the side to move (or of
    ``player``, as if it moved now), with its line; None when there is none. The compiled twin
    runs when the kernels are on (``compiled=None``); ``nodes`` caps the search (SearchAborted)."""
    state = as_attacker(state, player)
    if state.outcome is not None:
        return None
    search = searcher(state, nodes, compiled)
    plies = search.shortest(max_plies)
    if plies is None:
        return None
    names = state.geom.name
    return ForcedWin(state.to_move, plies, tuple(names[i] for i in search.line(plies)))


def forced_lines(state: PenteState, deadline: float) -> list[dict]:
    """``Game.forced_line``: the side to move's shortest forced win by threats within
    ``MAX_PLIES``, then its opponent's as if it moved now, each found before ``deadline``
    (``time.perf_counter``): ``[{"player", "plies", "line", "to_move"}]``; a side with none
    found in time is left out. Two players only (QipanError otherwise)."""
    _check_supported(state)
    found = []
    if state.outcome is None:
        for player in (state.to_move, 1 - state.to_move):
            attacker = as_attacker(state, player)
            search = searcher(attacker)
            for plies in range(1, MAX_PLIES + 1, 2):
                left = deadline - time.perf_counter()
                if left <= 0:
                    break
                search.limit = search.nodes + max(
                    500, int(left * NODES_PER_SECOND[type(search) is ThreatSearch])
                )
                try:
                    if search.wins_within(plies):
                        line = tuple(state.geom.name[i] for i in search.line(plies))
                        win = ForcedWin(player, plies, line).as_dict()
                        found.append({**win, "to_move": player == state.to_move})
                        break
                except SearchAborted:
                    break
    return found


def winning_moves(state: PenteState, plies: int, compiled: bool | None = None) -> list[str]:
    """Every first move of the side to move's forced wins within ``plies`` (point names)."""
    names = state.geom.name
    return [names[i] for i in searcher(state, None, compiled).winning_moves(plies)]


def searcher(state: PenteState, nodes: int | None = None, compiled: bool | None = None):
    """The compiled twin when asked (or, with None, when the kernels are on), else the reference."""
    _check_supported(state)
    kernel = state.game.kernel() if compiled is not False else None
    if compiled and kernel is None:
        raise QipanError("the compiled threat search needs the kernels (qipan[fast], QIPAN_KERNELS=1)")
    if kernel is None:
        return ThreatSearch(state, nodes)
    from .threats_kernel import CompiledThreatSearch

    return CompiledThreatSearch(kernel, state, nodes)


# -- the brute-force check ---------------------------------------------------------------------
Strategy = Callable[[PenteState, int], Move | None]


def reference_strategy(state: PenteState, plies: int) -> Move | None:
    """The reference search's first move of a forced win within ``plies``, or None."""
    search = ThreatSearch(state)
    if search.shortest(plies) is None:
        return None
    return state.geom.moves[search.line(plies)[0]]


def check_proof(state: PenteState, plies: int, strategy: Strategy = reference_strategy) -> bool:
    """Whether the side to move wins within ``plies`` plies against every legal defence, its
    moves chosen by ``strategy(state, plies_left)``: by the rules alone, every legal reply at
    every defender ply, the rules' outcome deciding. Winning points the attacker had before
    the reply are tried first (through the rules too), which spares the strategy most calls."""
    if state.outcome is not None:
        return False
    return _check(state.copy(), state.to_move, plies, strategy, [])


def _check(state: PenteState, attacker: int, plies: int, strategy: Strategy, hints: list[int]) -> bool:
    moves = state.geom.moves
    for i in hints:
        if state.cells[i] == EMPTY:
            state.play(moves[i])
            won = state.outcome is not None and attacker in state.outcome.winners
            state.undo()
            if won:
                return True
    if plies < 1:
        return False
    move = strategy(state, plies)
    if move is None:
        return False
    state.play(move)  # checked: a strategy's illegal move is an error, not a proof
    try:
        if state.outcome is not None:
            return attacker in state.outcome.winners
        if plies < 3:
            return False
        state.to_move = attacker  # where the attacker could win now: tried first below
        hints = [i for i in near_points(state) if _wins_by_rules(state, i, attacker)]
        state.to_move = 1 - attacker
        for reply in state.legal_moves():
            state.play_unchecked(reply)
            try:
                if state.outcome is not None:
                    return False
                if not _check(state, attacker, plies - 2, strategy, hints):
                    return False
            finally:
                state.undo()
        return True
    finally:
        state.undo()


def _wins_by_rules(state: PenteState, i: int, player: int) -> bool:
    state.play_unchecked(state.geom.moves[i])
    won = state.outcome is not None and player in state.outcome.winners
    state.undo()
    return won
