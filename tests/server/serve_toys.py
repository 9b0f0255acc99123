"""Run the qipan server with the toy test games registered (for subprocess tests).

python tests/server/serve_toys.py PORT DB_URL [REDIS_URL]  (with REDIS_URL: one of several processes)

QIPAN_TOY_RATES=unlimited serves without rate limits: for browser walks whose two people share
one address (127.0.0.1), whose page loads would otherwise meet the per-address HTTP rate."""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the checkout

from tests.toys import register_toys  # noqa: E402

import qipan.server  # noqa: E402

if __name__ == "__main__":
    register_toys()
    redis = sys.argv[3] if len(sys.argv) > 3 else None
    # No tables built at start: the tests that want them build them in a directory of their own.
    from qipan.server.limits import Limits

    limits = Limits.unlimited_rates() if os.environ.get("QIPAN_TOY_RATES") == "unlimited" else None
    qipan.server.run(
        port=int(sys.argv[1]),
        db=sys.argv[2],
        log_level="warning",
        redis=redis,
        build_tables=False,
        limits=limits,
    )
