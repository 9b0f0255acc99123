"""The OpenAPI document describes every request body and error, and schema-driven requests
(schemathesis, valid and invalid bodies and parameters) never get a server error."""

from __future__ import annotations

import re
import sys
import threading
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_helpers import free_port, wait_for  # noqa: E402

#: Requests per operation: about a minute for the whole schema on this machine.
EXAMPLES = 25
GAME_API = "/api/games"


def test_every_operation_documents_its_body_and_errors(client):
    spec = client.get("/api/openapi.json").json()
    assert spec["components"]["schemas"]["Error"]["required"] == ["error"]
    operations = [(path, method, op) for path, ops in spec["paths"].items() for method, op in ops.items()]
    assert len(operations) >= 10
    for path, method, op in operations:
        errors = {code for code in op["responses"] if code[0] in "45"}
        assert {"400", "408", "413", "429", "503"} <= errors, (path, method)
        for code in errors:
            schema = op["responses"][code]["content"]["application/json"]["schema"]
            assert schema == {"$ref": "#/components/schemas/Error"}, (path, method, code)
    for path, method, op in operations:
        if game_api(path) and method == "post" and not path.endswith(("/resign", "/abort")):
            assert op["requestBody"]["content"]["application/json"]["schema"]["type"] == "object", path


@pytest.fixture(scope="module")
def live_url(tmp_path_factory, toy_games):
    """The app under a real uvicorn on a loopback port (no rate limits: schemathesis sends
    every request from 127.0.0.1)."""
    import uvicorn

    from qipan.server import create_app
    from qipan.server.limits import Limits

    db = tmp_path_factory.mktemp("openapi") / "qipan.sqlite3"
    app = create_app(f"sqlite:///{db}", limits=Limits.unlimited_rates())
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    wait_for(lambda: server.started, timeout=30)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=30)


def game_api(path: str) -> bool:
    """The routes of app.py (documented by ``openapi.doc``); the site's routes (accounts,
    seeks, chat: site_api.py) are checked for server errors only."""
    return path == "/api/specs" or (path.startswith(GAME_API) and not path.endswith("/chat"))


def operations() -> list[str]:
    """The schema's operations, from the app itself (no server needed to collect them)."""
    import schemathesis

    from qipan.server import create_app

    schema = schemathesis.openapi.from_dict(create_app("sqlite://").openapi())
    return sorted(result.ok().label for result in schema.get_all_operations())


@pytest.mark.parametrize("label", operations())
def test_schema_driven_requests_get_no_server_error(label, live_url):
    import schemathesis
    from hypothesis import HealthCheck, given, settings
    from schemathesis.checks import CHECKS, load_all_checks, not_a_server_error, positive_data_acceptance

    schema = schemathesis.openapi.from_url(f"{live_url}/api/openapi.json")
    operation = next(r.ok() for r in schema.get_all_operations() if r.ok().label == label)
    # The game API gets every check schemathesis has (statuses, bodies, negative data) but
    # "schema-valid data is accepted": a JSON Schema cannot say which options each game
    # takes or which moves are legal. The site's routes get the server-error check only.
    load_all_checks()
    if game_api(operation.path):
        excluded = [positive_data_acceptance]
    else:
        excluded = [c for c in CHECKS.get_all() if c is not not_a_server_error]

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    @given(case=operation.as_strategy())
    def run(case):
        case.call_and_validate(base_url=live_url, excluded_checks=excluded, timeout=30)

    run()


#: Past Python's int-conversion limit (4,300 digits): a ValueError nobody expected, a 500.
HUGE = "9" * 5000


def huge_bodies(schema: dict) -> list[str]:
    """Request bodies (JSON text: ``json.dumps`` itself refuses such integers) with a huge
    integer for the whole body, for each property the schema names, and inside a list."""
    bodies = [HUGE, f"[{HUGE}]", f'{{"x": {HUGE}}}']
    for name in schema.get("properties", {}):
        bodies.append(f'{{"{name}": {HUGE}}}')
        bodies.append(f'{{"{name}": [{HUGE}]}}')
        bodies.append(f'{{"{name}": {{"initial": {HUGE}}}}}')
    return bodies


def test_bodies_with_huge_integers_get_no_server_error(live_url):
    import httpx

    spec = httpx.get(f"{live_url}/api/openapi.json", timeout=30).json()
    seats = [{"kind": "human", "join": True}, {"kind": "human", "join": True}]
    game = httpx.post(f"{live_url}/api/games", json={"game": "toy-ttt", "seats": seats}, timeout=30).json()
    filled = {"game_id": game["id"], "seek_id": "x", "preset": "toy-ttt", "name": "x", "username": "x"}
    sent = 0
    for path, ops in spec["paths"].items():
        for method, op in ops.items():
            if method not in ("post", "put", "patch") or "requestBody" not in op:
                continue
            schema = op["requestBody"]["content"].get("application/json", {}).get("schema", {})
            if "$ref" in schema:
                schema = spec["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
            # Any other path parameter (an event's id, ...) gets a made-up value.
            url = live_url + re.sub(r"\{(\w+)\}", lambda m: str(filled.get(m.group(1), "x")), path)
            headers = {
                "content-type": "application/json",
                "Authorization": f"Bearer {game['seats'][0]['token']}",
            }
            for body in huge_bodies(schema):
                r = httpx.request(method, url, content=body, headers=headers, timeout=30)
                assert r.status_code < 500, (method, path, body[:60], r.status_code, r.text[:200])
                sent += 1
    assert sent > 50
