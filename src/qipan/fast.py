"""The compiled fast path (``qipan[fast]``): Numba and NumPy when they are installed.

Game packages write their ``kernel.py`` against this module, so a missing extra or the
switch ``QIPAN_KERNELS=0`` (environment) sends every game back to its pure-Python rules with
the same results. ``warm_up()`` compiles (or loads from Numba's on-disk cache) every kernel
before the first player's move: the server calls it once at start-up."""

from __future__ import annotations

import os
import time

try:
    import numpy as np
except ImportError:  # the core library runs without NumPy
    np = None

try:
    import numba as _numba
except ImportError:
    _numba = None

#: Numba and NumPy are importable (the kernels can be compiled).
HAVE_NUMBA = _numba is not None and np is not None


def enabled() -> bool:
    """Kernels are used: the extra is installed and ``QIPAN_KERNELS`` is not ``0``."""
    return HAVE_NUMBA and os.environ.get("QIPAN_KERNELS", "1") != "0"


def njit(fn):
    """Compile ``fn`` with Numba (cached on disk) when it is installed; else return it as is
    (never called then: ``enabled()`` is false and the games use their reference rules)."""
    if not HAVE_NUMBA:
        return fn
    return _numba.njit(cache=True, nogil=True)(fn)


def warm_up(presets=None) -> dict[str, float]:
    """Build the kernel of every preset (or of ``presets``) and run it once, so that compiling
    happens here and not on a player's first move. Returns CPU seconds per preset that has a
    kernel; empty when kernels are disabled."""
    if not enabled():
        return {}
    from .core.registry import load, specs

    names = presets if presets is not None else [spec.id for spec in specs()]
    spent: dict[str, float] = {}
    for name in names:
        start = time.process_time()
        game = load(name)
        kernel = game.kernel()
        if kernel is None:
            continue
        kernel.warm_up(game.new())
        spent[name] = time.process_time() - start
    return spent


def check_kernel(game, games: int, seed: int = 0, choose=None, start=None, kernel=None):
    """Play ``games`` seeded random games on the reference rules and on ``game``'s kernel side
    by side, comparing at every ply the legal move sets, the positions and the outcomes.
    ``kernel`` defaults to ``game.kernel()``; ``choose(state, moves, rng)`` picks the move (default: uniform); ``start()`` makes the
    first state (default ``game.new()``). Returns the plies compared and a Counter of the
    outcomes' reasons; raises AssertionError at the first difference, naming the game, the
    ply and what differs."""
    import random
    from collections import Counter

    if kernel is None:
        kernel = game.kernel()
    if kernel is None:
        raise ValueError(f"{game.preset} has no kernel here (kernels disabled or not covered)")
    rng = random.Random(seed)
    plies = 0
    reasons: Counter = Counter()
    for number in range(games):
        ref = start() if start is not None else game.new()
        s = kernel.state(ref)
        while True:
            where = f"{game.preset} {game.options} game {number} ply {ref.ply}"
            moves = ref.legal_moves()
            theirs = sorted(kernel.legal(s))
            ours = sorted(kernel.code(m) for m in moves)
            if ours != theirs:
                missing = [str(kernel.move(c)) for c in set(ours) - set(theirs)]
                extra = [str(kernel.move(c)) for c in set(theirs) - set(ours)]
                raise AssertionError(f"{where}: kernel lacks {missing}, has extra {extra}")
            if kernel.snapshot(s) != kernel.snapshot(kernel.state(ref)):
                raise AssertionError(
                    f"{where}: position {kernel.snapshot(s)} != {kernel.snapshot(kernel.state(ref))}"
                )
            if kernel.outcome(s) != ref.outcome:
                raise AssertionError(f"{where}: outcome {kernel.outcome(s)} != {ref.outcome}")
            if ref.outcome is not None:
                reasons[ref.outcome.reason] += 1
                break
            move = choose(ref, moves, rng) if choose is not None else rng.choice(moves)
            ref.play_unchecked(move)
            kernel.play(s, kernel.code(move))
            plies += 1
    return plies, reasons
