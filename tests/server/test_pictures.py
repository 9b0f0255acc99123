"""Reference pictures a game declares (``Game.pictures``) are served as SVG by one generic
route, and listed in the game's capabilities."""

from __future__ import annotations


def test_a_declared_picture_is_served_as_svg(client):
    specs = {g["id"]: g for g in client.get("/api/specs").json()["games"]}
    assert specs["tantrix"]["capabilities"]["pictures"] == ["tiles"]
    assert specs["toy-ttt"]["capabilities"]["pictures"] == []
    r = client.get("/api/specs/tantrix/pictures/tiles")
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert r.text.startswith("<svg") and r.text.count('class="tile"') == 56


def test_unknown_game_or_picture_is_404(client):
    r = client.get("/api/specs/tantrix/pictures/rules")
    assert r.status_code == 404 and "no picture 'rules'" in r.json()["error"]
    assert client.get("/api/specs/toy-ttt/pictures/tiles").status_code == 404
    assert client.get("/api/specs/no-such-game/pictures/tiles").status_code == 404
