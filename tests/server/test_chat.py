"""Chat: the players' room and the spectators' room, limits, mutes, shown after the game."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_helpers import bearer  # noqa: E402
from site_helpers import csrf, new_browser, signup, site_client  # noqa: E402
from test_seeks_and_ratings import paired_game  # noqa: E402

from qipan.server.chat import MAX_LENGTH, RATE_COUNT  # noqa: E402


@pytest.fixture
def site(db_url):
    with site_client(db_url) as client:
        yield client


def say(browser, game_id, text, room="players", headers=None):
    return browser.post(
        f"/api/games/{game_id}/chat", json={"room": room, "text": text}, headers=headers or {}
    )


def texts(browser, game_id, room="players", headers=None):
    r = browser.get(f"/api/games/{game_id}/chat?room={room}", headers=headers or {})
    assert r.status_code == 200, r.text
    return [(m["name"], m["text"]) for m in r.json()["messages"]]


def test_players_and_spectators_have_separate_rooms(site):
    game_id, tokens, names, (ann, ann_csrf), (bob, _) = paired_game(site)
    assert say(site, game_id, "good luck", headers=bearer(tokens[0])).status_code == 201
    # A player's account may write without the token too (its own seat).
    assert say(ann, game_id, "<b>hi</b>", headers=csrf(ann_csrf)).status_code == 201
    watcher = new_browser(site)
    watcher_csrf = signup(watcher, "watcher")
    assert say(watcher, game_id, "nice opening", "spectators", csrf(watcher_csrf)).status_code == 201
    players_room = texts(site, game_id, headers=bearer(tokens[1]))
    assert players_room == [(names[0], "good luck"), ("ann", "<b>hi</b>")]  # stored as text
    assert texts(watcher, game_id, "spectators") == [("watcher", "nice opening")]
    # Spectators do not read or write the players' room while the game is on...
    assert watcher.get(f"/api/games/{game_id}/chat?room=players").status_code == 403
    r = say(watcher, game_id, "psst", headers=csrf(watcher_csrf))
    assert r.status_code == 403
    # ... and players write in their own room, not the spectators'.
    assert say(ann, game_id, "hello", "spectators", csrf(ann_csrf)).status_code == 403
    # Guests read the spectators' room but write only with an account.
    assert say(new_browser(site), game_id, "anon", "spectators").status_code == 401
    # After the game everyone reads both rooms (the replay shows them).
    site.post(f"/api/games/{game_id}/resign", headers=bearer(tokens[0]))
    assert texts(new_browser(site), game_id) == players_room


@pytest.mark.parametrize(
    "text, status, words",
    [
        ("", 400, "empty"),
        ("   \n\t ", 400, "empty"),
        ("x" * (MAX_LENGTH + 1), 400, "at most"),
        (42, 400, "must be text"),
    ],
)
def test_bad_messages_are_refused(site, text, status, words):
    game_id, tokens, _, _, _ = paired_game(site)
    r = say(site, game_id, text, headers=bearer(tokens[0]))
    assert r.status_code == status and words in r.json()["error"]
    assert texts(site, game_id, headers=bearer(tokens[0])) == []


def test_room_and_token_refusals(site):
    game_id, tokens, _, _, _ = paired_game(site)
    assert say(site, game_id, "hi", room="lobby", headers=bearer(tokens[0])).status_code == 400
    assert say(site, game_id, "hi", headers=bearer("forged")).status_code == 401
    assert say(site, "nosuchgame", "hi", headers=bearer(tokens[0])).status_code == 404


def test_control_characters_are_removed(site):
    game_id, tokens, _, _, _ = paired_game(site)
    say(site, game_id, "a\u202eb\u0000c\nd", headers=bearer(tokens[0]))
    assert texts(site, game_id, headers=bearer(tokens[0]))[0][1] == "abc d"


def test_chat_is_rate_limited(site):
    game_id, tokens, _, _, _ = paired_game(site)
    for i in range(RATE_COUNT):
        assert say(site, game_id, f"m{i}", headers=bearer(tokens[0])).status_code == 201
    r = say(site, game_id, "one too many", headers=bearer(tokens[0]))
    assert r.status_code == 429 and "too many" in r.json()["error"]
    assert len(texts(site, game_id, headers=bearer(tokens[0]))) == RATE_COUNT
    assert say(site, game_id, "the other player", headers=bearer(tokens[1])).status_code == 201


def test_mute_hides_an_accounts_messages(site):
    game_id, tokens, names, (ann, ann_csrf), (bob, bob_csrf) = paired_game(site)
    say(bob, game_id, "you will lose", headers=csrf(bob_csrf))
    say(ann, game_id, "we will see", headers=csrf(ann_csrf))
    r = ann.post("/api/account/mutes", json={"username": "bob"}, headers=csrf(ann_csrf))
    assert r.status_code == 200 and r.json()["muted"] == ["bob"]
    assert texts(ann, game_id) == [("ann", "we will see")]
    assert texts(bob, game_id) == [("bob", "you will lose"), ("ann", "we will see")]
    assert (
        ann.post("/api/account/mutes", json={"username": "nobody42"}, headers=csrf(ann_csrf)).status_code
        == 404
    )
    assert ann.post("/api/account/mutes", json={"username": "ann"}, headers=csrf(ann_csrf)).status_code == 400
    ann.post("/api/account/mutes", json={"username": "bob", "muted": False}, headers=csrf(ann_csrf))
    assert len(texts(ann, game_id)) == 2
