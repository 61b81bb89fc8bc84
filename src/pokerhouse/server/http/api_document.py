"""The HTTP API's OpenAPI 3.1 document, made from the route table and its types.

Every schema comes from the types themselves (``msgspec.json.schema_components``):
their fields, their docstrings and the limits of their ``msgspec.Meta``;
nothing is written twice. The document is itself a typed answer
(:class:`OpenApiDocument`).

>>> from pokerhouse.server.http.problems import Problem
>>> from pokerhouse.server.http.route_table import Entry, Routes
>>> table = [Routes("demo", object, (Entry("GET", "/api/problem", object, "A problem",
...     answer=Problem),))]
>>> document = api_document(table, switches=(), title="demo", description="A demo.")
>>> document.paths["/api/problem"]["get"].responses["200"].content["application/json"].schema
{'$ref': '#/components/schemas/Problem'}
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any

import msgspec

from pokerhouse.server.http.route_table import Entry, Refusal, RouteTable

#: Where the document's schemas are.
REF = "#/components/schemas/{name}"
#: The CSRF header a state-changing request sends.
CSRF_HEADER = "X-CSRF-Token"

Schema = dict[str, Any]


class OpenApiInfo(msgspec.Struct, frozen=True):
    """The API's name, version and what it is."""

    title: str
    version: str
    description: str


class OpenApiMedia(msgspec.Struct, frozen=True):
    """A body of one media type: its schema."""

    schema: Schema


class OpenApiHeader(msgspec.Struct, frozen=True):
    """A header an answer may carry."""

    schema: Schema


class OpenApiParameter(msgspec.Struct, frozen=True, omit_defaults=True, rename={"place": "in"}):
    """A parameter of the path, the query or the headers."""

    name: str
    place: str
    required: bool
    schema: Schema
    description: str = ""


class OpenApiBody(msgspec.Struct, frozen=True):
    """A request's body."""

    required: bool
    content: dict[str, OpenApiMedia]


class OpenApiAnswer(msgspec.Struct, frozen=True, omit_defaults=True):
    """One of an operation's answers."""

    description: str
    headers: dict[str, OpenApiHeader] = {}
    content: dict[str, OpenApiMedia] = {}


class OpenApiOperation(msgspec.Struct, frozen=True, omit_defaults=True, rename="camel"):
    """One method of one path."""

    summary: str
    responses: dict[str, OpenApiAnswer]
    tags: list[str] = []
    description: str = ""
    parameters: list[OpenApiParameter] = []
    request_body: OpenApiBody | None = None


class OpenApiComponents(msgspec.Struct, frozen=True):
    """The schemas every operation refers to."""

    schemas: dict[str, Schema]


class OpenApiDocument(msgspec.Struct, frozen=True):
    """An OpenAPI 3.1 document: every path of the API, each method's parameters, body,
    answers and refusals, and the schemas they use."""

    openapi: str
    info: OpenApiInfo
    paths: dict[str, dict[str, OpenApiOperation]]
    components: OpenApiComponents


def api_document(
    table: RouteTable,
    *,
    switches: Collection[str],
    title: str,
    description: str,
    version: str = "1",
) -> OpenApiDocument:
    """The OpenAPI document of the entries of ``table`` served with ``switches`` on."""
    entries = [
        (routes.tag, entry)
        for routes in table
        for entry in routes.entries
        if entry.switch is None or entry.switch in switches
    ]
    types: list[Any] = []
    for _, entry in entries:
        types += [entry.answer, entry.body, *(refusal.body for refusal in entry.all_refusals())]
    named = list(dict.fromkeys(t for t in types if t is not None))
    refs, schemas = msgspec.json.schema_components(named, ref_template=REF)
    ref_of = {id(kind): ref for kind, ref in zip(named, refs, strict=True)}
    paths: dict[str, dict[str, OpenApiOperation]] = {}
    for tag, entry in entries:
        operation = _operation(entry, ref_of, tag)
        paths.setdefault(entry.document_path, {})[entry.method.lower()] = operation
    return OpenApiDocument(
        "3.1.0",
        OpenApiInfo(title, version, description),
        paths,
        OpenApiComponents(dict(sorted(schemas.items()))),
    )


def _operation(entry: Entry[Any], ref_of: dict[int, Schema], tag: str) -> OpenApiOperation:
    answers: dict[str, OpenApiAnswer] = {}
    content: dict[str, OpenApiMedia] = {}
    if entry.answer is not None:
        content["application/json"] = OpenApiMedia(ref_of[id(entry.answer)])
    for media in entry.texts:
        content[media] = OpenApiMedia({"type": "string"})
    answers[str(entry.status)] = OpenApiAnswer(entry.answered, content=content)
    for status, refusals in _by_status(entry.all_refusals()).items():
        answers[str(status)] = _refused(refusals, ref_of)
    parameters = [
        *_parameters(entry.params, "path"),
        *_parameters(entry.query, "query"),
    ]
    if entry.csrf:
        parameters.append(
            OpenApiParameter(
                CSRF_HEADER,
                "header",
                True,
                {"type": "string"},
                "The value of the ph_csrf cookie (double-submit CSRF protection).",
            )
        )
    body = None
    if entry.body is not None:
        body = OpenApiBody(True, {"application/json": OpenApiMedia(ref_of[id(entry.body)])})
    return OpenApiOperation(
        entry.summary,
        dict(sorted(answers.items())),
        tags=[tag],
        description=entry.description,
        parameters=parameters,
        request_body=body,
    )


def _by_status(refusals: Iterable[Refusal]) -> dict[int, list[Refusal]]:
    found: dict[int, list[Refusal]] = {}
    for refusal in refusals:
        found.setdefault(refusal.status, []).append(refusal)
    return found


def _refused(refusals: list[Refusal], ref_of: dict[int, Schema]) -> OpenApiAnswer:
    """One status's answer: what each refusal means (with its codes), the headers any may
    carry, and the body (a problem, or all the same other type)."""
    said = " ".join(
        f"{r.said.rstrip('.')} ({', '.join(r.codes)})." if r.codes else r.said for r in refusals
    )
    bodies = list(dict.fromkeys(r.body for r in refusals))
    schema = (
        ref_of[id(bodies[0])]
        if len(bodies) == 1
        else {"anyOf": [ref_of[id(body)] for body in bodies]}
    )
    names = dict.fromkeys(name for r in refusals for name in r.headers)
    headers = {name: OpenApiHeader({"type": "string"}) for name in names}
    return OpenApiAnswer(said, headers=headers, content={"application/json": OpenApiMedia(schema)})


def _parameters(schema: type[msgspec.Struct] | None, place: str) -> list[OpenApiParameter]:
    """The parameters of a path's or a query's struct: a field each, its schema from its
    type (a field that may be left out: its type without the ``null`` no query can send)."""
    if schema is None:
        return []
    _, components = msgspec.json.schema_components([schema], ref_template=REF)
    found = components[schema.__name__]
    required = set(found.get("required", ()))
    parameters = []
    for name, field in found["properties"].items():
        field = dict(field)
        if field.get("default", 0) is None:
            del field["default"]
        options = field.get("anyOf")
        if options is not None:
            kept = [option for option in options if option != {"type": "null"}]
            del field["anyOf"]
            field = {**kept[0], **field} if len(kept) == 1 else {**field, "anyOf": kept}
        description = field.pop("description", "")
        parameters.append(OpenApiParameter(name, place, name in required, field, description))
    return parameters
