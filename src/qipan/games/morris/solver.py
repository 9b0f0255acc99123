"""An exhaustive solver for small Morris variants (the Three Men's Morris family).

It walks every position reachable from the start (a position = board, hands, side to move)
and runs retrograde analysis on that graph: a position is a win if some move reaches a lost
position (or wins at once), a loss if every move reaches a won position, and a draw
otherwise. Positions that can cycle forever are draws, which is the game-theoretic reading of
the repetition rule; the n-move rule and any ply cap are switched off while solving."""

from __future__ import annotations

from collections import deque
from dataclasses import asdict, dataclass, replace
from itertools import combinations

from ...core.errors import QipanError
from .rules import MorrisGame, MorrisState
from .variant import MorrisRules

WIN, DRAW, LOSS = 1, 0, -1


@dataclass
class Solution:
    """``value[key]`` (for the side to move) and ``depth[key]`` (plies to the end with best
    play, for won and lost positions) of every reachable non-terminal position."""

    rules: MorrisRules
    value: dict[int, int]
    depth: dict[int, int]
    start: MorrisState

    def move_values(self, state: MorrisState) -> list[tuple[object, int, int]]:
        """(move, value for the mover, plies to the end) of every legal move of ``state``."""
        out = []
        mover = state.to_move
        for move in state._legal():
            token = state._apply(move)
            if state.outcome is not None:
                reward = state.outcome.reward(mover)
                out.append((move, WIN if reward == 1 else LOSS if reward == 0 else DRAW, 1))
            else:
                k = state.key()
                out.append((move, -self.value[k], self.depth.get(k, 0) + 1))
            state._revert(token)
        return out


def solvable_rules(rules: MorrisRules) -> MorrisRules:
    """The rules the solver uses: repetition is a draw by construction, no n-move rule, no cap."""
    return replace(rules, repetition_count=None, n_move=0, max_plies=None)


def solve(rules: MorrisRules, first: int = 0, limit: int = 2_000_000) -> Solution:
    """Solve the variant from its start (``first`` moves first). Raises QipanError when more
    than ``limit`` positions are reachable."""
    rules = solvable_rules(rules)
    game = MorrisGame({"id": "morris-solver", "title": "solver", "rules": asdict(rules)})
    state = MorrisState(game, 2, first)
    root = state.key()
    children: dict[int, list[int]] = {}
    best_terminal: dict[int, float] = {}
    # Depth-first walk with apply/revert on one state.
    stack = [(root, iter(list(state._legal())), None)]
    children[root] = []
    while stack:
        key, moves, token = stack[-1]
        move = next(moves, None)
        if move is None:
            stack.pop()
            if token is not None:
                state._revert(token)
            continue
        mover = state.to_move
        child_token = state._apply(move)
        if state.outcome is not None:
            reward = state.outcome.reward(mover)
            best_terminal[key] = max(best_terminal.get(key, -1.0), reward)
            state._revert(child_token)
            continue
        child = state.key()
        children[key].append(child)
        if child in children:
            state._revert(child_token)
            continue
        children[child] = []
        if len(children) > limit:
            raise QipanError(f"more than {limit} positions: too large for the exhaustive solver")
        stack.append((child, iter(list(state._legal())), child_token))

    value: dict[int, int] = {}
    depth: dict[int, int] = {}
    parents: dict[int, list[int]] = {k: [] for k in children}
    count: dict[int, int] = {}
    queue: deque[int] = deque()
    for key, kids in children.items():
        kids = list(dict.fromkeys(kids))
        children[key] = kids
        for kid in kids:
            parents[kid].append(key)
        best = best_terminal.get(key)
        if best == 1.0:
            value[key], depth[key] = WIN, 1
            queue.append(key)
        elif not kids:
            value[key] = DRAW if best == 0.5 else LOSS
            depth[key] = 1
            queue.append(key)
        else:
            count[key] = len(kids)
    while queue:
        kid = queue.popleft()
        v = value[kid]
        for p in parents[kid]:
            if p in value:
                continue
            if v == LOSS:
                value[p], depth[p] = WIN, depth[kid] + 1
                queue.append(p)
            elif v == WIN:
                count[p] -= 1
                if count[p] == 0:
                    if best_terminal.get(p) == 0.5:
                        value[p] = DRAW
                    else:
                        value[p], depth[p] = LOSS, depth[kid] + 1
                    queue.append(p)
    for key in children:
        value.setdefault(key, DRAW)
    for key in [k for k, v in value.items() if v == DRAW]:
        depth.pop(key, None)
    return Solution(rules, value, depth, state)


_SOLVED: dict[MorrisRules, Solution] = {}


def solution_for(rules: MorrisRules) -> Solution:
    """The solution of a Three Men's Morris rule set, solved on first use (a fraction of a
    second) and kept: values depend only on the position, so one table serves either first
    player."""
    key = solvable_rules(rules)
    if key not in _SOLVED:
        white, black = solve(rules, 0), solve(rules, 1)
        white.value.update(black.value)
        white.depth.update(black.depth)
        _SOLVED[key] = white
    return _SOLVED[key]


def best_of(scored: list[tuple[object, int, int]]) -> list[object]:
    """The perfect moves among ``Solution.move_values``: a win as fast as possible, a draw
    kept, a loss as slow as possible."""
    best = max(v for _, v, _ in scored)
    pool = [(m, d) for m, v, d in scored if v == best]
    if best != DRAW:
        pick = min if best == WIN else max
        target = pick(d for _, d in pool)
        pool = [(m, d) for m, d in pool if d == target]
    return [m for m, _ in pool]


def probe(state: MorrisState, deadline=None) -> dict:
    """The exact value of ``state`` from the in-memory solver (the 3x3 boards' ``perfect_value``,
    shown by the analysis page): solved on first use, nothing to build or install."""
    if state.outcome is not None:
        raise QipanError("the game is over")
    if state.rules.board != "three":
        raise QipanError("the exhaustive solver plays only the Three Men's Morris variants")
    solution = solution_for(state.rules)
    try:
        value = solution.value[state.key()]
        scored = solution.move_values(state)
    except KeyError:
        raise QipanError(
            "this position cannot arise from the start: the solver has no value for it"
        ) from None
    return {
        "value": {WIN: "win", DRAW: "draw", LOSS: "loss"}[value],
        "plies": solution.depth.get(state.key()) if value != DRAW else None,
        "best": [str(m) for m in best_of(scored)],
        "source": "exhaustive solver",
    }


def first_move_values(solution: Solution) -> dict[str, int]:
    """Value for the first player after each possible first move, keyed by the move's text."""
    return {str(m): v for m, v, _ in solution.move_values(solution.start)}


def three_vs_three_counts(game) -> dict[str, int]:
    """Retrograde analysis of every board with 3 stones a side, hands empty (the subspace is
    closed: a capture leaves 2 stones, a win). Counts of win/draw/loss for White to move,
    over all such boards (unreachable ones included), as in ``six_mens_morris_values.json``.
    Repetition is a draw; the game's own move generation is used."""
    state = game.new()
    n = state.t.n
    boards = []
    for white in combinations(range(n), 3):
        wmask = sum(1 << p for p in white)
        rest = [p for p in range(n) if p not in white]
        for black in combinations(rest, 3):
            boards.append((wmask, sum(1 << p for p in black)))
    # A position is (mover's stones, other's stones); values are for the mover. Every board
    # (W, B) read as (mover, other) covers both sides to move, since the boards list every pair.
    value: dict[tuple[int, int], int] = {}
    count: dict[tuple[int, int], int] = {}
    parents: dict[tuple[int, int], list[tuple[int, int]]] = {}
    queue: deque = deque()
    state.hand = [0, 0]
    for node in boards:
        own, opp = node
        state.bb = [own, opp]
        state.to_move, state.outcome, state._moves = 0, None, None
        moves = state._legal()
        if not moves:
            value[node] = LOSS
            queue.append(node)
            continue
        kids = set()
        for move in moves:
            f, to, removed, fb, tb = move.data
            if removed:
                value[node] = WIN
                break
            kids.add((opp, own ^ fb ^ tb))
        if node in value:
            queue.append(node)
            continue
        count[node] = len(kids)
        for kid in kids:
            parents.setdefault(kid, []).append(node)
    while queue:
        node = queue.popleft()
        v = value[node]
        for parent in parents.get(node, ()):
            if parent in value:
                continue
            if v == LOSS:
                value[parent] = WIN
                queue.append(parent)
            else:
                count[parent] -= 1
                if count[parent] == 0:
                    value[parent] = LOSS
                    queue.append(parent)
    tally = {"win": 0, "draw": 0, "loss": 0}
    for wmask, bmask in boards:  # White to move
        v = value.get((wmask, bmask), 0)
        tally["win" if v == WIN else "loss" if v == LOSS else "draw"] += 1
    return tally
