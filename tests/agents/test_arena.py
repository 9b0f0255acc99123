"""qipan arena: the schedule (paired openings, colours swapped, round robin and gauntlet),
maximum-likelihood Elo with error bars, SPRT early stopping, and results that reproduce on
a fixed seed whatever the number of processes."""

from __future__ import annotations

import csv
import json
import math
import random

import pytest
from click.testing import CliRunner

import qipan
from qipan.agents.arena import (
    TournamentGame,
    decides_game,
    play_opening,
    play_tournament_game,
    run_tournament,
    schedule,
)
from qipan.agents.elo import SPRT, elo_of_score, expected, ratings
from qipan.cli.main import cli
from qipan.core import QipanError
from qipan.core.game import resolve_chance

GAME = "three-mens-morris-kurna"


@pytest.fixture(autouse=True)
def pure_rules(monkeypatch):
    monkeypatch.setenv("QIPAN_KERNELS", "0")  # the arena is under test, not the kernels


def test_schedule_pairs_openings_with_colours_swapped():
    plan = schedule(3, rounds=2)
    assert [(g.first, g.second, g.opening) for g in plan[0]] == [(0, 1, 0), (1, 0, 0), (0, 1, 1), (1, 0, 1)]
    assert [(games[0].first, games[0].second) for games in plan] == [(0, 1), (0, 2), (1, 2)]
    gauntlet = schedule(4, rounds=1, gauntlet=True)
    assert [(games[0].first, games[0].second) for games in gauntlet] == [(0, 1), (0, 2), (0, 3)]
    numbers = [g.number for games in plan for g in games]
    assert numbers == list(range(12))
    with pytest.raises(QipanError):
        schedule(1, 2)


def test_both_games_of_a_pair_share_the_opening():
    result = run_tournament(GAME, ["random", "random"], rounds=2, seed=4, opening_plies=3)
    by_opening = {}
    for g in result.games:
        by_opening.setdefault(g["opening_index"], []).append(g)
    for pair in by_opening.values():
        assert len(pair) == 2 and pair[0]["opening"] == pair[1]["opening"] and len(pair[0]["opening"]) == 3
        assert pair[0]["entrants"] == pair[1]["entrants"][::-1]


def plain_opening(state, plies, seed):
    """The openings before a deciding move was redrawn: uniform draws, nothing put aside."""
    rng = random.Random(seed)
    while plies > 0 and state.outcome is None:
        if state.is_chance:
            resolve_chance(state, rng)
            continue
        state.play(rng.choice(state.legal_moves()))
        plies -= 1


def wins_in_one(state) -> bool:
    mover = state.to_move
    for reply in list(state.legal_moves()):
        state.play(reply)
        won = state.outcome is not None and mover in state.outcome.winners
        state.undo()
        if won:
            return True
    return False


@pytest.mark.parametrize("preset", ["blackpath", "trax"])
def test_an_opening_move_that_decides_the_game_is_redrawn(preset):
    # Two random plies ran Black Path's path into the border, and left a Trax player a win
    # in one, before any agent moved.
    game = qipan.load(preset)
    redrawn = 0
    for seed in range(40):
        state, plain = game.new(players=2, seed=seed), game.new(players=2, seed=seed)
        play_opening(state, 2, seed)
        plain_opening(plain, 2, seed)
        assert state.ply == 2 and state.outcome is None and not wins_in_one(state), seed
        last = plain.undo()
        if decides_game(plain, last):
            redrawn += 1
            assert state.history[:1] == plain.history[:1] and state.history[1] != last
    assert redrawn  # the seeds include openings the plain draws decided


def test_openings_without_a_deciding_move_are_the_plain_draws():
    game = qipan.load("nine-mens-morris")
    for seed in range(20):
        state, plain = game.new(players=2, seed=seed), game.new(players=2, seed=seed)
        play_opening(state, 3, seed)
        plain_opening(plain, 3, seed)
        assert [m.text for m in state.history] == [m.text for m in plain.history]


def test_maximum_likelihood_elo_of_a_known_score():
    table = ratings(["a", "b"], [(0, 1, 1.0)] * 75 + [(0, 1, 0.0)] * 25, prior_draws=0)
    assert math.isclose(table[0].elo - table[1].elo, elo_of_score(0.75), abs_tol=1e-6)  # 190.8
    # 95% interval of a 100-game match at 75%: 1.96 / sqrt(N p (1-p)) / (ln10/400), halved per side.
    k = math.log(10) / 400
    assert math.isclose(table[0].error, 1.96 / math.sqrt(100 * 0.75 * 0.25) / k / 2, rel_tol=1e-6)
    assert math.isclose(expected(table[0].elo - table[1].elo), 0.75)


def test_elo_is_transitive_and_centred():
    results = [(0, 1, 0.75)] * 40 + [(1, 2, 0.75)] * 40
    a, b, c = ratings(["a", "b", "c"], results, prior_draws=0)
    assert math.isclose(a.elo + b.elo + c.elo, 0, abs_tol=1e-6)
    assert math.isclose(a.elo - b.elo, b.elo - c.elo, rel_tol=1e-6)
    assert c.error > b.error  # a and c met one opponent each, b met both
    assert math.isclose(a.error, c.error, rel_tol=1e-6)


def test_a_perfect_score_stays_finite():
    table = ratings(["a", "b"], [(0, 1, 1.0)] * 10)
    assert all(math.isfinite(r.elo) and math.isfinite(r.error) for r in table)


def test_sprt_decides_both_ways():
    test = SPRT(0, 100)
    assert test.decide([1.0] * 30) == "H1"
    assert test.decide([0.5] * 200) == "H0"
    assert test.decide([1.0, 0.0] * 3) is None
    assert test.decide([1.0, 1.0]) is None  # two wins are not yet evidence enough


def test_the_arena_elo_reproduces_on_a_fixed_seed():
    entrants = ["random", "mcts:iterations=30", "alphabeta:depth=2"]
    kwargs = dict(rounds=2, seed=11, max_plies=60)
    one = run_tournament(GAME, entrants, jobs=1, **kwargs)
    again = run_tournament(GAME, entrants, jobs=1, **kwargs)
    parallel = run_tournament(GAME, entrants, jobs=2, **kwargs)

    def played(result):  # everything but the CPU time each game took
        data = result.to_dict()
        data["games"] = [{k: v for k, v in g.items() if k != "cpu_seconds"} for g in data["games"]]
        return data

    assert played(one) == played(again) == played(parallel)
    assert [(r.name, r.elo, r.error) for r in one.ratings] == [
        (r.name, r.elo, r.error) for r in parallel.ratings
    ]
    assert len(one.games) == 3 * 2 * 2
    other = run_tournament(GAME, entrants, jobs=1, **{**kwargs, "seed": 12})
    assert [g["opening"] for g in other.games] != [g["opening"] for g in one.games]


def test_sprt_stops_a_lopsided_pairing_early():
    result = run_tournament(
        GAME, ["alphabeta:depth=3", "random"], rounds=50, seed=1, max_plies=60, sprt=SPRT(0, 100)
    )
    assert result.sprt == {"alphabeta:depth=3 vs random": "H1"}
    assert len(result.games) < 100
    assert result.ratings[0].name == "alphabeta:depth=3"


def test_unfinished_games_count_as_draws():
    game = play_tournament_game(TournamentGame(GAME, (), ("random", "random"), 3, 0, 2))
    assert game["score"] is None and game["reason"] == "unfinished" and game["plies"] == 2


def test_refusals_before_any_game():
    with pytest.raises(QipanError, match="2-player"):
        run_tournament("tantrix-solitaire", ["random", "random"])
    with pytest.raises(QipanError):
        run_tournament("pente", ["random", "nosuchagent"])


def test_cli_writes_json_csv_and_plots(tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "run"
    result = CliRunner().invoke(
        cli,
        [
            "arena",
            GAME,
            "-a",
            "random",
            "-a",
            "mcts:iterations=20",
            "--rounds",
            "1",
            "--seed",
            "3",
            "--max-plies",
            "40",
            "--json",
            f"{out}.json",
            "--csv",
            f"{out}.csv",
            "--plot",
            str(out),
            "--sprt",
            "0,100",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "Elo" in result.output and "SPRT random vs mcts:iterations=20" in result.output
    data = json.loads((tmp_path / "run.json").read_text())
    assert data["format"] == "qipan-arena/1" and len(data["games"]) == 2
    rows = list(csv.reader((tmp_path / "run.csv").open()))
    assert rows[0][:3] == ["game", "white", "black"] and len(rows) == 3
    for name in ("run-ratings.png", "run-scores.png"):
        assert (tmp_path / name).read_bytes()[:4] == b"\x89PNG"


def test_cli_refuses_a_bad_sprt():
    result = CliRunner().invoke(cli, ["arena", GAME, "-a", "random", "-a", "random", "--sprt", "x"])
    assert result.exit_code == 2 and "--sprt" in result.output
