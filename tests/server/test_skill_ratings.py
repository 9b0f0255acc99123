"""Ratings of 3-4 player and team games: OpenSkill's Plackett-Luce model against the
library's published worked example, and a rated four-player game moving the four
players' skills as the model says."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_helpers import bearer, wait_for  # noqa: E402
from site_helpers import new_browser, signup, site_client  # noqa: E402

from qipan.server.skill import TAU, Skill, ranks, rate, sides  # noqa: E402


def test_the_published_two_team_example():
    """openskill's README (openskill.py 3.x, Plackett-Luce without additive dynamics): a1
    (25, 8.333) and a2 (32.444, 5.123) beat b1 (43.381, 2.421) and b2 (25.188, 6.211)."""
    a = [Skill(), Skill(32.444, 5.123)]
    b = [Skill(43.381, 2.421), Skill(25.188, 6.211)]
    (x1, x2), (y1, y2) = rate([a, b], [1, 2], tau=0.0)
    published = [
        (28.669648436582808, 8.071520788025197),
        (33.83086971107981, 5.062772998705765),
        (43.071274808241974, 2.4166900452721256),
        (23.149503312339064, 6.1378606973362135),
    ]
    for got, (mu, sigma) in zip((x1, x2, y1, y2), published, strict=True):
        assert got.mu == pytest.approx(mu, abs=1e-9) and got.sigma == pytest.approx(sigma, abs=1e-9)


def test_the_site_adds_the_dynamics_term_before_each_game():
    """With tau the deviation first grows to sqrt(sigma^2 + tau^2): the same game from
    those deviations without tau gives the same result."""
    a = [Skill(), Skill(32.444, 5.123)]
    b = [Skill(43.381, 2.421), Skill(25.188, 6.211)]
    widened = [[Skill(s.mu, (s.sigma**2 + TAU**2) ** 0.5) for s in side] for side in (a, b)]
    assert rate([a, b], [1, 2]) == rate(widened, [1, 2], tau=0.0)


def test_sides_and_places():
    assert sides(4, {"teams": True}) == [[0, 2], [1, 3]]
    assert sides(4, {"doubles": True}) == [[0, 2], [1, 3]]
    assert sides(3, {}) == [[0], [1], [2]]
    assert ranks({"winners": [2]}, [[0], [1], [2]]) == [2, 2, 1]
    assert ranks({"winners": []}, [[0], [1], [2], [3]]) == [1, 1, 1, 1]
    assert ranks({"winners": [1, 3]}, [[0, 2], [1, 3]]) == [2, 1]
    assert ranks({"winners": [1]}, [[0], [1], [2]], left={1}) == [2, 3, 2]  # the leaver lost


def test_a_rated_four_player_game_moves_every_skill_as_the_model_says(db_url):
    with site_client(db_url) as site:
        people = []
        for name in ("ann", "bob", "cid", "dee"):
            browser = new_browser(site)
            signup(browser, name)
            people.append(browser)
        ids = {}
        me = site.app.state.site
        with me.manager.storage.engine.connect() as conn:
            import sqlalchemy as sa

            for i, name in enumerate(("ann", "bob", "cid", "dee")):
                ids[i] = conn.execute(
                    sa.text(f"select id from accounts where username = '{name}'")
                ).scalar_one()
        request = {
            "game": "pente-4",
            "players": 4,
            "clock": {"mode": "total", "initial": 600, "increment": 0},
            "seats": [{"kind": "human", "name": n, "join": True} for n in ("ann", "bob", "cid", "dee")],
        }
        session = site.portal.call(me.start_game, request, ids, True)
        for ply, move in enumerate(("K10", "A1", "A3", "A5")):  # before each moved: an abort
            r = site.post(
                f"/api/games/{session.id}/move",
                json={"move": move, "ply": ply},
                headers=bearer(session.seats[ply].token),
            )
            assert r.status_code == 200, r.text
        # bob resigns: the three others share the win
        r = people[1].post(f"/api/games/{session.id}/resign", headers=bearer(session.seats[1].token))
        assert r.status_code == 200, r.text
        skills = lambda name: site.get(f"/api/users/{name}").json()["skills"]  # noqa: E731
        wait_for(lambda: skills("dee"))
        expected = rate([[Skill()], [Skill()], [Skill()], [Skill()]], [1, 2, 1, 1])
        for seat, name in enumerate(("ann", "bob", "cid", "dee")):
            (row,) = skills(name)
            assert (row["variant"], row["time_class"], row["games"]) == ("pente-4", "rapid", 1)
            assert row["mu"] == pytest.approx(expected[seat][0].mu, abs=1e-3)
            assert row["sigma"] == pytest.approx(expected[seat][0].sigma, abs=1e-3)
        assert skills("bob")[0]["mu"] < 25 < skills("ann")[0]["mu"]
        assert site.get("/api/users/ann").json()["ratings"] == []  # no Glicko-2 for four players
