"""The tournaments' part of the OpenAPI document: their paths and schemas.

>>> sorted(PATHS)[:2]
['/api/tournaments', '/api/tournaments/{tournament_id}']
"""

from __future__ import annotations

from typing import Any

from pokerhouse.server.http.openapi_parts import CSRF_HEADER as _CSRF
from pokerhouse.server.http.openapi_parts import PROBLEM as _PROBLEM
from pokerhouse.server.http.openapi_parts import json_answer as _json
from pokerhouse.server.http.openapi_parts import problem as _problem

_INT = {"type": "integer"}
_INT_OR_NULL = {"type": ["integer", "null"]}
_STAKES = {"type": "object", "additionalProperties": {"type": "integer"}}
_ID = {
    "name": "tournament_id",
    "in": "path",
    "required": True,
    "schema": {"type": "integer", "minimum": 0, "maximum": 2**63 - 1},
}


def _ask(summary: str) -> dict[str, Any]:
    return {
        "post": {
            "summary": summary,
            "parameters": [_ID, _CSRF],
            "responses": {
                "200": _json({"$ref": "#/components/schemas/Tournament"}, "Done: the page."),
                "401": _problem("Not signed in."),
                "403": _problem("No CSRF header, or another site's request."),
                "404": _problem("No such tournament."),
                "409": _problem(
                    "Refused: not_registering, already_registered, not_registered, "
                    "tournament_full, no_reentry, insufficient_funds, same_owner."
                ),
                "429": {
                    "description": "Too many at once (rate_limited); see Retry-After.",
                    "headers": {"Retry-After": {"schema": {"type": "string"}}},
                    "content": {"application/json": {"schema": _PROBLEM}},
                },
                "503": _problem(
                    "The room could not save it, or the node running it did not answer."
                ),
            },
        }
    }


PATHS: dict[str, Any] = {
    "/api/tournaments": {
        "get": {
            "summary": "Tournaments open or running, and the last ones ended",
            "parameters": [
                {
                    "name": "status",
                    "in": "query",
                    "required": False,
                    "schema": {
                        "type": "string",
                        "enum": ["registering", "running", "finished", "cancelled"],
                    },
                }
            ],
            "responses": {
                "200": _json(
                    {
                        "type": "object",
                        "required": ["tournaments"],
                        "properties": {
                            "tournaments": {
                                "type": "array",
                                "items": {"$ref": "#/components/schemas/TournamentLine"},
                            }
                        },
                    },
                    "The tournaments.",
                ),
                "400": _problem("Unknown status."),
            },
        }
    },
    "/api/tournaments/{tournament_id}": {
        "get": {
            "summary": "A tournament's page: structure, clock, chip counts, tables, prizes",
            "parameters": [_ID],
            "responses": {
                "200": _json({"$ref": "#/components/schemas/Tournament"}, "The tournament."),
                "404": _problem("No such tournament."),
            },
        }
    },
    "/api/tournaments/{tournament_id}/register": _ask(
        "Buy in: the buy-in and fee leave the wallet (during late registration: seated at once)"
    ),
    "/api/tournaments/{tournament_id}/unregister": _ask(
        "Take the entry back before the start: the buy-in and fee return to the wallet"
    ),
}

_LINE_PROPERTIES: dict[str, Any] = {
    "id": _INT,
    "name": {"type": "string"},
    "game": {"type": "string"},
    "title": {"type": "string"},
    "format": {"type": "string", "enum": ["sit-and-go", "scheduled"]},
    "status": {"type": "string", "enum": ["registering", "running", "finished", "cancelled"]},
    "buy_in": _INT,
    "fee": _INT,
    "guarantee": _INT,
    "seats": _INT,
    "min_entrants": _INT,
    "max_entrants": _INT_OR_NULL,
    "entrants": _INT,
    "left": _INT,
    "tables": _INT,
    "registering": {"type": "boolean"},
    "level": _INT,
    "prizes": {"type": "array", "items": _INT},
    "stakes": _STAKES,
    "next_stakes": _STAKES,
    "on_break": {"type": "boolean"},
    "seconds_left": {"type": ["number", "null"]},
    "hand_for_hand": {"type": "boolean"},
}

SCHEMAS: dict[str, Any] = {
    "TournamentLine": {
        "type": "object",
        "required": sorted(_LINE_PROPERTIES),
        "properties": _LINE_PROPERTIES,
    },
    "Tournament": {
        "type": "object",
        "required": [*sorted(_LINE_PROPERTIES), "structure", "average_stack", "standings"],
        "properties": {
            **_LINE_PROPERTIES,
            "structure": {
                "type": "object",
                "required": ["starting_stack", "levels"],
                "properties": {
                    "starting_stack": _INT,
                    "level_seconds": _INT_OR_NULL,
                    "level_hands": _INT_OR_NULL,
                    "break_every": _INT,
                    "break_seconds": _INT,
                    "late_levels": _INT,
                    "reentries": _INT,
                    "levels": {"type": "array", "items": _STAKES},
                },
            },
            "average_stack": _INT,
            "standings": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["entry", "player", "chips", "busted", "place", "prize"],
                    "properties": {
                        "entry": _INT,
                        "player": {"type": "string"},
                        "chips": _INT,
                        "table": _INT_OR_NULL,
                        "seat": _INT_OR_NULL,
                        "busted": {"type": "boolean"},
                        "place": _INT_OR_NULL,
                        "tied": _INT_OR_NULL,
                        "prize": _INT,
                    },
                },
            },
            "tables_open": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["number", "table_id", "players", "playing"],
                    "properties": {
                        "number": _INT,
                        "table_id": _INT_OR_NULL,
                        "players": _INT,
                        "playing": {"type": "boolean"},
                    },
                },
            },
        },
    },
}
