"""The position editor in Traditional Chinese: every reason the editor shows (the games'
position readers, the click editor, the editor's API) has a zh-TW template that leaves no
English phrase behind. Found two ways: statically, every literal or f-string raised in
``games/*/position.py``, ``core/editing.py`` and ``server/editor.py``; and by sending broken
positions of every shipped game to the editor's API and collecting its refusals."""

from __future__ import annotations

import ast
import random
import re
import sys
from functools import cache
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_i18n import shipped_games  # noqa: E402
from test_i18n_errors import PLACEHOLDER, SRC, name_of, render  # noqa: E402

import qipan  # noqa: E402
from qipan.server import i18n  # noqa: E402

MODULES = [
    *sorted(SRC.glob("games/*/position.py")),
    SRC / "core" / "editing.py",
    SRC / "server" / "editor.py",
]
RAISERS = {"NotationError", "ValueError", "QipanError", "RecordError", "ApiError"}
#: Three English words in a row: what a template that matched only part of a message leaves
#: (a "subject: reason" split keeps the parts it cannot translate as they are). Lists of
#: field names ("players, phase, turn") are names, and stay.
ENGLISH = re.compile(r"[A-Za-z]{2,}(?: [a-z]{2,}){2,}")


def untranslated(message: str) -> str | None:
    """Why ``message`` does not read in Chinese (None when it does)."""
    chinese = i18n.translate(message, "zh-TW")
    if chinese is None:
        return "no template"
    left = ENGLISH.search(chinese)
    return f"English left: {chinese!r}" if left else None


@cache
def source_messages() -> list[tuple[str, int, str]]:
    found = []
    for path in MODULES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and name_of(node) in RAISERS and node.args:
                # ApiError(status, message); the others take the message first.
                arg = node.args[-1] if name_of(node) == "ApiError" else node.args[0]
                for text in render(arg) or []:
                    # A placeholder glued to the words is a prefix ("board: " or nothing).
                    if (
                        text.startswith(PLACEHOLDER)
                        and text[len(PLACEHOLDER) : len(PLACEHOLDER) + 1].isalpha()
                    ):
                        text = text[len(PLACEHOLDER) :]
                    found.append((f"{path.parent.name}/{path.name}", node.lineno, text))
    return found


def broken_positions(text: str, rng: random.Random) -> list[str]:
    """Texts near a good position: cut short, a field repeated, words and characters changed."""
    words = text.split()
    out = ["", text[: len(text) // 2], text + " zz", " ".join(words + words[-1:])]
    for _ in range(12):
        chars = list(text)
        for _ in range(rng.randint(1, 3)):
            chars[rng.randrange(len(chars))] = rng.choice("0179,:;=.-+/|xXJR")
        out.append("".join(chars))
    return out


@cache
def refusals() -> dict[str, str]:
    """The editor API's refusal messages -> the game that gave it."""
    from qipan.server.editor import edit
    from qipan.server.errors import ApiError

    out: dict[str, str] = {}
    for spec in shipped_games():
        rng = random.Random(spec.id)
        start = qipan.load(spec.id).new(players=spec.players[0]).position()
        for text in broken_positions(start, rng):
            try:
                edit({"game": spec.id, "position": text})
            except ApiError as exc:
                out.setdefault(exc.message, spec.id)
    return out


def test_the_enumerations_find_the_editors_messages():
    assert len(source_messages()) > 80
    assert len(refusals()) > 40


def test_every_reason_in_the_position_readers_and_the_editor_reads_in_chinese():
    missing = [
        f"{f}:{line}: {text} ({why})" for f, line, text in source_messages() if (why := untranslated(text))
    ]
    assert missing == []


def test_every_refusal_of_a_broken_position_reads_in_chinese():
    missing = sorted(f"{game}: {m} ({why})" for m, game in refusals().items() if (why := untranslated(m)))
    assert missing == []


def test_an_impossible_position_says_why_in_chinese():
    for message, chinese in (
        ("this position is impossible: K10 is given twice", "這個局面不可能出現：K10 出現了兩次"),
        ("this position is impossible: a1 holds two stones", "這個局面不可能出現：a1 上有兩顆棋子"),
        (
            "this position is impossible: malformed Pente position: player or ply out of range",
            "這個局面不可能出現：Pente 局面格式錯誤：玩家或手數超出範圍",
        ),
    ):
        assert i18n.translate(message, "zh-TW") == chinese
