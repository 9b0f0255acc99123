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
import time
from dataclasses import dataclass, field

from ...core.errors import QipanError
from ...solve.codes import UNKNOWN, decode
from ...solve.jit import np


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


def sample_decisive(tables, count: int, seed: int = 0) -> list[tuple[tuple, int, int]]:
    """``count`` (segment key, index, mover) drawn uniformly (with replacement) among the
    indices of every solved segment whose stored value is a win or a loss: a segment is
    drawn with the weight of its number of such indices. Sorted by segment and index, so
    that successive proofs meet the same mover's stones (the outer index) and share the
    transposition table's entries."""
    segments = [s for s in tables.space.segments() if tables.db.solved(s.key) and s.size]
    decisive = []
    for segment in segments:
        codes = np.asarray(tables.db.values(segment.key))
        decisive.append(np.flatnonzero((codes != 0) & (codes != UNKNOWN)))
    sizes = [len(d) for d in decisive]
    if not sum(sizes):
        raise QipanError("no stored win or loss to sample")
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        n = rng.choices(range(len(segments)), sizes)[0]
        out.append((segments[n].key, int(decisive[n][rng.randrange(sizes[n])]), rng.randrange(2)))
    return sorted(out)


SAMPLES = {"uniform": sample_positions, "decisive": sample_decisive}


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
    claimed depth (``full``: the result; ``exact``: the distance too), and the horizon each
    reached. ``proved_at`` / ``exact_at`` count the wins and losses by the node budget of
    the search that settled the result / the distance (0: no move, nothing to search);
    ``result_left`` / ``distance_left`` those still undecided, by the last budget tried
    (smaller than the largest when the CPU cap stopped the escalation)."""

    positions: int = 0
    full: int = 0
    exact: int = 0
    depths: list[int] = field(default_factory=list)
    proved_at: dict[int, int] = field(default_factory=dict)
    exact_at: dict[int, int] = field(default_factory=dict)
    result_left: dict[int, int] = field(default_factory=dict)
    distance_left: dict[int, int] = field(default_factory=dict)

    def add(self, other: KindStats) -> None:
        self.positions += other.positions
        self.full += other.full
        self.exact += other.exact
        self.depths.extend(other.depths)
        for name in ("proved_at", "exact_at", "result_left", "distance_left"):
            mine = getattr(self, name)
            for budget, n in getattr(other, name).items():
                mine[budget] = mine.get(budget, 0) + n

    def summary(self, kind: str) -> str:
        d = sorted(self.depths)
        if kind != "draw":
            line = (
                f"{self.positions} positions: the result proved at the claimed distance for {self.full}, "
                f"the distance exact (none faster) for {self.exact}"
            )
            if self.proved_at or self.result_left:
                line += (
                    f"\n      result proved with {_by_budget(self.proved_at)}; undecided "
                    f"{sum(self.result_left.values())} ({_by_budget(self.result_left, 'after')})"
                    f"\n      distance exact with {_by_budget(self.exact_at)}; undecided "
                    f"{sum(self.distance_left.values())} ({_by_budget(self.distance_left, 'after')})"
                )
            return line
        if not d:
            return f"{self.positions} positions"
        return (
            f"{self.positions} positions: no forced result within h plies, h reached min {d[0]}, "
            f"median {statistics.median(d):g}, max {d[-1]}; {self.full} to the draw depth"
        )


def _by_budget(counts: dict[int, int], word: str = "at") -> str:
    return ", ".join(f"{n} {word} {budget:,} nodes" for budget, n in sorted(counts.items())) or "none"


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
    #: Sampled positions by (segment key, stored kind).
    segments: dict[tuple, int] = field(default_factory=dict)
    #: The wins and losses left undecided (result) or not exact after the last budget:
    #: (segment key, index, mover, kind, plies, "result" | "distance", the last budget tried).
    unsettled: list[tuple] = field(default_factory=list)
    #: The escalation stopped at the CPU cap.
    capped: bool = False
    #: CPU seconds by stage ("base", then "result N" / "distance N" for a budget of N nodes).
    cpu: dict[str, float] = field(default_factory=dict)

    def add(self, other: ProofReport) -> None:
        self.positions += other.positions
        self.full += other.full
        self.failures.extend(other.failures)
        self.nodes += other.nodes
        self.successors_agree += other.successors_agree
        self.draws_consistent += other.draws_consistent
        self.draws_only_down += other.draws_only_down
        self.unsettled.extend(other.unsettled)
        self.capped |= other.capped
        for kind, row in other.kinds.items():
            self.kinds.setdefault(kind, KindStats()).add(row)
        for label, n in other.segments.items():
            self.segments[label] = self.segments.get(label, 0) + n
        for stage, seconds in other.cpu.items():
            self.cpu[stage] = self.cpu.get(stage, 0.0) + seconds


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
    sample: str = "uniform",
    escalate: tuple[int, ...] = (),
    cpu_seconds: float | None = None,
) -> ProofReport:
    """Prove ``count`` sampled positions to the depth the tables claim (``part`` = (k, jobs):
    this process takes every jobs-th position from the k-th, so jobs processes share one
    sample). ``sample``: ``uniform`` over all positions (``sample_positions``) or
    ``decisive``, over the stored wins and losses only (``sample_decisive``).
    ``draw_depth``: how deep a stored draw is searched (default: the deepest distance in
    the tables); ``nodes`` is the budget of each search of a win or loss (the result, then
    the distance), ``draw_nodes`` (default ``nodes``) of a draw's. ``escalate``: factors of
    ``nodes`` (e.g. (10, 100)) with which the wins and losses whose result, then distance,
    ran out of nodes are searched again, each budget over all of them (shortest claimed
    distance first) before the next, results before distances, until ``cpu_seconds`` of this
    process's CPU time (counted from the start, the base pass included) are spent (None: no
    cap; the base pass always completes). ``order``: the tables order the moves (no effect on what is proved);
    ``layered``: a removal into a segment of ``verified`` (keys whose every value was
    checked) below the root is scored by its stored value. Each sampled position's stored
    value is also compared with its kernel successors' (``successors_agree``; the draws'
    counts)."""
    from .kernel_tables import I_DRAWS, I_DRAWS_DOWN, I_WINS, SuccessorCheck, TableView
    from .proof_search import ProofSearch

    start = time.process_time()
    view = TableView(tables, verified=verified if layered else ())
    search = ProofSearch(
        tables.game, table_bits=table_bits, nodes=nodes, view=view, order=order, layered=layered
    )
    successors = SuccessorCheck(view)
    draw_depth = deepest(tables) if draw_depth is None else draw_depth
    report = ProofReport()
    k, jobs = part
    positions = SAMPLES[sample](tables, count, seed)[k::jobs]
    draw_nodes = nodes if draw_nodes is None else draw_nodes
    #: The wins and losses not settled by the base budget: [position, kind, plies, phase, last budget].
    pending = []
    for n, (key, index, mover) in enumerate(positions):
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
        segment = (key, kind)
        report.segments[segment] = report.segments.get(segment, 0) + 1
        if kind != "draw" and not problem:
            spent = nodes if depth else 0  # a position without moves needs no search
            if got_full:
                row.proved_at[spent] = row.proved_at.get(spent, 0) + 1
                if exact:
                    row.exact_at[spent] = row.exact_at.get(spent, 0) + 1
            phase = None if exact else "distance" if got_full else "result"
            if phase:
                pending.append(
                    [(key, index, mover), kind, decode(tables.db.probe(key, index))[1], phase, nodes]
                )
        if progress and (n + 1) % 100 == 0:
            report.nodes = search.nodes
            progress("base", n + 1, len(positions), report)
    report.cpu["base"] = time.process_time() - start
    for phase in ("result", "distance"):
        for factor in escalate:
            budget = nodes * factor
            stage = f"{phase} {budget}"
            begun = time.process_time()
            # Shortest claims first: under a CPU cap they are the likeliest to settle.
            todo = sorted((p for p in pending if p[3] == phase and p[4] < budget), key=lambda p: p[2])
            for n, item in enumerate(todo):
                if cpu_seconds is not None and time.process_time() - start >= cpu_seconds:
                    report.capped = True
                    break
                _escalate(search, tables, report, item, budget)
                if progress and (n + 1) % 10 == 0:
                    report.nodes = search.nodes
                    progress(stage, n + 1, len(todo), report)
            if todo:
                report.cpu[stage] = time.process_time() - begun
    for (key, index, mover), kind, plies, phase, budget in pending:
        if phase in ("result", "distance"):
            left = report.kinds[kind].result_left if phase == "result" else report.kinds[kind].distance_left
            left[budget] = left.get(budget, 0) + 1
            report.unsettled.append((key, index, mover, kind, plies, phase, budget))
    report.nodes = search.nodes
    return report


def _escalate(search, tables, report: ProofReport, item: list, budget: int) -> None:
    """Search one pending win or loss again with ``budget`` nodes: its result (and then its
    distance in the same call), or its distance alone; ``item`` records what is left."""
    (key, index, mover), kind, plies, phase, _ = item
    row = report.kinds[kind]
    state = tables.space.state_at(key, index, mover)
    search.budget = budget
    proof = search.prove(state, plies, claim=(kind, plies), result_known=phase == "distance")
    item[4] = budget
    if not proof.agrees:
        report.failures.append(
            f"{state.position()}: stored {(kind, plies)}, the search proves {(proof.value, proof.plies)} "
            f"at horizon {proof.depth} (with {budget:,} nodes)"
        )
        item[3] = "refuted"
        return
    if phase == "result":
        if proof.depth != plies:
            return
        row.full += 1
        report.full += 1
        row.proved_at[budget] = row.proved_at.get(budget, 0) + 1
        item[3] = "distance"
    if proof.exact:
        row.exact += 1
        row.exact_at[budget] = row.exact_at.get(budget, 0) + 1
        item[3] = "settled"
