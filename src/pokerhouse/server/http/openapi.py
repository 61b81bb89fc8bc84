"""The HTTP API described as OpenAPI 3.1, served at ``/api/openapi.json``.

>>> document = openapi_document()
>>> document["openapi"], sorted(document["paths"])[:3]
('3.1.0', ['/api/bots', '/api/bots/{name}/revoke', '/api/bots/{name}/token'])
"""

from __future__ import annotations

from typing import Any

from pokerhouse.server.botaccounts import openapi as bots_openapi
from pokerhouse.server.http.openapi_parts import CSRF_HEADER as _CSRF_HEADER
from pokerhouse.server.http.openapi_parts import PROBLEM as _PROBLEM
from pokerhouse.server.http.openapi_parts import json_answer as _json
from pokerhouse.server.http.openapi_parts import problem as _problem
from pokerhouse.server.private import openapi as private_openapi
from pokerhouse.server.stats import openapi as stats_openapi
from pokerhouse.server.tournaments import openapi as tournaments_openapi


def _paged(summary: str, schema: str, what: str, most: int) -> dict[str, Any]:
    """A ``GET`` of a list paged by key: ``?limit=`` (1 to ``most``) and ``?before=``."""
    return {
        "get": {
            "summary": summary,
            "parameters": [
                {
                    "name": "limit",
                    "in": "query",
                    "required": False,
                    "description": f"How many {what} (default and most {most}).",
                    "schema": {"type": "integer", "minimum": 1, "maximum": most},
                },
                {
                    "name": "before",
                    "in": "query",
                    "required": False,
                    "description": f"Only {what} older than this: the next of the page before.",
                    "schema": {"type": "integer", "minimum": 1, "maximum": 2**63 - 1},
                },
            ],
            "responses": {
                "200": _json({"$ref": f"#/components/schemas/{schema}"}, f"The {what}."),
                "400": _problem("A limit or before out of range (bad_limit, bad_before)."),
                "401": _problem("Not signed in."),
            },
        }
    }


_NEXT = {
    "type": ["integer", "null"],
    "description": "The before of the next older page; null when there is none.",
}


def _post(summary: str, ok: dict[str, Any], *, body: bool, extra: dict[str, Any]) -> dict[str, Any]:
    operation: dict[str, Any] = {
        "summary": summary,
        "parameters": [_CSRF_HEADER],
        "responses": {
            **ok,
            "400": _problem("The body is not the schema's."),
            "403": _problem("No CSRF header, or another site's request."),
            **extra,
        },
    }
    if body:
        operation["requestBody"] = {
            "required": True,
            "content": {
                "application/json": {"schema": {"$ref": "#/components/schemas/Credentials"}}
            },
        }
    return {"post": operation}


def openapi_document(*, metrics: bool = True) -> dict[str, Any]:
    """The API's OpenAPI document (``metrics``: with ``/metrics``, when the room serves it)."""
    document = _document()
    document["paths"].update(tournaments_openapi.PATHS)
    document["paths"].update(bots_openapi.PATHS)
    document["paths"].update(stats_openapi.PATHS)
    document["paths"].update(private_openapi.PATHS)
    document["components"]["schemas"].update(tournaments_openapi.SCHEMAS)
    if not metrics:
        del document["paths"]["/metrics"]
    return document


def _document() -> dict[str, Any]:
    me = {"$ref": "#/components/schemas/Me"}
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "pokerhouse",
            "version": "1",
            "description": "The card room's HTTP API. Live play is on the websocket /ws "
            "(see docs/protocol.md).",
        },
        "paths": {
            "/healthz": {
                "get": {
                    "summary": "Whether the database answers and every table takes actions",
                    "responses": {
                        "200": _json({"$ref": "#/components/schemas/Health"}, "Healthy."),
                        "503": _json(
                            {"$ref": "#/components/schemas/Health"},
                            "The database is down, or a table cannot save.",
                        ),
                    },
                }
            },
            "/metrics": {
                "get": {
                    "summary": "The room's counters, in Prometheus's text format",
                    "responses": {
                        "200": {
                            "description": "Connections, actions, hands, commits, errors.",
                            "content": {"text/plain": {"schema": {"type": "string"}}},
                        }
                    },
                }
            },
            "/api/openapi.json": {
                "get": {
                    "summary": "This document",
                    "responses": {"200": _json({"type": "object"}, "The OpenAPI document.")},
                }
            },
            "/api/csrf": {
                "get": {
                    "summary": "A CSRF cookie (and its value) for the page",
                    "responses": {
                        "200": _json(
                            {
                                "type": "object",
                                "required": ["csrf"],
                                "properties": {"csrf": {"type": "string"}},
                            },
                            "The token, also set as the ph_csrf cookie.",
                        )
                    },
                }
            },
            "/api/register": _post(
                "Create an account (with its chip grant) and sign in",
                {"201": _json(me, "Created and signed in (the session cookie is set).")},
                body=True,
                extra={
                    "409": _problem("The username is taken."),
                    "413": _problem("The body is too large."),
                    "429": _problem("Too many new accounts from this address."),
                },
            ),
            "/api/login": _post(
                "Sign in",
                {"200": _json(me, "Signed in (a new session cookie is set).")},
                body=True,
                extra={
                    "401": _problem("Unknown user or wrong password (never which)."),
                    "413": _problem("The body is too large."),
                    "429": _problem("Too many failed logins: wait (see Retry-After)."),
                    "503": _problem(
                        "Several nodes: failed logins cannot be counted now (Redis does not"
                        " answer); try again (see Retry-After)."
                    ),
                },
            ),
            "/api/logout": _post(
                "Sign out",
                {
                    "200": _json(
                        {"type": "object", "properties": {"ok": {"type": "boolean"}}}, "Signed out."
                    )
                },
                body=False,
                extra={},
            ),
            "/api/me": {
                "get": {
                    "summary": "The signed-in player: wallet and seats",
                    "responses": {
                        "200": _json(me, "The player."),
                        "401": _problem("Not signed in."),
                    },
                }
            },
            "/api/me/top-up": _post(
                "Play money again, when wallet and seats hold under 1,000 chips (once an hour)",
                {"200": _json(me, "Topped up.")},
                body=False,
                extra={
                    "401": _problem("Not signed in."),
                    "409": _problem("Not low enough for a top-up."),
                    "429": _problem("One top-up an hour."),
                },
            ),
            "/api/me/hands": _paged(
                "The player's hands, newest first, a page at a time", "HandList", "hands", 200
            ),
            "/api/me/ledger": _paged(
                "The wallet's statement with running balances, a page at a time",
                "Statement",
                "lines",
                500,
            ),
            "/api/tables": {
                "get": {
                    "summary": "The lobby: every table",
                    "responses": {
                        "200": _json({"$ref": "#/components/schemas/Lobby"}, "The tables.")
                    },
                }
            },
            "/api/hands/{hand_id}": {
                "get": {
                    "summary": "A hand's history as this user may see it",
                    "parameters": [
                        {
                            "name": "hand_id",
                            "in": "path",
                            "required": True,
                            "schema": {"type": "integer", "minimum": 1, "maximum": 2**63 - 1},
                        },
                        {
                            "name": "format",
                            "in": "query",
                            "required": False,
                            "schema": {"type": "string", "enum": ["json", "text", "phh"]},
                        },
                    ],
                    "responses": {
                        "200": {
                            "description": "The history: JSON, readable text, or PHH (Razz).",
                            "content": {
                                "application/json": {
                                    "schema": {"$ref": "#/components/schemas/HandHistory"}
                                },
                                "text/plain": {"schema": {"type": "string"}},
                                "application/toml": {"schema": {"type": "string"}},
                            },
                        },
                        "400": _problem("Unknown format, or PHH for a game other than Razz."),
                        "403": _problem("A running hand is open only to its players."),
                        "404": _problem("No such hand."),
                        "409": _problem("The hand has no history (voided)."),
                    },
                }
            },
            "/api/hands/{hand_id}/equity": {
                "get": {
                    "summary": "Each street's equity of a finished hand, from this user's copy",
                    "description": "Built only from the copy GET /api/hands/{hand_id} gives the "
                    "same user: a card the user was not shown is unknown (one of the deck's). "
                    "Counted exactly where the ways are few, else sampled with a fixed seed.",
                    "parameters": [
                        {
                            "name": "hand_id",
                            "in": "path",
                            "required": True,
                            "schema": {"type": "integer", "minimum": 1, "maximum": 2**63 - 1},
                        }
                    ],
                    "responses": {
                        "200": _json({"$ref": "#/components/schemas/Equity"}, "The streets."),
                        "403": _problem("The hand is still being played (hand_running)."),
                        "404": _problem("No such hand."),
                        "409": _problem("The hand has no history (voided)."),
                        "503": {
                            "description": "Too many counts waiting (busy); see Retry-After.",
                            "headers": {"Retry-After": {"schema": {"type": "string"}}},
                            "content": {"application/json": {"schema": _PROBLEM}},
                        },
                    },
                }
            },
        },
        "components": {
            "schemas": {
                "Problem": {
                    "type": "object",
                    "required": ["code", "message"],
                    "properties": {"code": {"type": "string"}, "message": {"type": "string"}},
                },
                "Credentials": {
                    "type": "object",
                    "required": ["username", "password"],
                    "additionalProperties": False,
                    "properties": {
                        "username": {"type": "string", "maxLength": 64},
                        "password": {"type": "string", "maxLength": 1024},
                    },
                },
                "Me": {
                    "type": "object",
                    "required": ["username", "wallet", "in_play", "seats"],
                    "properties": {
                        "username": {"type": "string"},
                        "bot": {"type": "boolean"},
                        "wallet": {"type": "integer"},
                        "in_play": {"type": "integer"},
                        "seats": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "required": ["table", "seat", "stack"],
                                "properties": {
                                    "table": {"type": "integer"},
                                    "seat": {"type": "integer"},
                                    "stack": {"type": "integer"},
                                },
                            },
                        },
                    },
                },
                "Health": {
                    "type": "object",
                    "required": [
                        "ok",
                        "database",
                        "node",
                        "tables",
                        "tables_available",
                        "tables_unavailable",
                        "tables_elsewhere",
                        "private_tables_unavailable",
                    ],
                    "properties": {
                        "ok": {"type": "boolean"},
                        "database": {"type": "string"},
                        "node": {"type": "string"},
                        "tables": {"type": "integer"},
                        "tables_available": {"type": "integer"},
                        "tables_unavailable": {"type": "array", "items": {"type": "integer"}},
                        "tables_elsewhere": {"type": "array", "items": {"type": "integer"}},
                        "private_tables_unavailable": {"type": "integer"},
                    },
                },
                "Lobby": {
                    "type": "object",
                    "required": ["tables"],
                    "properties": {
                        "tables": {
                            "type": "array",
                            "items": {"$ref": "#/components/schemas/TableLine"},
                        }
                    },
                },
                "TableLine": {
                    "type": "object",
                    "required": [
                        "id",
                        "name",
                        "game",
                        "title",
                        "seats",
                        "players",
                        "free",
                        "hands_played",
                    ],
                    "properties": {
                        "id": {"type": "integer"},
                        "name": {"type": "string"},
                        "game": {"type": "string"},
                        "title": {"type": "string"},
                        "spec": {"type": "object"},
                        "seats": {"type": "integer"},
                        "players": {"type": "array", "items": {"type": "object"}},
                        "free": {"type": "integer"},
                        "hands_played": {"type": "integer"},
                        "hands_per_hour": {"type": "integer"},
                        "min_buy_in": {"type": "integer"},
                        "max_buy_in": {"type": "integer"},
                        "available": {"type": "boolean"},
                        "people_only": {"type": "boolean"},
                        "bots_only": {"type": "boolean"},
                    },
                },
                "HandList": {
                    "type": "object",
                    "required": ["hands", "next"],
                    "properties": {
                        "hands": {"type": "array", "items": {"type": "object"}},
                        "next": _NEXT,
                    },
                },
                "Statement": {
                    "type": "object",
                    "required": ["username", "wallet", "in_play", "lines", "next"],
                    "properties": {
                        "username": {"type": "string"},
                        "wallet": {"type": "integer"},
                        "in_play": {"type": "object"},
                        "lines": {
                            "type": "array",
                            "items": {"$ref": "#/components/schemas/StatementLine"},
                        },
                        "next": _NEXT,
                    },
                },
                "StatementLine": {
                    "type": "object",
                    "required": ["entry", "transaction", "kind", "memo", "at", "amount", "balance"],
                    "properties": {
                        "entry": {"type": "integer"},
                        "transaction": {"type": "integer"},
                        "kind": {"type": "string"},
                        "memo": {"type": "string"},
                        "at": {"type": "number"},
                        "amount": {"type": "integer"},
                        "balance": {"type": "integer"},
                    },
                },
                "Equity": {
                    "type": "object",
                    "required": [
                        "id",
                        "table",
                        "number",
                        "status",
                        "players",
                        "you",
                        "yours",
                        "game",
                        "samples",
                        "streets",
                    ],
                    "properties": {
                        "id": {"type": "integer"},
                        "table": {"type": "integer"},
                        "number": {"type": "integer"},
                        "status": {"type": "string"},
                        "players": {"type": "array", "items": {"type": "object"}},
                        "you": {"type": ["integer", "null"]},
                        "yours": {"type": "array", "items": {"type": "integer"}},
                        "game": {"type": "string"},
                        "samples": {"type": "integer"},
                        "streets": {
                            "type": "array",
                            "items": {"$ref": "#/components/schemas/EquityStreet"},
                        },
                    },
                },
                "EquityStreet": {
                    "type": "object",
                    "required": ["street", "board", "method", "deals", "hands"],
                    "properties": {
                        "street": {"type": "string"},
                        "board": {"type": "array", "items": {"type": "string"}},
                        "method": {"type": "string", "enum": ["exact", "sampled"]},
                        "deals": {"type": "integer", "minimum": 1},
                        "hands": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "required": ["hand_seat", "cards", "known", "equity"],
                                "properties": {
                                    "hand_seat": {"type": "integer"},
                                    "cards": {
                                        "type": "array",
                                        "items": {"type": ["string", "null"]},
                                    },
                                    "known": {"type": "boolean"},
                                    "equity": {"type": "number", "minimum": 0, "maximum": 1},
                                    "dealer_equity": {
                                        "type": "number",
                                        "minimum": 0,
                                        "maximum": 1,
                                    },
                                },
                            },
                        },
                        "dealer": {
                            "type": "object",
                            "properties": {
                                "cards": {"type": "array", "items": {"type": ["string", "null"]}}
                            },
                        },
                    },
                },
                "HandHistory": {
                    "type": "object",
                    "required": ["id", "table", "number", "status", "players", "history"],
                    "properties": {
                        "id": {"type": "integer"},
                        "table": {"type": "integer"},
                        "number": {"type": "integer"},
                        "status": {"type": "string"},
                        "players": {"type": "array", "items": {"type": "object"}},
                        "you": {"type": ["integer", "null"]},
                        "yours": {"type": "array", "items": {"type": "integer"}},
                        "history": {"type": "object"},
                    },
                },
            }
        },
    }
