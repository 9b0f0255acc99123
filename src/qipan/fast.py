"""The compiled fast path (``qipan[fast]``): Numba and NumPy when they are installed.

Game packages write their ``kernel.py`` against this module, so a missing extra or the
switch ``QIPAN_KERNELS=0`` (environment) sends every game back to its pure-Python rules with
the same results. ``warm_up()`` compiles (or loads from Numba's on-disk cache) every kernel
before the first player's move; the server has it done in the background
(``kernel_warmup.py``) and meanwhile lets only the families already loaded use theirs."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from contextvars import ContextVar
from typing import Any, Protocol, runtime_checkable

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


#: The families whose kernels this process may use while the rest compile in the background
#: (the server: ``kernel_warmup.Background``); None, no gate: a kernel compiles on first use.
_ready: set[str] | None = None
#: True in the thread that loads a family's kernels before it is marked ready.
_loading: ContextVar[bool] = ContextVar("qipan_kernel_loading", default=False)


def enabled(family: str | None = None) -> bool:
    """Kernels are used: the extra is installed and ``QIPAN_KERNELS`` is not ``0`` (and, with
    ``family``, its kernels are ready in this process: see ``gate``)."""
    if not (HAVE_NUMBA and os.environ.get("QIPAN_KERNELS", "1") != "0"):
        return False
    return family is None or _ready is None or family in _ready or _loading.get()


def gate() -> None:
    """From now on a family's ``game.kernel()`` is None until ``open_gate(family)``: its
    games play on the reference rules instead of compiling inside somebody's move."""
    global _ready
    _ready = set()


def open_gate(family: str) -> None:
    """Let ``family``'s games use their kernels (loaded by ``warm_up`` beforehand)."""
    if _ready is not None:
        _ready.add(family)


@contextmanager
def loading() -> Iterator[None]:
    """Inside the block (this thread only) gated kernels are available: for loading a
    family's kernels before ``open_gate``."""
    token = _loading.set(True)
    try:
        yield
    finally:
        _loading.reset(token)


def ungate() -> None:
    """Back to compiling on first use (every family's kernel available)."""
    global _ready
    _ready = None


# -- the kernel contract -----------------------------------------------------------------------
# Every game's ``kernel.py`` ends in a wrapper class that ``game.kernel()`` returns: it turns
# reference states and moves into the kernel's arrays and codes and back, so the generic code
# here (``check_kernel``), the agents and the RL adapters use any kernel the same way.
@runtime_checkable
class Kernel(Protocol):
    """The members every kernel has (``docs/contract.md``, "Kernels"). A kernel state ``s`` is
    the kernel's own (an array or a small object), a move is an int code."""

    #: The generic agents' searches the kernel runs itself: ``"mcts"`` (then it provides
    #: ``mcts`` and ``uct``) and ``"alphabeta"`` (then ``alphabeta``); the others run on the rules.
    searches: tuple[str, ...]
    #: The optional members (``KernelOptions``) this kernel has; nothing outside it is probed.
    provides: frozenset[str]

    def state(self, ref) -> Any:
        """The kernel state of the reference state ``ref`` (which is not changed)."""

    def legal(self, s) -> list[int]:
        """The codes of the legal moves of ``s`` (as a set, the reference's legal moves)."""

    def play(self, s, code: int) -> None:
        """Play the legal move ``code`` on ``s`` (unchecked, as ``State.play_unchecked``)."""

    def code(self, move) -> int:
        """The code of a reference Move."""

    def move(self, code: int) -> Any:
        """The reference Move of a code (Trax: its ``(cell, tile)``, as a Trax move's text
        depends on the position)."""

    def snapshot(self, s) -> tuple:
        """The position fields of ``s``, equal to the reference side's for the same position."""

    def outcome(self, s) -> Any:
        """The reference ``Outcome`` of a finished ``s``, None while it is playing."""

    def warm_up(self, ref) -> None:
        """Compile (or load from Numba's disk cache) the kernel's functions by running them."""


class KernelOptions(Protocol):
    """The optional members of a kernel, each present exactly when named in its ``provides``."""

    def moves_of(self, codes: list[int]) -> list:
        """The reference Moves of ``codes`` in one call (``check_kernel`` compares lists)."""

    def snapshot_of(self, ref) -> tuple:
        """``snapshot(state(ref))`` without building the kernel state."""

    def perft(self, ref, depth: int) -> int:
        """The number of move sequences of ``depth`` plies from ``ref``."""

    def evaluate(self, s, player: int) -> float:
        """``game.evaluate`` of the unfinished kernel state ``s`` for ``player``."""

    def mcts(self, ref, iterations=None, deadline=None, seed=0, exploration=1.4, playout_cap=400) -> tuple:
        """UCT inside the kernel, for the ``mcts`` agent: (the chosen Move, iterations done)."""

    def uct(self, ref, iterations=None, deadline=None, seed=0, exploration=1.4, playout_cap=400) -> tuple:
        """The tree of ``mcts`` (``agents.uct_kernel.Tree``) and the iterations done."""

    def alphabeta(self, ref, depth=None, deadline=None) -> Any:
        """Alpha-beta inside the kernel, for the ``alphabeta`` agent: move, score, depth, nodes."""


#: The names a kernel may list in ``provides``.
OPTIONAL_MEMBERS = frozenset(
    name for name, member in vars(KernelOptions).items() if callable(member) and not name.startswith("_")
)
#: What a search named in ``Kernel.searches`` needs among the optional members.
SEARCH_MEMBERS = {"mcts": frozenset({"mcts", "uct"}), "alphabeta": frozenset({"alphabeta"})}


def contract_errors(kernel) -> list[str]:
    """What ``kernel`` lacks or declares wrongly against ``Kernel`` and ``KernelOptions``
    (empty when it keeps the contract): a missing common member, a member whose parameters
    differ from the contract's (extra ones need defaults), an optional member present but not
    declared in ``provides`` or declared but absent, a search without its members."""
    import inspect

    errors: list[str] = []
    cls = type(kernel)
    name = cls.__name__
    for member in ("searches", "provides"):
        if member not in dir(cls) and member not in vars(kernel):
            errors.append(f"{name} lacks {member}")
    if errors:
        return errors
    provides = kernel.provides
    if not isinstance(provides, frozenset):
        return [f"{name}.provides is {type(provides).__name__}, not a frozenset"]
    for unknown in sorted(provides - OPTIONAL_MEMBERS):
        errors.append(f"{name}.provides names {unknown}, which is no optional kernel member")
    for search in kernel.searches:
        needs = SEARCH_MEMBERS.get(search)
        if needs is None:
            errors.append(f"{name}.searches names {search!r}, which is no search a kernel runs")
        elif not needs <= provides:
            errors.append(f"{name} runs {search} but does not provide {', '.join(sorted(needs - provides))}")
    common = [m for m in vars(Kernel) if not m.startswith("_") and callable(vars(Kernel)[m])]
    for member in [*common, *sorted(OPTIONAL_MEMBERS)]:
        optional = member in OPTIONAL_MEMBERS
        has = callable(getattr(cls, member, None))
        if optional and has != (member in provides):
            errors.append(
                f"{name}.{member} " + ("is not declared in provides" if has else "is declared but absent")
            )
        if not has:
            if not optional:
                errors.append(f"{name} lacks {member}")
            continue
        spec = getattr(KernelOptions if optional else Kernel, member)
        wanted = list(inspect.signature(spec).parameters.values())[1:]  # without self
        given = list(inspect.signature(getattr(kernel, member)).parameters.values())
        names = [p.name for p in given[: len(wanted)]]
        extra = [p.name for p in given[len(wanted) :] if p.default is inspect.Parameter.empty]
        if names != [p.name for p in wanted] or extra:
            errors.append(f"{name}.{member}({', '.join(p.name for p in given)}) differs from the contract's")
    return errors


# -- the Numba decorators: the one set every compiled module uses (``solve.jit`` re-exports
# them). Without Numba each returns the function as it is: never called by the games then
# (``enabled()`` is false and they use their reference rules), run as plain Python by ``solve``.
def njit(fn=None, *, nogil: bool = True):
    """Compile ``fn`` with Numba (cached on disk) when it is installed; else return it as is.
    ``@njit(nogil=False)`` for a function that holds an ``objmode`` block (it takes the GIL)."""
    if fn is None:
        return lambda f: njit(f, nogil=nogil)
    if not HAVE_NUMBA:
        return fn
    return _numba.njit(cache=True, nogil=nogil)(fn)


def _plain_objmode(**types):
    return nullcontext()


#: ``with objmode(x="float64"): x = ...`` leaves compiled code for a few lines of plain Python
#: (a clock read); Numba must see its own object here, so it is bound, not wrapped. Without
#: Numba it is a no-op context.
objmode = _numba.objmode if _numba is not None else _plain_objmode


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
    dispatcher = _numba.njit(cache=True, nogil=True)(fn)
    return dispatcher if _guard(dispatcher, sources) else _numba.njit(cache=False, nogil=True)(fn)


def _guard(dispatcher, sources) -> bool:
    """Empty ``dispatcher``'s disk cache when ``sources`` changed since it was filled; false
    when this Numba's cache cannot be guarded (then it must not be used)."""
    import hashlib
    from pathlib import Path

    digest = hashlib.sha256(b"".join(Path(p).read_bytes() for p in sources)).hexdigest()
    try:
        cache = dispatcher._cache  # Numba's cache of this function (loaded at the first call)
        stamp = Path(cache.cache_path) / f"{cache._cache_file._index_name}.deps"
    except AttributeError:  # another Numba's internals: no guard, so no disk cache
        return False
    try:
        if not stamp.exists() or stamp.read_text() != digest:
            cache.flush()
            stamp.write_text(digest)
    except OSError:
        pass  # no cache directory: nothing stale to load either
    return True


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


#: The argument types ``njit_typed`` knows by short name, besides a module's own.
_SCALAR_TYPES = {"i8": "int64", "u8": "uint64", "f8": "float64", "b": "boolean"}


def njit_typed(types=None, *, cache: bool = True, sources=()):
    """A decorator maker for recursive functions over a module's tuples of arrays:
    ``signed = njit_typed(lambda numba: {"W": numba.typeof(workspace())})``, then
    ``@signed("b", "W", "i8")`` compiles the function for that signature (result first) as
    ``njit_signed`` does. Besides the module's names: ``i8``, ``u8``, ``f8``, ``b`` (boolean),
    ``a1`` and ``a2`` (C-contiguous int64 arrays of one and two dimensions). ``types`` is called
    once, at the first decoration, so the workspaces are built only when Numba is there.
    ``sources``: the files compiled into the functions besides their own (the cache is
    guarded as ``njit_guarded``'s)."""
    names: dict = {}

    def signed(*args):
        if not HAVE_NUMBA:
            return lambda fn: fn
        if not names:
            names.update({k: getattr(_numba, v) for k, v in _SCALAR_TYPES.items()})
            names.update(a1=_numba.int64[::1], a2=_numba.int64[:, ::1])
            names.update(types(_numba) if types is not None else {})
        result, *params = (names[a] for a in args)
        if not sources:
            return _numba.njit(result(*params), cache=cache, nogil=True)

        def compiled(fn):
            import inspect

            dispatcher = _numba.njit(cache=cache, nogil=True)(fn)
            if not _guard(dispatcher, (inspect.getfile(fn), *sources)):
                dispatcher = _numba.njit(cache=False, nogil=True)(fn)
            # Eagerly, as Numba's own decorator does for a signature: registered while it
            # compiles, so that its recursive calls find it before its name is bound.
            from numba.core import typeinfer

            with typeinfer.register_dispatcher(dispatcher):
                dispatcher.compile(result(*params))
            dispatcher.disable_compile()
            return dispatcher

        return compiled

    return signed


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

    A kernel that breaks the contract (``contract_errors``) is refused with a TypeError first.
    Lean where a kernel provides it (CI runs thousands of games): ``moves_of(codes)`` (the
    reference Moves of kernel codes) lets equal lists in the same order pass at once, and
    ``snapshot_of(ref)`` gives the reference side of ``snapshot`` without building a kernel
    state; any other case takes the exact comparison of sorted codes."""
    import random
    from collections import Counter

    if kernel is None:
        kernel = game.kernel()
    if kernel is None:
        raise ValueError(f"{game.preset} has no kernel here (kernels disabled or not covered)")
    broken = contract_errors(kernel)
    if broken:
        raise TypeError(f"{type(kernel).__name__} breaks the kernel contract: {'; '.join(broken)}")
    moves_of = kernel.moves_of if "moves_of" in kernel.provides else None
    if "snapshot_of" in kernel.provides:
        snapshot_of = kernel.snapshot_of
    else:

        def snapshot_of(ref):
            return kernel.snapshot(kernel.state(ref))

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


# -- the batched step (``qipan.rl.vector``): choosing an action and keeping a game's mask ----
#: How ``step`` chooses each game's action: given by the caller, uniform among the legal
#: ones, or drawn from the softmax of the caller's logits over the legal ones.
GIVEN, UNIFORM, LOGITS = 0, 1, 2


@njit_inline
def check_given(mode, given, acts, offsets):
    """The first game whose given action is not among its legal ones (``acts`` packed game
    after game, game b's from ``offsets[b]``; a finished game has none and takes any), or -1."""
    if mode != GIVEN:
        return -1
    for b in range(offsets.shape[0] - 1):
        if offsets[b + 1] == offsets[b]:
            continue
        found = False
        for i in range(offsets[b], offsets[b + 1]):
            if acts[i] == given[b]:
                found = True
                break
        if not found:
            return b
    return -1


@njit_inline
def draw_weighted(weights, k, total, rng):
    """A position in ``weights[:k]``, position i with probability ``weights[i] / total``
    (the weights made once by the caller, not again while drawing)."""
    u = rand_below(rng, 1 << 30) * (total / (1 << 30))
    for i in range(k):
        u -= weights[i]
        if u < 0.0:
            return i
    return k - 1


@njit_inline
def pick_legal(mode, acts, k, given, logits, b, rng):
    """The position in ``acts[:k]`` (game ``b``'s legal action indices) of its action this
    step; -1 if a given action is not among them."""
    if mode == UNIFORM:
        return rand_below(rng, k)
    if mode == GIVEN:
        for i in range(k):
            if acts[i] == given[b]:
                return i
        return -1
    top = logits[b, acts[0]]
    for i in range(1, k):
        top = max(top, logits[b, acts[i]])
    total = 0.0
    for i in range(k):
        total += np.exp(logits[b, acts[i]] - top)
    u = rand_below(rng, 1 << 30) * (total / (1 << 30))
    for i in range(k):
        u -= np.exp(logits[b, acts[i]] - top)
        if u < 0.0:
            return i
    return k - 1
