"""A qipan engine that misbehaves on purpose, for the engine agent's tests:
``python misbehaving_engine.py GAME crash N`` dies (exit status 3) in the middle of its
N-th search; ``... hang N`` never answers its N-th ``go``."""

from __future__ import annotations

import os
import sys
import time

from qipan.agents.engine_protocol import EngineLoop


def main() -> None:
    game, mode, nth = sys.argv[1], sys.argv[2], int(sys.argv[3])

    def write(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    loop = EngineLoop(game, write, agent="random")
    searches = 0
    for line in sys.stdin:
        if line.startswith("go"):
            searches += 1
            if searches == nth:
                if mode == "crash":
                    sys.stderr.write("segmentation fault (simulated)\n")
                    sys.stderr.flush()
                    os._exit(3)
                time.sleep(3600)
        if not loop.handle(line):
            break


if __name__ == "__main__":
    main()
