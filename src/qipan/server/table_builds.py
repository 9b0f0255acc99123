"""Perfect-play tables the server builds once, at start, in the background: those of every
preset whose game declares ``Game.perfect_build`` (the Six Men's Morris tables, about half a
minute of one core). So the analysis page shows exact values on a fresh server without an
operator running a command first; meanwhile it says "building, about N s". Tables found
complete are not built again; a build that fails is logged and reported, and the server
serves on (the page then says the tables are missing). Larger tables are an operator's
command (docs/solving.md), never built here."""

from __future__ import annotations

import logging
import os
import threading
import time
from dataclasses import dataclass, field
from functools import partial

from ..core import load, specs
from ..core.refs import load_ref

log = logging.getLogger("qipan.server.tables")


class Stopped(Exception):
    """Raised inside a build's progress call when the server stops."""


@dataclass
class Build:
    preset: str
    title: str
    options: dict
    seconds: float  # the game's estimate
    state: str = "waiting"  # waiting | building | ready | failed
    started: float | None = None
    error: str | None = None
    progress: tuple[int, int] = field(default=(0, 0))

    def about_seconds(self) -> int | None:
        """Seconds left, roughly: the estimate less the time spent (at least 5 while running)."""
        if self.state not in ("waiting", "building"):
            return None
        spent = time.monotonic() - self.started if self.started is not None else 0.0
        return max(5, round(self.seconds - spent))

    def to_dict(self) -> dict:
        out = {"game": self.preset, "title": self.title, "state": self.state}
        out["about_seconds"] = self.about_seconds()
        if self.progress[1]:
            out["done"], out["total"] = self.progress
        if self.error:
            out["error"] = self.error
        return out


class TableBuilds:
    """The builds of one server process, run one after the other in a daemon thread."""

    def __init__(self, enabled: bool):
        self.enabled = enabled
        self.builds: dict[str, Build] = {}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> TableBuilds:
        if not self.enabled:
            return self
        for spec in specs():
            game = load(spec.id)
            if game.perfect_build is not None:
                self.builds[spec.id] = Build(
                    spec.id, game.title, dict(game.options), game.perfect_build_seconds
                )
        if self.builds:
            self._thread = threading.Thread(target=self._run, name="qipan-table-builds", daemon=True)
            self._thread.start()
        return self

    def stop(self) -> None:
        """Stop after the part being built (the tables resume from there next time)."""
        self._stop.set()

    def status(self) -> list[dict]:
        return [b.to_dict() for b in self.builds.values()]

    def pending(self, game) -> Build | None:
        """The build of ``game``'s tables (its preset with the same options) if it is not
        finished yet."""
        build = self.builds.get(game.preset)
        if build is None or build.state not in ("waiting", "building") or build.options != game.options:
            return None
        return build

    def _run(self) -> None:
        _lower_priority()  # players' bots and requests first
        for build in self.builds.values():
            if self._stop.is_set():
                return
            build.state, build.started = "building", time.monotonic()
            game = load(build.preset)
            try:
                load_ref(game.perfect_build)(game, partial(self._progress, build))
            except Stopped:
                return
            except Exception as exc:  # a failed build must not take the server down
                log.exception("building the perfect-play tables of %s failed", build.preset)
                build.state, build.error = "failed", str(exc)
                continue
            build.state = "ready"
            log.info("perfect-play tables of %s ready", build.preset)

    def _progress(self, build: Build, done: int, total: int, *_) -> None:
        build.progress = (done, total)
        if self._stop.is_set():
            raise Stopped


def _lower_priority() -> None:
    """Nice this thread (Linux sets niceness per thread); elsewhere it runs as it is."""
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)
    except (AttributeError, OSError):
        pass
