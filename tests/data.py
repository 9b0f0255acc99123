"""Where the tests find the project's shared data (real records, reference values): the
``shared/data`` folder beside the checkout, or ``$QIPAN_SHARED_DATA``."""

from __future__ import annotations

import os
from pathlib import Path

SHARED_DATA = Path(
    os.environ.get("QIPAN_SHARED_DATA") or Path(__file__).resolve().parents[2] / "shared" / "data"
)
