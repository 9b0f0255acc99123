"""The numerical back end: NumPy is required, Numba optional.

Kernels are written once in the subset of Python that Numba compiles; without Numba they run
as plain Python on the same arrays (same results, much slower), so ``qipan[solve]`` is an
accelerator, not a different code path."""

from __future__ import annotations

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


def njit(fn):
    """Compile ``fn`` with Numba (cached on disk) when it is installed, else return it as is."""
    if _numba is None:
        return fn
    return _numba.njit(cache=True, nogil=True)(fn)


__all__ = ["HAVE_NUMBA", "njit", "np"]
