"""The numerical back end: NumPy is required, Numba optional.

Kernels are written once in the subset of Python that Numba compiles; without Numba they run
as plain Python on the same arrays (same results, much slower), so ``qipan[solve]`` is an
accelerator, not a different code path. The decorators are ``qipan.fast``'s, the one set
every compiled module uses."""

from __future__ import annotations

from ..core.errors import QipanError

try:
    import numpy as np
except ImportError as exc:  # pragma: no cover - the extra is installed in the test environment
    raise QipanError("qipan.solve needs NumPy: pip install 'qipan[solve]'") from exc

from ..fast import HAVE_NUMBA, njit, objmode, popcount

__all__ = ["HAVE_NUMBA", "njit", "np", "objmode", "popcount"]
