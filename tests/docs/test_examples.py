"""Every example a newcomer is shown runs: the README's Python and shell examples and the
examples in the commands' ``--help``."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from qipan.cli.main import cli
from tests.data import DATA

README = Path(__file__).resolve().parents[2] / "README.md"
#: Examples that cannot run inside a test, with the test that covers them instead.
NOT_RUN_HERE = {
    "serve": "runs until stopped; tests/server and tests/e2e serve the app",
    "play pipemania": "a curses real-time front end; tests/games/pipemania/test_terminal.py drives it",
}
#: What a person would type at an interactive prompt to leave at once.
QUIT = "quit\n" * 10


def _blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", README.read_text(encoding="utf-8"), re.S)


def _readme_commands() -> list[str]:
    commands = []
    for block in _blocks("sh"):
        for line in block.splitlines():
            line = line.split("  #", 1)[0].strip()
            if line.startswith(".venv/bin/qipan "):
                commands.append(line.removeprefix(".venv/bin/qipan "))
    return commands


def _help_examples() -> list[str]:
    examples = []
    for name in sorted(cli.commands):
        text = CliRunner().invoke(cli, [name, "--help"]).output
        if "Examples:" in text:
            for line in text.split("Examples:", 1)[1].splitlines():
                if line.strip().startswith("qipan "):
                    examples.append(line.strip().removeprefix("qipan "))
    return examples


def _replayable_pente_games() -> str:
    """The games of the pente.org sample that replay (the sample also holds a few that
    pente.org stored past their end, which a summary rightly reports as rejected)."""
    sample = DATA / "pente"
    index = json.loads((sample / "pente_org_sample_index.json").read_text(encoding="utf-8"))
    games = re.split(r"\n(?=\[Game )", (sample / "pente_org_sample.pgn").read_text(encoding="utf-8"))
    assert len(games) == len(index)
    return "\n".join(g.rstrip() + "\n" for g, entry in zip(games, index, strict=True) if entry["replay_ok"])


def _skipped(command: str) -> str | None:
    return next((why for prefix, why in NOT_RUN_HERE.items() if command.startswith(prefix)), None)


def _run(command: str, where: Path):
    if why := _skipped(command):
        pytest.skip(why)
    games = where / "games.pgn"
    if not games.exists():
        games.write_text(_replayable_pente_games(), encoding="utf-8")
    result = CliRunner().invoke(cli, shlex.split(command), input=QUIT, catch_exceptions=False)
    assert result.exit_code == 0, f"qipan {command}\n{result.output}"
    return result


def test_the_readme_python_example_runs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (example,) = _blocks("python")
    exec(compile(example, "README.md", "exec"), {})
    assert (tmp_path / "game.json").exists()


def test_readme_shell_examples_are_found():
    commands = _readme_commands()
    assert len(commands) >= 10 and any(c.startswith("play ") for c in commands)


@pytest.mark.parametrize("command", _readme_commands())
def test_readme_shell_example_runs(command, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    # The README replays the record its Python example wrote.
    exec(compile(_blocks("python")[0], "README.md", "exec"), {})
    _run(command, tmp_path)


@pytest.mark.parametrize("command", _help_examples())
def test_help_example_runs(command, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _run(command, tmp_path)


def test_help_examples_are_found():
    assert any(c.startswith("play ") for c in _help_examples())
