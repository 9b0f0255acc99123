"""Everything the code, the tests and the benchmarks read lives in the repository.

A person who clones qipan has nothing beside the checkout, so no file under ``src/``,
``tests/`` or ``benchmarks/`` may name the project's ``shared`` folder, reach above the
repository root, or name an absolute path of somebody's machine."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CODE = (".py", ".js", ".html", ".sh", ".toml", ".ini", ".cfg")
FOLDERS = ("src", "tests", "benchmarks")

SHARED = re.compile(r"(?<![\w.-])shared/(?:data|rules|seeds|hooks|DESIGN)")
ABSOLUTE = re.compile(r"""["'](/(?:work|home|root|tmp|mnt|srv|opt|Users|data)/)""")
UPWARD_TEXT = re.compile(r"""["']\.\./|os\.pardir""")
# Path(__file__)...parents[N] and Path(__file__)...parent.parent...
PARENTS = re.compile(r"Path\(__file__\)(?:\.resolve\(\))?\.parents\[(\d+)\]")
PARENT_CHAIN = re.compile(r"Path\(__file__\)(?:\.resolve\(\))?((?:\.parent)+)")


def code_files():
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*")):
            # This file holds escapes on purpose, as examples for the check itself.
            if path.suffix in CODE and path.is_file() and path != Path(__file__).resolve():
                yield path


def problems_in(path: Path, text: str) -> list[str]:
    rel = path.relative_to(ROOT)
    # For src/a/b.py, parents[0] is src/a and parents[2] the root: anything higher is outside.
    root_index = len(rel.parts) - 1
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        where = f"{rel}:{number}"
        if SHARED.search(line):
            found.append(f"{where} names the shared folder: {line.strip()}")
        if ABSOLUTE.search(line):
            found.append(f"{where} names an absolute path: {line.strip()}")
        if path.suffix == ".py" and UPWARD_TEXT.search(line):
            found.append(f"{where} climbs with '..': {line.strip()}")
        for match in PARENTS.finditer(line):
            if int(match.group(1)) > root_index:
                found.append(f"{where} reaches above the repository root: {line.strip()}")
        for match in PARENT_CHAIN.finditer(line):
            if match.group(1).count(".parent") - 1 > root_index:
                found.append(f"{where} reaches above the repository root: {line.strip()}")
    return found


def test_no_file_reads_outside_the_checkout():
    problems = []
    for path in code_files():
        problems += problems_in(path, path.read_text(encoding="utf-8", errors="replace"))
    assert not problems, "\n".join(problems)


def test_the_check_catches_each_kind_of_escape():
    test_file = ROOT / "tests" / "games" / "x" / "test_x.py"
    cases = {
        # Spelt in two pieces so that text searches for escapes do not stop at this example.
        'DATA = Path("/work/shared' + '/data/pente")': 2,  # names shared, and an absolute path
        'DATA = Path(__file__).resolve().parents[4] / "data"': 1,  # tests/games/x/.. -> above root
        'DATA = Path(__file__).parent.parent.parent.parent.parent / "data"': 1,
        'open("../other/file")': 1,
        "ROOT = Path(__file__).resolve().parents[3]": 0,  # the repository root itself
        'HERE = Path(__file__).parent / "data"': 0,
    }
    for line, count in cases.items():
        assert len(problems_in(test_file, line)) == count, line
