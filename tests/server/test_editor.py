"""The position editor's API (server/editor.py): clicks place and remove pieces, the side to
move and the hands are set, the game's reader refuses an impossible position with its reason
and nothing changes, every game's start position reads back, and the analysis API replays
moves from an edited position."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import qipan  # noqa: E402
from qipan.core.editing import PositionEditor  # noqa: E402


def edit(client, **body):
    return client.post("/api/editor/position", json=body)


def test_clicks_place_and_remove_stones_and_set_the_side_to_move(client):
    shown = edit(client, game="pente").json()
    assert shown["editor"]["pieces"][:2] == ["1", "2"] and shown["legal"]
    position = shown["position"]
    for target, piece in (("K10", "1"), ("L11", "2"), ("M12", "2"), ("M12", None)):
        r = edit(client, game="pente", position=position, action="place", target=target, piece=piece)
        assert r.status_code == 200, r.text
        position = r.json()["position"]
    assert "1:K10" in position and "2:L11" in position and "M12" not in position
    moved = edit(client, game="pente", position=position, action="mover", mover="2").json()
    assert moved["to_move"] == 1 and "next=2" in moved["position"]


def test_morris_hands_are_set_and_an_impossible_position_says_why(client):
    start = edit(client, game="nine-mens-morris").json()
    assert start["editor"]["hands_field"] == "hands:"
    # A tenth white stone (nine in hand and one on the board) is more than the game has.
    r = edit(
        client, game="nine-mens-morris", position=start["position"], action="place", target="a1", piece="W"
    )
    assert r.status_code == 400 and "impossible" in r.json()["error"] and "more than 9" in r.json()["error"]
    hands = edit(
        client, game="nine-mens-morris", position=start["position"], action="hands", hands=[3, 4]
    ).json()
    assert "hands:3,4" in hands["position"]
    placed = edit(
        client, game="nine-mens-morris", position=hands["position"], action="place", target="a1", piece="W"
    )
    assert placed.status_code == 200 and "W:a1" in placed.json()["position"]


@pytest.mark.parametrize(
    "body, words",
    [
        ({"game": "pente", "position": "next=9 1:K10"}, "impossible"),
        ({"game": "pente", "position": "1:Z99"}, "impossible"),
        ({"game": "pente", "action": "place", "target": "K10", "piece": "7"}, "piece must be"),
        ({"game": "pente", "action": "place", "target": "K 10", "piece": "1"}, "target must be"),
        ({"game": "pente", "action": "mover", "mover": "9"}, "mover must be"),
        ({"game": "pente", "action": "hands", "hands": [1, 1]}, "action must be"),
        ({"game": "trax-8x8", "action": "place", "target": "A1", "piece": "1"}, "edited as text"),
        ({"game": "no-such-game"}, "no-such-game"),
        ({"game": "pente", "position": 7}, "position must be"),
    ],
)
def test_bad_edits_are_refused_with_a_reason(client, body, words):
    r = edit(client, **body)
    assert r.status_code == 400 and words in r.json()["error"], r.text


def test_every_games_start_position_reads_back(client):
    for spec in qipan.specs():
        if spec.id.startswith("toy-"):
            continue
        r = edit(client, game=spec.id)
        assert r.status_code in (200, 400), (spec.id, r.text)
        if r.status_code == 400:  # a game without a position format says so
            assert "position format" in r.json()["error"], (spec.id, r.text)
            continue
        again = edit(client, game=spec.id, position=r.json()["position"]).json()
        assert again["position"] == r.json()["position"], spec.id


def test_the_analysis_api_replays_moves_from_an_edited_position(client):
    position = "next=1 1:K10 2:L11"
    shown = client.post(
        "/api/analysis/position", json={"game": "pente", "position": position, "moves": ["K11"]}
    )
    assert shown.status_code == 200, shown.text
    assert shown.json()["to_move"] == 1 and "K11" in shown.json()["position"]
    bad = client.post(
        "/api/analysis/position", json={"game": "pente", "position": position, "moves": ["K10"]}
    )
    assert bad.status_code == 400 and "ply 1" in bad.json()["error"]


def test_the_editor_writes_piece_lists_as_the_position_text_does():
    editor = PositionEditor(pieces=("W", "B"), mover_field="to:", movers=("W", "B"), derived=("ply:",))
    assert editor.place("W:a1 B: to:W ply:4", "b2", "B") == "W:a1 B:b2 to:W"
    assert editor.place("W:a1,b2 B: to:W", "A1", None) == "W:b2 B: to:W"
    assert editor.place("to:W", "c3", "W") == "to:W W:c3"
    assert editor.set_field("W:a1 to:W", "to:", "B") == "W:a1 to:B"


# -- a game on the site from an edited position -----------------------------------------------
def _edited_pente(client) -> str:
    """Black stones on K10 and K11, White's on L10: Black to move (player 1)."""
    position = edit(client, game="pente").json()["position"]
    for target, piece in (("K10", "1"), ("L10", "2"), ("K11", "1")):
        position = edit(client, game="pente", position=position, action="place", target=target, piece=piece)
        position = position.json()["position"]
    return position


def test_a_level_is_played_from_an_edited_position_and_the_game_survives_a_restart(sqlite_url):
    from fastapi.testclient import TestClient

    from qipan.records import Record
    from qipan.server import create_app

    with TestClient(create_app(sqlite_url)) as client:
        position = _edited_pente(client)
        body = {
            "game": "pente",
            "position": position,
            "seats": [{"kind": "human", "join": True, "name": "ann"}, {"kind": "bot", "agent": "random"}],
            "public": False,
        }
        created = client.post("/api/games", json=body)
        assert created.status_code == 201, created.text
        game_id, token = created.json()["id"], created.json()["seats"][0]["token"]
        state = created.json()["state"]
        assert state["start_position"] == position and state["ply"] == 0 and state["to_move"] == 0
        assert "K11" not in {m["text"] for m in state["legal"]}  # the edited stones are on the board
        r = client.post(
            f"/api/games/{game_id}/move", json={"move": "K12"}, headers={"Authorization": f"Bearer {token}"}
        )
        assert r.status_code == 200, r.text
    with TestClient(create_app(sqlite_url)) as client:  # a new process: rebuilt from storage
        again = client.get(f"/api/games/{game_id}").json()
        assert again["start_position"] == position and again["moves"][0]["text"] == "K12"
        record = Record.from_json(client.get(f"/api/games/{game_id}/record").text)
        assert record.tags["Position"] == position
        replayed = record.replay()
        expected = qipan.load("pente").position(position)
        for move in record.moves:
            expected.play(move)
        assert replayed.position() == expected.position()


def test_a_friend_is_invited_to_an_edited_position(client):
    position = _edited_pente(client)
    body = {
        "game": "pente",
        "position": position,
        "seats": [{"kind": "human", "join": True}, {"kind": "human"}],
    }
    created = client.post("/api/games", json=body).json()
    link = next(s for s in created["seats"] if not s["joined"])["invite"]
    invite = link.rsplit("invite=", 1)[1]  # the link's code: /g/<id>#seat=1&invite=<code>
    assert created["state"]["status"] == "open" and created["state"]["start_position"] == position
    joined = client.post(
        f"/api/games/{created['id']}/join", json={"seat": 1, "name": "bob", "invite": invite}
    )
    assert joined.status_code == 200, joined.text
    shown = client.get(f"/api/games/{created['id']}").json()
    assert shown["status"] == "active" and shown["start_position"] == position


@pytest.mark.parametrize(
    "position, words",
    [
        ("next=9 1:K10", "impossible"),
        (7, "position must be"),
        ("ply=3 next=- captures=0,0 pending=- over=1 1:K10,K11 2:L10", "over in this position"),
    ],
)
def test_a_game_from_an_impossible_or_finished_position_is_refused_and_nothing_stored(
    client, position, words
):
    before = client.get("/api/games").json()["games"]
    r = client.post("/api/games", json={"game": "pente", "position": position})
    assert r.status_code == 400 and words in r.json()["error"], r.text
    assert client.get("/api/games").json()["games"] == before


def test_a_record_from_a_set_up_position_stays_out_of_the_game_database(client, tmp_path):
    from qipan.records import Record
    from qipan.server.gamedb import GameDatabase
    from qipan.server.storage import Storage

    position = _edited_pente(client)
    record = Record("pente", moves=["K12"], tags={"Position": position})
    assert record.replay().ply == 1  # it replays from its position
    storage = Storage(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    report = GameDatabase(storage.engine).add([record])
    storage.close()
    assert report.added == 0 and "set-up position" in report.rejected[0].reason
