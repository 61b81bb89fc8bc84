"""The bots' part of the OpenAPI document: bot accounts, their tokens, their leaderboard.

>>> sorted(PATHS)[:2]
['/api/bots', '/api/bots/{name}/revoke']
"""

from __future__ import annotations

from typing import Any

from pokerhouse.server.http.openapi_parts import CSRF_HEADER as _CSRF
from pokerhouse.server.http.openapi_parts import json_answer as _json
from pokerhouse.server.http.openapi_parts import problem as _problem

_NAME = {
    "name": "name",
    "in": "path",
    "required": True,
    "schema": {"type": "string", "minLength": 1, "maxLength": 64},
}
_NAMED_TOKEN = {
    "type": "object",
    "required": ["name", "token"],
    "properties": {
        "name": {"type": "string"},
        "bot": {"type": "boolean"},
        "token": {"type": "string", "description": "Shown this once: keep it."},
        "ended": {"type": "integer"},
    },
}
_ENDED = {
    "type": "object",
    "required": ["name", "ended"],
    "properties": {"name": {"type": "string"}, "ended": {"type": "integer"}},
}
_SIGNED_IN = {
    "401": _problem("Not signed in (login_required), or a bad token (bad_token)."),
    "403": _problem("A bot account (people_only), no CSRF header, or another site's request."),
    "503": _problem("The room cannot check tokens or save now."),
}


def _change(summary: str, answer: dict[str, Any], what: str) -> dict[str, Any]:
    return {
        "post": {
            "summary": summary,
            "parameters": [_NAME, _CSRF],
            "responses": {
                "200": _json(answer, what),
                "404": _problem("No bot account of yours has that name (unknown_bot)."),
                **_SIGNED_IN,
            },
        }
    }


PATHS: dict[str, Any] = {
    "/api/bots": {
        "get": {
            "summary": "The signed-in player's bot accounts",
            "responses": {
                "200": _json(
                    {
                        "type": "object",
                        "required": ["bots", "most"],
                        "properties": {
                            "bots": {"type": "array", "items": {"type": "object"}},
                            "most": {"type": "integer"},
                        },
                    },
                    "The bot accounts, oldest first, and how many one may keep.",
                ),
                **_SIGNED_IN,
            },
        },
        "post": {
            "summary": "A new bot account (its name ends in _bot), and its token",
            "parameters": [_CSRF],
            "requestBody": {
                "required": True,
                "content": {
                    "application/json": {
                        "schema": {
                            "type": "object",
                            "required": ["name"],
                            "additionalProperties": False,
                            "properties": {"name": {"type": "string", "maxLength": 64}},
                        }
                    }
                },
            },
            "responses": {
                "201": _json(_NAMED_TOKEN, "Made: the token is shown this once."),
                "400": _problem("A bad name or body (bad_username, bad_request, bad_json)."),
                "409": _problem("username_taken, or too_many_bots."),
                "413": _problem("The body is too large."),
                **_SIGNED_IN,
            },
        },
    },
    "/api/bots/{name}/token": _change(
        "A new token for the bot; every earlier one ends", _NAMED_TOKEN, "The new token."
    ),
    "/api/bots/{name}/revoke": _change(
        "End every token of the bot (its sockets are closed)", _ENDED, "How many ended."
    ),
    "/api/leaderboards/bots": {
        "get": {
            "summary": "Bots ranked per game over their hands at tables for bots only",
            "parameters": [
                {
                    "name": "game",
                    "in": "query",
                    "required": True,
                    "schema": {
                        "type": "string",
                        "enum": ["3x4", "casino-holdem", "razz", "teen-patti"],
                    },
                }
            ],
            "responses": {
                "200": _json(
                    {
                        "type": "object",
                        "required": ["game", "bots"],
                        "properties": {
                            "game": {"type": "string"},
                            "bots": {"type": "array", "items": {"type": "object"}},
                        },
                    },
                    "Best per 100 hands first, each with its 95% interval (low, high).",
                ),
                "400": _problem("No such game (bad_game)."),
            },
        }
    },
}
