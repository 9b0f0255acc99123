"""A qipan engine (``EngineLoop`` with MCTS) that misbehaves on purpose, for the engine
agent's tests: ``python misbehaving_engine.py GAME crash N`` starts its N-th search and
dies (exit status 3) 0.3 s into it; ``... hang N`` never answers its N-th ``go``."""

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

    loop = EngineLoop(game, write, agent="mcts")
    searches = 0
    for line in sys.stdin:
        if line.startswith("go"):
            searches += 1
            if searches == nth:
                if mode == "hang":
                    time.sleep(3600)
                loop.handle(line)  # the search starts in its thread...
                time.sleep(0.3)
                sys.stderr.write("segmentation fault (simulated)\n")
                sys.stderr.flush()
                os._exit(3)  # ...and the process dies under it
        if not loop.handle(line):
            break


if __name__ == "__main__":
    main()
