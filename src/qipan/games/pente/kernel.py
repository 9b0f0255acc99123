"""The compiled twin of the Pente rules (Numba, ``qipan[fast]``): legal moves, play with
captures, five (or four), capture wins, the tournament rule, exact five (C1), double open tria
(C2), ``max_pairs_per_move``, two or four players and teams; random playouts and perft. Same
semantics as ``PenteState``, over the same padded cell array (``board.py``).

A state ``s`` is an int64 array: a header (``S_*``) then the cells. A move is one int: the
point's index, plus for a ``max_pairs_per_move`` choice ``CHOSEN | dirs_mask << 10`` (bit k:
the pair in direction ``dirs8[k]`` is taken), the reference ``Move.data`` ``(i, dirs)``.
This file holds the rules and ``PenteKernel``, the wrapper that converts states and moves
both ways. The searches over these states are apart: the ``pente`` agent's in
``kernel_search.py`` (and its threat search, ``threats_kernel.py``), the generic agents'
(UCT for ``mcts``, alpha-beta for ``alphabeta``) in ``kernel_search_generic.py``, over the
compiled twin of ``evaluation.evaluate`` in ``evaluation_kernel.py``. The wrapper reaches
them when asked (imported late: they import this file)."""

from __future__ import annotations

from operator import itemgetter
from typing import NamedTuple

from ...fast import njit, njit_signed, np, rand_below, seed_word
from .board import CAPTURE_TARGET, EMPTY, OFF, TRIA

S_TO_MOVE, S_PLACED, S_STONES, S_PENDING, S_MAYBE_LINE, S_LAST, S_CAPS = 0, 1, 2, 3, 4, 5, 6
S_RESULT, S_REASON, S_PLAYERS = 10, 11, 12
HEADER = 16
#: ``s[S_RESULT]``: still playing, a draw, else the bit mask of the winners.
ONGOING, DRAW = -1, 0
(
    R_NONE,
    R_LINE_ANSWERS_TRIA,
    R_CAPTURE_ANSWERS_TRIA,
    R_DOUBLE_TRIA,
    R_LINE,
    R_CAPTURES,
    R_TRIA_BOARD_FULL,
    R_BOARD_FULL,
) = range(8)
P_N, P_CENTRE, P_TOURNAMENT, P_EXACT, P_DOUBLE_TRIA, P_OVERRIDES, P_MAX_PAIRS = range(7)
P_TEAMS, P_WIN_LENGTH, P_COUNT_PARTNER, P_NPOINTS = 7, 8, 9, 10
CHOSEN = 1 << 18
#: TRIA patterns as codes: 1 = own stone, 0 = empty, one row per pattern.
_TRIA = [[1 if c == "x" else 0 for c in pattern] for pattern in TRIA]


class RuleArrays(NamedTuple):
    """The rule arrays of one kernel by name: one argument for the compiled searches (Numba
    compiles a NamedTuple of arrays as fast as the arrays passed one by one)."""

    points: np.ndarray  # the board's points (cell indices)
    inner: np.ndarray  # per cell: 1 within 2 of the centre (the tournament rule's square)
    lines: np.ndarray  # every line of the board, a row each (padded)
    line_len: np.ndarray  # its length
    tria: np.ndarray  # the open-tria patterns (double tria rule)
    dirs8: np.ndarray  # the 8 direction offsets
    par: np.ndarray  # the game's options (``P_*``)


@njit
def _partner(par, players, p):
    return (p + 2) % 4 if par[P_TEAMS] and players == 4 else -1


@njit
def capture_dirs(dirs8, s, i, me):
    """Bit k set when a stone of cell value ``me`` on ``i`` brackets a pair along ``dirs8[k]``."""
    mask = 0
    for k in range(8):
        d = dirs8[k]
        a = s[HEADER + i + d]
        if a != me and EMPTY < a < OFF:
            b = s[HEADER + i + 2 * d]
            if b != me and EMPTY < b < OFF and s[HEADER + i + 3 * d] == me:
                mask |= 1 << k
    return mask


@njit
def _choices(par, dirs8, s, i, me, out, count):
    """Append the moves placing on ``i``: one, or one per allowed choice of pairs."""
    m = par[P_MAX_PAIRS]
    if m == 0:
        out[count] = i
        return count + 1
    mask = capture_dirs(dirs8, s, i, me)
    k = 0
    x = mask
    while x:
        x &= x - 1
        k += 1
    if k <= m:
        out[count] = i
        return count + 1
    sub = mask  # every subset of ``mask`` with exactly m directions
    while sub:
        bits = 0
        y = sub
        while y:
            y &= y - 1
            bits += 1
        if bits == m:
            out[count] = i | CHOSEN | sub << 10
            count += 1
        sub = (sub - 1) & mask
    return count


@njit
def legal_moves(points, inner, dirs8, par, s, out):
    if s[S_RESULT] != ONGOING:
        return 0
    me = s[S_TO_MOVE] + 1
    centre = par[P_CENTRE]
    if s[S_PLACED] == 0 and s[HEADER + centre] == EMPTY:
        out[0] = centre
        return 1
    restrict = par[P_TOURNAMENT] and s[S_PLACED] == s[S_PLAYERS]
    count = 0
    for k in range(par[P_NPOINTS]):
        i = points[k]
        if s[HEADER + i] == EMPTY and not (restrict and inner[i]):
            count = _choices(par, dirs8, s, i, me, out, count)
    return count


@njit
def _run_length(s, i, d, me):
    n = 1
    j = i + d
    while s[HEADER + j] == me:
        n += 1
        j += d
    j = i - d
    while s[HEADER + j] == me:
        n += 1
        j -= d
    return n


@njit
def _line_wins(par, dirs8, s, i, me):
    need = par[P_WIN_LENGTH]
    for k in range(4):
        n = _run_length(s, i, dirs8[k], me)
        if n == need or (n > need and not par[P_EXACT]):
            return True
    return False


@njit
def _has_line(points, par, dirs8, s, me):
    """Whether cell value ``me`` owns a qualifying line anywhere (full scan)."""
    need = par[P_WIN_LENGTH]
    for k in range(par[P_NPOINTS]):
        i = points[k]
        if s[HEADER + i] != me:
            continue
        for q in range(4):
            d = dirs8[q]
            if s[HEADER + i - d] == me:
                continue  # not the start of the run
            n = 1
            j = i + d
            while s[HEADER + j] == me:
                n += 1
                j += d
            if n == need or (n > need and not par[P_EXACT]):
                return True
    return False


@njit
def _open_tria_lines(lines, line_len, tria, s, me):
    """How many board lines hold an open tria of cell value ``me`` (``board.TRIA``)."""
    found = 0
    for li in range(lines.shape[0]):
        length = line_len[li]
        hit = False
        for start in range(length - 5):
            for p in range(tria.shape[0]):
                ok = True
                for q in range(6):
                    c = s[HEADER + lines[li, start + q]]
                    if tria[p, q] == 1:
                        if c != me:
                            ok = False
                            break
                    elif c != EMPTY:
                        ok = False
                        break
                if ok:
                    hit = True
                    break
            if hit:
                break
        if hit:
            found += 1
    return found


@njit
def _win(par, s, p, reason):
    partner = _partner(par, s[S_PLAYERS], p)
    s[S_RESULT] = 1 << p | (1 << partner if partner >= 0 else 0)
    s[S_REASON] = reason
    s[S_TO_MOVE] = -1


@njit
def play(points, lines, line_len, tria, dirs8, par, s, code, undo):
    """Play the legal move ``code`` (``PenteState._apply``). ``undo`` receives the header and
    the cells changed, for ``unplay``."""
    i = code & 1023
    p = s[S_TO_MOVE]
    me = p + 1
    undo[:HEADER] = s[:HEADER]
    changed = 0
    undo[HEADER] = i
    undo[HEADER + 1] = EMPTY
    changed = 1
    s[HEADER + i] = me
    s[S_STONES] += 1
    s[S_PLACED] += 1
    s[S_LAST] = i
    mask = (code >> 10) & 255 if code & CHOSEN else capture_dirs(dirs8, s, i, me)
    if mask:
        partner = _partner(par, s[S_PLAYERS], p)
        counted = 0
        removed = 0
        for k in range(8):
            if not mask >> k & 1:
                continue
            d = dirs8[k]
            for j in (i + d, i + 2 * d):
                c = s[HEADER + j]
                undo[HEADER + 2 * changed] = j
                undo[HEADER + 2 * changed + 1] = c
                changed += 1
                s[HEADER + j] = EMPTY
                removed += 1
                if c - 1 != partner or par[P_COUNT_PARTNER]:
                    counted += 1
                if par[P_EXACT]:
                    s[S_MAYBE_LINE] |= 1 << (c - 1)
        s[S_STONES] -= removed
        s[S_CAPS + p] += counted
    undo[HEADER - 1] = changed
    _decide(points, lines, line_len, tria, dirs8, par, s, i, p, me)


@njit
def unplay(s, undo):
    for k in range(undo[HEADER - 1] - 1, -1, -1):
        s[HEADER + undo[HEADER + 2 * k]] = undo[HEADER + 2 * k + 1]
    s[: HEADER - 1] = undo[: HEADER - 1]


@njit
def _decide(points, lines, line_len, tria, dirs8, par, s, i, p, me):
    made_line = _line_wins(par, dirs8, s, i, me)
    if not made_line and s[S_MAYBE_LINE] >> p & 1:
        made_line = _has_line(points, par, dirs8, s, me)
    s[S_MAYBE_LINE] &= ~(1 << p)
    players = s[S_PLAYERS]
    partner = _partner(par, players, p)
    team = s[S_CAPS + p] + (s[S_CAPS + partner] if partner >= 0 else 0)
    capture_win = team >= CAPTURE_TARGET
    pending = s[S_PENDING]
    if pending >= 0:
        s[S_PENDING] = -1
        if made_line:
            _win(par, s, p, R_LINE_ANSWERS_TRIA)
        elif capture_win and par[P_OVERRIDES]:
            _win(par, s, p, R_CAPTURE_ANSWERS_TRIA)
        else:
            _win(par, s, pending, R_DOUBLE_TRIA)
        return
    if made_line:
        _win(par, s, p, R_LINE)
        return
    if capture_win:
        _win(par, s, p, R_CAPTURES)
        return
    if par[P_DOUBLE_TRIA] and _open_tria_lines(lines, line_len, tria, s, me) >= 2:
        s[S_PENDING] = p
    if s[S_STONES] == par[P_NPOINTS]:
        if s[S_PENDING] >= 0:
            _win(par, s, s[S_PENDING], R_TRIA_BOARD_FULL)
        else:
            s[S_RESULT] = DRAW
            s[S_REASON] = R_BOARD_FULL
            s[S_TO_MOVE] = -1
        return
    s[S_TO_MOVE] = (p + 1) % players


@njit
def _random_move(points, inner, dirs8, par, s, rng, buf):
    """A uniformly random legal move: by rejection over the points when every empty point is
    one move (no ``max_pairs_per_move``), else from the full list."""
    if par[P_MAX_PAIRS] == 0 and s[S_STONES] * 2 < par[P_NPOINTS]:
        centre = par[P_CENTRE]
        if s[S_PLACED] == 0 and s[HEADER + centre] == EMPTY:
            return centre
        restrict = par[P_TOURNAMENT] and s[S_PLACED] == s[S_PLAYERS]
        while True:
            i = points[rand_below(rng, par[P_NPOINTS])]
            if s[HEADER + i] == EMPTY and not (restrict and inner[i]):
                return i
    n = legal_moves(points, inner, dirs8, par, s, buf)
    return buf[rand_below(rng, n)]


@njit
def _playout(points, inner, lines, line_len, tria, dirs8, par, s, rng, buf, undo, cap):
    """Random moves from ``s`` until the game ends or ``cap`` plies (0: no cap); the plies."""
    plies = 0
    while s[S_RESULT] == ONGOING and (cap == 0 or plies < cap):
        code = _random_move(points, inner, dirs8, par, s, rng, buf)
        play(points, lines, line_len, tria, dirs8, par, s, code, undo)
        plies += 1
    return plies


@njit
def playouts(points, inner, lines, line_len, tria, dirs8, par, s0, rng, games, cap):
    """``games`` random playouts from ``s0``: (plies, draws, unfinished, wins per player x4)."""
    buf = np.empty(par[P_NPOINTS] * 8 + 8, np.int64)
    undo = np.empty(HEADER + 2 * 20, np.int64)
    s = s0.copy()
    stats = np.zeros(7, np.int64)
    for _ in range(games):
        s[:] = s0
        stats[0] += _playout(points, inner, lines, line_len, tria, dirs8, par, s, rng, buf, undo, cap)
        r = s[S_RESULT]
        if r == DRAW:
            stats[1] += 1
        elif r == ONGOING:
            stats[2] += 1
        else:
            for p in range(4):
                if r >> p & 1:
                    stats[3 + p] += 1
    return stats


@njit_signed(  # recursive: an explicit signature, see ``qipan.fast.njit_signed``
    "i8(i8[::1], i8[::1], i8[:, ::1], i8[::1], i8[:, ::1], i8[::1], i8[::1], i8[::1], i8, i8[:, ::1], i8[:, ::1])"
)
def _perft(points, inner, lines, line_len, tria, dirs8, par, s, depth, bufs, undos):
    buf = bufs[depth]
    n = legal_moves(points, inner, dirs8, par, s, buf)
    if depth == 1:
        return n
    total = 0
    undo = undos[depth]
    for k in range(n):
        play(points, lines, line_len, tria, dirs8, par, s, buf[k], undo)
        total += _perft(points, inner, lines, line_len, tria, dirs8, par, s, depth - 1, bufs, undos)
        unplay(s, undo)
    return total


@njit
def perft(points, inner, lines, line_len, tria, dirs8, par, s, depth):
    if depth <= 0:
        return 1
    bufs = np.empty((depth + 1, par[P_NPOINTS] * 8 + 8), np.int64)
    undos = np.empty((depth + 1, HEADER + 2 * 20), np.int64)
    return _perft(points, inner, lines, line_len, tria, dirs8, par, s.copy(), depth, bufs, undos)


# -- the Python side -----------------------------------------------------------------------------
class PenteKernel:
    """The compiled twin of one Pente game (board size and options)."""

    def __init__(self, game):
        g = self.geom = game.geom
        self.game = game
        self.points = np.array(g.points, np.int64)
        self.inner = np.zeros(g.size, np.int64)
        for i in g.inner:
            self.inner[i] = 1
        self.dirs8 = np.array(g.dirs8, np.int64)
        longest = max(len(line) for line in g.lines)
        self.lines = np.zeros((len(g.lines), longest), np.int64)
        self.line_len = np.array([len(line) for line in g.lines], np.int64)
        for k, line in enumerate(g.lines):
            self.lines[k, : len(line)] = line
        self.tria = np.array(_TRIA, np.int64)
        par = np.zeros(11, np.int64)
        par[P_N], par[P_CENTRE] = g.n, g.centre
        par[P_TOURNAMENT], par[P_EXACT] = game.tournament, game.exact
        par[P_DOUBLE_TRIA], par[P_OVERRIDES] = game.double_tria, game.capture_win_overrides
        par[P_MAX_PAIRS] = game.max_pairs or 0
        par[P_TEAMS], par[P_WIN_LENGTH] = game.teams, game.win_length
        par[P_COUNT_PARTNER], par[P_NPOINTS] = game.count_partner, len(g.points)
        self.par = par
        self.arrays = RuleArrays(
            self.points, self.inner, self.lines, self.line_len, self.tria, self.dirs8, par
        )
        self._buf = np.empty(len(g.points) * 8 + 8, np.int64)
        self._undo = np.empty(HEADER + 2 * 20, np.int64)
        from .evaluation_kernel import weights  # imported late: it imports this file

        #: The reference evaluation's weights (``evaluate`` and the generic agents' searches).
        self.ev = weights()

    # -- states and moves --------------------------------------------------------------------
    def state(self, ref) -> np.ndarray:
        s = np.zeros(HEADER + self.geom.size, np.int64)
        s[: S_RESULT + 1] = self._header(ref)
        s[S_PLAYERS] = ref.num_players
        s[HEADER:] = ref.cells
        return s

    @staticmethod
    def _header(ref) -> list[int]:
        """The fields of ``ref`` in the kernel state's header, up to ``S_RESULT``."""
        caps = [*ref.captures, *[0] * (4 - ref.num_players)]
        result = ONGOING if ref.outcome is None else sum(1 << p for p in ref.outcome.winners)
        to_move = -1 if ref.to_move is None else ref.to_move
        return [to_move, ref.placed, ref.stones, ref.pending, ref.maybe_line, ref.last, *caps, result]

    @staticmethod
    def snapshot(s) -> tuple[int, ...]:
        """The position fields of ``s`` (header, every cell) for comparing with the rules."""
        return tuple(s[: S_RESULT + 1].tolist() + s[HEADER:].tolist())

    def snapshot_of(self, ref) -> tuple[int, ...]:
        """``snapshot(state(ref))`` without building the state (``qipan.fast.check_kernel``)."""
        return tuple(self._header(ref) + list(ref.cells))

    def moves_of(self, codes: list[int]) -> list:
        """The reference Moves of kernel codes: a plain placement is the board's own Move."""
        if len(codes) > 1:
            try:
                return list(itemgetter(*codes)(self.geom.moves))  # one call: CI compares thousands of games
            except IndexError:  # a choice of pairs (``max_pairs_per_move``)
                pass
        return [self.move(c) for c in codes]

    def legal(self, s) -> list[int]:
        n = legal_moves(self.points, self.inner, self.dirs8, self.par, s, self._buf)
        return self._buf[:n].tolist()

    def play(self, s, code: int) -> None:
        R = self.arrays
        play(R.points, R.lines, R.line_len, R.tria, R.dirs8, R.par, s, code, self._undo)

    def code(self, move) -> int:
        i, dirs = move.data
        if dirs is None:
            return i
        dirs8 = self.geom.dirs8
        return i | CHOSEN | sum(1 << dirs8.index(d) for d in dirs) << 10

    def move(self, code: int):
        g = self.geom
        i = code & 1023
        if not code & CHOSEN:
            return g.moves[i]
        mask = code >> 10 & 255
        return g.choice_move(i, tuple(d for k, d in enumerate(g.dirs8) if mask >> k & 1))

    def outcome(self, s):
        from ...core.outcome import Outcome

        result, reason = int(s[S_RESULT]), int(s[S_REASON])
        if result == ONGOING:
            return None
        players = int(s[S_PLAYERS])
        line_word = "five" if self.game.win_length == 5 else "four"
        if result == DRAW:
            return Outcome.draw(players, "board full")
        text = {
            R_LINE_ANSWERS_TRIA: f"{line_word} in a row answers the double open tria",
            R_CAPTURE_ANSWERS_TRIA: "capture win answers the double open tria",
            R_DOUBLE_TRIA: "double open tria",
            R_LINE: f"{line_word} in a row",
            R_CAPTURES: f"{CAPTURE_TARGET} stones captured",
            R_TRIA_BOARD_FULL: "double open tria (board full)",
        }[reason]
        return Outcome.win([p for p in range(4) if result >> p & 1], players, text)

    # -- bulk work ---------------------------------------------------------------------------
    def perft(self, ref, depth: int) -> int:
        R = self.arrays
        s = self.state(ref)
        return int(perft(R.points, R.inner, R.lines, R.line_len, R.tria, R.dirs8, R.par, s, depth))

    def playouts(self, ref, games: int, seed: int, cap: int = 0):
        """(plies, draws, unfinished, wins of players 1..4) over ``games`` random playouts."""
        R = self.arrays
        rng = np.array([seed_word(seed)], np.uint64)
        s = self.state(ref)
        stats = playouts(R.points, R.inner, R.lines, R.line_len, R.tria, R.dirs8, R.par, s, rng, games, cap)
        return tuple(int(x) for x in stats)

    def warm_up(self, ref) -> None:
        self.perft(ref, 2)
        self.playouts(ref, 1, 1, 20)
        self.mcts(ref, iterations=4, playout_cap=20)
        if ref.num_players == 2:
            self.alphabeta(ref, depth=1)
        from .kernel_search import warm_up  # the pente agent's compiled search, too
        from .threats_kernel import warm_up as warm_up_threats

        warm_up(self, ref)
        warm_up_threats(self, ref)

    #: The searches this kernel runs for the generic agents (``mcts`` for every player count,
    #: ``alphabeta`` for two players, as that agent).
    searches = ("mcts", "alphabeta")
    #: Its optional members (``qipan.fast.KernelOptions``).
    provides = frozenset({"moves_of", "snapshot_of", "perft", "evaluate", "mcts", "uct", "alphabeta"})

    # The searches and the evaluation (imported late: they import this file).
    def evaluate(self, s, player: int) -> float:
        """``game.evaluate`` of the unfinished kernel state ``s`` for ``player``."""
        from .evaluation_kernel import evaluate

        R = self.arrays
        return float(evaluate(R.points, R.inner, R.dirs8, R.par, self.ev, s, player))

    def mcts(self, ref, iterations=None, deadline=None, seed=0, exploration=1.4, playout_cap=400):
        """UCT inside the kernel, as ``mcts`` searches: (the chosen Move, iterations done).
        Stops at ``iterations`` or when the agents' clock passes ``deadline``."""
        from .kernel_search_generic import mcts_move

        return mcts_move(self, ref, iterations, deadline, seed, exploration, playout_cap)

    def uct(self, ref, iterations=None, deadline=None, seed=0, exploration=1.4, playout_cap=400):
        """The tree of ``mcts`` (``uct_kernel.Tree``: ``root_children`` gives the visits) and
        the iterations done."""
        from .kernel_search_generic import mcts

        return mcts(self, ref, iterations, deadline, seed, exploration, playout_cap)

    def alphabeta(self, ref, depth=None, deadline=None, table_bits: int = 18):
        """Alpha-beta inside the kernel with ``alphabeta``'s values (full width,
        ``game.evaluate``), deepening to ``depth`` (default 64) or until the agents' clock
        passes ``deadline`` (``ab_kernel.deepen``): the move of the deepest completed
        iteration, its score for the side to move, that depth and the nodes searched."""
        from .kernel_search_generic import alphabeta

        return alphabeta(self, ref, depth, deadline, table_bits)


def kernel_for(game):
    """The kernel of ``game`` (one per option set), or None when kernels are off."""
    from ...fast import enabled

    if not enabled(game.family):
        return None
    key = tuple(sorted(game.options.items()))
    kernel = _KERNELS.get(key)
    if kernel is None:
        kernel = _KERNELS[key] = PenteKernel(game)
    return kernel


_KERNELS: dict = {}
