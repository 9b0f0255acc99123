"""Solving on a Ray cluster: one task per component, each started when the components its
moves lead into are done (their tasks' results are its arguments, so Ray follows the DAG).

A task rebuilds nothing but its own component: it opens the tables directory (which must be
shared by the workers: one machine, or a network file system), reads the finished segments
it depends on, writes its segments' files and returns their manifest entries; the driver
alone writes the manifest, so an interrupted run resumes like an in-process one."""

from __future__ import annotations

from ..core.errors import QipanError
from .dag import component_dependencies, component_order


def _ray():
    try:
        import ray
    except ImportError:
        raise QipanError("--ray needs Ray: pip install 'qipan[ray]'") from None
    return ray


def _solve_task(space, directory, component, check, *upstream):
    from .database import Database

    db = Database(directory, space)
    for entries in upstream:
        db.manifest["segments"].update(entries)
    codes = db.solve_component(component, check=check)
    return {db.by_key[key].label: db.store(key, values) for key, values in zip(component, codes, strict=True)}


def solve_on_ray(
    db, address: str = "auto", progress=None, check: bool = False, num_cpus: int | None = None
) -> str:
    """Solve what ``db`` lacks on Ray; return the manifest hash. ``address``: ``auto`` (the
    running cluster), ``local`` (start a Ray instance on this machine) or a cluster address."""
    ray = _ray()
    started = False
    if not ray.is_initialized():
        if address == "local":
            ray.init(num_cpus=num_cpus, include_dashboard=False, log_to_driver=False)
        else:
            try:
                ray.init(address=address, include_dashboard=False, log_to_driver=False)
            except ConnectionError as exc:
                raise QipanError(f"no Ray cluster at {address!r}: {exc}") from None
        started = True
    try:
        db.directory.mkdir(parents=True, exist_ok=True)
        db.verify()
        db.record({})
        task = ray.remote(_solve_task)
        space_ref = ray.put(db.space)
        needs = component_dependencies(db.space)
        order = component_order(db.space)
        refs, pending = {}, {}
        for component in order:
            if all(db.solved(k) for k in component):
                continue
            upstream = [refs[d] for d in needs[component] if d in refs]
            ref = task.remote(space_ref, str(db.directory), component, check, *upstream)
            refs[component] = ref
            pending[ref] = component
        done = len(order) - len(pending)
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                component = pending.pop(ref)
                db.record(ray.get(ref))
                done += 1
                if progress:
                    progress(done, len(order), "+".join(db.by_key[k].label for k in component), 0.0)
        return db.hash()
    finally:
        if started:
            ray.shutdown()
