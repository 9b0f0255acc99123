"""Nobody plays or chats under another's name: a seat that belongs to an account carries
the username and refuses renames; a guest's seat name has no invisible or control
characters and is neither a reserved word nor another account's username."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_helpers import bearer  # noqa: E402
from site_helpers import csrf, new_browser, paired, signup, site_client  # noqa: E402

BLITZ = {"mode": "total", "initial": 300, "increment": 2}


@pytest.fixture
def site(db_url):
    with site_client(db_url) as client:
        yield client


def names(site, game_id) -> list[str]:
    return [s["name"] for s in site.get(f"/api/games/{game_id}").json()["seats"]]


def test_an_account_seat_keeps_its_username(site):
    game_id, tokens, seat_names = paired(site)
    seat = next(k for k, name in seat_names.items() if name == "bob")
    token = tokens[seat]
    before = names(site, game_id)
    assert (
        before[seat] == "bob" and site.get(f"/api/games/{game_id}").json()["seats"][seat]["account"] == "bob"
    )
    r = site.post(f"/api/games/{game_id}/join", json={"name": "ann"}, headers=bearer(token))
    assert r.status_code == 409
    r = site.post(f"/api/games/{game_id}/join", json={"name": "Mallory"}, headers=bearer(token))
    assert r.status_code == 409 and "belongs to the account bob" in r.json()["error"]
    assert names(site, game_id) == before
    # Chat under the seat shows the username.
    r = site.post(f"/api/games/{game_id}/chat", json={"room": "players", "text": "hi"}, headers=bearer(token))
    assert r.status_code == 201 and r.json()["name"] == "bob"
    # Re-joining under its own name is fine.
    assert (
        site.post(f"/api/games/{game_id}/join", json={"name": "bob"}, headers=bearer(token)).status_code
        == 200
    )


def test_a_guest_seat_linked_to_an_account_takes_the_username(site):
    dora = new_browser(site, "10.0.5.3")
    dora_csrf = signup(dora, "dora")
    seats = [
        {"kind": "human", "name": "Guest D", "join": True},
        {"kind": "human", "name": "Eve", "join": True},
    ]
    created = site.post("/api/games", json={"game": "toy-ttt", "seats": seats}).json()
    token = created["seats"][0]["token"]
    r = dora.post("/api/account/seats", json={"game": created["id"], "token": token}, headers=csrf(dora_csrf))
    assert r.status_code == 200
    assert names(site, created["id"])[0] == "dora"
    r = site.post(f"/api/games/{created['id']}/join", json={"name": "Guest D"}, headers=bearer(token))
    assert r.status_code == 409


@pytest.mark.parametrize(
    "name, status",
    [
        ("admin", 400),
        ("Moderator", 400),
        ("ad\u202emin", 400),  # a right-to-left override
        ("b\u200bob", 400),  # a zero-width space
        ("bell\x07", 400),
        ("carol", 409),  # another account's username
        ("CAROL", 409),
    ],
)
def test_guest_names_that_pass_for_someone_else_are_refused(site, name, status):
    signup(new_browser(site, "10.0.5.4"), "carol")
    count = len(site.get("/api/games").json()["games"])
    seats = [{"kind": "human", "name": name, "join": True}, {"kind": "human", "join": False}]
    r = site.post("/api/games", json={"game": "toy-ttt", "seats": seats})
    assert r.status_code == status, r.text
    assert len(site.get("/api/games").json()["games"]) == count
    # Taking a free seat under such a name is refused the same way, and changes nothing.
    open_game = site.post("/api/games", json={"game": "toy-ttt", "seats": [seats[1], seats[1]]}).json()
    r = site.post(f"/api/games/{open_game['id']}/join", json={"name": name})
    assert r.status_code == status, r.text
    assert not any(s["joined"] for s in site.get(f"/api/games/{open_game['id']}").json()["seats"])


def test_ordinary_guest_names_and_ones_own_username_are_fine(site):
    carol = new_browser(site, "10.0.5.4")
    signup(carol, "carol")
    for browser, name in ((site, "小明"), (site, "Ann Lee"), (carol, "carol")):
        seats = [{"kind": "human", "name": name, "join": True}, {"kind": "human", "join": False}]
        r = browser.post("/api/games", json={"game": "toy-ttt", "seats": seats})
        assert r.status_code == 201, r.text
