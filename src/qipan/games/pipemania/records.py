"""The level record of rules file §3.7: the level (grid, blocked cells, start, end, goal,
timing), the supply (mode, seed, fixed list and every piece the dispenser drew), then the
actions, one per tick per player (``p<r>,<c>``, ``-``, ``h``). ``LEVEL_RECORD_FORMAT`` is
registered in ``__init__.py``, so ``qipan replay`` reads it; the draws make it replay
without the seed."""

from __future__ import annotations

import json

from ...core import CHANCE, QipanError, RecordError
from ...core.formats import RecordFormat
from ...core.records import Record, check_players, outcome_from_dict, parse_json
from .board import SIDE_NAMES

FORMAT = "pipemania-level/1"


def level_record(state) -> dict:
    """The §3.7 record of a Pipe Mania game (a dict ready for JSON)."""
    game = state.game
    level = game.level(game.first_level)

    def place(end):
        if end is None:
            return None
        r, c = divmod(end[0], level.cols)
        return [r, c, SIDE_NAMES[end[1]]]

    blocked = [
        list(divmod(i, level.cols))
        for i, p in enumerate(level.cells)
        if p is not None and p.kind == "blocked"
    ]
    draws = [m.text[1:] for m in state.history if m.text.startswith("+")]
    actions = [m.text for m in state.history if not m.text.startswith("+")]
    return {
        "format": FORMAT,
        "game": game.preset,
        "options": game.options,
        "players": state.num_players,
        "level": {
            "cols": level.cols,
            "rows": level.rows,
            "blocked": blocked,
            "start": place(level.start),
            "end": place(level.drain),
            "goal": level.goal,
            "min_length": level.min_length,
            "start_delay": level.start_delay,
            "flow_period": level.flow_period,
            "layout": level.layout_text(),
        },
        "supply": {
            "mode": game.supply,
            "choice": game.choice,
            "seed": state.seed,
            "fixed": [k for k, n in game.fixed_stock.items() for _ in range(n)]
            if game.supply == "fixed"
            else None,
            "draws": draws,
        },
        "actions": actions,
        "scores": list(state.scores),
        "result": state.outcome.to_dict() if state.outcome else None,
    }


def to_record(data: dict) -> Record:
    """A qipan Record (chance draws interleaved with the actions) from a §3.7 record."""
    from ...core.registry import load

    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError(f"not a {FORMAT} record")
    try:
        options = data.get("options", {})
        if not isinstance(options, dict) or not isinstance(data["supply"], dict):
            raise TypeError("options and supply must be objects")
        game = load(data["game"], **options)
        players = check_players(data.get("players", 1))
        state = game.new(players=players, seed=data["supply"].get("seed"))
        draws = list(data["supply"].get("draws", []))
        actions = list(data["actions"])
    except (KeyError, TypeError, ValueError, QipanError) as exc:
        raise RecordError(f"malformed {FORMAT} record: {exc}") from exc
    moves: list[str] = []
    while state.outcome is None and (draws or actions):
        if state.to_move == CHANCE:
            if not draws:
                raise RecordError("the dispenser needs a piece the record does not list", len(moves) + 1)
            text = "+" + draws.pop(0)
        else:
            if not actions:
                break
            text = actions.pop(0)
        try:
            state.play(text)
        except QipanError as exc:
            raise RecordError(f"{text!r}: {exc}", len(moves) + 1) from exc
        moves.append(text)
    if actions:
        raise RecordError(f"{len(actions)} actions after the end of the game", len(moves) + 1)
    result = data.get("result")
    record = Record(
        game=data["game"],
        options=data.get("options", {}),
        players=players,
        moves=moves,
        # The recorded result goes through the core records' checks, as every format's does.
        result=outcome_from_dict(result, players) if result else state.outcome,
        seed=data["supply"].get("seed"),
    )
    if "scores" in data and list(state.scores) != list(data["scores"]):
        raise RecordError(f"the actions score {state.scores}, the record says {data['scores']}")
    return record


def sniff(text: str) -> bool:
    return f'"{FORMAT}"' in text[:200]


def read(text: str) -> list[Record]:
    data = parse_json(text)
    return [to_record(d) for d in (data if isinstance(data, list) else [data])]


def write(records: list[Record]) -> str:
    out = [level_record(r.replay()) for r in records]
    return json.dumps(out[0] if len(out) == 1 else out, ensure_ascii=False, indent=1)


LEVEL_RECORD_FORMAT = RecordFormat(
    name=FORMAT, sniff=sniff, read=read, write=write, suffixes=(".pipemania.json",)
)
