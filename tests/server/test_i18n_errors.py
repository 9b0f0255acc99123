"""The rules' messages in Traditional Chinese: every message an illegal move can raise has a
template in the errors catalogue, as far as they can be enumerated.

Two enumerations: (1) statically, every literal or f-string given to IllegalMove or
NotationError in the games' notation and rules modules and the core, and the string returns
of the functions that build such messages (``explain_illegal``, ``reason``...); (2) by play:
random games of every shipped preset, where at some positions moves of other positions and
malformed texts are tried and every refusal's message is collected."""

from __future__ import annotations

import ast
import random
from functools import cache
from pathlib import Path

import pytest
from test_i18n import shipped_games

import qipan
from qipan.core import QipanError, load
from qipan.core.errors import IllegalMove, NotationError
from qipan.server import i18n

SRC = Path(qipan.__file__).resolve().parent
RAISERS = {"IllegalMove", "NotationError"}
#: Modules whose messages reach a player: parsing and playing moves (positions and records
#: are read by the analysis page, which has its own catalogue).
MODULES = [
    SRC / "core" / "game.py",
    *sorted(SRC.glob("games/*/notation.py")),
    *sorted(SRC.glob("games/*/rules.py")),
]
MODULES += [SRC / "games" / "tantrix" / "solitaire.py"]
PLACEHOLDER = "v1"


def render(node) -> list[str] | None:
    """The texts of a literal or f-string, every {...} as PLACEHOLDER, or as each branch of
    a conditional between literals ({'s' if n > 1 else ''}); None for anything else."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        texts = [""]
        for part in node.values:
            options = [part.value] if isinstance(part, ast.Constant) else [PLACEHOLDER]
            if isinstance(part, ast.FormattedValue) and isinstance(part.value, ast.IfExp):
                branches = [render(part.value.body), render(part.value.orelse)]
                if all(branches):
                    options = [t for branch in branches for t in branch]
            texts = [t + o for t in texts for o in options]
        return texts
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = render(node.left), render(node.right)
        return None if left is None or right is None else [a + b for a in left for b in right]
    return None


def name_of(call: ast.Call) -> str | None:
    return getattr(call.func, "id", None) or getattr(call.func, "attr", None)


@cache
def static_messages() -> list[tuple[str, int, str]]:
    found = []
    for path in MODULES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        functions = {n.name: n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
        builders: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and name_of(node) in RAISERS and node.args:
                texts = render(node.args[0])
                if texts is not None:
                    found.extend((path.name, node.lineno, text) for text in texts)
                elif isinstance(node.args[0], ast.Call) and name_of(node.args[0]) in functions:
                    builders.add(name_of(node.args[0]))
        # The functions that build messages, and the ones they call in the same module.
        todo = list(builders)
        while todo:
            for node in ast.walk(functions[todo.pop()]):
                if (
                    isinstance(node, ast.Call)
                    and name_of(node) in functions
                    and name_of(node) not in builders
                ):
                    builders.add(name_of(node))
                    todo.append(name_of(node))
        for name in builders:
            for node in ast.walk(functions[name]):
                if isinstance(node, ast.Return) and node.value is not None:
                    for text in render(node.value) or []:
                        if text:
                            found.append((path.name, node.lineno, text))
    return found


PROBES = ["zz", "@", "x", "a1-a1", "J@A1", "p9,9", "+Q", "99@0,0r0", "A0+", "Z99"]


@cache
def played_messages() -> dict[str, str]:
    """message -> preset, from random games with moves tried where they do not belong."""
    out: dict[str, str] = {}
    for game_spec in shipped_games():
        game = load(game_spec.id)
        rng = random.Random(game_spec.id)
        state = game.new(game.players[0], seed=1)
        seen: list[str] = []
        for ply in range(40):
            if state.is_over:
                break
            moves = state.legal_moves()
            seen.extend(m.text for m in moves[:40])
            if not state.is_chance and ply % 4 == 0:
                for text in rng.sample(seen, min(15, len(seen))) + PROBES:
                    try:
                        game.parse(text, state)
                    except (IllegalMove, NotationError) as exc:
                        out.setdefault(str(exc), game_spec.id)
            state.play(rng.choice(moves))
        if state.is_over:
            try:
                state.play("x")
            except QipanError as exc:
                out.setdefault(str(exc), game_spec.id)
    return out


def test_the_enumerations_find_messages():
    assert len(static_messages()) > 80
    assert len(played_messages()) > 40


def test_every_message_in_the_rules_source_has_a_translation():
    missing = [
        f"{f}:{line}: {text}" for f, line, text in static_messages() if i18n.translate(text, "zh-TW") is None
    ]
    assert missing == []


def test_every_message_raised_in_play_has_a_translation():
    missing = sorted(
        f"{preset}: {m}" for m, preset in played_messages().items() if i18n.translate(m, "zh-TW") is None
    )
    assert missing == []


@pytest.mark.parametrize(
    "message, chinese",
    [
        ("d4 is occupied", "d4 已有棋子"),
        ("the game is over (three in a line)", "對局已經結束（三子連成一線）"),
        ("'zz' is not a legal move here", "'zz' 在這裡不是合法的一手"),
    ],
)
def test_messages_are_translated_with_their_parameters(message, chinese):
    assert i18n.translate(message, "zh-TW") == chinese


def test_an_unknown_message_has_no_translation_and_english_reads_as_english():
    assert i18n.translate("something nobody wrote", "zh-TW") is None
    assert i18n.translate("d4 is occupied", "en") == "d4 is occupied"


@cache
def outcome_reasons() -> dict[str, str]:
    """reason -> preset, from random games of every shipped preset played to their end."""
    out: dict[str, str] = {}
    for game_spec in shipped_games():
        game = load(game_spec.id)
        for seed in range(2):
            rng = random.Random(seed)
            state = game.new(game.players[0], seed=seed)
            for _ in range(500):
                if state.is_over:
                    break
                state.play(rng.choice(state.legal_moves()))
            if state.is_over:
                out.setdefault(state.outcome.reason, game_spec.id)
    return out


def test_every_result_reason_reached_in_play_has_a_translation():
    reasons = outcome_reasons()
    assert len(reasons) > 15
    missing = sorted(f"{preset}: {r}" for r, preset in reasons.items() if i18n.translate(r, "zh-TW") is None)
    assert missing == []


def test_a_chain_of_reasons_is_translated_part_by_part():
    text = "player 2 scores more; level 1 fails: the flow spills into the empty cell 0,8"
    assert i18n.translate(text, "zh-TW") == "第 2 位玩家分數較高；第 1 關失敗：水流進了空格 0,8"
    assert i18n.translate("the game is over (Black has fewer than three stones)", "zh-TW") == (
        "對局已經結束（黑方剩不到三個棋子）"
    )
