"""Independent checks of the retrograde tables with the engine's own rules (``rules.py``).

``check_sample`` draws positions from every segment and, for each:

* the Bellman check: the stored value and distance must follow from the stored values of the
  successors that the engine's ``legal_moves`` produce (an error in the compiled move
  generator, the index or the sweep shows up here);
* for a stored distance of at most ``search_depth`` plies, a plain search over the engine's
  moves (no table) must prove exactly that: a win within d plies but not within d - 2, or a
  loss within d plies that cannot be delayed beyond; a draw must have no forced result
  within ``search_depth`` plies.

``prove_sample`` goes to the full claimed depth: the compiled proof search of
``proof_search.py`` (alpha-beta with mate-distance bounds over the engine's compiled moves,
no table read) must find a stored "win in d" / "loss in d" exactly at horizon d, and no forced
result within the deepest distance the tables hold for a stored draw; a node budget per
position says how far it may go, and the report counts the positions verified to the full
depth and the depth reached by the others."""

from __future__ import annotations

import random
import statistics
from dataclasses import dataclass, field

from ...core.errors import QipanError
from ...solve.codes import decode


@dataclass
class CheckReport:
    positions: int = 0
    searched: int = 0
    failures: list[str] = field(default_factory=list)


def wins_within(state, plies: int) -> bool:
    """The side to move can force a win within ``plies`` plies (engine rules only)."""
    if plies <= 0:
        return False
    mover = state.to_move
    for move in state.legal_moves():
        child = state.copy()
        child.play(move)
        if child.outcome is not None:
            if child.outcome.reward(mover) == 1:
                return True
            continue
        if loses_within(child, plies - 1):
            return True
    return False


def loses_within(state, plies: int) -> bool:
    """Every move of the side to move lets the other side force a win within ``plies``."""
    if state.outcome is not None:
        return state.outcome.reward(state.to_move if state.to_move is not None else 0) == 0
    if plies <= 0:
        return False
    mover = state.to_move
    for move in state.legal_moves():
        child = state.copy()
        child.play(move)
        if child.outcome is not None:
            if child.outcome.reward(mover) > 0:
                return False
            continue
        if not wins_within(child, plies - 1):
            return False
    return True


def check_position(tables, key, index, mover: int, search_depth: int) -> tuple[bool, list[str]]:
    space = tables.space
    state = space.state_at(key, index, mover)
    label = state.position()
    stored = decode(tables.db.probe(key, index))
    problems = []
    if not state.legal_moves():
        if stored != ("loss", 0):
            problems.append(f"{label}: blocked but stored {stored}")
        return False, problems
    best = tables.move_values(state)[0]
    if stored != (best.value, best.plies):
        problems.append(f"{label}: stored {stored}, successors say {(best.value, best.plies)}")
    kind, plies = stored
    searched = False
    if kind == "win" and plies <= search_depth:
        searched = True
        if not wins_within(state, plies) or wins_within(state, plies - 2):
            problems.append(f"{label}: search does not find the win in exactly {plies}")
    elif kind == "loss" and plies <= search_depth:
        searched = True
        if not loses_within(state, plies) or (plies >= 2 and loses_within(state, plies - 2)):
            problems.append(f"{label}: search does not find the loss in exactly {plies}")
    elif kind == "draw" and search_depth >= 1:
        searched = True
        if wins_within(state, search_depth) or loses_within(state, search_depth):
            problems.append(f"{label}: stored draw, but search finds a forced result")
    return searched, problems


def sample_positions(tables, count: int, seed: int = 0) -> list[tuple[tuple, int, int]]:
    """``count`` (segment key, index, mover) drawn uniformly from the solved segments' positions."""
    segments = [s for s in tables.space.segments() if tables.db.solved(s.key) and s.size]
    if not segments:
        raise QipanError("no solved segment to check")
    rng = random.Random(seed)
    weights = [s.size for s in segments]
    out = []
    for _ in range(count):
        segment = rng.choices(segments, weights)[0]
        out.append((segment.key, rng.randrange(segment.size), rng.randrange(2)))
    return out


def check_sample(tables, count: int, search_depth: int = 3, seed: int = 0, progress=None) -> CheckReport:
    """Check ``count`` positions drawn uniformly from the positions of the solved segments."""
    report = CheckReport()
    for n, (key, index, mover) in enumerate(sample_positions(tables, count, seed)):
        searched, problems = check_position(tables, key, index, mover, search_depth)
        report.positions += 1
        report.searched += searched
        report.failures.extend(problems)
        if progress and (n + 1) % 500 == 0:
            progress(n + 1, count)
    return report


@dataclass
class KindStats:
    """The sampled positions of one stored kind: how many, how many verified to the full
    claimed depth, and the horizon each reached."""

    positions: int = 0
    full: int = 0
    exact: int = 0
    depths: list[int] = field(default_factory=list)

    def add(self, other: KindStats) -> None:
        self.positions += other.positions
        self.full += other.full
        self.exact += other.exact
        self.depths.extend(other.depths)

    def summary(self, kind: str) -> str:
        d = sorted(self.depths)
        if kind != "draw":
            return (
                f"{self.positions} positions: the result proved at the claimed distance for {self.full}, "
                f"the distance exact (none faster) for {self.exact}"
            )
        if not d:
            return f"{self.positions} positions"
        return (
            f"{self.positions} positions: no forced result within h plies, h reached min {d[0]}, "
            f"median {statistics.median(d):g}, max {d[-1]}; {self.full} to the draw depth"
        )


@dataclass
class ProofReport:
    positions: int = 0
    #: Verified to the full claimed depth (wins and losses: exactly; draws: the draw depth).
    full: int = 0
    kinds: dict[str, KindStats] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    nodes: int = 0
    #: The kernel's successors against the stored values (``kernel_tables.successor_code``):
    #: positions whose stored value they give, and of the stored draws: no successor lost
    #: for the other side and one drawn; of those, drawn only through a removal into a
    #: smaller table.
    successors_agree: int = 0
    draws_consistent: int = 0
    draws_only_down: int = 0

    def add(self, other: ProofReport) -> None:
        self.positions += other.positions
        self.full += other.full
        self.failures.extend(other.failures)
        self.nodes += other.nodes
        self.successors_agree += other.successors_agree
        self.draws_consistent += other.draws_consistent
        self.draws_only_down += other.draws_only_down
        for kind, row in other.kinds.items():
            self.kinds.setdefault(kind, KindStats()).add(row)


def deepest(tables) -> int:
    """The longest distance any solved position of the tables claims."""
    top = 0
    for s in tables.space.segments():
        if tables.db.solved(s.key) and s.size:
            codes = tables.db.values(s.key)
            known = codes[codes < 255]
            top = max(top, int(known.max()) - 1 if known.size else 0)
    return top


def prove_position(search, tables, key, index: int, mover: int, draw_depth: int):
    """Prove one stored value with ``search`` (a ``ProofSearch``): (stored kind, its result
    verified at the full claimed depth, its distance exact too, depth reached, the problem
    found or None). A stored draw is verified to ``draw_depth`` at most."""
    state = tables.space.state_at(key, index, mover)
    kind, plies = decode(tables.db.probe(key, index))
    label = state.position()
    if not state.legal_moves():
        ok = (kind, plies) == ("loss", 0)
        return kind, ok, ok, 0, None if ok else f"{label}: blocked but stored {(kind, plies)}"
    target = draw_depth if kind == "draw" else plies
    proof = search.prove(state, target, claim=(kind, plies))
    if not proof.agrees:
        problem = (
            f"{label}: stored {(kind, plies)}, the search proves {(proof.value, proof.plies)} "
            f"at horizon {proof.depth}"
        )
        return kind, False, False, proof.depth, problem
    return kind, proof.depth == target, proof.exact, proof.depth, None


def verified_segments(tables, keys=None, progress=None) -> tuple[list[tuple], list[str]]:
    """Check every position of the segments ``keys`` (default: all solved) against the
    kernel's successors (``kernel_tables.check_segment``): (the keys whose every value
    agrees, the problems found). Over a set closed under moves this verifies every value."""
    from .kernel_tables import SuccessorCheck, TableView

    check = SuccessorCheck(TableView(tables))
    keys = [s.key for s in tables.space.segments() if tables.db.solved(s.key)] if keys is None else keys
    good, problems = [], []
    for key in keys:
        positions, bad, wrong, unknown = check.segment(key)
        if wrong or unknown:
            problems.append(
                f"segment {key}: {wrong} of {positions} values disagree with the kernel's successors "
                f"(first indices {bad}), {unknown} with a successor outside the solved tables"
            )
        else:
            good.append(key)
        if progress:
            progress(key, positions, wrong)
    return good, problems


def prove_sample(
    tables,
    count: int,
    seed: int = 0,
    nodes: int = 200_000,
    table_bits: int = 22,
    draw_depth: int | None = None,
    part: tuple[int, int] = (0, 1),
    progress=None,
    draw_nodes: int | None = None,
    order: bool = True,
    layered: bool = False,
    verified=(),
) -> ProofReport:
    """Prove ``count`` sampled positions to the depth the tables claim (``part`` = (k, jobs):
    this process takes every jobs-th position from the k-th, so jobs processes share one
    sample). ``draw_depth``: how deep a stored draw is searched (default: the deepest
    distance in the tables); ``nodes`` is the budget of each search of a win or loss (the
    result, then the distance), ``draw_nodes`` (default ``nodes``) of a draw's. ``order``: the tables order the moves (no effect on what is
    proved); ``layered``: a removal into a segment of ``verified`` (keys whose every value
    was checked) below the root is scored by its stored value. Each sampled position's
    stored value is also compared with its kernel successors' (``successors_agree``; the
    draws' counts)."""
    from .kernel_tables import I_DRAWS, I_DRAWS_DOWN, I_WINS, SuccessorCheck, TableView
    from .proof_search import ProofSearch

    view = TableView(tables, verified=verified if layered else ())
    search = ProofSearch(
        tables.game, table_bits=table_bits, nodes=nodes, view=view, order=order, layered=layered
    )
    successors = SuccessorCheck(view)
    draw_depth = deepest(tables) if draw_depth is None else draw_depth
    report = ProofReport()
    k, jobs = part
    sample = sample_positions(tables, count, seed)[k::jobs]
    draw_nodes = nodes if draw_nodes is None else draw_nodes
    for n, (key, index, mover) in enumerate(sample):
        search.budget = draw_nodes if tables.db.probe(key, index) == 0 else nodes
        kind, got_full, exact, depth, problem = prove_position(search, tables, key, index, mover, draw_depth)
        if problem:
            report.failures.append(problem)
        stored, given, info = successors.position(key, index, mover)
        if stored == given:
            report.successors_agree += 1
        else:
            label = tables.space.state_at(key, index, mover).position()
            report.failures.append(f"{label}: stored code {stored}, the kernel's successors give {given}")
        if kind == "draw" and info[I_WINS] == 0 and info[I_DRAWS] > 0:
            report.draws_consistent += 1
            report.draws_only_down += info[I_DRAWS] == info[I_DRAWS_DOWN]
        row = report.kinds.setdefault(kind, KindStats())
        row.positions += 1
        row.full += got_full
        row.exact += exact
        row.depths.append(depth)
        report.positions += 1
        report.full += got_full
        if progress and (n + 1) % 100 == 0:
            report.nodes = search.nodes
            progress(n + 1, len(sample), report)
    report.nodes = search.nodes
    return report
