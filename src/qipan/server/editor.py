"""The position editor's API: a position typed or clicked together is read by the game's own
position reader, which says why when the position is impossible; a game that declares a
``PositionEditor`` also takes clicks that place and remove pieces. The analysis API replays
moves from such a position (``replay_from``), so a link holds it."""

from __future__ import annotations

from typing import Any

from ..core import QipanError, load
from ..core.refs import load_ref
from .analysis import MAX_MOVES, describe
from .errors import ApiError

#: Characters of a position text.
MAX_POSITION = 4000


def game_of(game_id: Any, options: Any):
    if not isinstance(game_id, str) or not game_id:
        raise ApiError(400, "game must be the id of a game or preset (GET /api/specs lists them)")
    if not isinstance(options, dict):
        raise ApiError(400, "options must be an object of option values")
    try:
        return load(game_id, **options)
    except QipanError as exc:
        raise ApiError(400, str(exc)) from exc


def read(game, text: Any, players: Any = None):
    """The state the position text sets up, or ApiError with the reader's reason."""
    if not isinstance(text, str) or len(text) > MAX_POSITION:
        raise ApiError(400, f"position must be the position's text (at most {MAX_POSITION} characters)")
    try:
        state = game.position(text)
    except NotImplementedError as exc:
        raise ApiError(400, f"{game.title} has no position format") from exc
    except QipanError as exc:
        raise ApiError(400, f"this position is impossible: {exc}") from exc
    if players is not None and state.num_players != players:
        raise ApiError(400, f"the position is for {state.num_players} players, not {players}")
    return state


def set_up_position(game, text: Any, players: int) -> str | None:
    """The position a new game on the site starts from (``position`` of the create request),
    as the game's reader writes it back; None for the rules' start. ApiError with the reader's
    reason for an impossible position, and for one where the game is already over."""
    if text is None:
        return None
    state = read(game, text, players)
    if state.outcome is not None:
        raise ApiError(400, f"the game is over in this position ({state.outcome.reason}): nothing to play")
    return state.position()


def replay_from(game_id: Any, options: Any, players: Any, position: Any, moves: list[str]):
    """The state after ``moves`` from the edited ``position`` (ApiError naming a bad move)."""
    state = read(game_of(game_id, options or {}), position, players)
    if len(moves) > MAX_MOVES:
        raise ApiError(400, f"at most {MAX_MOVES} moves, not {len(moves)}")
    for ply, text in enumerate(moves, start=1):
        try:
            state.play(text)
        except QipanError as exc:
            raise ApiError(400, f"ply {ply}: {exc}") from exc
    return state


def editor_of(game):
    return load_ref(game.position_editor) if game.position_editor else None


def edit(data: dict) -> dict:
    """Apply one edit to ``data["position"]`` (``place``: a piece on ``target`` or, with
    ``piece`` null, nothing there; ``mover``: the side to move; ``hands``: pieces in hand)
    and answer with the position read back, as the analysis page draws it."""
    game = game_of(data.get("game"), data.get("options") or {})
    text = data.get("position")
    if text is None:
        text = game.new(players=data.get("players") or game.players[0]).position()
    if not isinstance(text, str):
        raise ApiError(400, "position must be the position's text")
    editor = editor_of(game)
    action = data.get("action")
    if action is not None:
        if editor is None:
            raise ApiError(400, f"{game.title}'s positions are edited as text: change the text")
        text = _apply(editor, text, action, data)
    state = read(game, text, data.get("players"))
    shown = describe(state)
    shown["position"] = state.position()
    shown["editor"] = editor.describe() if editor else None
    shown["players"] = state.num_players
    return shown


def _apply(editor, text: str, action: Any, data: dict) -> str:
    if action == "place":
        target, piece = data.get("target"), data.get("piece")
        if not isinstance(target, str) or not target or len(target) > 20 or any(c.isspace() for c in target):
            raise ApiError(400, "target must be a point of the board")
        if piece is not None and piece not in editor.pieces:
            raise ApiError(400, f"piece must be one of {', '.join(editor.pieces)} or null (empty)")
        return editor.place(text, target, piece)
    if action == "mover":
        mover = data.get("mover")
        if mover not in editor.movers:
            raise ApiError(400, f"mover must be one of {', '.join(editor.movers)}")
        return editor.set_field(text, editor.mover_field, mover)
    if action == "hands" and editor.hands_field:
        hands = data.get("hands")
        if not isinstance(hands, list) or not all(isinstance(h, int) and 0 <= h <= 99 for h in hands):
            raise ApiError(400, "hands must be a list of whole numbers, one per player")
        return editor.set_field(text, editor.hands_field, ",".join(map(str, hands)))
    raise ApiError(400, "action must be place, mover or hands (where the game has hands)")
