"""Per-change messages: what a listener needs after a change, given what it was sent last.

A connection gets the whole state once (on connect, or when it asks to resync) and then
``update`` messages: the fields that changed, the new moves, the clocks, the outcome, the
legal moves (to the seat to move only, compactly), and the picture as a patch of the SVG it
already has. The SVG is cut into tokens at every ``<``; the patch lists
``[start, end, new_tokens]`` replacements, applied from the last to the first, so the
client's SVG becomes the new one exactly (a token replaced one for one may come as an edit
of the old one, see ``svg_patch``). A Pente move changes a few tokens of about 1,200."""

from __future__ import annotations

from collections import Counter
from itertools import compress, count
from operator import ne
from typing import Any

#: Fields of the state that are sent again only when they change.
_FIELDS = ("status", "public", "seats", "result", "offers", "realtime", "bot_thinking", "options", "title")


def svg_tokens(svg: str) -> list[str]:
    """The SVG cut at every ``<`` (the ``<`` itself dropped: the tokens join with it)."""
    return svg.split("<")


def svg_text(tokens: list[str]) -> str:
    return "<".join(tokens)


def svg_patch(old: str, new: str) -> list[list[Any]]:
    """Replacements ``[start, end, tokens]`` (token indices into ``old``) that turn ``old``
    into ``new``. A token replaced one for one is sent as ``[keep, cut, middle]`` where that
    is shorter: the old token's first ``keep`` and last ``cut`` characters around
    ``middle`` (ASCII tokens only, so that JavaScript's string indices agree)."""
    # Only the part between the common start and end is cut into tokens (a picture is
    # ~50 KB, a move changes a few places): ``skip`` whole tokens lie before it.
    skip, a, b = _middles(old, new)
    patch = []
    for start, end, inserted in _diff(a, b):
        if end - start == len(inserted):
            inserted = [_token_edit(x, y) for x, y in zip(a[start:end], inserted, strict=True)]
        patch.append([start + skip, end + skip, inserted])
    return patch


def _middles(old: str, new: str) -> tuple[int, list[str], list[str]]:
    """``(skip, a, b)``: the tokens of ``old`` and ``new`` less the ``skip`` first ones
    and the last ones that are the same in both, found by comparing the texts (in C)."""
    limit = min(len(old), len(new))
    head = _same_start(old, new, limit)
    tail = _same_end(old, new, limit - head)
    # A token is the same in both when it ends (at a '<') within the common start; the
    # first one that may differ begins after the last '<' there. Likewise at the end.
    skip = old.count("<", 0, head)
    begin = old.rfind("<", 0, head) + 1
    ends = []
    for text in (old, new):
        cut = text.find("<", len(text) - tail) if tail else -1
        ends.append(len(text) if cut < 0 else cut)
    return skip, old[begin : ends[0]].split("<"), new[begin : ends[1]].split("<")


def _diff(a: list[str], b: list[str]) -> list[list[Any]]:
    """Replacements turning ``a`` into ``b``, in linear time: the common start and end
    are cut off; a middle of the same length on both sides (a piece placed on an empty
    point, a marker moved) is compared token by token; otherwise tokens that occur once
    on both sides anchor the rest in order (a move changes a few places of a picture
    whose elements are mostly unique). The token loops run in C (map, compress)."""
    n, m = len(a), len(b)
    lo = next(compress(count(), map(ne, a, b)), min(n, m))
    tail = next(compress(count(), map(ne, reversed(a), reversed(b))), min(n, m))
    tail = min(tail, n - lo, m - lo)
    a_end, b_end = n - tail, m - tail
    if a_end - lo == b_end - lo:
        changed = list(compress(count(lo), map(ne, a[lo:a_end], b[lo:b_end])))
        if len(changed) <= 8:  # few tokens differ in place: replace just those
            return _runs(changed, b)
    a_mid, b_mid = a[lo:a_end], b[lo:b_end]
    seen_b = Counter(b_mid)
    anchors = {token for token, times in Counter(a_mid).items() if times == 1 and seen_b[token] == 1}
    where_b = {token: k for k, token in enumerate(b_mid, lo)}
    ops: list[list[Any]] = []
    ai = bi = lo
    for k in compress(count(lo), map(anchors.__contains__, a_mid)):
        kb = where_b[a[k]]
        if kb < bi:
            continue
        if k != ai or kb != bi:  # most anchors follow the previous one directly
            _gap(a, b, ai, k, bi, kb, ops)
        ai, bi = k + 1, kb + 1
    _gap(a, b, ai, a_end, bi, b_end, ops)
    return ops


def _same_start(a: str, b: str, limit: int, step: int = 2048) -> int:
    """How many first characters (at most ``limit``) ``a`` and ``b`` have in common,
    compared ``step`` at a time, then by halves, in C."""
    k = 0
    while k + step <= limit and a[k : k + step] == b[k : k + step]:
        k += step
    return k + _common_length(min(step, limit - k), lambda j: a[k : k + j] == b[k : k + j])


def _same_end(a: str, b: str, limit: int, step: int = 2048) -> int:
    """How many last characters (at most ``limit``) ``a`` and ``b`` have in common."""
    n, m = len(a), len(b)
    k = 0
    while k + step <= limit and a[n - k - step : n - k] == b[m - k - step : m - k]:
        k += step
    return k + _common_length(min(step, limit - k), lambda j: a[n - k - j : n - k] == b[m - k - j : m - k])


def _runs(changed: list[int], b: list[str]) -> list[list[Any]]:
    """One-for-one replacements of the tokens at the (ascending) indices ``changed``,
    consecutive ones together."""
    ops: list[list[Any]] = []
    for k in changed:
        if ops and ops[-1][1] == k:
            ops[-1][1] = k + 1
            ops[-1][2].append(b[k])
        else:
            ops.append([k, k + 1, [b[k]]])
    return ops


def _gap(a: list[str], b: list[str], a0: int, a1: int, b0: int, b1: int, ops: list) -> None:
    """Replace ``a[a0:a1]`` by ``b[b0:b1]``, less what they start and end with alike."""
    while a0 < a1 and b0 < b1 and a[a0] == b[b0]:
        a0, b0 = a0 + 1, b0 + 1
    while a0 < a1 and b0 < b1 and a[a1 - 1] == b[b1 - 1]:
        a1, b1 = a1 - 1, b1 - 1
    if a0 < a1 or b0 < b1:
        ops.append([a0, a1, b[b0:b1]])


def _token_edit(old: str, new: str) -> str | list:
    if not (old.isascii() and new.isascii()):
        return new
    limit = min(len(old), len(new))
    keep = _common_length(limit, lambda k: old[:k] == new[:k])
    cut = _common_length(limit - keep, lambda k: old[len(old) - k :] == new[len(new) - k :])
    middle = new[keep : len(new) - cut]
    return [keep, cut, middle] if len(middle) + 12 < len(new) else new


def _common_length(limit: int, same) -> int:
    """The largest k <= limit with ``same(k)`` (true up to some k, false beyond it): a
    binary search over slice comparisons, which run in C."""
    lo, hi = 0, limit
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if same(mid):
            lo = mid
        else:
            hi = mid - 1
    return lo


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
    # The moves both hold alike (all of the old ones, but after an undo): compared in C.
    keep = next(compress(count(), map(ne, old_moves, new_moves)), min(len(old_moves), len(new_moves)))
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
        new["svg"] = svg_text(tokens)
    new["legal"] = expand_legal(message["legal"])
    new.pop("text", None)  # the text form is fetched again when wanted
    return new
