"""The statistics' part of the OpenAPI document: a player's figures, the people's leaderboard.

>>> sorted(PATHS)[:3]
['/api/leaderboards/people', '/api/me/stats', '/api/players/{name}/hands']
"""

from __future__ import annotations

from typing import Any

from pokerhouse.server.http.openapi_parts import json_answer as _json
from pokerhouse.server.http.openapi_parts import problem as _problem

_GAMES = ["3x4", "casino-holdem", "razz", "teen-patti"]
_PERIOD = {
    "name": "period",
    "in": "query",
    "required": False,
    "description": "week (this week), month (the last four), year (the last 52) or all.",
    "schema": {"type": "string", "enum": ["week", "month", "year", "all"], "default": "all"},
}
_NAME = {
    "name": "name",
    "in": "path",
    "required": True,
    "schema": {"type": "string", "minLength": 1, "maxLength": 64},
}
_PERCENT = {"type": ["number", "null"], "description": "Percent, or null: none to go on."}
_GAME_LINE = {
    "type": "object",
    "required": ["game", "hands", "net", "per_100", "vpip", "pfr", "aggression"],
    "properties": {
        "game": {"type": "string", "enum": _GAMES},
        "hands": {"type": "integer"},
        "net": {"type": "integer", "description": "Chips won (or lost, below zero)."},
        "per_100": {"type": ["number", "null"]},
        "vpip": _PERCENT,
        "pfr": {**_PERCENT, "description": "3x4 and Razz only."},
        "aggression": {
            "type": ["number", "null"],
            "description": "Bets, raises and completions per call (not Casino Hold'em).",
        },
        "went_to_showdown": _PERCENT,
        "won_at_showdown": {**_PERCENT, "description": "Percent of showdowns."},
        "blind": {**_PERCENT, "description": "Teen Patti: hands played without looking."},
        "seen": {**_PERCENT, "description": "Teen Patti: hands in which the cards were seen."},
        "call_rate": {**_PERCENT, "description": "Casino Hold'em: boxes that called."},
    },
}
_PAGE = _json(
    {
        "type": "object",
        "required": ["name", "bot", "period", "games"],
        "properties": {
            "name": {"type": "string"},
            "bot": {"type": "boolean"},
            "period": {"type": "string"},
            "games": {"type": "array", "items": _GAME_LINE},
        },
    },
    "The figures by game, from money play (tournament chips are not counted).",
)

PATHS: dict[str, Any] = {
    "/api/me/stats": {
        "get": {
            "summary": "The signed-in player's statistics by game",
            "parameters": [_PERIOD],
            "responses": {
                "200": _PAGE,
                "400": _problem("No such period (bad_period)."),
                "401": _problem("Not signed in (login_required)."),
            },
        }
    },
    "/api/players/{name}/stats": {
        "get": {
            "summary": "Any player's public statistics by game",
            "parameters": [
                _NAME,
                _PERIOD,
            ],
            "responses": {
                "200": _PAGE,
                "400": _problem("No such period (bad_period)."),
                "404": _problem("No such player (unknown_user)."),
            },
        }
    },
    "/api/players/{name}/hands": {
        "get": {
            "summary": "The finished hands the signed-in player played with another",
            "parameters": [
                _NAME,
                {
                    "name": "limit",
                    "in": "query",
                    "required": False,
                    "schema": {"type": "integer", "minimum": 1, "maximum": 50},
                },
                {
                    "name": "before",
                    "in": "query",
                    "required": False,
                    "schema": {"type": "integer", "minimum": 1, "maximum": 2**63 - 1},
                },
            ],
            "responses": {
                "200": _json(
                    {
                        "type": "object",
                        "required": ["name", "count", "hands", "next"],
                        "properties": {
                            "name": {"type": "string"},
                            "count": {"type": "integer"},
                            "hands": {"type": "array", "items": {"type": "object"}},
                            "next": {"type": ["integer", "null"]},
                        },
                    },
                    "Newest first, with the asker's result in each; next: the older page.",
                ),
                "400": _problem("bad_limit or bad_before."),
                "401": _problem("Not signed in (login_required)."),
                "404": _problem("No such player (unknown_user)."),
            },
        }
    },
    "/api/leaderboards/people": {
        "get": {
            "summary": "The week's best people at public tables, per game",
            "parameters": [
                {
                    "name": "game",
                    "in": "query",
                    "required": True,
                    "schema": {"type": "string", "enum": _GAMES},
                },
                {
                    "name": "week",
                    "in": "query",
                    "required": False,
                    "description": "The week's Monday (UTC); this week when left out.",
                    "schema": {"type": "string", "format": "date"},
                },
                {
                    "name": "least",
                    "in": "query",
                    "required": False,
                    "description": "The fewest hands a line may have.",
                    "schema": {"type": "integer", "minimum": 1, "default": 50},
                },
            ],
            "responses": {
                "200": _json(
                    {
                        "type": "object",
                        "required": ["game", "week", "least", "people"],
                        "properties": {
                            "game": {"type": "string"},
                            "week": {"type": "string", "format": "date"},
                            "least": {"type": "integer"},
                            "people": {
                                "type": "array",
                                "items": {
                                    "type": "object",
                                    "required": ["name", "hands", "net", "per_100"],
                                    "properties": {
                                        "name": {"type": "string"},
                                        "hands": {"type": "integer"},
                                        "net": {"type": "integer"},
                                        "per_100": {"type": "number"},
                                    },
                                },
                            },
                        },
                    },
                    "Best chips won per 100 hands first (at most 100 lines).",
                ),
                "400": _problem("bad_game, bad_week (not a Monday), or bad_least."),
            },
        }
    },
}
