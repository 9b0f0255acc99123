"""benchmarks/levels_ladder.py's ``--combine``: pairs of neighbouring levels measured in
separate runs are fitted into one ladder, and only a complete, rising one is shipped."""

from __future__ import annotations

import pytest

from tests.benchmark_scripts import BENCHMARKS, load_script


@pytest.fixture(scope="module")
def ladder_script():
    return load_script("levels_ladder")


def pair_run(low: int, wins: int, losses: int, time: float = 1.0, plies: int = 1) -> dict:
    """A run of the pair (low + 1, low): the higher level wins ``wins`` games, loses ``losses``,
    on alternating seats."""
    high_spec, low_spec = (f"level:level={n},time={time:g}" for n in (low + 1, low))
    games = []
    for k, won in enumerate([True] * wins + [False] * losses):
        seats = [high_spec, low_spec] if k % 2 == 0 else [low_spec, high_spec]
        high_seat = 0 if k % 2 == 0 else 1
        score = 1.0 if won == (high_seat == 0) else 0.0
        moves = ["a", "b"] if won else ["c"]
        games.append(
            {"number": k, "agents": seats, "seed": k, "moves": moves, "score": score, "cpu_seconds": 1.0}
        )
    name = f"{low + 1}-{low}"
    return {
        "game": "trax",
        "level_time": time,
        "opening_plies": plies,
        "clock": "cpu",
        "command": f"levels_ladder.py --pairs {name}",
        "neighbours": {name: {"games": wins + losses, "points": float(wins), "sprt": "H1"}},
        "games": games,
    }


def test_pair_names_parse_to_their_lower_levels(ladder_script):
    assert ladder_script.parse_pairs("5-4,8-7") == [4, 7]
    assert ladder_script.parse_pairs("2-1, 2-1") == [1]
    for bad in ("5-3", "9-8", "1-0", "x", "", "4"):
        with pytest.raises(ValueError):
            ladder_script.parse_pairs(bad)


def test_separate_pair_runs_fit_into_one_rising_ladder(ladder_script):
    # Each level scores 8/10 over the one below it: the ratings rise by about 240 each.
    runs = [pair_run(low, 8, 2) for low in range(1, 8)]
    data = ladder_script.combine([runs[6], runs[0], *runs[1:6]])  # any order of files
    assert data["complete"] and ladder_script.rises(data)
    assert list(data["neighbours"]) == ["8-7", "7-6", "6-5", "5-4", "4-3", "3-2", "2-1"]
    assert len(data["games"]) == 70
    elo = {r["agent"]: r["elo"] for r in data["ratings"]}
    steps = [elo[f"level:level={n + 1},time=1"] - elo[f"level:level={n},time=1"] for n in range(1, 8)]
    assert all(150 < step < 260 for step in steps), steps
    assert abs(sum(elo.values())) < 1e-6 * len(elo) + 1  # centred on the pool's mean
    entry = ladder_script.ladder_entry(data, "trax", "levels_ladder.py --combine ...")
    assert [entry["ratings"][str(n)] for n in range(1, 9)] == sorted(entry["ratings"].values())
    assert entry["level_time"] == 1.0 and entry["opening_plies"] == 1


def test_a_ladder_with_a_pair_missing_or_falling_is_not_complete_or_rising(ladder_script):
    partial = ladder_script.combine([pair_run(low, 8, 2) for low in (4, 5, 6, 7)])
    assert not partial["complete"] and list(partial["neighbours"]) == ["8-7", "7-6", "6-5", "5-4"]
    rated = sorted(int(r["agent"].split("level=")[1].split(",")[0]) for r in partial["ratings"])
    assert rated == [4, 5, 6, 7, 8] and not ladder_script.rises(partial)  # levels 1-3 never played
    falling = ladder_script.combine(
        [pair_run(low, 2 if low == 3 else 8, 8 if low == 3 else 2) for low in range(1, 8)]
    )
    assert falling["complete"] and not ladder_script.rises(falling)


def test_runs_that_do_not_belong_together_are_refused(ladder_script):
    with pytest.raises(ValueError, match="level_time"):
        ladder_script.combine([pair_run(7, 8, 2), pair_run(6, 8, 2, time=0.05)])
    with pytest.raises(ValueError, match="opening_plies"):
        ladder_script.combine([pair_run(7, 8, 2), pair_run(6, 8, 2, plies=2)])
    with pytest.raises(ValueError, match="two runs"):
        ladder_script.combine([pair_run(7, 8, 2), pair_run(7, 2, 8)])  # other games


def test_a_pair_run_again_to_a_higher_cap_counts_once(ladder_script):
    # The same seeds replay the same games: the longer run continues the shorter one's test.
    capped, longer = pair_run(7, 8, 2), pair_run(7, 8, 12)
    longer["neighbours"]["8-7"]["games"] = 20
    for runs in ([capped, longer], [longer, capped]):
        data = ladder_script.combine([*runs, pair_run(6, 8, 2)])
        assert data["neighbours"]["8-7"]["games"] == 20
        assert len(data["games"]) == 30
    with pytest.raises(ValueError):
        ladder_script.combine([])


def test_a_close_pair_ships_only_after_the_measured_games_and_only_rising(ladder_script):
    runs = [pair_run(low, 8, 2) for low in range(1, 8)]
    assert ladder_script.not_shippable(ladder_script.combine(runs)) is None
    # 4 over 3 close: the SPRT said H0 after 49 games, too few to count as measured.
    close = pair_run(3, 26, 23)
    close["neighbours"]["4-3"]["sprt"] = "H0"
    why = ladder_script.not_shippable(ladder_script.combine([*runs[:2], close, *runs[3:]]))
    assert why is not None and "4-3" in why
    # Played to the measured games without a decision, with 4 still above 3: shipped.
    close = pair_run(3, 54, 46)
    close["neighbours"]["4-3"]["sprt"] = None
    assert ladder_script.not_shippable(ladder_script.combine([*runs[:2], close, *runs[3:]])) is None
    # ... but not when the measured gap has 4 below 3.
    below = pair_run(3, 46, 54)
    below["neighbours"]["4-3"]["sprt"] = None
    assert ladder_script.not_shippable(ladder_script.combine([*runs[:2], below, *runs[3:]])) == (
        "the ratings do not rise"
    )
    assert "not measured" in ladder_script.not_shippable(ladder_script.combine(runs[1:]))


def round_robin(wins_over_each_lower: int, losses: int) -> dict:
    """A round robin without --neighbours: every level against every lower one."""
    games = []
    for low in range(1, 8):
        for high in range(low + 1, 9):
            run = pair_run(low, wins_over_each_lower, losses)
            for g in run["games"]:
                g["agents"] = [a.replace(f"level={low + 1},", f"level={high},") for a in g["agents"]]
            games += run["games"]
    return {"game": "trax", "level_time": 1.0, "opening_plies": 1, "clock": "cpu", "games": games}


def test_a_round_robin_ships_by_the_games_each_neighbouring_pair_played(ladder_script):
    few = round_robin(3, 1)  # 4 games a pairing: rising, but too few to count as measured
    few["ratings"] = ladder_script.rating_rows(few["games"], 1.0)
    assert ladder_script.rises(few)
    assert ladder_script.direct_games(few["games"], "5-4") == 4
    assert "neither H1 nor 100 games" in ladder_script.not_shippable(few)
    enough = round_robin(60, 40)
    enough["ratings"] = ladder_script.rating_rows(enough["games"], 1.0)
    assert ladder_script.not_shippable(enough) is None
    enough["games"] = [g for g in enough["games"] if "level=1," not in " ".join(g["agents"])]
    enough["ratings"] = ladder_script.rating_rows(enough["games"], 1.0)
    assert "2-1 not measured" in ladder_script.not_shippable(enough)


def test_a_further_sample_of_a_pair_on_other_openings_pools_every_game(ladder_script):
    runs = [pair_run(low, 8, 2) for low in range(1, 8)]
    first = pair_run(5, 20, 25)  # 6 over 5: the SPRT said H0 after 45 games
    first["neighbours"]["6-5"]["sprt"] = "H0"
    more = pair_run(5, 32, 23)  # played on with other seeds (other openings) to 100 games
    for g in more["games"]:
        g["seed"] += 1000
    more["neighbours"]["6-5"]["sprt"] = None
    data = ladder_script.combine([*runs[:4], first, more, *runs[5:]])
    pair = data["neighbours"]["6-5"]
    assert (pair["games"], pair["points"], pair["sprt"]) == (100, 52.0, None)
    assert [s["sprt"] for s in pair["samples"]] == ["H0", None]
    assert len(data["games"]) == 60 + 100
    assert ladder_script.not_shippable(data) is None  # 100 games, 6 still above 5
    # A sample sharing some seeds with the first is neither a continuation nor another sample.
    more["games"][0]["seed"] = first["games"][0]["seed"]
    with pytest.raises(ValueError, match="two runs"):
        ladder_script.combine([first, more])


def test_a_pair_file_can_give_only_some_of_its_pairs(ladder_script, tmp_path):
    import json

    both = pair_run(7, 8, 2)
    other = pair_run(6, 7, 3)
    both["neighbours"].update(other["neighbours"])
    both["games"] += other["games"]
    path = tmp_path / "run.json"
    path.write_text(json.dumps(both), encoding="utf-8")
    assert list(ladder_script.read_run(str(path))["neighbours"]) == ["8-7", "7-6"]
    only = ladder_script.read_run(f"{path}:7-6")
    assert list(only["neighbours"]) == ["7-6"] and len(only["games"]) == 10
    assert all(ladder_script.pair_of_game(g) == "7-6" for g in only["games"])
    with pytest.raises(ValueError):
        ladder_script.read_run(f"{path}:7-5")


def test_bad_combine_arguments_get_a_clear_error_and_write_nothing(tmp_path):
    import json
    import subprocess
    import sys

    good = tmp_path / "run.json"
    good.write_text(json.dumps(pair_run(7, 8, 2)), encoding="utf-8")
    before = sorted(p.name for p in tmp_path.iterdir())
    for args, said in (
        ([f"{good}:9-8"], "levels go from 1 to 8"),
        ([str(tmp_path / "missing.json")], "missing.json"),
        ([str(good), f"{good}x"], "No such file"),
    ):
        out = subprocess.run(
            [sys.executable, str(BENCHMARKS / "levels_ladder.py"), "--combine", *args],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert out.returncode == 2 and said in out.stderr and "Traceback" not in out.stderr, out.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == before
