"""Pieces every part of the OpenAPI document uses: a JSON answer, a problem, the CSRF header.

>>> problem("No such hand.")["content"]["application/json"]["schema"]
{'$ref': '#/components/schemas/Problem'}
"""

from __future__ import annotations

from typing import Any

PROBLEM = {"$ref": "#/components/schemas/Problem"}

CSRF_HEADER = {
    "name": "X-CSRF-Token",
    "in": "header",
    "required": True,
    "description": "The value of the ph_csrf cookie (double-submit CSRF protection).",
    "schema": {"type": "string"},
}


def json_answer(schema: dict[str, Any], description: str) -> dict[str, Any]:
    """An answer with a JSON body of ``schema``."""
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def problem(description: str) -> dict[str, Any]:
    """A refusal: a ``Problem`` body."""
    return json_answer(PROBLEM, description)
