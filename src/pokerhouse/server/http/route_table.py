"""The route table: every endpoint declared once, as data, and the Starlette routes made
from it (the API document is made from the same table: :mod:`.api_document`).

An :class:`Entry` is one endpoint: its method and path, its handler, the
types of its body, query, path parameters and answer, the refusals it may
answer with (status and codes), and a summary. A feature declares its entries
in its own ``api.py``, with the class of its handlers (:class:`Routes`);
:func:`starlette_routes` makes one handler object a feature over the room and
one route an entry.

A handler returns its answer (the entry's ``answer`` type, encoded here with
the entry's ``status``) or a ready response (a refusal, an answer that sets
cookies, a download). A state-changing entry (``csrf``) is refused here before
its handler runs when the request comes from another site or without the CSRF
header.

>>> entry = Entry("GET", "/api/hands/{hand_id:int}", object, "A hand")
>>> entry.document_path
'/api/hands/{hand_id}'
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar

import msgspec
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from pokerhouse.server.http.context import HttpContext
from pokerhouse.server.http.problems import MAX_BODY, Problem, json_answer

H = TypeVar("H")
#: A handler, as declared: a method of the feature's handlers' class.
Handler = Callable[[H, Request], Awaitable[Response | msgspec.Struct]]

_CONVERTOR = re.compile(r"{(\w+):\w+}")


@dataclass(frozen=True, slots=True)
class Refusal:
    """An answer other than the entry's own: a status, the codes it carries, what it means.

    ``body`` is a :class:`~.problems.Problem` unless said otherwise (``/healthz``
    answers ``503`` with its own body); ``headers`` are those the answer may carry
    (``Retry-After``).
    """

    status: int
    codes: tuple[str, ...]
    said: str
    headers: tuple[str, ...] = ()
    body: type[msgspec.Struct] = Problem


@dataclass(frozen=True, slots=True)
class Entry(Generic[H]):
    """One endpoint of the route table.

    ``path`` is Starlette's (``{hand_id:int}``); ``params`` and ``query`` are
    the structs of its path's and its query's parameters, ``body`` of its
    request body; ``answer`` is the type of its JSON answer with ``status``
    (``answered`` says what it is), ``texts`` the other media types it may
    answer with instead (as text: a download). ``switch`` names the room.toml
    setting without which the room does not serve it.
    """

    method: Literal["GET", "POST"]
    path: str
    handler: Handler[H]
    summary: str
    answer: type[msgspec.Struct] | None = None
    status: int = 200
    answered: str = "Done."
    body: type[msgspec.Struct] | None = None
    query: type[msgspec.Struct] | None = None
    params: type[msgspec.Struct] | None = None
    refusals: tuple[Refusal, ...] = ()
    csrf: bool = False
    texts: tuple[str, ...] = ()
    description: str = ""
    switch: str | None = None

    @property
    def document_path(self) -> str:
        """The path as the API document writes it (no convertors)."""
        return _CONVERTOR.sub(r"{\1}", self.path)

    def all_refusals(self) -> tuple[Refusal, ...]:
        """Its refusals: those it declares, and those the table's own checks give (the CSRF
        guard's, a body's, a query's)."""
        found = list(self.refusals)
        if self.csrf:
            found.append(CSRF_REFUSED)
        if self.body is not None:
            found += [BAD_BODY, BODY_TOO_LARGE]
        if self.query is not None:
            names = [field.encode_name for field in msgspec.structs.fields(self.query)]
            found.append(Refusal(400, tuple(f"bad_{name}" for name in names), BAD_QUERY))
        return tuple(found)


#: The refusal of every ``csrf`` entry's guard.
CSRF_REFUSED = Refusal(
    403, ("bad_origin", "csrf"), "Another site's request, or no X-CSRF-Token header."
)
BAD_BODY = Refusal(400, ("bad_request", "bad_json", "too_deep"), "The body is not the schema's.")
BODY_TOO_LARGE = Refusal(413, ("body_too_large",), f"The body is over {MAX_BODY:,} bytes.")
BAD_QUERY = "A parameter that is not one the schema takes."
#: Refusals many endpoints share.
LOGIN_REQUIRED = Refusal(401, ("login_required",), "Not signed in.")


@dataclass(frozen=True, slots=True)
class Routes(Generic[H]):
    """A feature's part of the route table: its name (the document's tag), how its
    handlers are made over the room, and its entries."""

    tag: str
    handlers: Callable[[HttpContext], H]
    entries: tuple[Entry[H], ...]


#: The whole table: every feature's routes.
RouteTable = Sequence[Routes[Any]]


def starlette_routes(
    table: RouteTable, api: HttpContext, switches: Collection[str], *, mount: str = "/api"
) -> tuple[list[Route], list[Route]]:
    """The routes of ``table`` over the room ``api``: those outside ``mount``, and those
    under it (their paths relative to it)."""
    outside: list[Route] = []
    inside: list[Route] = []
    for routes in table:
        handlers = routes.handlers(api)
        for entry in routes.entries:
            if entry.switch is not None and entry.switch not in switches:
                continue
            endpoint = _endpoint(entry, handlers, api)
            if entry.path.startswith(mount + "/"):
                path = entry.path.removeprefix(mount)
                inside.append(Route(path, endpoint, methods=[entry.method]))
            else:
                outside.append(Route(entry.path, endpoint, methods=[entry.method]))
    return outside, inside


def _endpoint(
    entry: Entry[H], handlers: H, api: HttpContext
) -> Callable[[Request], Awaitable[Response]]:
    """The Starlette endpoint of ``entry``: the CSRF guard, the handler, the answer encoded."""

    async def endpoint(request: Request) -> Response:
        if entry.csrf:
            refused = api.guard(request)
            if refused is not None:
                return refused
        answer = await entry.handler(handlers, request)
        if isinstance(answer, Response):
            return answer
        if type(answer) is not entry.answer:
            raise TypeError(f"{entry.method} {entry.path} answered a {type(answer).__name__}")
        return json_answer(answer, entry.status)

    endpoint.__name__ = getattr(entry.handler, "__name__", "endpoint")
    return endpoint
