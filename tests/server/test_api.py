"""The HTTP API: every endpoint, and bad input gets a clear 4xx with the state unchanged."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_helpers import bearer, create, two_humans, wait_for  # noqa: E402

from qipan.records import Record  # noqa: E402


def state(client, gid, token=None):
    r = client.get(f"/api/games/{gid}", headers=bearer(token) if token else {})
    assert r.status_code == 200
    return r.json()


def test_specs_list_games_and_agents(client):
    data = client.get("/api/specs").json()
    toy = next(g for g in data["games"] if g["id"] == "toy-ttt")
    assert toy["options"][0]["name"] == "coin" and toy["players"] == [2]
    assert "random" in {a["name"] for a in data["agents"]}
    # Each game lists the agents that play it; each agent its typed parameters.
    assert set(toy["agents"]) >= {"random", "mcts", "alphabeta"} and toy["capabilities"][
        "has_evaluation"
    ] in (
        True,
        False,
    )
    mcts = next(a for a in data["agents"] if a["name"] == "mcts")
    assert {o["name"] for o in mcts["options"]} >= {"time", "iterations", "exploration"}
    assert data["featured"] in {g["id"] for g in data["games"]}


def test_a_bot_that_does_not_play_the_game_is_never_listed_for_it(client):
    data = client.get("/api/specs").json()
    agents = {a["name"]: a for a in data["agents"]}
    for game in data["games"]:
        for name in game["agents"]:
            families = agents[name]["families"]
            assert families is None or game["family"] in families, (game["id"], name)


def test_create_and_play_a_whole_game(client):
    gid, (ann, bob) = two_humans(client)
    s = state(client, gid)
    assert s["status"] == "active" and s["to_move"] == 0 and s["ply"] == 0
    assert {m["text"] for m in s["legal"]} == {f"{c}{r}" for c in "abc" for r in "123"}
    assert all(m["path"] == [m["text"]] for m in s["legal"])
    assert 'data-target="b2"' in s["svg"]
    for ply, (token, move) in enumerate([(ann, "a1"), (bob, "a2"), (ann, "b1"), (bob, "b2"), (ann, "C1")]):
        r = client.post(f"/api/games/{gid}/move", json={"move": move, "ply": ply}, headers=bearer(token))
        assert r.status_code == 200, r.text
    s = state(client, gid)
    assert s["status"] == "over" and s["result"]["winners"] == [0] and s["result"]["text"] == "1-0"
    assert [m["text"] for m in s["moves"]] == ["a1", "a2", "b1", "b2", "c1"]
    assert s["legal"] == [] and s["to_move"] is None


def test_move_without_ply_is_accepted(client):
    gid, (ann, _) = two_humans(client)
    r = client.post(f"/api/games/{gid}/move", json={"move": "a1"}, headers=bearer(ann))
    assert r.status_code == 200 and r.json()["ply"] == 1


@pytest.mark.parametrize(
    "body, status, words",
    [
        (b"{not json", 400, "malformed JSON"),
        (b"[1, 2]", 400, "JSON object"),
        (b"", 400, "JSON body"),
        (json.dumps({"move": "z9", "ply": 1}).encode(), 400, "not a legal move"),
        (json.dumps({"move": "a1", "ply": 1}).encode(), 400, "not a legal move"),
        (json.dumps({"move": "", "ply": 1}).encode(), 400, "notation"),
        (json.dumps({"move": 5, "ply": 1}).encode(), 400, "notation"),
        (json.dumps({"move": "b2", "ply": "one"}).encode(), 400, "ply must be"),
        (json.dumps({"move": "b2", "ply": 0}).encode(), 409, "stale"),
        (json.dumps({"move": "b2", "ply": 3}).encode(), 409, "stale"),
    ],
)
def test_bad_moves_are_rejected_and_change_nothing(client, body, status, words):
    gid, (ann, _) = two_humans(client)
    client.post(f"/api/games/{gid}/move", json={"move": "a1", "ply": 0}, headers=bearer(ann))
    before = state(client, gid)
    bob = create_token_for(client, gid, 1)
    r = client.post(
        f"/api/games/{gid}/move", content=body, headers={**bearer(bob), "Content-Type": "application/json"}
    )
    assert r.status_code == status and words in r.json()["error"]
    assert state(client, gid) == before


def create_token_for(client, gid, seat):
    return client.portal.call(client.app.state.manager.get, gid).seats[seat].token


def test_wrong_turn_wrong_token_and_no_token(client):
    gid, (ann, bob) = two_humans(client)
    before = state(client, gid)
    r = client.post(f"/api/games/{gid}/move", json={"move": "a1", "ply": 0}, headers=bearer(bob))
    assert r.status_code == 403 and "not your turn" in r.json()["error"] and "Ann" in r.json()["error"]
    r = client.post(f"/api/games/{gid}/move", json={"move": "a1", "ply": 0}, headers=bearer("not-a-token"))
    assert r.status_code == 401
    r = client.post(f"/api/games/{gid}/move", json={"move": "a1", "ply": 0})
    assert r.status_code == 401 and "token" in r.json()["error"]
    # A token of another game is no seat here.
    _, (other, _) = two_humans(client)
    r = client.post(f"/api/games/{gid}/move", json={"move": "a1", "ply": 0}, headers=bearer(other))
    assert r.status_code == 401
    assert state(client, gid) == before


def test_duplicate_move_is_not_applied_twice(client):
    gid, (ann, bob) = two_humans(client)
    assert (
        client.post(f"/api/games/{gid}/move", json={"move": "a1", "ply": 0}, headers=bearer(ann)).status_code
        == 200
    )
    r = client.post(f"/api/games/{gid}/move", json={"move": "a1", "ply": 0}, headers=bearer(ann))
    assert r.status_code == 409
    assert [m["text"] for m in state(client, gid)["moves"]] == ["a1"]
    assert len(client.app.state.manager.storage.get_game(gid).moves) == 1


def test_unknown_game_id_and_unknown_game_name(client):
    assert client.get("/api/games/nope").status_code == 404
    assert client.post("/api/games/nope/move", json={"move": "a1"}).status_code == 404
    assert client.get("/api/games/nope/record").status_code == 404
    r = client.post("/api/games", json={"game": "no-such-game"})
    assert r.status_code == 400 and "unknown game" in r.json()["error"]


@pytest.mark.parametrize(
    "body, words",
    [
        ({}, "which game"),
        ({"game": "toy-ttt", "options": {"coin": "maybe"}}, "coin"),
        ({"game": "toy-ttt", "options": {"bogus": 1}}, "no option"),
        ({"game": "toy-ttt", "options": []}, "options must be"),
        ({"game": "toy-ttt", "players": 3}, "played by 2"),
        ({"game": "toy-ttt", "seats": [{"kind": "human"}]}, "list of 2"),
        ({"game": "toy-ttt", "seats": [{"kind": "alien"}, {"kind": "human"}]}, "kind"),
        (
            {"game": "toy-ttt", "seats": [{"kind": "bot", "agent": "nobody"}, {"kind": "human"}]},
            "unknown agent",
        ),
        (
            {"game": "toy-ttt", "seats": [{"kind": "bot", "limits": {"time": 1e6}}, {"kind": "human"}]},
            "not allowed",
        ),
        (
            {"game": "toy-ttt", "seats": [{"kind": "bot", "limits": {"time": 120}}, {"kind": "human"}]},
            "at most 60",
        ),
        (
            {
                "game": "toy-ttt",
                "seats": [{"kind": "bot", "limits": {"iterations": 10**15}}, {"kind": "human"}],
            },
            "not allowed",
        ),
        (
            {
                "game": "toy-ttt",
                "seats": [{"kind": "bot", "limits": {"iterations": 5_000_000}}, {"kind": "human"}],
            },
            "at most 1,000,000",
        ),
        (
            {"game": "toy-ttt", "seats": [{"kind": "bot", "limits": {"depth": 10**30}}, {"kind": "human"}]},
            "not allowed",
        ),
        (
            {"game": "toy-ttt", "seats": [{"kind": "bot", "limits": {"speed": 1}}, {"kind": "human"}]},
            "no parameter 'speed'",
        ),
        ({"game": "toy-ttt", "clock": {"mode": "hourglass", "initial": 5}}, "clock mode"),
        ({"game": "toy-ttt", "clock": {"mode": "total", "initial": -5}}, "positive"),
        ({"game": "toy-ttt", "seed": -1}, "seed"),
        ({"game": "toy-ttt", "public": "yes"}, "public"),
        ({"game": "toy-ttt", "seats": [{"name": "x" * 41}, {}]}, "at most 40"),
    ],
)
def test_create_rejects_bad_requests(client, body, words):
    before = client.get("/api/games").json()
    r = client.post("/api/games", json=body)
    assert r.status_code == 400 and words in r.json()["error"], r.text
    assert client.get("/api/games").json() == before


def test_bots_must_play_the_game_family(client, monkeypatch):
    from qipan.agents import AgentSpec, RandomAgent, base

    monkeypatch.setitem(base._AGENTS, "chess-only", AgentSpec("chess-only", RandomAgent, "test", ("chess",)))
    r = client.post(
        "/api/games", json={"game": "toy-ttt", "seats": [{"kind": "bot", "agent": "chess-only"}, {}]}
    )
    error = r.json()["error"]
    assert r.status_code == 400 and "does not play" in error and "agents that do:" in error
    assert "chess-only" not in error.partition("agents that do:")[2]
    monkeypatch.setitem(base._AGENTS, "toy-only", AgentSpec("toy-only", RandomAgent, "test", ("toy",)))
    r = client.post(
        "/api/games", json={"game": "toy-ttt", "seats": [{"kind": "bot", "agent": "toy-only"}, {}]}
    )
    assert r.status_code == 201


def test_join_by_invite_and_from_the_lobby(client):
    gid, tokens = create(
        client,
        [
            {"kind": "human", "name": "Ann", "join": True},
            {"kind": "human"},
        ],
    )
    s = state(client, gid)
    assert s["status"] == "open" and not s["seats"][1]["joined"] and s["legal"] == []
    r = client.post(f"/api/games/{gid}/move", json={"move": "a1", "ply": 0}, headers=bearer(tokens[0]))
    assert r.status_code == 409 and "not started" in r.json()["error"]
    assert [g["id"] for g in client.get("/api/games?status=open").json()["games"]] == [gid]
    # Joining from the lobby (no token) claims the free seat and hands out a fresh token.
    assert tokens[1] is None  # a free seat's token is not handed out at creation
    r = client.post(f"/api/games/{gid}/join", json={"name": "Bob"})
    assert r.status_code == 200 and r.json()["seat"] == 1
    bob = r.json()["token"]
    s = state(client, gid)
    assert s["status"] == "active" and s["seats"][1]["name"] == "Bob"
    assert client.post(f"/api/games/{gid}/join", json={}).status_code == 409
    # The seat's token joins again idempotently.
    assert client.post(f"/api/games/{gid}/join", json={}, headers=bearer(bob)).json() == {
        "seat": 1,
        "token": bob,
    }
    assert client.get("/api/games?status=open").json()["games"] == []


def test_private_games_need_the_invite_and_bad_seats_are_refused(client):
    r = client.post(
        "/api/games",
        json={"game": "toy-ttt", "seats": [{"kind": "human", "join": True}, {}], "public": False},
    )
    gid, invite = r.json()["id"], r.json()["seats"][1]["invite"].partition("invite=")[2]
    assert client.get("/api/games?status=open").json()["games"] == []
    assert client.post(f"/api/games/{gid}/join", json={}).status_code == 403
    gid2, _ = create(client, [{"kind": "human", "join": True}, {"kind": "human"}])
    assert client.post(f"/api/games/{gid2}/join", json={"seat": 0}).status_code == 409
    assert client.post(f"/api/games/{gid2}/join", json={"seat": 7}).status_code == 400
    assert client.post(f"/api/games/{gid2}/join", content=b"{bad").status_code == 400
    r = client.post(f"/api/games/{gid}/join", json={"name": "Cy", "invite": invite})
    assert r.status_code == 200 and state(client, gid)["status"] == "active"


def test_resign(client):
    gid, (ann, bob) = two_humans(client)
    assert client.post(f"/api/games/{gid}/resign").status_code == 401
    r = client.post(f"/api/games/{gid}/resign", headers=bearer(bob))
    assert r.status_code == 200
    s = r.json()
    assert s["status"] == "over" and s["result"]["winners"] == [0] and "Bob resigned" in s["result"]["reason"]
    r = client.post(f"/api/games/{gid}/move", json={"move": "a1", "ply": 0}, headers=bearer(ann))
    assert r.status_code == 409 and "over" in r.json()["error"]
    assert client.post(f"/api/games/{gid}/resign", headers=bearer(ann)).status_code == 409


def test_draw_by_agreement_and_decline(client):
    gid, (ann, bob) = two_humans(client)
    s = client.post(f"/api/games/{gid}/draw", json={"action": "offer"}, headers=bearer(ann)).json()
    assert s["offers"]["draw"] == [0] and s["status"] == "active"
    s = client.post(f"/api/games/{gid}/draw", json={"action": "decline"}, headers=bearer(bob)).json()
    assert s["offers"]["draw"] == []
    client.post(f"/api/games/{gid}/draw", json={"action": "offer"}, headers=bearer(ann))
    # A move withdraws the offer.
    client.post(f"/api/games/{gid}/move", json={"move": "a1", "ply": 0}, headers=bearer(ann))
    assert state(client, gid)["offers"]["draw"] == []
    client.post(f"/api/games/{gid}/draw", json={"action": "offer"}, headers=bearer(ann))
    s = client.post(f"/api/games/{gid}/draw", json={"action": "accept"}, headers=bearer(bob)).json()
    assert s["status"] == "over" and s["result"]["winners"] == [] and s["result"]["reason"] == "draw agreed"
    r = client.post(f"/api/games/{gid}/draw", json={"action": "dance"}, headers=bearer(bob))
    assert r.status_code == 409  # over


def test_draw_bad_action(client):
    gid, (ann, _) = two_humans(client)
    r = client.post(f"/api/games/{gid}/draw", json={"action": "dance"}, headers=bearer(ann))
    assert r.status_code == 400 and state(client, gid)["offers"]["draw"] == []


def test_undo_by_agreement(client):
    gid, (ann, bob) = two_humans(client)
    r = client.post(f"/api/games/{gid}/undo", json={"action": "offer"}, headers=bearer(ann))
    assert r.status_code == 409 and "no move" in r.json()["error"]
    client.post(f"/api/games/{gid}/move", json={"move": "a1", "ply": 0}, headers=bearer(ann))
    client.post(f"/api/games/{gid}/move", json={"move": "b2", "ply": 1}, headers=bearer(bob))
    s = client.post(f"/api/games/{gid}/undo", json={"action": "offer"}, headers=bearer(ann)).json()
    assert s["offers"]["undo"] == [0] and s["ply"] == 2
    s = client.post(f"/api/games/{gid}/undo", json={"action": "accept"}, headers=bearer(bob)).json()
    # Back to before Ann's last move.
    assert s["ply"] == 0 and s["to_move"] == 0 and s["moves"] == []
    assert client.app.state.manager.storage.get_game(gid).moves == []
    r = client.post(f"/api/games/{gid}/move", json={"move": "c3", "ply": 0}, headers=bearer(ann))
    assert r.status_code == 200 and [m["text"] for m in r.json()["moves"]] == ["c3"]
    client.post(f"/api/games/{gid}/undo", json={"action": "offer"}, headers=bearer(ann))
    s = client.post(f"/api/games/{gid}/undo", json={"action": "decline"}, headers=bearer(bob)).json()
    assert s["ply"] == 1 and s["offers"]["undo"] == []


def test_undo_against_a_bot_takes_back_the_bot_reply_too(client):
    gid, tokens = create(client, [{"kind": "human", "join": True}, {"kind": "bot", "agent": "random"}])
    client.post(f"/api/games/{gid}/move", json={"move": "b2", "ply": 0}, headers=bearer(tokens[0]))
    wait_for(lambda: state(client, gid)["ply"] == 2)
    s = client.post(f"/api/games/{gid}/undo", json={}, headers=bearer(tokens[0])).json()
    assert s["ply"] == 0 and s["to_move"] == 0


def test_bot_game_plays_to_the_end(client):
    gid, _ = create(
        client,
        [
            {"kind": "bot", "agent": "random", "limits": {"seed": 3}},
            {"kind": "bot", "agent": "random", "limits": {"seed": 4}},
        ],
    )
    s = wait_for(lambda: (x := state(client, gid))["status"] == "over" and x)
    assert s["result"] is not None and 5 <= s["ply"] <= 9
    r = client.post("/api/games", json={"game": "toy-ttt", "seats": [{"kind": "bot"}, {"kind": "bot"}]})
    assert r.json()["seats"] == []  # no human seats, no tokens


def test_chance_moves_are_resolved_by_the_server_with_the_seed(client):
    gids = [
        create(
            client,
            [{"kind": "human", "join": True}, {"kind": "human", "join": True}],
            options={"coin": True},
            seed=seed,
        )[0]
        for seed in (1, 1, 2, 3, 4, 5)
    ]
    firsts = []
    for gid in gids:
        s = state(client, gid)
        assert s["ply"] == 1 and s["moves"][0]["player"] == -1
        assert s["moves"][0]["text"] in ("X first", "O first")
        assert s["to_move"] == (0 if s["moves"][0]["text"] == "X first" else 1)
        firsts.append(s["moves"][0]["text"])
    assert firsts[0] == firsts[1]  # same seed, same draw
    assert len(set(firsts)) == 2  # but the coin does land both ways


def test_record_download_replays(client):
    gid, (ann, bob) = two_humans(client, options={"coin": False})
    for ply, (t, m) in enumerate([(ann, "a1"), (bob, "a2"), (ann, "b1"), (bob, "b2")]):
        client.post(f"/api/games/{gid}/move", json={"move": m, "ply": ply}, headers=bearer(t))
    client.post(f"/api/games/{gid}/resign", headers=bearer(ann))
    r = client.get(f"/api/games/{gid}/record")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    rec = Record.from_json(r.text)
    assert rec.game == "toy-ttt" and rec.moves == ["a1", "a2", "b1", "b2"] and rec.names == ["Ann", "Bob"]
    assert rec.result.winners == (1,) and "resigned" in rec.result.reason
    assert rec.replay().ply == 4
    pgn = client.get(f"/api/games/{gid}/record?format=pgn")
    assert pgn.status_code == 200 and '[Game "toy-ttt"]' in pgn.text
    assert client.get(f"/api/games/{gid}/record?format=doc").status_code == 400


def test_position_for_the_replay_viewer(client):
    gid, (ann, bob) = two_humans(client)
    client.post(f"/api/games/{gid}/move", json={"move": "a1", "ply": 0}, headers=bearer(ann))
    client.post(f"/api/games/{gid}/move", json={"move": "c3", "ply": 1}, headers=bearer(bob))
    p0 = client.get(f"/api/games/{gid}/position?ply=0").json()
    p2 = client.get(f"/api/games/{gid}/position?ply=2").json()
    assert p0["text"] == ". . .\n. . .\n. . ." and p0["move"] is None
    assert p2["move"] == "c3" and p2["text"] == ". . O\n. . .\nX . ."
    assert client.get(f"/api/games/{gid}/position?ply=3").status_code == 400
    assert client.get(f"/api/games/{gid}/position?ply=x").status_code in (400, 422)
    assert state(client, gid)["ply"] == 2  # the live game is untouched


def test_lists_of_games(client):
    g1, _ = two_humans(client)
    g2, t2 = two_humans(client)
    client.post(f"/api/games/{g2}/resign", headers=bearer(t2[0]))
    assert [g["id"] for g in client.get("/api/games?status=over").json()["games"]] == [g2]
    assert [g["id"] for g in client.get("/api/games?status=active").json()["games"]] == [g1]
    assert {g["id"] for g in client.get(f"/api/games?ids={g1},{g2},zzz").json()["games"]} == {g1, g2}
    assert client.get("/api/games?status=weird").status_code == 400


def test_front_end_pages_are_served(client):
    assert "new-game-form" in client.get("/").text
    assert 'id="board"' in client.get("/g/abc").text
    assert 'id="replay-controls"' in client.get("/replay/abc").text
    assert "PathPicker" in client.get("/static/clicks.js").text
    assert client.get("/static/app.css").status_code == 200


def test_oversized_bodies_are_refused(client):
    r = client.post("/api/games", content=b'{"game": "' + b"x" * 70_000 + b'"}')
    assert r.status_code == 413 and client.get("/api/games").json()["games"] == []


def test_finished_games_leave_memory_and_come_back(client, monkeypatch):
    from qipan.server import manager as manager_module

    monkeypatch.setattr(manager_module, "MAX_CACHED", 1)
    mgr = client.app.state.manager
    old, tokens = two_humans(client)
    client.post(f"/api/games/{old}/resign", headers=bearer(tokens[0]))
    new, _ = two_humans(client)
    assert old in mgr.sessions and new in mgr.sessions  # created games are cached directly
    mgr.sessions.pop(new)
    client.portal.call(mgr.get, new)  # loading one more evicts the finished game nobody watches
    assert old not in mgr.sessions
    s = state(client, old)  # and it comes back from storage when asked for
    assert s["status"] == "over" and "resigned" in s["result"]["reason"]


def test_a_failed_write_is_a_503_and_changes_nothing(client, monkeypatch):
    gid, (ann, bob) = two_humans(client)
    client.post(f"/api/games/{gid}/move", json={"move": "a1", "ply": 0}, headers=bearer(ann))
    before = state(client, gid)
    storage = client.app.state.manager.storage

    def fail(*_args, **_kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(storage, "append_moves", fail)
    monkeypatch.setattr(storage, "update_game", fail)
    r = client.post(f"/api/games/{gid}/move", json={"move": "b2", "ply": 1}, headers=bearer(bob))
    assert r.status_code == 503 and "nothing was changed" in r.json()["error"]
    assert client.post(f"/api/games/{gid}/resign", headers=bearer(bob)).status_code == 503
    after = state(client, gid)
    assert {k: v for k, v in after.items() if k != "clock"} == {
        k: v for k, v in before.items() if k != "clock"
    }
    monkeypatch.undo()
    r = client.post(f"/api/games/{gid}/move", json={"move": "b2", "ply": 1}, headers=bearer(bob))
    assert r.status_code == 200 and [m.text for m in storage.get_game(gid).moves] == ["a1", "b2"]
