"""A request's query string (and its path's parameters) read into a typed schema, strictly.

A query is a msgspec struct of plain fields: whole numbers (their bounds
from ``msgspec.Meta``), text (its lengths, and an ``enum`` the field's JSON
Schema names), or one of a ``Literal``'s values. A parameter that is not one
is refused with the code ``bad_<name>`` and a sentence saying what it takes
(a field's ``Meta(extra={"refusal": ...})`` words it, with ``{name}`` and
``{shown}``: the value sent, cut short); a parameter left out takes the
field's default. The bounds the document shows are the bounds checked here.

A whole number is ASCII digits only: ``int()`` would take ``+5``, `` 5``,
``5_0`` and other scripts' digits, which no client of ours sends.

>>> from typing import Annotated
>>> Limit = Annotated[int, msgspec.Meta(ge=1, le=200)]
>>> Page = msgspec.defstruct("Page", [("limit", Limit, 200), ("before", int | None, None)])
>>> read_query({"limit": "20", "before": "981"}, Page)
Page(limit=20, before=981)
>>> read_query({}, Page)
Page(limit=200, before=None)
>>> read_query({"limit": "+5"}, Page)
Traceback (most recent call last):
...
pokerhouse.server.http.queries.BadQuery: limit is a whole number from 1 to 200
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any, TypeVar

import msgspec
from msgspec import inspect

Q = TypeVar("Q", bound=msgspec.Struct)

#: The most digits a whole number may have (a signed 64-bit integer's).
MOST_DIGITS = 19
#: The longest text a parameter may have, unless its type says less.
MOST_CHARACTERS = 1000


class BadQuery(ValueError):
    """A parameter that is not one its schema takes (``code``: ``bad_<name>``)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def read_query(params: Mapping[str, Any], schema: type[Q]) -> Q:
    """The parameters ``params`` gives, read into ``schema``; raises :class:`BadQuery`."""
    values: dict[str, Any] = {}
    for field in _fields(schema):
        text = params.get(field.encode_name)
        if text is not None or field.required:
            values[field.name] = _value(field, text)
    return schema(**values)


def read_path(params: Mapping[str, Any], schema: type[Q]) -> Q | None:
    """A route's path parameters read into ``schema``, or ``None`` when one is out of its
    bounds (a path that names nothing the room holds).

    >>> from typing import Annotated
    >>> HandId = Annotated[int, msgspec.Meta(ge=1, le=2**63 - 1)]
    >>> HandPath = msgspec.defstruct("HandPath", [("hand_id", HandId)])
    >>> read_path({"hand_id": 7}, HandPath), read_path({"hand_id": 2**63}, HandPath)
    (HandPath(hand_id=7), None)
    """
    try:
        return read_query({name: str(value) for name, value in params.items()}, schema)
    except BadQuery:
        return None


@functools.cache
def _fields(schema: type[msgspec.Struct]) -> tuple[inspect.Field, ...]:
    info = inspect.type_info(schema)
    assert isinstance(info, inspect.StructType)
    return info.fields


def _value(field: inspect.Field, text: str | None) -> Any:
    """``text`` as the field's value, or :class:`BadQuery` (``None``: a required field left
    out)."""
    kind, extra, schema = _unwrap(field.type)
    name = field.encode_name
    if isinstance(kind, inspect.IntType):
        low = kind.ge if kind.ge is not None else -(2**63)
        high = kind.le if kind.le is not None else 2**63 - 1
        value = None if text is None else _whole(text)
        if value is not None and low <= value <= high:
            return value
        said = f"{name} is a whole number from {low} to {high}"
    elif isinstance(kind, inspect.LiteralType):
        if text in kind.values:
            return text
        said = f"{name} is one of {', '.join(map(str, kind.values))}"
    elif isinstance(kind, inspect.StrType):
        choices = schema.get("enum")
        shortest, longest = kind.min_length or 0, kind.max_length or MOST_CHARACTERS
        if (
            text is not None
            and (choices is None or text in choices)
            and shortest <= len(text) <= longest
        ):
            return text
        if choices is not None:
            said = f"{name} is one of {', '.join(choices)}"
        else:
            said = f"{name} is {shortest} to {longest} characters"
    else:  # pragma: no cover - a schema's mistake, found by its first test
        raise TypeError(f"a query's {name} is a whole number or text, not {kind}")
    refusal = extra.get("refusal")
    if refusal is not None:
        said = str(refusal).format(name=name, shown=repr((text or "")[:20]))
    raise BadQuery(f"bad_{name}", said)


def _unwrap(kind: inspect.Type) -> tuple[inspect.Type, dict[str, Any], dict[str, Any]]:
    """A field's type without ``None`` and ``Meta``: the type, its ``extra`` and its extra
    JSON Schema."""
    if isinstance(kind, inspect.UnionType):
        (kind,) = [t for t in kind.types if not isinstance(t, inspect.NoneType)]
    if isinstance(kind, inspect.Metadata):
        return kind.type, dict(kind.extra or {}), dict(kind.extra_json_schema or {})
    return kind, {}, {}


def _whole(text: str) -> int | None:
    """``text`` as a whole number, if it is ASCII digits and no longer than any id's."""
    if 1 <= len(text) <= MOST_DIGITS and text.isascii() and text.isdigit():
        return int(text)
    return None
