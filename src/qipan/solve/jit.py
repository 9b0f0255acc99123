"""The numerical back end: NumPy is required, Numba optional.

Kernels are written once in the subset of Python that Numba compiles; without Numba they run
as plain Python on the same arrays (same results, much slower), so ``qipan[solve]`` is an
accelerator, not a different code path."""

from __future__ import annotations

import contextlib

from ..core.errors import QipanError

try:
    import numpy as np
except ImportError as exc:  # pragma: no cover - the extra is installed in the test environment
    raise QipanError("qipan.solve needs NumPy: pip install 'qipan[solve]'") from exc

try:
    import numba as _numba

    HAVE_NUMBA = True
except ImportError:  # pragma: no cover
    _numba = None
    HAVE_NUMBA = False


def _plain_objmode(**types):
    return contextlib.nullcontext()


#: ``with objmode(x="float64"): x = ...`` leaves compiled code for a few lines of plain Python
#: (a clock read); Numba must see its own object here, so it is bound, not wrapped. Without
#: Numba it is a no-op context.
objmode = _numba.objmode if _numba is not None else _plain_objmode


def njit(fn=None, *, nogil: bool = True):
    """Compile ``fn`` with Numba (cached on disk) when it is installed, else return it as is.
    ``@njit(nogil=False)`` for a function that holds an ``objmode`` block (it takes the GIL)."""
    if fn is None:
        return lambda f: njit(f, nogil=nogil)
    if _numba is None:
        return fn
    return _numba.njit(cache=True, nogil=nogil)(fn)


__all__ = ["HAVE_NUMBA", "njit", "np", "objmode"]
