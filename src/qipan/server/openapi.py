"""The OpenAPI description of the JSON API: request bodies and error responses.

The routes read their bodies themselves (``app._body``: one parser with the depth, size and
UTF-8 checks, and messages in the API's own words), so FastAPI cannot infer the bodies;
they are written here as JSON Schema, next to the errors each route answers with.
``document(app)`` adds what every operation shares: the error body, the bearer token, and
the errors of the middleware (408, 413, 429) and of the store (503)."""

from __future__ import annotations

from typing import Any

from fastapi.openapi.utils import get_openapi

ERROR = {
    "type": "object",
    "properties": {"error": {"type": "string", "maxLength": 300}},
    "required": ["error"],
}

WHY = {
    400: "bad input: malformed JSON, an unknown game, option or agent, text that is no move, an illegal move",
    401: "no token, or a token that is no seat of this game",
    403: "not your turn, a private game, or hidden information",
    404: "no such game",
    408: "the request body did not arrive in time",
    409: "a stale ply, a game not started or already over, a seat taken",
    413: "the request body is too large",
    429: "too many requests from this address",
    503: "the game store failed; nothing was changed",
}
#: Errors any operation can get: from the middleware (body, rate) and from the store.
COMMON = (408, 413, 429, 503)

NAME = {"type": ["string", "null"], "maxLength": 40}
SEAT = {
    "type": "object",
    "properties": {
        "kind": {"enum": ["human", "bot"], "default": "human"},
        "name": NAME,
        "join": {"type": "boolean", "description": "the creator takes this seat"},
        "agent": {"type": "string", "description": "a registered agent (GET /api/specs)"},
        "limits": {
            "type": ["object", "null"],
            "description": "the agent's typed parameters, e.g. time (seconds, at most 60)",
            "properties": {
                "time": {"type": "number", "exclusiveMinimum": 0, "maximum": 60},
                "iterations": {"type": "integer", "minimum": 1, "maximum": 1_000_000},
                "depth": {"type": "integer", "minimum": 1, "maximum": 32},
                "seed": {"type": "integer", "minimum": 0},
            },
        },
    },
}
CREATE = {
    "type": "object",
    "required": ["game"],
    "properties": {
        "game": {"type": "string", "minLength": 1, "description": "a game or preset id (GET /api/specs)"},
        "options": {"type": ["object", "null"], "description": "the game's typed options"},
        "players": {"type": "integer", "minimum": 1},
        "seed": {"type": ["integer", "null"], "minimum": 0, "maximum": 2**62 - 1},
        "public": {"type": "boolean", "default": True},
        "seats": {"type": ["array", "null"], "items": SEAT},
        "clock": {
            "type": ["object", "null"],
            "properties": {
                "mode": {"enum": ["total", "move"]},
                "initial": {"type": "number", "exclusiveMinimum": 0, "maximum": 14 * 24 * 3600},
                "increment": {"type": "number", "minimum": 0, "maximum": 24 * 3600},
                "wall": {"type": "boolean"},
            },
        },
        "realtime": {"type": ["number", "null"], "minimum": 0.01, "maximum": 600},
        "position": {
            "type": ["string", "null"],
            "maxLength": 4000,
            "description": "the position text to start from (the position editor's); null: the rules' start",
        },
    },
}
JOIN = {
    "type": "object",
    "properties": {
        "name": NAME,
        "seat": {"type": ["integer", "null"], "minimum": 0, "description": "a free seat (without a token)"},
        "invite": {"type": "string", "description": "the code of an invite link (used once)"},
    },
}
MOVE = {
    "type": "object",
    "required": ["move"],
    "properties": {
        "move": {"type": "string", "minLength": 1, "description": "the move in the game's notation"},
        "ply": {"type": ["integer", "null"], "description": "moves played so far (refused if stale)"},
    },
}
OFFER = {
    "type": "object",
    "properties": {"action": {"enum": ["offer", "accept", "decline"], "default": "offer"}},
}


def doc(*errors: int, body: dict | None = None, body_required: bool = True) -> dict[str, Any]:
    """Route decorator arguments: the JSON body's schema and the route's own errors."""
    out: dict[str, Any] = {"responses": {code: {"description": WHY[code]} for code in errors}}
    if body is not None:
        out["openapi_extra"] = {
            "requestBody": {"required": body_required, "content": {"application/json": {"schema": body}}}
        }
    return out


def document(app) -> None:
    """Give every operation of ``app`` the error body, the shared errors and the bearer
    token (routes added later by other modules too: the schema is built on first use)."""

    def schema() -> dict:
        if app.openapi_schema is None:
            spec = get_openapi(title=app.title, version=app.version, routes=app.routes)
            components = spec.setdefault("components", {})
            components.setdefault("schemas", {})["Error"] = ERROR
            components.setdefault("securitySchemes", {})["seat"] = {
                "type": "http",
                "scheme": "bearer",
                "description": "a seat's token (from creating or joining a game)",
            }
            error = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
            for methods in spec.get("paths", {}).values():
                for operation in methods.values():
                    responses = operation.setdefault("responses", {})
                    # FastAPI's own 422 is answered as 400 in the API's format (app.py).
                    responses.pop("422", None)
                    for code in COMMON + (400,):
                        responses.setdefault(str(code), {"description": WHY[code]})
                    for code, response in responses.items():
                        if code.startswith(("4", "5")):
                            response["content"] = error
                    operation.setdefault("security", [{"seat": []}, {}])
            app.openapi_schema = spec
        return app.openapi_schema

    app.openapi = schema
