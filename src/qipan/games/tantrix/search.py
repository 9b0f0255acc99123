"""The search both Tantrix agents run (``TantrixSearch``), for 2-4 players and the puzzles:
the ``tantrix`` agent (``agent.py``) and the frozen ``tantrix-classic`` (``classic.py``)
differ only in the switches and settings each sets on it.

It tries each legal placement (forced fills and free moves alike, so it always respects
the restriction rules: it only ever picks legal moves) and keeps the one with the best
evaluation (``evaluation.evaluate``): its own longest line or loop with live ends against
the best opponent colour's. Killing an opponent's ends counts as much as growing its own.

For forced spaces it looks one step further: after its placement, the next opponent must
fill every forced space they can; the agent assumes they fill them as well as they can
for themselves and scores the position after those fills, so it leaves forced spaces that
hurt the opponent and avoids ones that help them.

It then looks at the opponent's reply (hands are open): for its free moves, best first by
that score, it finds the next opponent's best placement from their hand (the one worst
for us: lengthening their line or cutting ours) and ranks those moves again by a mix of
the one-ply score and the score after that reply.

With a time limit (or a ``playouts`` budget) the few best moves, free moves and forced
fills alike, are then played out at random to the end again and again (``playouts.py``)
and the results blended with the evaluation: the reply check gets ``REPLY_SHARE`` of the
time, the playouts the rest. The ``tantrix`` agent spends them by sequential halving
(``playouts.best_by_halving``: as many candidates as the playouts affordable allow, the
worse half dropped after each phase); ``tantrix-classic`` in uniform rounds.

Once the last tile is drawn the game has no more chance and the agent searches it
(``endgame_move`` below: alpha-beta, deeper as time allows, to the end of the game if it
can; the ``tantrix`` agent evaluates its leaves from the root's tracks, ``EndgameLeaves``). The endgame search lives here because it is one branch of this agent's choice with no
other caller; the playouts are a module of their own (``playouts.py``): a Monte Carlo stage
with its own policy, result scoring and tuning constants, tested on its own.

In the solitaire puzzles it plays a placement of a solver solution (``solitaire_move``)."""

from __future__ import annotations

from functools import cache

from ...agents import clock
from ...agents.base import Agent
from ...core import CHANCE, Option
from ...core.errors import SearchTimeout
from .board import FREE, rotate_cell
from .evaluation import DEFAULT, TrackIndex, Weights, evaluate, order_moves
from .playouts import best_by_halving, best_by_playouts

#: Cells within this distance of a new tile are re-examined by the evaluation.
NEAR = 3
#: Plies the endgame search looks ahead when it has no time limit.
ENDGAME_DEPTH = 2
#: How many of the best free moves are checked against the opponent's reply when there is
#: no time limit (with a time limit: as many as the time allows).
REPLY_CANDIDATES = 14
#: Weight of the change the opponent's best reply makes (the rest is the one-ply score):
#: the generic opponents do not always find it.
REPLY_WEIGHT = 0.5
#: With playouts to follow, the share of a free move's time left for the reply check.
REPLY_SHARE = 0.4
#: How many playouts the evaluation of a candidate is worth in the ``tantrix`` agent's
#: halving (``tantrix-classic``: ``playouts.PRIOR_PLAYOUTS``).
AGENT_PRIOR = 2.0


#: The agent's own parameters (beyond time, iterations, depth and seed), as its AgentSpec
#: declares them: the CLI, the server and the lobby parse them, and so does the constructor.
OPTIONS = (
    Option(
        "lookahead",
        bool,
        True,
        "look beyond one ply: the opponent's forced fills and best reply, playouts, endgame search",
    ),
    Option(
        "weights",
        str,
        "",
        "evaluation weights to change, e.g. live_end=0.5;second=0.4 (empty: the tuned defaults)",
    ),
    Option(
        "playouts",
        int,
        None,
        "random playouts of the best moves per decision (none: as many as the time allows, "
        "none without a time limit; 0: no playouts)",
        minimum=0,
        maximum=1_000_000,
        allow_none=True,
    ),
)
_OPTION = {o.name: o for o in OPTIONS}


class TantrixSearch(Agent):
    """``iterations`` caps how many candidate moves a decision evaluates; ``depth`` is the
    endgame search's depth without a time limit (``ENDGAME_DEPTH`` by default). A subclass
    sets every switch and setting below (``agent.py``, ``classic.py``)."""

    #: Playouts that draw their moves without listing every placement (``playout``).
    fast_playouts: bool
    #: When the reply check had time for one move only, the playouts still choose among
    #: the best one-ply moves instead of the decision ending there with time left.
    rank_unreplied: bool
    #: Judge the candidates on whole rounds of playouts only (``best_by_playouts``).
    whole_rounds: bool
    #: Evaluate the positions a decision looks at incrementally (``_evaluate_after``): the
    #: same values as evaluating each from scratch, in less time.
    incremental: bool
    #: The evaluation weights it plays with; ``weights=`` changes fields of these.
    base_weights: Weights
    #: Spend the playouts by sequential halving over the candidates (``best_by_halving``)
    #: instead of in uniform rounds.
    halving: bool
    #: The share of a free move's time for the reply check when playouts follow.
    reply_share: float
    #: Weight of the drop the opponent's best reply causes.
    reply_weight: float
    #: How many playouts a candidate's evaluation is worth in the halving.
    playout_prior: float
    #: How many of the best-ranked moves the halving plays out.
    candidates: int
    #: The building share of the kernel's playouts (the Python ones: ``BUILD_SHARE``).
    build_share: float
    #: Run the playouts in the compiled kernel (``kernel.py``) when ``game.kernel()`` has
    #: one (``QIPAN_KERNELS=0``: never): the same policy, many times more playouts.
    kernel_playouts: bool

    def __init__(
        self,
        time=None,
        iterations=None,
        depth=None,
        seed=None,
        lookahead: bool = True,
        weights: Weights | str | None = None,
        playouts: int | None = None,
    ):
        super().__init__(time=time, iterations=iterations, depth=depth, seed=seed)
        self.lookahead = _OPTION["lookahead"].coerce(lookahead)
        self.playouts = _OPTION["playouts"].coerce(playouts)
        if weights is None or isinstance(weights, Weights):
            self.weights = weights or self.base_weights
        else:
            self.weights = Weights.parse(_OPTION["weights"].coerce(weights), self.base_weights)
        if self.kernel_playouts:
            warm_up_kernel()  # compiled (or loaded) now, not inside a timed move

    def select(self, state):
        moves = state.legal_moves()
        if len(moves) == 1:
            return moves[0]
        if not hasattr(state, "colours"):
            return solitaire_move(state, self.rng)
        player = state.to_move
        deadline = self.deadline()
        if self.lookahead and state.endgame:
            return endgame_move(
                state, player, deadline, self.depth or ENDGAME_DEPTH, self.weights, self.incremental
            )
        work = state.copy()
        # Whether a cell can still grow changes only near the placed tile: reuse the rest.
        self._base_cache: dict = {}
        evaluate(work, player, self._base_cache, self.weights)
        self._index_tracks(work)
        scored = []
        for i, move in enumerate(order_moves(state, moves)):
            if deadline is not None and i > 0 and clock.now() > deadline:
                break
            if self.iterations is not None and i >= self.iterations:
                break
            work.play_unchecked(move)
            value = self._score(work, player, move)
            work.undo()
            value += self.rng.random() * 1e-6  # break ties without a bias to the move order
            scored.append((value, move))
        scored.sort(key=lambda vm: vm[0], reverse=True)
        if not self.lookahead or len(scored) == 1:
            return scored[0][1]
        if self.playouts is None:
            budget, play_out = None, deadline is not None
        else:
            budget, play_out = self.playouts, self.playouts > 0
        if state.step == FREE:
            reply_deadline = deadline
            if play_out and deadline is not None:
                now = clock.now()
                reply_deadline = now + self.reply_share * (deadline - now)
            replied = self._reply_search(work, player, scored, reply_deadline)
            # One move checked is no ranking: the playouts then take the one-ply one.
            if len(replied) > 1 or not self.rank_unreplied:
                scored = replied
        if not play_out:
            return scored[0][1]
        if self.halving:
            return best_by_halving(
                work,
                player,
                scored,
                self.rng,
                deadline,
                budget,
                self.fast_playouts,
                self.playout_prior,
                self._kernel_runner(work, player),
                self.candidates,
            )
        return best_by_playouts(
            work, player, scored, self.rng, deadline, budget, self.fast_playouts, self.whole_rounds
        )

    def _kernel_runner(self, work, player: int):
        """The compiled playouts of this decision (``kernel.Playouts.after``): one kernel
        state for the decision, the random numbers from the agent's; None for the Python
        playouts (no kernel, or a table the kernel's window cannot hold)."""
        if not self.kernel_playouts:
            return None
        kernel = work.game.kernel()
        if kernel is None:
            return None
        from .kernel import holds

        if not holds(work):
            return None
        runs = kernel.playouts(kernel.state(work), player, self.rng.getrandbits(63))
        runs.fpar[0] = self.build_share
        return runs.after

    def _reply_search(self, work, player: int, scored, deadline):
        """Re-rank the free moves, best first, by the opponent's best reply from their open
        hand: as many as the time allows (``REPLY_CANDIDATES`` without a time limit); moves
        not fully examined in time keep out of the ranking (the best one-ply move stays if
        none was)."""
        opponent = next_opponent(work, player)
        if opponent is None:
            return scored
        ranked = []
        for value, move in scored[: REPLY_CANDIDATES if deadline is None else None]:
            work.play_unchecked(move)
            reply = self._opponent_reply(work, player, opponent, value, move.data[2], deadline)
            work.undo()
            if reply is None:  # out of time
                break
            ranked.append((value + self.reply_weight * reply, move))
        ranked.sort(key=lambda vm: vm[0], reverse=True)
        return ranked or scored[:1]

    def _opponent_reply(self, state, player: int, opponent: int, base: float, cell, deadline):
        """How much the opponent's best placement (free or fill, from their hand, on the
        board after our move) lowers our value; None if the deadline passed meanwhile."""
        if state.outcome is not None:
            return 0.0
        replies = self._placements_after(state, opponent, cell, True)
        replies += self._placements_after(state, opponent, cell, False)
        near_move = self._cache_after(cell)
        hand = state.hands[opponent]
        worst = base
        for i, reply in enumerate(replies):
            if deadline is not None and i % 4 == 0 and clock.now() > deadline:
                return None
            _, tile, at, rot, _ = reply.data
            state._place(tile, at, rot)  # a look at the board only: undone at once
            hand.remove(tile)
            value = self._evaluate_after(state, player, (cell, at), without_near(near_move, at))
            hand.append(tile)
            hand.sort()
            state._unplace(at)
            worst = min(worst, value)
        return worst - base

    def _cache_after(self, cell) -> dict:
        """The decision's liveness cache without the cells near a tile on ``cell`` (a fresh
        dict: the evaluation adds to it); with ``incremental`` filtered once per cell, as
        every tile and turn on one cell asks for the same."""
        if not self.incremental:
            return without_near(self._base_cache, cell)
        far = self._far_caches.get(cell)
        if far is None:
            far = self._far_caches[cell] = without_near(self._base_cache, cell)
        return dict(far)

    def _index_tracks(self, state) -> None:
        """Take ``state`` as the decision's position for ``_evaluate_after`` (and its
        liveness cache, already filled, for ``_cache_after``)."""
        if self.incremental:
            self._tracks = {c: TrackIndex(state.edges, c) for c in set(state.colours)}
            self._geometry: dict = {}  # occupied cells added (sorted) -> closure answers
            self._far_caches: dict = {}  # cell -> the base cache without the cells near it

    def _evaluate_after(self, state, player: int, added, cache: dict) -> float:
        """``evaluate(state, player, cache)`` where ``state`` is the decision's position
        plus tiles on the cells ``added``: with ``incremental`` the tracks come from the
        decision's ``TrackIndex`` and the closure answers are shared by every position
        with the same occupied cells (the same value either way)."""
        if not self.incremental:
            return evaluate(state, player, cache, self.weights)
        found = {c: index.after(state.edges, added) for c, index in self._tracks.items()}
        return evaluate(state, player, cache, self.weights, found, self._closure(added))

    def _closure(self, added) -> dict:
        """The closure answers (cell -> ``geometry_allows``) for the decision's position
        plus tiles on ``added``: they depend on the occupied cells only."""
        key = tuple(sorted(added))
        geometry = self._geometry.get(key)
        if geometry is None:
            geometry = self._geometry[key] = {}
        return geometry

    def _placements_after(self, state, seat: int, cell, forced: bool):
        """``state.placements(seat, forced)`` where ``state`` is the decision's position plus
        a tile on ``cell``; with ``incremental`` the legality test's closure answers are the
        ones ``_evaluate_after`` shares (the same table, so the same answers)."""
        if self.incremental and state._geometry is None:
            state._geometry = self._closure((cell,))
        return state.placements(seat, forced)

    def _score(self, state, player: int, move) -> float:
        cell = move.data[2]
        value = self._evaluate_after(state, player, (cell,), self._cache_after(cell))
        if not self.lookahead or state.outcome is not None or state.to_move != CHANCE:
            return value
        return value + 0.5 * self._opponent_fills(state, player, value, cell)

    def _opponent_fills(self, state, player: int, base: float, cell) -> float:
        """How much the next opponent's compulsory fills (their best choice) change our value.

        Our replacement draw is unknown; only when our turn is over after this placement
        (step 3, nothing left to fill) are the opponent's fills what comes next."""
        if state.step != 3 or not state.bag:
            return 0.0
        nxt = (state.current + 1) % state.num_players
        if state.colours[nxt] == state.colours[player]:
            return 0.0
        fills = self._placements_after(state, nxt, cell, True)
        if not fills:
            return 0.0
        worst = base
        near_move = self._cache_after(cell)
        for fill in fills[:12]:
            _, tile, at, rot, _ = fill.data
            state._place(tile, at, rot)  # a look at the board only: undone at once
            value = self._evaluate_after(state, player, (cell, at), without_near(near_move, at))
            state._unplace(at)
            worst = min(worst, value)
        return worst - base


def warm_up_kernel() -> None:
    """Compile (or load from Numba's disk cache) the kernel's functions once per process:
    every Tantrix kernel shares them, so one game's warm-up serves all."""
    global _WARM
    if not _WARM:
        from ...fast import warm_up

        _WARM = bool(warm_up(["tantrix"]))  # empty (so tried again later) with kernels off


_WARM = False


@cache
def near_cells(cell) -> frozenset:
    """The cells within ``NEAR`` of ``cell`` (memoised: every placement a decision looks at
    asks for its own)."""
    q, r = cell
    return frozenset(
        (q + dq, r + dr)
        for dq in range(-NEAR, NEAR + 1)
        for dr in range(-NEAR, NEAR + 1)
        if abs(dq + dr) <= NEAR
    )


def without_near(cache: dict, cell) -> dict:
    """A copy of ``cache`` without the cells within ``NEAR`` of ``cell``, in the same order:
    a filtered copy of a small cache, a copy and deletions of a large one (no distance for
    every cell)."""
    near = near_cells(cell)
    if len(cache) < len(near):
        return {c: v for c, v in cache.items() if c not in near}
    out = dict(cache)
    pop = out.pop
    for c in near:
        pop(c, None)
    return out


def next_opponent(state, player: int) -> int | None:
    """The next seat after ``player`` with another colour and tiles in hand."""
    n = state.num_players
    for k in range(1, n):
        seat = (player + k) % n
        if state.colours[seat] != state.colours[player] and state.hands[seat]:
            return seat
    return None


def solitaire_move(state, rng):
    """A placement of some solution consistent with the tiles already placed (the
    solver's solutions are turned and shifted onto the board); random if there is none."""
    moves = state.legal_moves()
    placed = state.board
    for solution in state.solutions():
        turns = range(6)
        if placed:
            (cell, (tile, rot)) = next(iter(placed.items()))
            match = [(c, r) for c, t, r in solution if t == tile]
            if not match:
                continue
            turns = [(rot - match[0][1]) % 6]
        for k in turns:
            shifted = [(rotate_cell(c, k), t, (r + k) % 6) for c, t, r in solution]
            if placed:
                cell, (tile, _) = next(iter(placed.items()))
                anchor = next(c for c, t, _ in shifted if t == tile)
                dq, dr = cell[0] - anchor[0], cell[1] - anchor[1]
            elif state.flower:
                dq = dr = 0
            else:
                dq, dr = -shifted[0][0][0], -shifted[0][0][1]
            moved = {(c[0] + dq, c[1] + dr): (t, r) for c, t, r in shifted}
            if all(moved.get(c) == v for c, v in placed.items()):
                for c, (t, r) in sorted(moved.items()):
                    if c not in placed:
                        for move in moves:
                            if move.data[1:4] == (t, c, r):
                                return move
    return rng.choice(moves)


# -- the endgame search -------------------------------------------------------------------
# Once the last tile is drawn Tantrix is a game of perfect information (hands are open, no
# draws are left), so the agent searches it instead of guessing: alpha-beta with iterative
# deepening until the time is up, every other colour playing against the agent ("paranoid"
# for 3-4 players), leaves scored by ``evaluation.evaluate`` (exact when all tiles are
# placed: win 1, draw 0, loss -1).

INF = float("inf")


def endgame_move(
    state,
    player: int,
    deadline: float | None,
    max_depth: int = 3,
    weights=DEFAULT,
    incremental: bool = False,
):
    """The best move for ``player`` by the deepest search finished in time (``max_depth``
    plies when there is no deadline); one ply is always finished. ``incremental``: the
    leaves are evaluated from the root's tracks (``EndgameLeaves``), the same values in
    less time, so the search gets deeper."""
    work = state.copy()
    moves = order_moves(work, work.legal_moves())
    left = sum(len(h) for h in work.hands)
    leaves = EndgameLeaves(work, player, weights) if incremental else None
    best = moves[0]
    depth = 1
    while True:
        limit = None if depth == 1 else deadline  # the first iteration always finishes
        values = []
        alpha = -INF
        try:
            for move in moves:
                value = _child(work, move, player, depth - 1, alpha, INF, limit, weights, leaves)
                values.append((value, move))
                alpha = max(alpha, value)
        except SearchTimeout:
            pass
        if len(values) < len(moves):
            # Moves are searched best first: one searched in time that beats the previous
            # best is trusted even though the iteration did not finish.
            return max(values, key=lambda vm: vm[0])[1] if values else best
        values.sort(key=lambda vm: vm[0], reverse=True)
        moves = [m for _, m in values]
        best = moves[0]
        if depth >= left or abs(values[0][0]) == 1.0 and depth > 1:
            return best  # searched to the end of the game, or a sure result
        if deadline is None and depth >= max_depth:
            return best
        if deadline is not None and clock.now() > deadline:
            return best
        depth += 1


class EndgameLeaves:
    """``evaluate`` of the positions below the endgame search's root: the tracks come from
    the root's ``TrackIndex`` plus the tiles placed since (the search only adds tiles), the
    fits from the table's memo; in the endgame no closure test applies. Exactly
    ``evaluate(state, player, None, weights)``."""

    def __init__(self, root, player: int, weights):
        self.player, self.weights = player, weights
        self.tracks = {c: TrackIndex(root.edges, c) for c in set(root.colours)}
        self.added: list = []  # the cells placed below the root, in order

    def value(self, state) -> float:
        if state.outcome is not None:
            return evaluate(state, self.player, None, self.weights)
        found = {c: index.after(state.edges, self.added) for c, index in self.tracks.items()}
        return evaluate(state, self.player, None, self.weights, found, {})


def _child(
    state, move, player: int, depth: int, alpha: float, beta: float, deadline, weights, leaves=None
) -> float:
    state.play_unchecked(move)
    if leaves is not None:
        leaves.added.append(move.data[2])
    try:
        return _search(state, player, depth, alpha, beta, deadline, weights, leaves)
    finally:
        if leaves is not None:
            leaves.added.pop()
        state.undo()


def _search(
    state, player: int, depth: int, alpha: float, beta: float, deadline, weights, leaves=None
) -> float:
    if depth == 0 or state.outcome is not None:
        if leaves is not None:
            return leaves.value(state)
        return evaluate(state, player, None, weights)
    if deadline is not None and clock.now() > deadline:
        raise SearchTimeout
    moves = order_moves(state, state.legal_moves())
    ours = state.colours[state.to_move] == state.colours[player]  # ourselves or a doubles partner
    value = -INF if ours else INF
    for move in moves:
        child = _child(state, move, player, depth - 1, alpha, beta, deadline, weights, leaves)
        if ours:
            value = max(value, child)
            alpha = max(alpha, value)
        else:
            value = min(value, child)
            beta = min(beta, value)
        if alpha >= beta:
            break
    return value
