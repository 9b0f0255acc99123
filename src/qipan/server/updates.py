"""Per-change messages: what a listener needs after a change, given what it was sent last.

A connection gets the whole state once (on connect, or when it asks to resync) and then
``update`` messages: the fields that changed, the new moves, the clocks, the outcome, the
legal moves (to the seat to move only, compactly), and the picture as a patch of the SVG it
already has. The SVG is cut into tokens before every tag that follows a tag (whitespace
between them goes with the next token); the patch lists
``[start, end, new_tokens]`` replacements, applied from the last to the first, so the
client's SVG becomes the new one exactly (a token replaced one for one may come as an edit
of the old one, see ``svg_patch``). A Pente move changes two tokens of about 720."""

from __future__ import annotations

import re
from difflib import SequenceMatcher
from typing import Any

_BOUNDARY = re.compile(r"(?<=>)(?=\s*<)")
#: Fields of the state that are sent again only when they change.
_FIELDS = ("status", "public", "seats", "result", "offers", "realtime", "bot_thinking", "options", "title")


def svg_tokens(svg: str) -> list[str]:
    return _BOUNDARY.split(svg) if svg else []


def svg_patch(old: str, new: str) -> list[list[Any]]:
    """Replacements that turn ``old`` into ``new`` (token indices into ``old``). A token
    replaced one for one is sent as ``[keep, cut, middle]`` where that is shorter: the old
    token's first ``keep`` and last ``cut`` characters around ``middle`` (ASCII tokens
    only, so that JavaScript's string indices agree)."""
    a, b = svg_tokens(old), svg_tokens(new)
    ops = SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
    patch = []
    for tag, i1, i2, j1, j2 in ops:
        if tag == "equal":
            continue
        inserted: list[Any] = b[j1:j2]
        if i2 - i1 == j2 - j1:
            inserted = [_token_edit(x, y) for x, y in zip(a[i1:i2], inserted, strict=True)]
        patch.append([i1, i2, inserted])
    return patch


def _token_edit(old: str, new: str) -> str | list:
    if not (old.isascii() and new.isascii()):
        return new
    keep = 0
    limit = min(len(old), len(new))
    while keep < limit and old[keep] == new[keep]:
        keep += 1
    cut = 0
    while cut < limit - keep and old[-1 - cut] == new[-1 - cut]:
        cut += 1
    middle = new[keep : len(new) - cut]
    return [keep, cut, middle] if len(middle) + 12 < len(new) else new


def _apply_edit(old: str, edit: str | list) -> str:
    if isinstance(edit, str):
        return edit
    keep, cut, middle = edit
    return old[:keep] + middle + old[len(old) - cut :]


def compact_legal(legal: list[dict]) -> list:
    """Legal moves as ``text`` when the path is the text itself (one step), else as
    ``[text, step, step, ...]``."""
    return [m["text"] if m["path"] == [m["text"]] else [m["text"], *m["path"]] for m in legal]


def expand_legal(compact: list) -> list[dict]:
    return [
        {"text": m, "path": [m]} if isinstance(m, str) else {"text": m[0], "path": m[1:]} for m in compact
    ]


def update(old: dict, new: dict, patches: dict, mover: bool) -> dict:
    """The message that brings a client holding ``old`` to ``new``. ``patches`` caches SVG
    patches by the two SVG texts' identities (many listeners get the same one); ``mover``:
    the connection may move now, so it gets the legal moves."""
    out: dict[str, Any] = {
        "type": "update",
        "id": new["id"],
        "version": new["version"],
        "base": old["version"],
        "ply": new["ply"],
        "to_move": new["to_move"],
        "clock": new["clock"],
    }
    for name in _FIELDS:
        if new.get(name) != old.get(name):
            out[name] = new.get(name)
    old_moves, new_moves = old["moves"], new["moves"]
    keep = 0
    for a, b in zip(old_moves, new_moves, strict=False):
        if a != b:
            break
        keep += 1
    if keep != len(old_moves) or keep != len(new_moves):
        out["moves_from"], out["moves"] = keep, new_moves[keep:]
    if new["svg"] is not old["svg"] and new["svg"] != old["svg"]:
        key = (id(old["svg"]), id(new["svg"]))
        if key not in patches:
            patches[key] = svg_patch(old["svg"], new["svg"])
        out["svg_patch"] = patches[key]
    out["legal"] = compact_legal(new["legal"]) if mover else []
    return out


def apply(state: dict, message: dict) -> dict:
    """The state a client holds after ``message`` (an update) — what the web page does, for
    Python clients and the tests. Raises ValueError if the update is not for this state
    (the client then asks for a resync)."""
    if message.get("base") != state.get("version") or message.get("id") != state.get("id"):
        raise ValueError("this update is for another version of the state: resync")
    new = dict(state)
    skip = ("type", "base", "moves_from", "moves", "svg_patch", "legal")
    for name, value in message.items():
        if name not in skip:
            new[name] = value
    new["type"] = "state"
    if "moves_from" in message:
        new["moves"] = state["moves"][: message["moves_from"]] + message["moves"]
    if "svg_patch" in message:
        tokens = svg_tokens(state["svg"])
        for start, end, inserted in reversed(message["svg_patch"]):
            olds = tokens[start:end] if len(inserted) == end - start else [""] * len(inserted)
            tokens[start:end] = [_apply_edit(o, x) for o, x in zip(olds, inserted, strict=True)]
        new["svg"] = "".join(tokens)
    new["legal"] = expand_legal(message["legal"])
    new.pop("text", None)  # the text form is fetched again when wanted
    return new
