"""Front ends and generic agents talk to games only through the contract: their code may
not name a game id or family (DESIGN.md "One contract for all games"). Comments and
docstrings may use a game as an example; code and its strings may not."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

import qipan

SRC = Path(qipan.__file__).parent
GENERIC = ("cli", "server", "agents", "web", "core", "rl")


def _pattern() -> re.Pattern:
    names = {spec.id for spec in qipan.specs()} | {spec.family for spec in qipan.specs()}
    alternatives = "|".join(sorted(map(re.escape, names), key=len, reverse=True))
    return re.compile(rf"(?<![\w-])({alternatives})(?![\w-])", re.IGNORECASE)


def _python_code(text: str) -> list[tuple[int, str]]:
    """(line, text) of every token of Python source except comments and docstrings."""
    docstrings = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(body[0].lineno)
    out = []
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.COMMENT or (tok.type == tokenize.STRING and tok.start[0] in docstrings):
            continue
        out.append((tok.start[0], tok.string))
    return out


def _web_code(text: str) -> list[tuple[int, str]]:
    """(line, text) of JS/CSS/HTML lines with // and /* */ comments taken out."""
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    return [(n, re.sub(r"(^|\s)//.*$", "", line)) for n, line in enumerate(text.splitlines(), start=1)]


def code_naming_games() -> list[str]:
    pattern = _pattern()
    hits = []
    for layer in GENERIC:
        for path in sorted((SRC / layer).rglob("*")):
            if path.suffix not in {".py", ".js", ".html", ".css"}:
                continue
            text = path.read_text(encoding="utf-8")
            pieces = _python_code(text) if path.suffix == ".py" else _web_code(text)
            for line, piece in pieces:
                for match in pattern.finditer(piece):
                    hits.append(f"{path.relative_to(SRC)}:{line}: {match.group(0)!r}")
    return hits


def test_generic_layers_name_no_game():
    hits = code_naming_games()
    assert not hits, "generic code names a game:\n" + "\n".join(hits)


def test_the_check_sees_a_game_name_in_code():
    assert _pattern().search('if family == "pente":')
    assert (
        not _python_code('"""Pente docstring."""\n# trax comment\nx = 1\n')[0][1].lower().startswith("pente")
    )
    assert any("pente" in piece for _, piece in _python_code('x = "pente"\n'))


def test_core_imports_no_game_package():
    offenders = [
        str(path.relative_to(SRC))
        for path in (SRC / "core").rglob("*.py")
        if re.search(r"^\s*(from|import)\s+(qipan\.games|\.\.games)", path.read_text(encoding="utf-8"), re.M)
    ]
    assert not offenders
