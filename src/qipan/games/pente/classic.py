"""The fixed references the ``pente`` agent (``agent.py``) is measured against, pinned by
recorded decisions (``tests/games/pente/test_reference_decisions.py``).

``pente-2026`` (``Pente2026Agent``): the ``pente`` agent before its exact threat-space search
(``threats.py``): VCF instead of the forced wins by threats, a null-move VCF check, PVS.

``pente-classic`` (``PenteClassicAgent``): the ``pente`` agent before the compiled search.

Two players: (1) win at once if possible (five or the 10th captured stone); (2) if the
opponent threatens to win, only moves that remove every such threat (a block or a
capture) are considered; (3) a VCF search: a sequence of fours (and capture-win threats)
that the opponent must answer, ending in a win whatever the answers (captures included);
(4) a null move: if the opponent could force a win by VCF (an open three about to become
an open four, a four-three, ...), only moves that leave them none are considered; (5) an
iterative-deepening alpha-beta over the best-looking of those moves near the stones
(``width`` of them per node, forced replies only when a win is threatened), the position
at the end valued by ``evaluation.evaluate`` (captures and the best move each side has:
lines, captures, capture threats, exposed pairs). ``leaf="sum"`` values a line of play by
the sum of its moves' values instead (weaker: 47.5% against the generic alpha-beta in 40
games, where "eval" won 80%). The VCF gets a quarter of the move's time and the null-move check
about half; the search runs to the deadline.
Four players: one ply, threat-aware (win, else stop the enemy who moves soonest, else the
best heuristic move).

Limits: ``time`` (default 1 s), ``depth`` (search plies), ``iterations`` (nodes, VCF and search together)."""

from __future__ import annotations

from ...agents import clock
from ...agents.base import Agent
from ...core.errors import OptionError, SearchTimeout
from ...core.move import Move
from .agent import PenteAgent
from .evaluation import (
    WIN,
    candidates,
    enemies,
    evaluate,
    max_window,
    move_score,
    point_info,
    threatens_capture_win,
    wins_at,
)
from .rules import PenteState

EVAL_SCALE = 100_000  # evaluate() in [-1, 1] -> search units (a win is WIN)


class PenteClassicAgent(Agent):
    name = "pente-classic"

    def __init__(
        self,
        time=None,
        iterations=None,
        depth=None,
        seed=None,
        width: int = 12,
        vcf_depth: int = 6,
        inner_radius: int = 2,
        even_depths: bool = True,
        leaf: str = "eval",
    ):
        super().__init__(time=time, iterations=iterations, depth=depth, seed=seed)
        if time is None and depth is None and iterations is None:
            self.time = 1.0
        self.width = width
        self.vcf_depth = vcf_depth
        #: How far from the stones inner search nodes look (the root looks 2 away).
        self.inner_radius = inner_radius
        #: Search even depths only: a line of play valued by summed move values that ends
        #: on our own move overrates attack (the opponent's answer is never seen).
        self.even_depths = even_depths
        #: "sum": a line of play is worth the sum of its move values; "eval": the position
        #: at the end of it is valued by ``evaluation.evaluate``.
        if leaf not in ("sum", "eval"):
            raise OptionError(f"leaf must be 'sum' or 'eval', not {leaf!r}")
        self.leaf = leaf
        self.nodes = 0
        self.reached_depth = 0
        self._deadline: float | None = None

    # -- helpers -----------------------------------------------------------------------
    def _tick(self) -> None:
        self.nodes += 1
        if self._deadline is not None and clock.now() > self._deadline:
            raise SearchTimeout
        if self.iterations is not None and self.nodes > self.iterations:
            raise SearchTimeout

    @staticmethod
    def _move(state: PenteState, i: int) -> Move:
        if state.game.max_pairs is None:
            return state.geom.moves[i]
        return state._choices(i)[0]

    def _wins_now(self, state: PenteState, i: int, p: int) -> bool:
        token = state._apply(self._move(state, i))
        won = state.outcome is not None and p in state.outcome.winners
        state._revert(token)
        return won

    def _my_wins(self, state: PenteState, p: int, points: list[int]) -> list[int]:
        return [i for i in points if wins_at(state, i, p) and self._wins_now(state, i, p)]

    # -- entry point ---------------------------------------------------------------------
    def select(self, state: PenteState) -> Move:
        legal = state.legal_moves()
        if len(legal) == 1:
            return legal[0]
        self._deadline = self.deadline()
        self.nodes = 0
        work = state.copy()
        by_point: dict[int, Move] = {}
        for m in legal:
            by_point.setdefault(m.data[0], m)
        if state.num_players == 2:
            i = self._two_players(work)
        else:
            i = self._many_players(work)
        return by_point.get(i) or legal[0]

    # -- four players: one ply ---------------------------------------------------------
    def _many_players(self, state: PenteState) -> int:
        p = state.to_move
        points = candidates(state, 2)
        wins = self._my_wins(state, p, points)
        if wins:
            return wins[0]
        n = state.num_players
        for step in range(1, n):
            q = (p + step) % n
            if q not in enemies(state, p):
                continue
            threats = [i for i in points if wins_at(state, i, q)]
            if threats:
                safe = self._defences(state, p, q, threats, points)
                pool = safe or threats
                return max(pool, key=lambda i: (move_score(state, i, p), -i))
        scored = [(move_score(state, i, p), self.rng.random(), i) for i in points]
        return max(scored)[2]

    def _defences(
        self, state: PenteState, p: int, q: int, threats: list[int], points: list[int]
    ) -> list[int]:
        """Moves of ``p`` after which ``q`` has no immediate win."""
        pool = set(threats) | {i for i in points if state.capture_dirs(i, p)}
        safe = []
        for i in sorted(pool):
            token = state._apply(self._move(state, i))
            if state.outcome is not None:
                ok = p in state.outcome.winners
            else:
                ok = not any(wins_at(state, j, q) for j in candidates(state, 1))
            state._revert(token)
            if ok:
                safe.append(i)
        return safe

    # -- two players ---------------------------------------------------------------------
    def _two_players(self, state: PenteState) -> int:
        p = state.to_move
        opp = 1 - p
        points = candidates(state, 2)
        wins = self._my_wins(state, p, points)
        if wins:
            return wins[0]
        threats = [i for i in points if wins_at(state, i, opp)]
        full = self._deadline
        if threats:
            roots = self._defences(state, p, opp, threats, points) or threats
        else:
            found = self._budgeted(0.25, lambda: self._vcf(state, p, self.vcf_depth))
            if found is not None:
                return found
            roots = self._budgeted(0.45, lambda: self._safe_roots(state, p, points))
        self._deadline = full
        return self._search_root(state, p, roots)

    def _budgeted(self, share: float, task):
        """Run ``task`` with ``share`` of the move's time; None if it runs out."""
        full = self._deadline
        if full is not None:
            self._deadline = min(full, clock.now() + share * (self.time or 0))
        try:
            return task()
        except SearchTimeout:
            return None
        finally:
            self._deadline = full

    def _safe_roots(self, state: PenteState, p: int, points: list[int]) -> list[int] | None:
        """If the opponent, moving now, would have a forcing win (VCF: an open three or a
        four coming), only the moves that leave them none; None when there is no such threat
        (or none is found in time)."""
        opp = 1 - p
        state.to_move = opp  # a null move: what could the opponent force?
        try:
            threat = self._vcf(state, opp, min(self.vcf_depth, 4))
        finally:
            state.to_move = p
        if threat is None:
            return None
        # the points of the threat (its first move and the wins it sets up) and our
        # captures are the likely defences: try them first, then the rest by value
        state.to_move = opp
        token = state._apply(self._move(state, threat))
        urgent = {threat} | {j for j in candidates(state, 2) if wins_at(state, j, opp)}
        state._revert(token)
        state.to_move = p
        urgent = {i for i in urgent if i in points} | {i for i in points if state.capture_dirs(i, p)}
        order = sorted(urgent, key=lambda i: -move_score(state, i, p))
        order += [
            i
            for _, i in sorted(
                ((move_score(state, i, p), i) for i in points if i not in urgent), reverse=True
            )
        ]
        safe = []
        for i in order:
            token = state._apply(self._move(state, i))
            try:
                if state.outcome is not None or self._vcf(state, opp, min(self.vcf_depth, 4)) is None:
                    safe.append(i)
            except SearchTimeout:
                break
            finally:
                state._revert(token)
            if len(safe) >= self.width:
                break
        return safe or [i for i in order if i in urgent] or None

    def _search_root(self, state: PenteState, p: int, roots: list[int] | None) -> int:
        moves = self._ordered(state, p, roots)
        if len(moves) == 1:
            return moves[0][1]
        best = moves[0][1]
        max_depth = self.depth or 6
        self.reached_depth = 0
        try:
            even = self.even_depths and self.leaf == "sum"
            depths = [1, *range(2, max_depth + 1, 2)] if even else range(1, max_depth + 1)
            for depth in depths:
                value, choice = self._root(state, p, moves, depth)
                best = choice
                self.reached_depth = depth
                if value >= WIN // 2:
                    break
                if self._deadline is None and self.iterations and self.nodes >= self.iterations:
                    break
        except SearchTimeout:
            pass
        return best

    def _ordered(self, state: PenteState, p: int, roots: list[int] | None) -> list[tuple[int, int]]:
        pool = roots if roots is not None else candidates(state, 2)
        scored = sorted(((move_score(state, i, p), i) for i in pool), reverse=True)
        return scored[: max(self.width, 1) if roots is None else len(scored)]

    def _root(self, state: PenteState, p: int, moves: list[tuple[int, int]], depth: int) -> tuple[int, int]:
        alpha, beta = -WIN * 2, WIN * 2
        best_value, best = -WIN * 2, moves[0][1]
        for score, i in moves:
            value = self._child(state, p, score, i, depth, alpha, beta)
            if value > best_value:
                best_value, best = value, i
            alpha = max(alpha, value)
        # the best move first for the next, deeper iteration
        moves.sort(key=lambda sm: sm[1] != best)
        return best_value, best

    def _child(self, state: PenteState, p: int, score: int, i: int, depth: int, alpha: int, beta: int) -> int:
        token = state._apply(self._move(state, i))
        try:
            if state.outcome is not None:
                if not state.outcome.winners:
                    return 0
                return WIN + depth if p in state.outcome.winners else -WIN - depth
            if self.leaf == "eval":
                # the position after the move, valued by the static evaluation
                if depth <= 1:
                    self._tick()
                    return int(evaluate(state, p) * EVAL_SCALE)
                return -self._negamax(state, 1 - p, depth - 1, -beta, -alpha)
            if depth <= 1:
                return score
            return score - self._negamax(state, 1 - p, depth - 1, score - beta, score - alpha)
        finally:
            state._revert(token)

    def _negamax(self, state: PenteState, p: int, depth: int, alpha: int, beta: int) -> int:
        self._tick()
        points = candidates(state, self.inner_radius)
        if not points:
            return 0
        infos = [(point_info(state, i, p), i) for i in points]
        for (_, mine, _), i in infos:
            if mine and self._wins_now(state, i, p):
                return WIN + depth
        forced = {i for (_, _, theirs), i in infos if theirs}
        if forced:
            pool = forced | {i for i in points if state.capture_dirs(i, p)}
            scored = sorted(((sc, i) for (sc, _, _), i in infos if i in pool), reverse=True)
        else:
            scored = sorted(((sc, i) for (sc, _, _), i in infos), reverse=True)[: self.width]
        best = -WIN * 2
        for score, i in scored:
            value = self._child(state, p, score, i, depth, alpha, beta)
            if value > best:
                best = value
            if value > alpha:
                alpha = value
            if alpha >= beta:
                break
        return best

    # -- forcing sequences -------------------------------------------------------------
    def _threat_moves(self, state: PenteState, p: int) -> list[int]:
        need = state.game.win_length
        out = []
        for i in candidates(state, 2):
            if max_window(state, i, p) >= need - 2 or threatens_capture_win(state, i, p):
                out.append(i)
        return sorted(out, key=lambda i: -move_score(state, i, p))

    def _vcf(self, state: PenteState, p: int, depth: int) -> int | None:
        """A point starting a sequence of threats that wins against every answer."""
        if depth <= 0:
            return None
        opp = 1 - p
        for t in self._threat_moves(state, p):
            self._tick()
            token = state._apply(self._move(state, t))
            try:
                if state.outcome is not None:
                    if p in state.outcome.winners:
                        return t
                    continue
                near = candidates(state, 2)
                if any(wins_at(state, j, opp) for j in near):
                    continue  # the opponent wins first
                mine = [j for j in near if wins_at(state, j, p)]
                if not mine:
                    continue
                if self._refuted(state, p, opp, mine, near, depth):
                    continue
                return t
            finally:
                state._revert(token)
        return None

    def _refuted(
        self, state: PenteState, p: int, opp: int, mine: list[int], near: list[int], depth: int
    ) -> bool:
        """Whether some answer of ``opp`` stops every win of ``p`` that follows."""
        answers = set(mine) | {j for j in near if state.capture_dirs(j, opp)}
        for a in sorted(answers):
            token = state._apply(self._move(state, a))
            try:
                if state.outcome is not None:
                    if p not in state.outcome.winners:
                        return True
                    continue
                if self._my_wins(state, p, candidates(state, 1)):
                    continue
                if self._vcf(state, p, depth - 1) is None:
                    return True
            finally:
                state._revert(token)
        return False


class Pente2026Agent(PenteAgent):
    """The ``pente`` agent's stages as they were in 2026 (VCF where it now searches forced
    wins by threats). Its two-player stages are its own frozen copies below; the plumbing
    (limits, node budgets, root moves) and the compiled search are the live agent's, so the
    recorded decisions show any change to them."""

    name = "pente-2026"
    forced_wins = False

    # The stages below are frozen copies of the live agent's as they were when it was pinned,
    # so that a change to ``agent.py`` cannot change what this reference plays under a time
    # limit (the recorded decisions pin it under a node limit only).
    VCF_SHARE, VCT_SHARE, SAFETY_SHARE = 0.10, 0.15, 0.20

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
        if self.vcf_depth:
            found = self._run("vcf", self.VCF_SHARE, lambda: searcher.vcf(s, self.vcf_depth))
            if found >= 0 and not searcher.aborted:
                self.stage = "vcf"
                return found
        if self.vct_depth and not self._out_of_time():
            found = self._run(
                "vcf", self.VCT_SHARE, lambda: searcher.vct(s, self.vct_depth, min(self.vcf_depth, 6))
            )
            if found >= 0 and not searcher.aborted:
                self.stage = "vct"
                return found
        roots = roots[: self.root_width]
        if self.vcf_depth and not self._out_of_time():
            roots = self._safe(s, roots)
        self.stage = "alphabeta"
        return self._deepen(s, roots)[0]

    def _safe(self, s, roots: list[int]) -> list[int]:
        searcher = self._searcher
        p = int(s[0])
        s[0] = 1 - p  # a null move: what could the opponent force?
        try:
            threat = self._run("vcf", self.SAFETY_SHARE / 3, lambda: searcher.vcf(s, min(self.vcf_depth, 8)))
        finally:
            s[0] = p
        if threat < 0 or searcher.aborted:
            return roots
        verdicts = self._run(
            "vcf", self.SAFETY_SHARE, lambda: searcher.safe(s, roots, min(self.vcf_depth, 8))
        )
        safe = [m for m, ok in zip(roots, verdicts, strict=True) if ok == 1]
        unknown = [m for m, ok in zip(roots, verdicts, strict=True) if ok == -1]
        return safe + unknown or roots

    def _deepen(self, s, roots: list[int]) -> list[int]:
        from .kernel_search import WIN

        searcher = self._searcher
        for depth in range(1, (self.depth or 40) + 1):
            if self._out_of_time():
                break
            start = clock.now()
            floor = 40 * len(roots) if depth == 1 else 1
            index, values = self._run(
                "ab", 1.0, lambda d=depth, r=roots: searcher.iterate(s, d, self.width, r), floor
            )
            if searcher.aborted:
                break
            self.reached_depth = depth
            order = sorted(range(len(roots)), key=lambda k: (k != index, -values[k]))
            roots = [roots[k] for k in order]
            if abs(values[index]) >= WIN - 200:
                break
            spent = clock.now() - start
            if self._deadline is not None and clock.now() + 2.5 * spent > self._deadline:
                break
        return roots
