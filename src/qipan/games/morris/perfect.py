"""Perfect play from the retrograde tables: probe a state, value every legal move.

``PerfectTables(game)`` opens (and, if asked, builds) the tables of the game's rule set in a
directory of its own: ``$QIPAN_TABLES`` or ``~/.cache/qipan/tables``, under the game id and a
hash of the space's description, so rule sets never share files. Values are for the side to
move, with the plies to the end under best play (fastest win, slowest loss)."""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path

from ...core.errors import QipanError
from ...core.move import Move
from ...solve.codes import decode
from ...solve.database import Database
from .tables import MorrisSpace


def tables_home() -> Path:
    return Path(os.environ.get("QIPAN_TABLES") or Path.home() / ".cache" / "qipan" / "tables")


def default_directory(space: MorrisSpace) -> Path:
    digest = hashlib.sha256(json.dumps(space.describe(), sort_keys=True).encode()).hexdigest()[:12]
    suffix = f"-k{space.max_stones}" if space.max_stones is not None else ""
    return tables_home() / f"{space.game.id}{suffix}-{digest}"


@dataclass(frozen=True)
class MoveValue:
    move: Move
    value: str  # win | draw | loss, for the player making the move
    plies: int | None  # plies to the end after this move is played, counting it

    def rank(self) -> tuple:
        """Sort key, best first: fastest win, then draws, then slowest loss."""
        if self.value == "win":
            return (0, self.plies)
        if self.value == "draw":
            return (1, 0)
        return (2, -(self.plies or 0))


class PerfectTables:
    def __init__(self, game, directory: str | os.PathLike | None = None, max_stones: int | None = None):
        self.game = game
        self.space = MorrisSpace(game, max_stones)
        self.directory = Path(directory) if directory is not None else default_directory(self.space)
        self.db = Database(self.directory, self.space)

    def build(self, progress=None, check: bool = False) -> str:
        """Solve what is missing; return the manifest hash."""
        return self.db.solve(progress=progress, check=check)

    def ensure(self) -> None:
        if not self.db.complete():
            self.build()

    def covers(self, state) -> bool:
        """Whether the tables hold this state (and it is not over)."""
        return self.why_not(state) is None

    def why_not(self, state) -> str | None:
        """Why the built tables cannot answer for ``state`` (None: they can)."""
        try:
            key, _ = self.space.locate(state)
        except QipanError as exc:
            return str(exc)
        if not self.db.solved(key):
            return f"the tables in {self.directory} are not built: qipan solve morris, or qipan probe --build"
        return None

    def value(self, state) -> tuple[str, int | None]:
        """(win | draw | loss, plies to the end) for the side to move."""
        key, index = self.space.locate(state)
        kind, plies = decode(self.db.probe(key, index))
        if kind == "unknown":
            raise QipanError("this position is not solved yet")
        return kind, plies

    def move_values(self, state) -> list[MoveValue]:
        """Every legal move with its value for the mover, best first."""
        mover = state.to_move
        out = []
        for move in state.legal_moves():
            child = state.copy()
            child.play(move)
            if child.outcome is not None:
                reward = child.outcome.reward(mover)
                value = "win" if reward == 1 else "loss" if reward == 0 else "draw"
                out.append(MoveValue(move, value, 1 if value != "draw" else None))
                continue
            kind, plies = self.value(child)
            if kind == "draw":
                out.append(MoveValue(move, "draw", None))
            else:
                out.append(MoveValue(move, "win" if kind == "loss" else "loss", plies + 1))
        out.sort(key=MoveValue.rank)
        return out

    def best_moves(self, state) -> list[Move]:
        values = self.move_values(state)
        if not values:
            return []
        best = values[0].rank()
        return [v.move for v in values if v.rank() == best]


def probe(state, deadline=None) -> dict:
    """The exact value of ``state`` from the installed tables of its rule set (the game's
    ``perfect_value``, shown by the analysis page): the whole game where built, else the
    largest endgame tables. QipanError if they cannot answer, in words for a visitor of the
    site (no directory, no command: building them is the operator's business, see
    docs/solving.md). Probing is a few table look-ups per legal move, so ``deadline`` is not
    needed."""
    if state.outcome is not None:
        raise QipanError("the game is over")
    try:
        tables = installed_tables(state.game)
    except ImportError as exc:  # numpy comes with the solve extra
        raise QipanError(f"the perfect-play tables need qipan[solve]: {exc}") from None
    if tables is None:
        raise QipanError(f"this server has no perfect-play tables for {state.game.title} with these rules")
    if not tables.covers(state):
        k = tables.space.max_stones
        raise QipanError(
            f"this server's tables hold the endgames with at most {k} stones a side and none in hand; "
            "this position is outside them"
        )
    value, plies = tables.value(state)
    return {
        "value": value,
        "plies": plies,
        "best": [m.text for m in tables.best_moves(state)],
        "source": "retrograde tables" if tables.space.max_stones is None else "endgame tables",
    }


def build(game, progress=None) -> str:
    """Build the whole-game tables of ``game``'s rule set in the default place, unless they
    are there (the game's ``perfect_build``: the server does it at start, in the background);
    the manifest hash. Several processes (servers sharing a machine) build one at a time:
    the others wait for the lock and then find the tables complete."""
    tables = PerfectTables(game)
    tables.directory.mkdir(parents=True, exist_ok=True)
    with open(tables.directory.with_suffix(".lock"), "w") as lock:
        try:
            import fcntl

            fcntl.flock(lock, fcntl.LOCK_EX)
        except ImportError:  # no fcntl (Windows): one server per machine there
            pass
        tables = PerfectTables(game)  # the manifest as the last holder of the lock left it
        return tables.build(progress)


_INSTALLED: dict = {}


def installed_tables(game, directory=None):
    """The largest complete tables of ``game``'s rule set in ``directory`` or under the
    tables' home (the whole game before the largest endgames), or None; read from the
    manifests, so no position space is made for tables that are not there. What the
    ``morris`` agent and the analysis page (``probe``) use. Found tables are kept open; a
    miss is looked for again next time, since the server may have finished building them."""
    key = (game.rules, str(directory) if directory is not None else tables_home())
    if key not in _INSTALLED:
        found = _largest_complete(game, directory)
        if found is None:
            return None
        _INSTALLED[key] = found
    return _INSTALLED[key]


def _largest_complete(game, directory):
    wanted = asdict(game.rules) | {"repetition_count": None, "n_move": 0, "max_plies": None}
    if directory is not None:
        places = [Path(directory)]
    else:
        home = tables_home()
        places = sorted(home.glob(f"{game.id}-*")) if home.is_dir() else []
    found = []
    for place in places:
        try:
            space = json.loads((place / "manifest.json").read_text())["space"]
        except (OSError, ValueError, KeyError, TypeError):
            continue  # not a table directory
        if space.get("game") == game.id and space.get("rules") == wanted:
            stones = space.get("max_stones")
            found.append((stones is None, stones or 0, str(place)))
    for _, stones, place in sorted(found, reverse=True):
        tables = PerfectTables(game, place, stones or None)
        if tables.db.complete():
            return tables
    return None
