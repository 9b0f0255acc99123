"""Run the qipan server with the toy test games registered (for subprocess tests).

python tests/server/serve_toys.py PORT DB_URL"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from toygames import register_toys  # noqa: E402

import qipan.server  # noqa: E402

if __name__ == "__main__":
    register_toys()
    qipan.server.run(port=int(sys.argv[1]), db=sys.argv[2], log_level="warning")
