"""``qipan solve morris`` and ``qipan probe`` on Three Men's Morris (Kurna), whose tables
build in a moment."""

from __future__ import annotations

import json

from click.testing import CliRunner

from qipan.cli.main import cli


def run(*args):
    return CliRunner().invoke(cli, list(args))


def test_solve_prints_the_manifest_hash_and_a_rerun_resumes_to_the_same_hash(tmp_path):
    first = run("solve", "morris", "--preset", "three-mens-morris-kurna", "--dir", str(tmp_path / "a"))
    assert first.exit_code == 0, first.output
    assert "start: win in" in first.output
    digest = json.loads((tmp_path / "a" / "manifest.json").read_text())["hash"]
    assert first.output.strip().endswith(f"manifest {digest}")
    again = run("solve", "morris", "--preset", "three-mens-morris-kurna", "--dir", str(tmp_path / "a"))
    elsewhere = run(
        "solve", "morris", "--preset", "three-mens-morris-kurna", "--dir", str(tmp_path / "b"), "--check"
    )
    assert again.output.strip().endswith(digest) and elsewhere.output.strip().endswith(digest)


def test_probe_gives_value_distance_and_best_moves(tmp_path):
    out = run(
        "probe",
        "three-mens-morris-kurna",
        "W: B: hands:3,3 to:W",
        "--dir",
        str(tmp_path),
        "--build",
        "--json",
    )
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["value"] == "win" and data["best"] == ["b2"]
    assert {m["move"]: m["value"] for m in data["moves"]}["a2"] == "loss"
    text = run("probe", "three-mens-morris-kurna", "W:b2 B: hands:2,3 to:B", "--dir", str(tmp_path))
    assert text.exit_code == 0 and text.output.startswith("loss in ")


def test_probe_and_solve_refuse_what_the_tables_cannot_answer(tmp_path):
    missing = run("probe", "three-mens-morris-kurna", "W: B: hands:3,3 to:W", "--dir", str(tmp_path))
    assert missing.exit_code != 0 and "not built" in missing.output
    assert not (tmp_path / "manifest.json").exists()
    odd = run("probe", "three-mens-morris-kurna", "W:a1 B: hands:2,3 to:W", "--dir", str(tmp_path), "--build")
    assert odd.exit_code != 0 and "no table" in odd.output
    other = run("solve", "morris", "--preset", "pente")
    assert other.exit_code != 0 and "not a Morris preset" in other.output
    zhiqi = run("solve", "morris", "--preset", "zhiqi", "--dir", str(tmp_path / "z"))
    assert zhiqi.exit_code != 0 and "fill up" in zhiqi.output  # 12 stones a side; endgames are tabled
    nogame = run("probe", "pente", "x", "--dir", str(tmp_path))
    assert nogame.exit_code != 0


def test_solve_with_verify_checks_sampled_positions_against_the_engine(tmp_path):
    out = run(
        "solve", "morris", "--preset", "three-mens-morris-kurna", "--dir", str(tmp_path), "--verify", "100"
    )
    assert out.exit_code == 0, out.output
    assert "verified 100 sampled positions" in out.output and "0 failures" in out.output
