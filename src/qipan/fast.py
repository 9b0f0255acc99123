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


def njit_uncached(fn):
    """``njit`` without the disk cache, for functions that call another file's kernels:
    the cache notices changes to a function's own file only, so a cached caller could run
    a stale callee."""
    if not HAVE_NUMBA:
        return fn
    return _numba.njit(cache=False, nogil=True)(fn)


def njit_inline(fn):
    """``njit`` for a small function that is inlined into its compiled callers (Numba IR),
    so that it costs no compilation and no cache entry of its own."""
    if not HAVE_NUMBA:
        return fn
    return _numba.njit(inline="always", nogil=True)(fn)


def njit_guarded(fn, sources):
    """``njit`` with the disk cache for a function that calls other files' kernels: its
    cache is emptied whenever the contents of ``sources`` (every file compiled into it)
    change, from a digest kept beside the cache. Unlike ``njit_uncached``, a new process
    loads it instead of compiling it again."""
    if not HAVE_NUMBA:
        return fn
    import hashlib
    from pathlib import Path

    dispatcher = _numba.njit(cache=True, nogil=True)(fn)
    digest = hashlib.sha256(b"".join(Path(p).read_bytes() for p in sources)).hexdigest()
    try:
        cache = dispatcher._cache  # Numba's cache of this function (loaded at the first call)
        stamp = Path(cache.cache_path) / f"{cache._cache_file._index_name}.deps"
    except AttributeError:  # another Numba's internals: no guard, so no disk cache
        return _numba.njit(cache=False, nogil=True)(fn)
    try:
        if not stamp.exists() or stamp.read_text() != digest:
            cache.flush()
            stamp.write_text(digest)
    except OSError:
        pass  # no cache directory: nothing stale to load either
    return dispatcher


# -- random numbers for the kernels: xorshift64*, the state in a 1-element uint64 array ------
# Numba's disk cache notices a change of a function's own file only: after editing this
# function, delete the kernels' ``__pycache__/*.nbi`` files (or they keep the old version).
@njit
def rand_below(rng, n):
    """A random int in [0, n): xorshift64* then multiply-shift (bias below n / 2**32)."""
    x = rng[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    rng[0] = x
    r = (x * np.uint64(2685821657736338717)) >> np.uint64(32)
    return np.int64((r * np.uint64(n)) >> np.uint64(32))


def seed_word(seed: int) -> int:
    """A non-zero 64-bit xorshift state from any int seed (splitmix64 of it)."""
    z = (seed * 0x9E3779B97F4A7C15 + 0x9E3779B97F4A7C15) & (2**64 - 1)
    z = ((z ^ z >> 30) * 0xBF58476D1CE4E5B9) & (2**64 - 1)
    z = ((z ^ z >> 27) * 0x94D049BB133111EB) & (2**64 - 1)
    return (z ^ z >> 31) or 1


# -- bit counting for the kernels (Morris bitboards, the Tantrix bag); the cache caveat of
# ``rand_below`` holds here too.
@njit
def popcount(m):
    """The number of set bits of a non-negative int (a bitboard, a bag)."""
    n = 0
    while m:
        m &= m - 1
        n += 1
    return n


def njit_signed(signature: str):
    """``njit`` with an explicit signature, for recursive functions: Numba 0.68 caches a
    recursive function whose type it infers with an unresolved symbol for itself, and a new
    process loading it from the disk cache crashes; compiled eagerly for ``signature`` it
    caches and loads fine."""

    def wrap(fn):
        if not HAVE_NUMBA:
            return fn
        return _numba.njit(signature, cache=True, nogil=True)(fn)

    return wrap


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
    ply and what differs.

    Lean where a kernel allows it (CI runs thousands of games): ``kernel.moves_of(codes)``
    (the reference Moves of kernel codes) lets equal lists in the same order pass at once, and
    ``kernel.snapshot_of(ref)`` gives the reference side of ``kernel.snapshot`` without
    building a kernel state; any other case takes the exact comparison of sorted codes."""
    import random
    from collections import Counter

    if kernel is None:
        kernel = game.kernel()
    if kernel is None:
        raise ValueError(f"{game.preset} has no kernel here (kernels disabled or not covered)")
    moves_of = getattr(kernel, "moves_of", None)
    snapshot_of = getattr(kernel, "snapshot_of", None) or (lambda ref: kernel.snapshot(kernel.state(ref)))
    rng = random.Random(seed)
    plies = 0
    reasons: Counter = Counter()
    for number in range(games):
        ref = start() if start is not None else game.new()
        s = kernel.state(ref)

        def where(number=number, ref=ref) -> str:
            return f"{game.preset} {game.options} game {number} ply {ref.ply}"

        while True:
            moves = ref.legal_moves()
            theirs = kernel.legal(s)
            if moves_of is None or moves_of(theirs) != moves:
                ours = sorted(kernel.code(m) for m in moves)
                if ours != sorted(theirs):
                    missing = [str(kernel.move(c)) for c in set(ours) - set(theirs)]
                    extra = [str(kernel.move(c)) for c in set(theirs) - set(ours)]
                    raise AssertionError(f"{where()}: kernel lacks {missing}, has extra {extra}")
            if kernel.snapshot(s) != snapshot_of(ref):
                raise AssertionError(f"{where()}: position {kernel.snapshot(s)} != {snapshot_of(ref)}")
            if kernel.outcome(s) != ref.outcome:
                raise AssertionError(f"{where()}: outcome {kernel.outcome(s)} != {ref.outcome}")
            if ref.outcome is not None:
                reasons[ref.outcome.reason] += 1
                break
            move = choose(ref, moves, rng) if choose is not None else rng.choice(moves)
            ref.play_unchecked(move)
            kernel.play(s, kernel.code(move))
            plies += 1
    return plies, reasons
