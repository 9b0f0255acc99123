"""The ``tantrix`` agent against ``tantrix-classic`` (the earlier agent, kept as a fixed
reference) at equal CPU time per move, two players: the same paired match as
``modx_vs_classic.py`` (each pair of games on one seed, so the same chance draws as far as
the games allow, seats swapped; CPU-time limits; a 95 % interval over the pairs). The bag
makes the openings differ, so no random opening moves by default.

    .venv/bin/python benchmarks/tantrix_vs_classic.py --pairs 100 --time 0.1 --jobs 2
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from modx_vs_classic import main  # noqa: E402  (sets the CPU clock before qipan is imported)


def configure(text: str) -> None:
    """the tantrix agent's decision parameters, e.g. candidates=8,reply_share=0.2
    (class attributes of TantrixAgent: candidates, reply_share, playout_prior, build_share)"""
    if not text:
        return
    from qipan.games.tantrix.agent import TantrixAgent

    known = ("candidates", "reply_share", "playout_prior", "build_share")
    for item in filter(None, text.split(",")):
        name, _, value = item.partition("=")
        if name not in known:
            raise SystemExit(f"--set: no parameter {name!r}; known: {', '.join(known)}")
        setattr(TantrixAgent, name, int(value) if name == "candidates" else float(value))


if __name__ == "__main__":
    main(preset="tantrix", new="tantrix", old="tantrix-classic", opening=0, configure=configure)
