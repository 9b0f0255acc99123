"""Puzzles from real games: generated offline from the game database (``qipan puzzles
generate --from-db``) with each game's own search (``Game.puzzle_finder``), every solution
tree checked through the rules (``core.puzzles``), then stored with a Glicko-2 rating that
moves with every rated attempt, as the solvers' own puzzle ratings do (lichess's model:
a solve is a win of the solver against the puzzle, a miss a loss).

The server never sends a solution ahead: the page sends the line played so far and the
server says whether the last move is right and answers with the defence that resists
longest. A starter set built from the repository's records ships in the package and is
loaded into an empty database at start."""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Iterable
from datetime import date
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from ..core import QipanError, load
from ..core.puzzles import PuzzleError, check_solution, main_line, solution_tree
from ..core.records import Record
from ..core.refs import load_ref
from .errors import ApiError
from .gamedb import db_games
from .ratings import Rating, rate_game
from .storage import insert_if_new, metadata

STARTER = Path(__file__).with_name("puzzles_starter.json")

puzzles_table = sa.Table(
    "puzzles",
    metadata,
    sa.Column("id", sa.String(40), primary_key=True),
    sa.Column("game", sa.String(64), nullable=False, index=True),
    sa.Column("options", sa.JSON, nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=True),
    # The moves from the start to the puzzle's position.
    sa.Column("moves", sa.JSON, nullable=False),
    sa.Column("solver", sa.Integer, nullable=False),
    sa.Column("solution", sa.JSON, nullable=False),
    sa.Column("theme", sa.String(40), nullable=False, index=True),
    # The solver's moves on the longest line of the solution.
    sa.Column("plies", sa.Integer, nullable=False),
    sa.Column("source", sa.String(200), nullable=True),
    sa.Column("rating", sa.Float, nullable=False),
    sa.Column("rd", sa.Float, nullable=False),
    sa.Column("volatility", sa.Float, nullable=False),
    sa.Column("attempts", sa.Integer, nullable=False),
    sa.Column("created", sa.Float, nullable=False),
)

puzzle_ratings = sa.Table(
    "puzzle_ratings",
    metadata,
    sa.Column("account_id", sa.Integer, primary_key=True),
    sa.Column("rating", sa.Float, nullable=False),
    sa.Column("rd", sa.Float, nullable=False),
    sa.Column("volatility", sa.Float, nullable=False),
    sa.Column("attempts", sa.Integer, nullable=False),
    sa.Column("updated", sa.Float, nullable=False),
)

puzzle_attempts = sa.Table(
    "puzzle_attempts",
    metadata,
    sa.Column("account_id", sa.Integer, primary_key=True),
    sa.Column("puzzle_id", sa.String(40), primary_key=True),
    sa.Column("solved", sa.Boolean, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)

#: The longest forced win looked for, in the solver's moves.
MAX_MOVES = 3
#: Plies before a game's end searched for a puzzle (the decisive phase).
LAST_PLIES = 12
#: A new puzzle's rating by its length in solver moves (a first guess the attempts correct).
START_RATING = {1: 1100.0, 2: 1500.0, 3: 1800.0}


# -- generating ------------------------------------------------------------------------------
def puzzle_id(record: Record, ply: int) -> str:
    text = json.dumps([record.game, record.options, record.seed, record.moves[:ply]], sort_keys=True)
    return f"{record.game[:20]}-{hashlib.blake2b(text.encode(), digest_size=8).hexdigest()}"


def find_puzzle(
    record: Record, max_moves: int = MAX_MOVES, last_plies: int = LAST_PLIES, missed: bool = False
) -> dict | None:
    """The first position among the last ``last_plies`` of ``record`` where the side to move
    wins by force within ``max_moves`` of its moves (the shortest such win), as a puzzle with
    its checked solution tree; with ``missed``, only a position where the move played does
    not win as fast (a win the player missed). None if there is none or the game declares no
    finder."""
    state = record.new_state()
    finder = _finder(state)
    if finder is None:
        return None
    first = max(0, len(record.moves) - last_plies)
    for ply, text in enumerate(record.moves):
        if ply >= first:
            puzzle = _puzzle_here(record, ply, state, finder, max_moves, text if missed else None)
            if puzzle is not None:
                return puzzle
        state.play(text)
    return None


def puzzle_at(record: Record, ply: int, max_moves: int = MAX_MOVES, missed: bool = False) -> dict | None:
    """The puzzle of the position after the first ``ply`` moves of ``record`` (as
    ``find_puzzle`` makes them), or None where the side to move has no forced win within
    ``max_moves`` (or, with ``missed``, the move played there wins as fast)."""
    if not 0 <= ply < len(record.moves):
        raise QipanError(f"ply {ply} is outside the record's {len(record.moves)} moves")
    state = record.new_state()
    finder = _finder(state)
    if finder is None:
        return None
    for text in record.moves[:ply]:
        state.play(text)
    return _puzzle_here(record, ply, state, finder, max_moves, record.moves[ply] if missed else None)


def _finder(state):
    """The game's declared PuzzleFinder, for two players only; None otherwise."""
    if state.game.puzzle_finder is None or state.num_players != 2:
        return None
    return load_ref(state.game.puzzle_finder)


def _puzzle_here(record: Record, ply: int, state, finder, max_moves: int, missed: str | None):
    """The puzzle of ``state`` (record's position at ``ply``): the shortest forced win; with
    ``missed`` (the move played there) only if that move does not win as fast itself."""
    if state.outcome is not None or state.is_chance:
        return None
    for moves in range(1, max_moves + 1):
        tree = solution_tree(state, moves, finder.forced_win)
        if tree is None:
            continue
        if missed is not None and _wins_within(state, missed, moves, finder):
            return None
        return _puzzle(record, ply, state, tree, moves, finder, record.moves[ply])
    return None


def _wins_within(state, played: str, moves: int, finder) -> bool:
    """Whether the move ``played`` wins within ``moves`` of the mover's moves, as the finder
    proves it for the moves after it (the tree is built and checked like a puzzle's)."""
    first = [True]

    def proposing(s, m):
        if first[0]:
            first[0] = False
            return played
        return finder.forced_win(s, m)

    return solution_tree(state, moves, proposing) is not None


def _puzzle(record: Record, ply: int, state, tree: dict, moves: int, finder, played: str) -> dict:
    line = main_line(tree)
    end = state.copy()
    for text in line:
        end.play(text)
    rating = START_RATING.get(moves, 1500.0 + 300 * (moves - 2))
    return {
        "id": puzzle_id(record, ply),
        "game": record.game,
        "options": record.options,
        "players": record.players,
        "seed": record.seed,
        "moves": record.moves[:ply],
        "solver": state.to_move,
        "solution": tree,
        "theme": finder.theme(end.outcome),
        "plies": moves,
        # Whether the player found the win in the game (a missed win is the better puzzle).
        "source": (" – ".join(record.names) or "")[:120] + (" (missed)" if played != tree["move"] else ""),
        "rating": rating,
        "rd": 300.0,
        "volatility": 0.06,
        "attempts": 0,
        "created": time.time(),
    }


def check_puzzle(puzzle: dict) -> int:
    """Replay a puzzle's moves from the start and check its solution tree through the rules
    (PuzzleError or RecordError says what is wrong); returns the solver's moves."""
    record = Record(
        puzzle["game"], puzzle["options"], puzzle["players"], moves=puzzle["moves"], seed=puzzle["seed"]
    )
    state = record.replay()
    if state.to_move != puzzle["solver"]:
        raise PuzzleError(f"player {puzzle['solver'] + 1} is not to move in the puzzle's position")
    return check_solution(state, puzzle["solution"])


class Puzzles:
    """The puzzles and their solvers' ratings on the site's SQL engine."""

    def __init__(self, engine: sa.Engine):
        self.engine = engine
        self._starter_checked = False

    # -- storing -------------------------------------------------------------------------
    def add(self, puzzles: Iterable[dict], check: bool = True) -> int:
        """Store puzzles (each checked first, unless they were: the shipped set is, by its
        test); those already stored are left. Returns how many were added."""
        rows = []
        for puzzle in puzzles:
            if check:
                check_puzzle(puzzle)
            rows.append(puzzle)
        if not rows:
            return 0
        with self.engine.begin() as conn:
            return sum(insert_if_new(conn, puzzles_table, **row) for row in rows)

    def generate_from_db(
        self,
        game: str | None = None,
        limit: int = 100,
        max_moves: int = MAX_MOVES,
        progress=None,
        missed: bool = False,
    ) -> list[dict]:
        """Puzzles from the stored games (of ``game``), at most one per game, at most
        ``limit`` (with ``missed``, only wins the player missed); each checked and stored.
        Returns them."""
        query = sa.select(db_games).order_by(db_games.c.id)
        if game:
            query = query.where(db_games.c.game == game)
        found: list[dict] = []
        with self.engine.connect() as conn:
            rows = conn.execute(query).mappings().all()
        for row in rows:
            if len(found) >= limit:
                break
            spec_game = load(row["game"], **row["options"])
            if spec_game.puzzle_finder is None or row["players"] != 2:
                continue
            record = Record(row["game"], row["options"], row["players"], moves=row["moves"], seed=row["seed"])
            record.names = [n for n in _names(self.engine, row["id"])]
            puzzle = find_puzzle(record, max_moves, missed=missed)
            if progress is not None:
                progress(row, puzzle)
            if puzzle is not None:
                found.append(puzzle)
        self.add(found)
        return found

    def load_starter(self, path: Path = STARTER) -> int:
        """The shipped starter set, into a database that has no puzzles yet (once per
        process, at the first request for a puzzle: a new site has puzzles at once)."""
        if self._starter_checked:
            return 0
        self._starter_checked = True
        with self.engine.connect() as conn:
            if conn.execute(sa.select(sa.func.count()).select_from(puzzles_table)).scalar():
                return 0
        if not path.exists():
            return 0
        return self.add(json.loads(path.read_text(encoding="utf-8"))["puzzles"], check=False)

    # -- reading -------------------------------------------------------------------------
    def get(self, puzzle_id: str) -> dict:
        with self.engine.connect() as conn:
            row = (
                conn.execute(puzzles_table.select().where(puzzles_table.c.id == puzzle_id)).mappings().first()
            )
        if row is None:
            raise ApiError(404, f"there is no puzzle {puzzle_id[:40]!r}")
        return dict(row)

    def themes(self) -> list[dict]:
        self.load_starter()
        query = (
            sa.select(puzzles_table.c.game, puzzles_table.c.theme, puzzles_table.c.plies, sa.func.count())
            .group_by(puzzles_table.c.game, puzzles_table.c.theme, puzzles_table.c.plies)
            .order_by(puzzles_table.c.game, puzzles_table.c.theme, puzzles_table.c.plies)
        )
        with self.engine.connect() as conn:
            return [{"game": g, "theme": t, "moves": p, "puzzles": n} for g, t, p, n in conn.execute(query)]

    def daily(self, today: date | None = None) -> dict:
        """The puzzle of the day: the same for everyone on a day, a different one each day."""
        self.load_starter()
        with self.engine.connect() as conn:
            ids = conn.execute(sa.select(puzzles_table.c.id).order_by(puzzles_table.c.id)).scalars().all()
        if not ids:
            raise ApiError(404, "there are no puzzles yet")
        day = (today or date.today()).toordinal()
        return self.get(ids[(day * 7919) % len(ids)])  # a prime stride: neighbours differ

    def next_for(
        self,
        account_id: int | None,
        game: str | None = None,
        theme: str | None = None,
        after: str | None = None,
    ) -> dict:
        """A puzzle for the solver: of ``game`` and ``theme`` if given, not yet tried by the
        account, its rating nearest the account's; for a guest the next one after ``after``."""
        self.load_starter()
        query = sa.select(puzzles_table)
        if game:
            query = query.where(puzzles_table.c.game == game)
        if theme:
            query = query.where(puzzles_table.c.theme == theme)
        if account_id is not None:
            tried = sa.select(puzzle_attempts.c.puzzle_id).where(puzzle_attempts.c.account_id == account_id)
            query = query.where(puzzles_table.c.id.not_in(tried))
            rating = self.rating(account_id).rating
            query = query.order_by(sa.func.abs(puzzles_table.c.rating - rating), puzzles_table.c.id)
        else:
            if after:
                query = query.where(puzzles_table.c.id > after)
            query = query.order_by(puzzles_table.c.id)
        with self.engine.connect() as conn:
            row = conn.execute(query.limit(1)).mappings().first()
        if row is None:
            raise ApiError(404, "no puzzle left with these choices")
        return dict(row)

    def rating(self, account_id: int) -> Rating:
        with self.engine.connect() as conn:
            row = conn.execute(
                puzzle_ratings.select().where(puzzle_ratings.c.account_id == account_id)
            ).first()
        return Rating(row.rating, row.rd, row.volatility) if row else Rating()

    def attempts_of(self, account_id: int) -> int:
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(puzzle_ratings.c.attempts).where(puzzle_ratings.c.account_id == account_id)
            ).first()
        return row.attempts if row else 0

    # -- solving -------------------------------------------------------------------------
    def attempt(self, account_id: int, puzzle_id: str, solved: bool) -> dict | None:
        """Rate the account's first attempt at the puzzle (Glicko-2 both ways, in one
        transaction); later attempts change nothing (None)."""
        with self.engine.begin() as conn:
            first = insert_if_new(
                conn,
                puzzle_attempts,
                account_id=account_id,
                puzzle_id=puzzle_id,
                solved=solved,
                at=time.time(),
            )
            if not first:
                return None
            row = (
                conn.execute(puzzles_table.select().where(puzzles_table.c.id == puzzle_id).with_for_update())
                .mappings()
                .first()
            )
            mine_row = conn.execute(
                puzzle_ratings.select().where(puzzle_ratings.c.account_id == account_id).with_for_update()
            ).first()
            mine = Rating(mine_row.rating, mine_row.rd, mine_row.volatility) if mine_row else Rating()
            theirs = Rating(row["rating"], row["rd"], row["volatility"])
            new_mine, new_theirs = rate_game(mine, theirs, 1.0 if solved else 0.0)
            now = time.time()
            conn.execute(
                puzzles_table.update()
                .where(puzzles_table.c.id == puzzle_id)
                .values(
                    rating=new_theirs.rating,
                    rd=new_theirs.rd,
                    volatility=new_theirs.volatility,
                    attempts=puzzles_table.c.attempts + 1,
                )
            )
            values = {
                "rating": new_mine.rating,
                "rd": new_mine.rd,
                "volatility": new_mine.volatility,
                "updated": now,
            }
            if mine_row is None:
                conn.execute(puzzle_ratings.insert().values(account_id=account_id, attempts=1, **values))
            else:
                conn.execute(
                    puzzle_ratings.update()
                    .where(puzzle_ratings.c.account_id == account_id)
                    .values(attempts=puzzle_ratings.c.attempts + 1, **values)
                )
        return {
            "before": round(mine.rating),
            "after": round(new_mine.rating),
            "puzzle": round(new_theirs.rating),
        }


def _names(engine: sa.Engine, game_id: int) -> list[str]:
    from .gamedb import db_players

    with engine.connect() as conn:
        rows = conn.execute(
            sa.select(db_players.c.seat, db_players.c.name).where(db_players.c.game_id == game_id)
        ).all()
    return [name for _, name in sorted(rows)]


# -- answering a move ---------------------------------------------------------------------------
def judge(puzzle: dict, line: list[str]) -> dict[str, Any]:
    """Where the solver's ``line`` (its moves and the defences the server gave) stands in the
    solution: the last move right or wrong, and if right the defence that resists longest
    (or the end). Any move that wins at once counts as right, as lichess counts any mate."""
    if not isinstance(line, list) or not line or not all(isinstance(m, str) and len(m) <= 200 for m in line):
        raise ApiError(400, "line must be the moves played in the puzzle so far, the last one yours")
    if len(line) % 2 == 0:
        raise ApiError(400, "the line must end with your move")
    record = Record(
        puzzle["game"], puzzle["options"], puzzle["players"], moves=puzzle["moves"], seed=puzzle["seed"]
    )
    try:
        state = record.replay()
    except QipanError as exc:
        raise ApiError(400, str(exc)) from exc
    node = puzzle["solution"]
    for i, text in enumerate(line):
        try:
            move = state.game.parse(text, state)
        except QipanError as exc:
            raise ApiError(400, str(exc)) from exc
        if i % 2 == 1:  # a defence: one the server gave, so in the tree
            replies = node.get("replies") or {}
            if replies.get(move.text) is None:
                raise ApiError(400, f"{move.text} is not a defence of this puzzle here")
            node = replies[move.text]
            state.play(move)
            continue
        last = i == len(line) - 1
        state.play(move)
        wins_now = state.outcome is not None and tuple(state.outcome.winners) == (puzzle["solver"],)
        if move.text != node["move"] and not wins_now:
            if last:
                return {"correct": False, "done": True, "solution": main_line(node)}
            raise ApiError(400, f"{move.text} is not the solution's move here")
        if wins_now:
            if not last:
                raise ApiError(400, "the puzzle was already solved")
            return {"correct": True, "done": True}
        if last:
            reply = _longest_defence(node)
            return {"correct": True, "done": False, "reply": reply}
    raise ApiError(400, "the line must end with your move")  # unreachable: the loop returns


def _longest_defence(node: dict) -> str:
    """The defence whose subtree is deepest (the most resistance); ties by the text."""

    def depth(sub) -> int:
        if not sub or not sub.get("replies"):
            return 0
        return 1 + max(depth(s) for s in sub["replies"].values())

    replies = node["replies"]
    return max(sorted(replies), key=lambda r: depth(replies[r]) if replies[r] is not None else -1)


def public(puzzle: dict) -> dict:
    """What the page gets before solving: everything but the solution."""
    return {
        "id": puzzle["id"],
        "game": puzzle["game"],
        "options": puzzle["options"],
        "players": puzzle["players"],
        "seed": puzzle["seed"],
        "moves": puzzle["moves"],
        "solver": puzzle["solver"],
        "theme": puzzle["theme"],
        "plies": puzzle["plies"],
        "rating": round(puzzle["rating"]),
        "attempts": puzzle["attempts"],
        "source": puzzle["source"],
    }
