"""Compiling the kernels without making anybody wait.

Numba compiles a kernel on its first call, minutes of CPU for all of them, and keeps the
result in its on-disk cache, from which a later process loads it in about a second. Two
users of that here: the test suite compiles every family once, in parallel child processes,
before its workers start (``compile_families``); the server serves at once and has the
kernels compiled by one child process at a time in the background (``Background``), its
bots playing on the reference rules until their family's kernels are loaded."""

from __future__ import annotations

import logging
import subprocess
import sys
import threading
import time
from pathlib import Path

from . import fast

log = logging.getLogger("qipan.kernels")

#: A child's work: compile (or load) the kernels of the presets named on its command line.
WARM = "import sys; from qipan.fast import warm_up; warm_up(sys.argv[1:])"


def families() -> dict[str, list[str]]:
    """Every registered family's presets, in the registry's order (a family without a kernel
    costs a child's start-up on a cold cache and nothing on a warm one)."""
    from .core.registry import specs

    found: dict[str, list[str]] = {}
    for spec in specs():
        found.setdefault(spec.family, []).append(spec.id)
    return found


def cache_is_warm() -> bool:
    """Numba's disk cache already holds kernels of this installation (so loading them takes
    seconds, not minutes): its index files beside the kernels' sources, or in
    ``NUMBA_CACHE_DIR``."""
    import os

    where = os.environ.get("NUMBA_CACHE_DIR")
    root = Path(where) if where else Path(__file__).resolve().parent
    return root.is_dir() and any(root.rglob("*.nbi"))


def compile_families(groups: list[list[str]] | None = None, parallel: int = 2, extra=()) -> None:
    """Compile every family's kernels into the disk cache, each family in a child process
    of its own, at most ``parallel`` at once (the test suite's warm-up, before its workers
    start). ``extra``: more child commands (argument lists after the interpreter) to run the
    same way, e.g. a small solve that compiles a solver's kernels."""
    if not fast.enabled():
        return
    groups = list(families().values()) if groups is None else groups
    commands = [["-c", WARM, *presets] for presets in groups] + [list(command) for command in extra]
    running: list[subprocess.Popen] = []
    for command in commands:
        while len(running) >= max(1, parallel):
            running.pop(0).wait()
        running.append(subprocess.Popen([sys.executable, *command]))
    for child in running:
        child.wait()


class Background:
    """The server's kernels, compiled while it serves.

    ``start()`` gates the kernels (``fast.gate``: every family plays on its reference rules)
    and starts a thread that, family by family, has a child process fill the disk cache,
    loads that family's kernels into this process and opens its gate. One child at a time
    leaves the other core to the players. ``stop()`` ends the child and the thread."""

    def __init__(self, say=print):
        self.say = say
        self.ready: list[str] = []
        self.pending: list[str] = []
        self.done = threading.Event()
        self._stopping = threading.Event()
        self._child: subprocess.Popen | None = None
        self._thread: threading.Thread | None = None

    @property
    def compiling(self) -> bool:
        return self._thread is not None and not self.done.is_set()

    def status(self) -> dict:
        return {"compiling": self.compiling, "ready": list(self.ready), "pending": list(self.pending)}

    def start(self) -> None:
        if not fast.enabled():
            self.done.set()
            return
        groups = families()
        self.pending = list(groups)
        cold = not cache_is_warm()
        fast.gate()
        if cold:
            self.say(
                "Compiling the fast game engines for the first start: a few minutes of CPU. "
                "The site is already up; meanwhile the computer players use the plain rules "
                "(same time limits, weaker play). Later starts take seconds."
            )
        self._thread = threading.Thread(
            target=self._run, args=(groups, cold), name="qipan-kernels", daemon=True
        )
        self._thread.start()

    def _run(self, groups: dict[str, list[str]], cold: bool) -> None:
        started = time.monotonic()
        try:
            for family, presets in groups.items():
                if cold:  # compile in a child: this process keeps serving at full speed
                    self._child = subprocess.Popen([sys.executable, "-c", WARM, *presets])
                    self._child.wait()
                if self._stopping.is_set():
                    return
                with fast.loading():
                    spent = fast.warm_up(presets)  # from the disk cache: about a second
                fast.open_gate(family)
                self.pending.remove(family)
                self.ready.append(family)
                if spent:
                    log.info("kernels of %s ready (%.1f CPU s here)", family, sum(spent.values()))
        except Exception:  # a failed compile must not take the site down: stay on the rules
            log.exception("compiling the kernels failed; the computer players keep the plain rules")
            return
        finally:
            self._child = None
        fast.ungate()
        self.done.set()
        if cold:
            self.say(f"The fast game engines are ready ({time.monotonic() - started:.0f} s).")

    def stop(self) -> None:
        self._stopping.set()
        child = self._child
        if child is not None and child.poll() is None:
            child.terminate()
            try:
                child.wait(timeout=5)
            except subprocess.TimeoutExpired:
                child.kill()
        if self._thread is not None:
            self._thread.join(timeout=10)
        fast.ungate()  # whatever is not loaded compiles on first use again
