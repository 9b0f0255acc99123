"""The Pipe Mania position text: the whole state as JSON (there is no traditional
position format; the level record is in ``records.py``)."""

from __future__ import annotations

import json

from ...core import NotationError
from .board import BY_ID, parse_piece_token
from .rules import PipeManiaGame, PipeManiaState


def write_position(state: PipeManiaState) -> str:
    """The whole state as compact JSON: grids, flooded channels, owners, timing, head,
    scores, dispensers and stocks."""
    data = {
        "boards": [
            {
                "level": b.level.number,
                "cells": [p.id if p else "." for p in b.cells],
                "owner": b.owner,
                "flooded": b.flooded,
                "tick": b.tick,
                "start_delay": b.start_delay,
                "flow_period": b.flow_period,
                "started": b.started,
                "head": list(b.head) if b.head else None,
                "hold": b.hold,
                "length": b.length,
                "crossovers": b.crossovers,
                "reached": b.reached,
                "over": b.over,
                "total_length": b.total_length,
                "results": [list(r) for r in b.results],
            }
            for b in state.boards
        ],
        "players": state.num_players,
        "scores": state.scores,
        "lost": state.lost,
        "replacements": state.replacements,
        "sequences": state.sequences,
        "dispensers": state.dispensers,
        "pools": state.pools,
        "actor": state.actor_i,
    }
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def read_position(game: PipeManiaGame, text: str) -> PipeManiaState:
    """The state ``write_position`` wrote; NotationError for anything else."""
    try:
        data = json.loads(text)
        state = PipeManiaState(game, int(data["players"]))
        if len(data["boards"]) != len(state.boards):
            raise ValueError("the number of grids does not match the mode")
        for b, d in zip(state.boards, data["boards"], strict=True):
            b.load(game.level(int(d["level"])))
            if len(d["cells"]) != len(b.cells):
                raise ValueError("the grid size does not match the level")
            b.cells = [None if t == "." else BY_ID.get(t) or parse_piece_token(t) for t in d["cells"]]
            b.owner, b.flooded = [int(x) for x in d["owner"]], [int(x) for x in d["flooded"]]
            for name in (
                "tick",
                "start_delay",
                "flow_period",
                "hold",
                "length",
                "crossovers",
                "total_length",
            ):
                setattr(b, name, int(d[name]))
            b.started, b.reached, b.over = bool(d["started"]), bool(d["reached"]), bool(d["over"])
            b.head = tuple(d["head"]) if d["head"] else None
            b.results = [tuple(r) for r in d["results"]]
        state.scores = [int(x) for x in data["scores"]]
        state.lost = [int(x) for x in data["lost"]]
        state.replacements = [int(x) for x in data["replacements"]]
        state.sequences = [[str(p) for p in s] for s in data["sequences"]]
        state.dispensers = [[[int(x) for x in d] for d in own] for own in data["dispensers"]]
        state.pools = [{k: int(v) for k, v in pl.items()} for pl in data["pools"]]
        state.outcome = None
        state._start_tick()
        state.actor_i = int(data["actor"])
        if state.outcome is None and not 0 <= state.actor_i < len(state.actors):
            raise ValueError("the acting player is out of range")
        state._settle()
    except (KeyError, TypeError, ValueError) as exc:
        raise NotationError(f"not a Pipe Mania position: {exc}") from exc
    return state
