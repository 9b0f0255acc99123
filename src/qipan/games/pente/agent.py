"""The ``pente`` agent: compiled threat-space search and alpha-beta (``kernel_search.py``).

Two players, per move: (1) a win at once, or the only replies to an opponent's threat to win;
(2) the opening book (``book.py``); (3) the shortest forced win by threats within
``threat_plies`` plies (``threats.py``, exact: fives and capture wins, every defence), else a
longer one by fours (VCF, ``vcf_depth``);
(4) VCT: a forced win by open threes and fours; (5) a null move: when the opponent, moving
now, would have a forced win by threats within ``defence_plies``, only the moves after which it
has none within ``defence_plies + LOOKAHEAD`` are searched (the candidates plus the points of
its threats and every capture; those leaving only a longer one when no move leaves none), else
the same against its VCF;
(6) iterative deepening PVS over the candidates (Zobrist transposition table, killers,
history: its own searcher, not shared with an opponent in the same process; forced replies to
a threat to win searched ``QUIESCE`` plies past the horizon) to the deadline, an iteration cut
by it counting when a move it searched in full beat the previous best; (7) its best moves, best first, until one leaves the opponent no forced win
by threats within ``defence_plies + LOOKAHEAD`` and no VCT (a few of them, in a share of the
time kept from (6)). ``pente-2026`` is this agent as it was before (3), (5) and (7) used the
threat-space search (its VCF instead), kept as a fixed reference (``classic.Pente2026Agent``).
Four players in teams: a paranoid search (the side, with its partner, against the rest);
every player for themselves (``pente-4``): the ``pente-classic`` play, which beat the
paranoid search there.

The kernel cannot read a clock, so each call gets a node budget: the time share left times the
nodes per second measured on the earlier calls (``clock.now()``, wall or CPU seconds).
``iterations`` caps the nodes of the whole move, ``depth`` the alpha-beta depth; ``seed``
breaks ties between near-equal moves. Without the compiled kernels (``QIPAN_KERNELS=0`` or no
Numba) it plays as ``pente-classic`` (``classic.PenteClassicAgent``) with the same limits."""

from __future__ import annotations

from ...agents import clock
from ...agents.base import Agent
from ...core.move import Move
from .rules import PenteState

#: Share of the move's time for each stage before alpha-beta (which gets the rest).
VCF_SHARE, VCT_SHARE, SAFETY_SHARE = 0.10, 0.15, 0.20
#: Share for the own forced win by threats (``threats.py``).
THREAT_SHARE = 0.10
#: Share kept from alpha-beta to check its chosen move against the opponent's forced wins,
#: and how many of its best moves that check may try.
CHECK_SHARE, CHECKED = 0.08, 4
#: Plies past the alpha-beta's horizon where the forced replies to a threat to win are still
#: searched (``kernel_search.TU_QUIESCE``), in this agent's own searcher.
QUIESCE = 1
#: The defence stages look this many plies past ``defence_plies``: a move that leaves the
#: opponent a forced win that much longer is played only when every other one is worse.
LOOKAHEAD = 2


def threats_apply(state: PenteState) -> bool:
    """The threat-space search is exact for these rules (two players, no double tria...)."""
    from .threats import supports

    return state.num_players == 2 and supports(state.game)


class PenteAgent(Agent):
    name = "pente"
    #: False in the fixed reference ``pente-2026`` (``classic.py``): VCF and its null-move
    #: check instead of the forced wins by threats.
    forced_wins = True

    def __init__(
        self,
        time=None,
        iterations=None,
        depth=None,
        seed=None,
        width: int = 12,
        root_width: int = 24,
        vcf_depth: int = 10,
        vct_depth: int = 3,
        book: bool = True,
        threat_plies: int = 11,
        defence_plies: int = 7,
    ):
        super().__init__(time=time, iterations=iterations, depth=depth, seed=seed)
        if time is None and depth is None and iterations is None:
            self.time = 1.0
        self.width = width
        self.root_width = root_width
        self.vcf_depth = vcf_depth
        self.vct_depth = vct_depth
        self.book = book
        self.threat_plies = threat_plies
        self.defence_plies = defence_plies
        #: Nodes per clock second, measured per stage (a first guess until measured).
        self._rate = {"vcf": 40_000.0, "ab": 40_000.0, "threats": 20_000.0}
        self.nodes = 0
        self.reached_depth = 0
        self.stage = ""
        self._deadline: float | None = None

    # -- budgets -------------------------------------------------------------------------
    def _budget(self, kind: str, share: float) -> int:
        """Nodes for a stage: its share of the time left (or of the node limit left)."""
        caps = []
        if self._deadline is not None:
            left = max(self._deadline - clock.now(), 0.0)
            allowed = left if share >= 1 else min(left, share * (self.time or 0))
            caps.append(int(self._rate[kind] * allowed))
        if self.iterations is not None:
            left_nodes = self.iterations - self.nodes
            caps.append(int(left_nodes * share) if share < 1 else left_nodes)
        if not caps:
            return 50_000_000
        return max(min(caps), 1)

    def _run(self, kind: str, share: float, call, minimum: int = 1):
        """Run ``call`` with a stage budget (at least ``minimum`` nodes); measure the node
        rate; count the nodes."""
        searcher = self._searcher
        searcher.budget(max(self._budget(kind, share), minimum))
        start = clock.now()
        result = call()
        spent = clock.now() - start
        if spent > 0.005 and searcher.nodes > 50:
            self._rate[kind] = 0.5 * self._rate[kind] + 0.5 * searcher.nodes / spent
        self.nodes += searcher.nodes
        return result

    def _out_of_time(self) -> bool:
        if self.iterations is not None and self.nodes >= self.iterations:
            return True
        return self._deadline is not None and clock.now() >= self._deadline

    # -- entry point ---------------------------------------------------------------------
    def select(self, state: PenteState) -> Move:
        legal = state.legal_moves()
        if len(legal) == 1:
            return legal[0]
        kernel = state.game.kernel()
        if kernel is None:
            return self._classic().select(state)
        from .kernel_search import searcher_for

        self._deadline = self.deadline()
        self.nodes = 0
        self.reached_depth = 0
        self._kernel = kernel
        self._searcher = searcher_for(kernel, self._tuning())
        self._searcher.new_search()
        s = kernel.state(state)
        if state.num_players == 2:
            code = self._two_players(state, s)
        elif not state.game.teams:
            # every player for themselves: the classic one-ply threat play beat the paranoid
            # search 8 games to 0 (benchmarks/pente_vs_mcts.py --game pente-4)
            return self._classic().select(state)
        else:
            code = self._many_players(s)
        by_point: dict[int, Move] = {}
        for m in legal:
            by_point.setdefault(m.data[0], m)
        return by_point.get(code & 1023) or legal[0]

    def _tuning(self):
        """The compiled search's weights (``kernel_search.tuning``); None, the shared default
        search, for the fixed reference ``pente-2026`` (``forced_wins`` False)."""
        if not self.forced_wins:
            return None
        from .kernel_search import tuning

        return tuning(quiesce=QUIESCE)

    def _classic(self) -> Agent:
        from .classic import PenteClassicAgent

        return PenteClassicAgent(time=self.time, iterations=self.iterations, depth=self.depth, seed=self.seed)

    def _roots(self, s) -> list[int]:
        moves, scores = self._searcher.root_moves(s)
        # the seed breaks ties between near-equal moves (threat bonuses are far larger)
        jittered = sorted(zip(moves, scores, strict=True), key=lambda ms: -(ms[1] + self.rng.randrange(8)))
        return [m for m, _ in jittered]

    # -- two players -------------------------------------------------------------------
    def _two_players(self, state: PenteState, s) -> int:
        searcher = self._searcher
        roots = self._roots(s)
        if len(roots) <= 1:
            self.stage = "forced"
            return roots[0]
        if self.book:
            from .book import book_move

            move = book_move(state)
            if move is not None:
                self.stage = "book"
                return move
        if self.forced_wins:
            found = self._forced_win(state)
            if found is not None:
                self.stage = "threats"
                return found
        if self.vcf_depth and not (self.forced_wins and self._out_of_time()):  # longer wins by fours
            found = self._run("vcf", VCF_SHARE, lambda: searcher.vcf(s, self.vcf_depth))
            if found >= 0 and not searcher.aborted:
                self.stage = "vcf"
                return found
        if self.vct_depth and not self._out_of_time():
            found = self._run(
                "vcf", VCT_SHARE, lambda: searcher.vct(s, self.vct_depth, min(self.vcf_depth, 6))
            )
            if found >= 0 and not searcher.aborted:
                self.stage = "vct"
                return found
        roots = roots[: self.root_width]
        defended = False
        if self.forced_wins and not self._out_of_time():
            roots, defended = self._defended(state, s, roots)
        if self.vcf_depth and not defended and not self._out_of_time():
            roots = self._safe(s, roots)
        self.stage = "alphabeta"
        if not self.forced_wins or defended or not threats_apply(state):
            return self._deepen(s, roots)[0]
        reserve = CHECK_SHARE * (self.time or 0)
        if self._deadline is not None:
            self._deadline -= reserve  # kept for the check of the chosen move
        ordered = self._deepen(s, roots)
        if self._deadline is not None:
            self._deadline += reserve
        return self._unrefuted(state, s, ordered)

    # -- the threat-space search (threats.py) --------------------------------------------
    def _threat_search(self, state: PenteState, share: float):
        """A compiled threat search from ``state`` with a node budget: ``share`` of the time."""
        from .threats_kernel import CompiledThreatSearch

        return CompiledThreatSearch(self._kernel, state, max(self._budget("threats", share), 200))

    def _timed(self, search, call) -> tuple[bool, object]:
        """Run ``call``: (True, its answer), or (False, None) if its budget ran out; measure
        the node rate; count the nodes."""
        from .threats import SearchAborted

        start, before = clock.now(), search.nodes
        done, result = True, None
        try:
            result = call()
        except SearchAborted:
            done = False
        spent = clock.now() - start
        used = search.nodes - before
        if spent > 0.005 and used > 50:
            self._rate["threats"] = 0.5 * self._rate["threats"] + 0.5 * used / spent
        self.nodes += used
        return done, result

    def _forced_win(self, state: PenteState) -> int | None:
        """The first move of the shortest forced win by threats, if one is found in time."""
        if not threats_apply(state):
            return None
        search = self._threat_search(state, THREAT_SHARE)
        _, plies = self._timed(search, lambda: search.shortest(self.threat_plies))
        if plies is None:
            return None
        _, line = self._timed(search, lambda: search.line(plies))
        return line[0] if line else None

    def _defended(self, state: PenteState, s, roots: list[int]) -> tuple[list[int], bool]:
        """If the opponent, moving now, would have a forced win by threats within
        ``defence_plies``: the candidates (the roots, the points of its winning threats, every
        capture) after which it has none within ``_avoided_plies()``, best first, else those
        after which it has only a longer one; all the roots when none is found in time. With
        whether it had one."""
        if not threats_apply(state):
            return roots, False
        from .threats import as_attacker, near_points

        opponent = 1 - state.to_move
        search = self._threat_search(as_attacker(state, opponent), SAFETY_SHARE)
        _, plies = self._timed(search, lambda: search.shortest(self.defence_plies))
        if plies is None:
            return roots, False
        _, theirs = self._timed(search, lambda: search.winning_moves(plies))
        me = state.to_move
        captures = [i for i in near_points(state) if state.capture_dirs(i, me)]
        candidates = list(dict.fromkeys([*roots, *(theirs or []), *captures]))
        safe, later, unknown = [], [], []
        for k, m in enumerate(candidates):
            after = s.copy()
            self._kernel.play(after, m)
            if after[0] < 0:  # the game ended: a win at once is caught before this
                continue
            done, verdict = self._timed(search, lambda a=after: search.shortest(self._avoided_plies(), a))
            if not done:  # out of time: the roots not checked stay, after the safe moves
                unknown = [r for r in candidates[k:] if r in roots]
                break
            if verdict is None:
                safe.append(m)
            elif verdict > self.defence_plies:
                later.append(m)
        return safe + unknown or later + unknown or roots, True

    def _avoided_plies(self) -> int:
        """The longest forced win of the opponent the defence stages avoid leaving."""
        from .threats_kernel import LEVELS

        return min(self.defence_plies + LOOKAHEAD, 2 * LEVELS - 3)

    def _unrefuted(self, state: PenteState, s, ordered: list[int]) -> int:
        """The first of the alpha-beta's best moves (``CHECKED`` of them, best first) after
        which the opponent has no forced win by threats within ``_avoided_plies()`` and no
        VCT (a quiet three that leads to one): the alpha-beta sees a few plies, the threat
        search the whole forced line. Else the first whose refutation is longer than
        ``defence_plies``, else the best move (also when time runs out)."""
        from .threats import as_attacker

        search = self._threat_search(as_attacker(state, 1 - state.to_move), CHECK_SHARE)
        fallback = None  # the first move whose refutation is longer than defence_plies
        for m in ordered[:CHECKED]:
            after = s.copy()
            self._kernel.play(after, m)
            if after[0] < 0:  # the game ended: a win at once is caught before this
                return m
            done, verdict = self._timed(search, lambda a=after: search.shortest(self._avoided_plies(), a))
            if not done:
                break
            if verdict is not None:
                if verdict > self.defence_plies and fallback is None:
                    fallback = m
                continue
            if self.vct_depth and self._opponent_vct(after):
                continue
            if m != ordered[0]:
                self.stage = "checked"
            return m
        return ordered[0] if fallback is None else fallback

    def _opponent_vct(self, after) -> bool:
        """Whether the opponent, to move in ``after``, has a VCT (``kernel_search.vct``: open
        threes too, which the threat-space search leaves out); False when out of time."""
        searcher = self._searcher
        found = self._run(
            "vcf", CHECK_SHARE / CHECKED, lambda: searcher.vct(after, self.vct_depth, min(self.vcf_depth, 6))
        )
        return found >= 0 and not searcher.aborted

    def _safe(self, s, roots: list[int]) -> list[int]:
        """If the opponent, moving now, has a VCF: the roots after which it has none (all of
        them when none is safe or time runs out first)."""
        searcher = self._searcher
        p = int(s[0])
        s[0] = 1 - p  # a null move: what could the opponent force?
        try:
            threat = self._run("vcf", SAFETY_SHARE / 3, lambda: searcher.vcf(s, min(self.vcf_depth, 8)))
        finally:
            s[0] = p
        if threat < 0 or searcher.aborted:
            return roots
        verdicts = self._run("vcf", SAFETY_SHARE, lambda: searcher.safe(s, roots, min(self.vcf_depth, 8)))
        safe = [m for m, ok in zip(roots, verdicts, strict=True) if ok == 1]
        unknown = [m for m, ok in zip(roots, verdicts, strict=True) if ok == -1]
        return safe + unknown or roots

    def _deepen(self, s, roots: list[int]) -> list[int]:
        """Iterative deepening to the deadline: the roots, the chosen move first, then the
        others by the last finished iteration's values. An iteration cut by the deadline
        still counts when a move it searched in full beat the previous best (PVS searches
        that one first, with a full window): its value is exact, the others' bounds."""
        searcher = self._searcher
        max_depth = self.depth or 40
        from .kernel_search import WIN

        for depth in range(1, max_depth + 1):
            if self._out_of_time():
                break
            # the first iteration always finishes: a move chosen by search, not by ordering alone
            floor = 40 * len(roots) if depth == 1 else 1
            index, values = self._run(
                "ab", 1.0, lambda d=depth, r=roots: searcher.iterate(s, d, self.width, r), floor
            )
            if searcher.aborted:
                if index > 0:  # a new best move, proved at this depth
                    roots = [roots[index], *roots[:index], *roots[index + 1 :]]
                break
            self.reached_depth = depth
            order = sorted(range(len(roots)), key=lambda k: (k != index, -values[k]))
            roots = [roots[k] for k in order]
            if abs(values[index]) >= WIN - 200:
                break  # a forced win or loss: deeper search changes nothing
        return roots

    # -- four players ------------------------------------------------------------------
    def _many_players(self, s) -> int:
        searcher = self._searcher
        roots = self._roots(s)
        if len(roots) <= 1:
            return roots[0]
        best = roots[0]
        max_depth = self.depth or 12
        for depth in range(1, max_depth + 1):
            if self._out_of_time():
                break
            start = clock.now()
            value, move = self._run("ab", 1.0, lambda d=depth: searcher.paranoid(s, d, 8))
            if searcher.aborted or move < 0:
                break
            best = move
            self.reached_depth = depth
            spent = clock.now() - start
            if self._deadline is not None and clock.now() + 3 * spent > self._deadline:
                break
        return best
