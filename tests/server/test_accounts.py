"""Accounts over the API: sign up, log in and out, password change, CSRF, rate limits,
username rules; bad input is refused with the right 4xx and changes nothing."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_helpers import bearer, two_humans  # noqa: E402
from site_helpers import PASSWORD, csrf, new_browser, signup, site_client  # noqa: E402

from qipan.server.accounts import COOKIE, SharedLimiter  # noqa: E402


@pytest.fixture
def site(db_url):
    with site_client(db_url) as client:
        yield client


def accounts_count(client) -> int:
    import sqlalchemy as sa

    with client.app.state.manager.storage.engine.connect() as conn:
        return conn.execute(sa.text("select count(*) from accounts")).scalar_one()


def test_sign_up_log_out_log_in(site):
    token = signup(site, "Alice")
    cookie = site.cookies.get(COOKIE)
    assert cookie and site.get("/api/account/me").json()["account"] == {"username": "Alice"}
    # The database keeps a hash of the session token and an Argon2id hash of the password.
    import sqlalchemy as sa

    with site.app.state.manager.storage.engine.connect() as conn:
        stored = conn.execute(sa.text("select password_hash from accounts")).scalar_one()
        sessions = [r[0] for r in conn.execute(sa.text("select token_hash from auth_sessions"))]
    assert stored.startswith("$argon2id$") and PASSWORD not in stored
    assert cookie not in sessions and len(sessions) == 1
    assert site.post("/api/account/logout", headers=csrf(token)).status_code == 200
    assert site.get("/api/account/me").json()["account"] is None
    r = site.post("/api/account/login", json={"username": "alice", "password": PASSWORD})
    assert r.status_code == 200 and r.json()["username"] == "Alice"
    assert site.get("/api/account/me").json()["account"] == {"username": "Alice"}


def test_the_session_cookie_is_httponly_and_samesite(site):
    r = site.post("/api/account/signup", json={"username": "carol", "password": PASSWORD})
    header = r.headers["set-cookie"].lower()
    assert "httponly" in header and "samesite=lax" in header and "secure" not in header
    r = site.post(
        "/api/account/login",
        json={"username": "carol", "password": PASSWORD},
        headers={"X-Forwarded-Proto": "https"},
    )
    assert "secure" in r.headers["set-cookie"].lower()


@pytest.mark.parametrize(
    "body, status, words",
    [
        ({"username": "ab", "password": PASSWORD}, 400, "3 to 20"),
        ({"username": "1abc", "password": PASSWORD}, 400, "starting with a letter"),
        ({"username": "a" * 21, "password": PASSWORD}, 400, "3 to 20"),
        ({"username": "bad name", "password": PASSWORD}, 400, "letters, digits"),
        ({"username": "Admin", "password": PASSWORD}, 400, "reserved"),
        ({"username": "mcts", "password": PASSWORD}, 400, "reserved"),
        ({"username": "dave", "password": "short"}, 400, "8 to 256"),
        ({"username": "davedave", "password": "DaveDave"}, 400, "not be the username"),
        ({"username": 5, "password": PASSWORD}, 400, "text"),
        ({"username": "dave"}, 400, "password must be text"),
    ],
)
def test_bad_sign_ups_are_refused(site, body, status, words):
    r = site.post("/api/account/signup", json=body)
    assert r.status_code == status and words in r.json()["error"]
    assert accounts_count(site) == 0 and COOKIE not in site.cookies


def test_a_duplicate_username_is_refused_in_any_case(site):
    signup(site, "Erin")
    other = new_browser(site)
    r = other.post("/api/account/signup", json={"username": "ERIN", "password": PASSWORD + "x"})
    assert r.status_code == 409 and "taken" in r.json()["error"]
    assert accounts_count(site) == 1 and COOKIE not in other.cookies


def test_login_and_signup_take_json_from_this_site_only(site):
    r = site.post("/api/account/signup", data={"username": "frank", "password": PASSWORD})
    assert r.status_code == 415
    r = site.post(
        "/api/account/signup",
        json={"username": "frank", "password": PASSWORD},
        headers={"Origin": "https://evil.example"},
    )
    assert r.status_code == 403 and accounts_count(site) == 0


def test_wrong_password_and_unknown_user_fail_alike(site):
    signup(site, "grace")
    other = new_browser(site)
    wrong = other.post("/api/account/login", json={"username": "grace", "password": "not the password"})
    missing = other.post("/api/account/login", json={"username": "nobody42", "password": "not the password"})
    assert wrong.status_code == missing.status_code == 401
    assert wrong.json() == missing.json() == {"error": "wrong username or password"}
    assert COOKIE not in other.cookies


def test_login_attempts_are_rate_limited(site):
    signup(site, "heidi")
    other = new_browser(site)
    for _ in range(5):
        assert (
            other.post(
                "/api/account/login", json={"username": "heidi", "password": "wrong-wrong"}
            ).status_code
            == 401
        )
    r = other.post("/api/account/login", json={"username": "heidi", "password": PASSWORD})
    assert r.status_code == 429 and "try again" in r.json()["error"]
    assert COOKIE not in other.cookies
    # Per client address too: many usernames from one address.
    site.app.state.site.login_by_ip = SharedLimiter(3, 300)
    for name in ("u1x", "u2x", "u3x"):
        other.post("/api/account/login", json={"username": name, "password": "whatever1"})
    assert (
        other.post("/api/account/login", json={"username": "u4x", "password": "whatever1"}).status_code == 429
    )


def test_changes_need_the_csrf_token(site):
    token = signup(site, "ivan")
    for headers in ({}, csrf("forged")):
        r = site.post("/api/account/logout", headers=headers)
        assert r.status_code == 403 and "CSRF" in r.json()["error"]
        r = site.post("/api/seeks", json={"game": "toy-ttt"}, headers=headers)
        assert r.status_code == 403
    assert site.get("/api/account/me").json()["account"] == {"username": "ivan"}
    assert site.get("/api/seeks").json()["seeks"] == []
    assert site.post("/api/account/logout", headers=csrf(token)).status_code == 200


def test_password_change(site):
    token = signup(site, "judy")
    laptop = new_browser(site)
    laptop.post("/api/account/login", json={"username": "judy", "password": PASSWORD})
    assert laptop.get("/api/account/me").json()["account"] is not None
    r = site.post(
        "/api/account/password", json={"old": "wrong password", "new": "new password 1"}, headers=csrf(token)
    )
    assert r.status_code == 401
    r = site.post("/api/account/password", json={"old": PASSWORD, "new": "short"}, headers=csrf(token))
    assert r.status_code == 400
    r = site.post(
        "/api/account/password", json={"old": PASSWORD, "new": "new password 1"}, headers=csrf(token)
    )
    assert r.status_code == 200
    # This browser stays logged in; the other session ended; the old password is gone.
    assert site.get("/api/account/me").json()["account"] == {"username": "judy"}
    assert laptop.get("/api/account/me").json()["account"] is None
    fresh = new_browser(site)
    assert (
        fresh.post("/api/account/login", json={"username": "judy", "password": PASSWORD}).status_code == 401
    )
    assert (
        fresh.post("/api/account/login", json={"username": "judy", "password": "new password 1"}).status_code
        == 200
    )


def test_guests_play_on_and_a_seat_can_join_an_account(site):
    gid, (ann, bob) = two_humans(site)  # guests: seat tokens, no account
    assert (
        site.post(f"/api/games/{gid}/move", json={"move": "a1", "ply": 0}, headers=bearer(ann)).status_code
        == 200
    )
    token = signup(site, "kate")
    assert (
        site.post("/api/account/seats", json={"game": gid, "token": "nope"}, headers=csrf(token)).status_code
        == 401
    )
    r = site.post("/api/account/seats", json={"game": gid, "token": ann}, headers=csrf(token))
    assert r.status_code == 200 and r.json()["seat"] == 0
    # "My games" and the seat's token come from the account, on any device.
    laptop = new_browser(site)
    laptop.post("/api/account/login", json={"username": "kate", "password": PASSWORD})
    games = laptop.get("/api/account/games").json()["games"]
    assert [g["id"] for g in games] == [gid] and games[0]["my_seats"] == [0] and not games[0]["your_turn"]
    assert laptop.get(f"/api/account/games/{gid}/seats").json()["seats"] == [{"seat": 0, "token": ann}]
    # Somebody else cannot take the seat over.
    leo = new_browser(site)
    leo_csrf = signup(leo, "leo")
    r = leo.post("/api/account/seats", json={"game": gid, "token": ann}, headers=csrf(leo_csrf))
    assert r.status_code == 409
    assert leo.get(f"/api/account/games/{gid}/seats").json()["seats"] == []


def test_account_endpoints_need_a_login(site):
    for path in ("/api/account/games", "/api/account/seeks", "/api/account/mutes"):
        assert site.get(path).status_code == 401
    assert site.post("/api/account/logout").status_code == 401


def test_the_site_pages_are_served(site):
    for path, marker in (("/account", 'id="signup-form"'), ("/u/anyone", 'id="profile-name"')):
        r = site.get(path)
        assert r.status_code == 200 and marker in r.text
    for name in ("account.js", "site.js", "chat.js", "profile.js", "terms.js", "site.css"):
        assert site.get(f"/static/{name}").status_code == 200
