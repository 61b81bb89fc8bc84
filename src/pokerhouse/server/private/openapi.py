"""The private tables' part of the OpenAPI document: open one, invitations, the ledger.

>>> sorted(PATHS)[:2]
['/api/invitations/join', '/api/invitations/look']
"""

from __future__ import annotations

from typing import Any

from pokerhouse.server.http.openapi_parts import CSRF_HEADER as _CSRF
from pokerhouse.server.http.openapi_parts import json_answer as _json
from pokerhouse.server.http.openapi_parts import problem as _problem

_TABLE_ID = {
    "name": "table_id",
    "in": "path",
    "required": True,
    "schema": {"type": "integer", "minimum": 1, "maximum": 2**62},
}
_TOKEN_TEXT = {"type": "string", "minLength": 1, "maxLength": 200}
_TOKEN_BODY = {
    "type": "object",
    "required": ["token"],
    "additionalProperties": False,
    "properties": {"token": _TOKEN_TEXT},
}
_JOIN_BODY = {
    "type": "object",
    "required": ["token"],
    "additionalProperties": False,
    "properties": {
        "token": _TOKEN_TEXT,
        "password": {"type": ["string", "null"], "maxLength": 128},
    },
}
_OBJECT = {"type": "object"}
_SIGNED_IN = {
    "401": _problem("Not signed in (login_required)."),
    "403": _problem("A bot account (people_only), no CSRF header, or another site's request."),
}
_NEW_TABLE = {
    "type": "object",
    "required": ["name", "game"],
    "additionalProperties": False,
    "properties": {
        "name": {"type": "string", "minLength": 1, "maxLength": 40},
        "game": {"type": "string", "enum": ["3x4", "casino-holdem", "razz", "teen-patti"]},
        "options": {"type": "object", "description": "The game's spec fields (stakes)."},
        "seats": {"type": "integer", "minimum": 1, "maximum": 10},
        "min_buy_in": {"type": ["integer", "null"], "minimum": 1, "maximum": 10**9},
        "max_buy_in": {"type": ["integer", "null"], "minimum": 1, "maximum": 10**9},
        "max_boxes": {"type": "integer", "minimum": 1, "maximum": 10},
        "bots": {"type": "integer", "minimum": 0, "maximum": 9},
        "decision_seconds": {"type": "number", "minimum": 5, "maximum": 120},
        "approve_seats": {"type": "boolean"},
        "password": {"type": ["string", "null"], "minLength": 4, "maxLength": 128},
    },
}

PATHS: dict[str, Any] = {
    "/api/private-tables": {
        "get": {
            "summary": "The open private tables the person hosts or came to",
            "responses": {
                "200": _json(
                    {
                        "type": "object",
                        "required": ["tables"],
                        "properties": {"tables": {"type": "array", "items": _OBJECT}},
                    },
                    "Each with its id, name, game, host, whether it is theirs, paused.",
                ),
                **_SIGNED_IN,
            },
        },
        "post": {
            "summary": "Open a private table (a home game)",
            "parameters": [_CSRF],
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": _NEW_TABLE}},
            },
            "responses": {
                "201": _json(
                    {
                        "type": "object",
                        "required": ["id", "name", "game", "invitation"],
                        "properties": {
                            "id": {"type": "integer"},
                            "name": {"type": "string"},
                            "game": {"type": "string"},
                            "invitation": {"type": "string"},
                        },
                    },
                    "The table, and its invitation token shown this once.",
                ),
                "400": _problem("bad_table, over_limit, or a bad body (bad_request, bad_json)."),
                "409": _problem("The host keeps as many open as they may (too_many_tables)."),
                "429": _problem("Passwords being hashed for this address (rate_limited)."),
                "413": _problem("The body is too large."),
                **_SIGNED_IN,
            },
        },
    },
    "/api/private-tables/stakes": {
        "get": {
            "summary": "The stakes a private table may play, and the room's limits",
            "responses": {
                "200": _json(
                    {"type": "object", "required": ["games", "host_chooses", "limits"]},
                    "Each game's levels (name, options, buy-in range).",
                )
            },
        }
    },
    "/api/private-tables/{table_id}": {
        "get": {
            "summary": "A private table's settings and state; its guests, for the host",
            "parameters": [_TABLE_ID],
            "responses": {
                "200": _json(_OBJECT, "The table as its host or a guest sees it."),
                "404": _problem("No such table, or not one the person is at (unknown_table)."),
                **_SIGNED_IN,
            },
        }
    },
    "/api/private-tables/{table_id}/invitation": {
        "post": {
            "summary": "A new invitation link; the old one stops working",
            "parameters": [_TABLE_ID, _CSRF],
            "responses": {
                "200": _json(
                    {
                        "type": "object",
                        "required": ["id", "invitation"],
                        "properties": {"id": {"type": "integer"}, "invitation": {"type": "string"}},
                    },
                    "The new token.",
                ),
                "404": _problem("No such table, or not one the person is at (unknown_table)."),
                **_SIGNED_IN,
            },
        }
    },
    "/api/private-tables/{table_id}/ledger": {
        "get": {
            "summary": "The session ledger: buy-ins, cash-outs, stacks and net per player",
            "parameters": [
                _TABLE_ID,
                {
                    "name": "format",
                    "in": "query",
                    "required": False,
                    "schema": {"type": "string", "enum": ["json", "csv"]},
                },
            ],
            "responses": {
                "200": {
                    "description": "JSON, or CSV with ?format=csv.",
                    "content": {
                        "application/json": {"schema": _OBJECT},
                        "text/csv": {"schema": {"type": "string"}},
                    },
                },
                "404": _problem("No such table, or not one the person is at (unknown_table)."),
                **_SIGNED_IN,
            },
        }
    },
    "/api/invitations/look": {
        "post": {
            "summary": "What an invitation link invites to (the token in the body)",
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": _TOKEN_BODY}},
            },
            "responses": {
                "200": _json(_OBJECT, "The table, its host, whether it asks a password."),
                "400": _problem("A bad body (bad_request, bad_json)."),
                "404": _problem("Not an invitation the room made (not_invited)."),
                "413": _problem("The body is too large."),
            },
        }
    },
    "/api/invitations/join": {
        "post": {
            "summary": "Come to a private table by its invitation",
            "parameters": [_CSRF],
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": _JOIN_BODY}},
            },
            "responses": {
                "200": _json(
                    {
                        "type": "object",
                        "required": ["table", "status"],
                        "properties": {
                            "table": {"type": "integer"},
                            "status": {"type": "string", "enum": ["approved", "asked"]},
                        },
                    },
                    "Approved, or asked to wait for the host.",
                ),
                "400": _problem("A bad body (bad_request, bad_json)."),
                "404": _problem("Not an invitation the room made (not_invited)."),
                "409": _problem("removed, or table_closed."),
                "413": _problem("The body is too large."),
                "429": _problem("Too many wrong passwords (rate_limited)."),
                "503": _problem("Guesses cannot be counted now (room_unavailable)."),
                "401": _problem("Not signed in (login_required)."),
                "403": _problem(
                    "wrong_password, a bot account (people_only), no CSRF header, or another "
                    "site's request."
                ),
            },
        }
    },
}
