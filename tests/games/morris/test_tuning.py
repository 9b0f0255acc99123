"""``benchmarks/morris_tune.py``: the positions of recorded games as features, the fit of the
``morris`` agent's evaluation weights to their results, and writing the weights back."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

import pytest
from tests.benchmark_scripts import load_script

import qipan
from qipan.fast import enabled

pytestmark = pytest.mark.skipif(not enabled(), reason="the compiled kernels are off")


@pytest.fixture(scope="module")
def tune():
    return load_script("morris_tune")


def random_games(count: int, seed: int) -> list[dict]:
    """Finished random games in the ``morris_strength.py --out`` form (White's score)."""
    game = qipan.load("nine-mens-morris")
    rng = random.Random(seed)
    games = []
    while len(games) < count:
        state, moves = game.new(), []
        while state.outcome is None and len(moves) < 300:
            move = rng.choice(state.legal_moves())
            moves.append(move.text)
            state.play(move)
        if state.outcome is not None:
            score = 0.5 if not state.outcome.winners else float(state.outcome.winners == (0,))
            games.append({"moves": moves, "score": score})
    return games


@pytest.fixture(scope="module")
def games_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("tuning") / "games.json.gz"
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        json.dump({"games": random_games(12, seed=5)}, handle)
    return path


def test_every_position_in_play_after_the_opening_is_a_row(tune, games_file):
    games = tune.read_games(games_file)
    x, y, numbers = tune.positions([games_file], from_ply=6)
    # Each game's positions from ply 6 to the last before the end.
    assert len(y) == sum(len(g["moves"]) - 6 for g in games)
    assert x.shape == (len(y), len(tune.ek.FEATURES))
    assert set(numbers.tolist()) == set(range(1, len(games) + 1))
    assert set(y.tolist()) <= {0.0, 0.5, 1.0}


def test_the_fit_lowers_the_error_and_keeps_a_stone_at_100(tune, games_file):
    x, y, _ = tune.positions([games_file], from_ply=6)
    start = tune.np.array([tune.HAND_SET.get(name, 0.0) for name in tune.ek.FEATURES])
    k = 300
    fitted, fixed = tune.fit(x, y, start, k, steps=300, rate=0.5, free_stone=False, ridge=0.0)
    assert tune.error(x, y, fitted, k) < tune.error(x, y, start, k)
    stone = tune.ek.FEATURE_INDEX["stone"]
    assert fitted[stone] == 100.0 and fixed[stone]
    # A feature these games never show keeps its start.
    assert (fitted[fixed] == start[fixed]).all()
    free, _ = tune.fit(x, y, start, k, steps=300, rate=0.5, free_stone=True, ridge=0.0)
    assert free[stone] == pytest.approx(100.0)
    # The ridge keeps the fit nearer the start.
    pulled, _ = tune.fit(x, y, start, k, steps=300, rate=0.5, free_stone=False, ridge=1e-3)
    assert abs(pulled - start).sum() < abs(fitted - start).sum()


def test_the_weights_are_written_into_the_source_and_nothing_else_changes(tune, tmp_path):
    source = Path(tune.ek.__file__).read_text(encoding="utf-8")
    copy = tmp_path / "evaluation_kernel.py"
    copy.write_text(source, encoding="utf-8")
    weights = tune.np.arange(len(tune.ek.FEATURES), dtype=float)
    tune.write(weights, copy)
    written = copy.read_text(encoding="utf-8")
    assert "        3.0,  # openable\n" in written
    namespace: dict = {"np": tune.np}
    block = written[written.index("TUNED_WEIGHTS = ") :]
    exec(block[: block.index("\n)\n") + 3], namespace)
    assert namespace["TUNED_WEIGHTS"].tolist() == weights.tolist()
    before, after = source.split("TUNED_WEIGHTS = ")[0], written.split("TUNED_WEIGHTS = ")[0]
    assert before == after
    tune.write(tune.ek.TUNED_WEIGHTS, copy)  # and back, unchanged
    assert copy.read_text(encoding="utf-8") == source


def test_a_file_that_is_not_a_games_record_is_refused_clearly(tune, tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text('{"games": [{"moves": ["d2"]', encoding="utf-8")
    with pytest.raises(SystemExit, match="not a morris_strength.py --out file"):
        tune.read_games(broken)
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps({"games": [{"moves": ["d2"], "score": 3}]}), encoding="utf-8")
    with pytest.raises(SystemExit, match="not a morris_strength.py --out file"):
        tune.read_games(wrong)
    no_weights = tmp_path / "other.py"
    no_weights.write_text("x = 1\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="no single TUNED_WEIGHTS"):
        tune.write(tune.ek.TUNED_WEIGHTS, no_weights)
    assert no_weights.read_text(encoding="utf-8") == "x = 1\n"
