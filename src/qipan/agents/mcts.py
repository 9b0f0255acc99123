"""Generic Monte Carlo tree search (UCT) for any game: n players, chance nodes.

Each node keeps, per player, the sum of playout rewards (``Outcome.reward`` in [0, 1]), so
a player to move picks the child that is best *for them* (max^n-style UCT). Chance nodes
are sampled by their probabilities. Playouts are uniformly random; a playout longer
than ``playout_cap`` plies is scored with the game's ``evaluate``."""

from __future__ import annotations

import math

from ..core.game import CHANCE, State, sample_chance
from ..core.move import Move
from . import clock
from .base import Agent


class _Node:
    __slots__ = ("children", "untried", "visits", "totals", "to_move")

    def __init__(self, state: State):
        self.to_move = state.to_move
        self.children: dict[Move, _Node] = {}
        # Chance nodes are expanded lazily by sampling; player nodes try every move once.
        self.untried: list[Move] | None = None if state.to_move == CHANCE else list(state.legal_moves())
        self.visits = 0
        self.totals = [0.0] * state.num_players


class MCTSAgent(Agent):
    name = "mcts"

    def __init__(
        self,
        time=None,
        iterations=None,
        depth=None,
        seed=None,
        exploration: float = 1.4,
        playout_cap: int = 400,
    ):
        super().__init__(time=time, iterations=iterations, depth=depth, seed=seed)
        if time is None and iterations is None:
            self.iterations = 1000
        self.exploration = exploration
        self.playout_cap = playout_cap
        self.last_iterations = 0
        self._deadline = None

    def select(self, state: State) -> Move:
        moves = state.legal_moves()
        if len(moves) == 1:
            return moves[0]
        kernel = state.game.kernel()
        # The game's compiled twin runs this search, with the same limits and seed.
        if kernel is not None and "mcts" in kernel.searches:
            move, self.last_iterations = kernel.mcts(
                state,
                iterations=self.iterations,
                deadline=self.deadline(),
                seed=self.rng.getrandbits(63),
                exploration=self.exploration,
                playout_cap=self.playout_cap,
            )
            return move
        root = _Node(state)
        self.rng.shuffle(root.untried)
        deadline = self._deadline = self.deadline()
        limit = self.iterations
        done = 0
        while True:
            self._iterate(root, state.copy())
            done += 1
            if limit is not None and done >= limit:
                break
            if deadline is not None and clock.now() >= deadline:
                break
        self.last_iterations = done
        best = max(root.children.items(), key=lambda kv: (kv[1].visits, kv[1].totals[state.to_move]))
        return best[0]

    def _iterate(self, root: _Node, state: State) -> None:
        node = root
        path = [node]
        rng = self.rng
        # Selection and expansion.
        while state.outcome is None:
            if state.to_move == CHANCE:
                move = sample_chance(state, rng)
                child = node.children.get(move)
                state.play_unchecked(move)
                if child is None:
                    child = node.children[move] = _Node(state)
                    path.append(child)
                    break
                node = child
                path.append(node)
                continue
            if node.untried:
                move = node.untried.pop()
                state.play_unchecked(move)
                child = node.children[move] = _Node(state)
                path.append(child)
                break
            move, node = self._best_child(node, state.to_move)
            state.play_unchecked(move)
            path.append(node)
        # Playout.
        rewards = self._playout(state)
        for n in path:
            n.visits += 1
            totals = n.totals
            for p, r in enumerate(rewards):
                totals[p] += r

    def _best_child(self, node: _Node, player: int) -> tuple[Move, _Node]:
        log_n = math.log(node.visits)
        c = self.exploration
        best, best_value = None, -1.0
        for move, child in node.children.items():
            value = child.totals[player] / child.visits + c * math.sqrt(log_n / child.visits)
            if value > best_value:
                best, best_value = (move, child), value
        return best

    def _playout(self, state: State) -> list[float]:
        rng = self.rng
        plies = 0
        deadline = self._deadline
        while state.outcome is None and plies < self.playout_cap:
            state.play_unchecked(state.random_move(rng))
            plies += 1
            # A long playout must not overrun the move's time: cut it and evaluate.
            if deadline is not None and plies % 16 == 0 and clock.now() > deadline:
                break
        n = state.num_players
        if state.outcome is not None:
            return [state.outcome.reward(p) for p in range(n)]
        return [(state.game.evaluate(state, p) + 1.0) / 2.0 for p in range(n)]
