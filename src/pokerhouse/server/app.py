"""The ASGI app: routes, the room's life, and the web client's files.

:func:`create_app` builds a Starlette app over a :class:`~pokerhouse.server.site.Site`
whose lifespan opens the store, starts the room (every table's task) and
stops it again. Tests build one with a manual clock and no pauses, and serve
it on a real socket.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path

import msgspec
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pokerhouse.server.http import bearer
from pokerhouse.server.http.context import HttpContext
from pokerhouse.server.http.guards import HostGuard, SecurityHeaders, allowed_names
from pokerhouse.server.http.problems import problem
from pokerhouse.server.routes import app_routes
from pokerhouse.server.runtime import collector
from pokerhouse.server.runtime.logs import now_ms, record
from pokerhouse.server.runtime.metrics import Metrics
from pokerhouse.server.runtime.stopping import cancel_and_wait
from pokerhouse.server.site import Site
from pokerhouse.server.socket.endpoint import SocketRoute

log = logging.getLogger("pokerhouse.server")
requests = logging.getLogger("pokerhouse.requests")


def web_root() -> Path | None:
    """The web client's folder inside the package, if it is there."""
    root = Path(str(resources.files("pokerhouse").joinpath("web")))
    return root if (root / "index.html").is_file() else None


def create_app(site: Site, host: str | None = None) -> Starlette:
    """The room as an ASGI app over ``site``, served at ``host`` (a name its ``Host``
    header may carry, besides the loopback names and the configured ``allowed_hosts``)."""
    app = room_app(site)
    hosts = allowed_names(site.settings.allowed_hosts, host)
    guarded = SecurityHeaders(HostGuard(SocketRoute(app, site), hosts))
    return RequestLog(guarded, site.metrics)  # type: ignore[return-value]


def room_app(site: Site) -> Starlette:
    """The room's Starlette app over ``site``: its life and its routes (the route table's,
    then the web client's files), before the guards, the websocket and the request log."""
    api = HttpContext(site)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await site.start()
        site.metrics.watch_gc()
        frozen: asyncio.Task[None] | None = None
        thresholds = None
        if site.settings.gc_freeze:
            # Asked for in room.toml: the room manages the oldest generation itself.
            thresholds = collector.take_over()
            collector.freeze(sweep=True)
            frozen = asyncio.get_running_loop().create_task(collector.keep_frozen())
        else:
            collector.settle()
        try:
            yield
        finally:
            if frozen is not None:
                await cancel_and_wait(frozen)
            await site.stop()
            site.metrics.unwatch_gc()
            if thresholds is not None:
                collector.give_back(thresholds)  # the process may go on (tests run many rooms)
            else:
                collector.unsettle()

    # The API is a mount of its own, so that a wrong method on one of its paths is its
    # 405, not a miss passed on to the web client's files.
    outside, inside = app_routes(api)
    routes: list[Route | Mount] = [
        *outside,
        Mount("/api", routes=inside, middleware=[Middleware(bearer.BearerAuth, site=site)]),
    ]
    root = web_root()
    if root is not None:
        routes.append(Mount("/", StaticFiles(directory=root, html=True), name="web"))
    return Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={HTTPException: http_problem, Exception: server_problem},
    )


#: Codes of the HTTP errors the router itself answers (no handler was reached).
_ROUTER_CODES = {404: "not_found", 405: "method_not_allowed"}


async def http_problem(request: Request, error: Exception) -> Response:
    """A router's refusal (no such path, wrong method) as ``{"code", "message"}`` too."""
    assert isinstance(error, HTTPException)
    code = _ROUTER_CODES.get(error.status_code, "http_error")
    return problem(error.status_code, code, str(error.detail), **(error.headers or {}))


async def server_problem(request: Request, error: Exception) -> Response:
    """A failure of ours: logged with its trace, answered without it."""
    log.error("failure answering %s %s", request.method, request.url.path, exc_info=error)
    return problem(500, "internal_error", "the room failed to answer: try again")


class RequestLog:
    """ASGI middleware: one structured log line and one counted status per HTTP request."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500
        code: str | None = None

        async def sending(message: Message) -> None:
            nonlocal status, code
            if message["type"] == "http.response.start":
                status = int(message["status"])
            elif message["type"] == "http.response.body" and status >= 400 and code is None:
                code = problem_code(message.get("body", b""))
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            self.metrics.http_requests.labels(status=f"{status // 100}xx").inc()
            if status >= 400:
                self.metrics.error(code or f"http_{status}")
            client = scope.get("client")
            record(
                requests,
                "request",
                method=scope.get("method"),
                path=scope.get("path"),
                status=status,
                code=code,
                ms=now_ms(started),
                client=client[0] if client else None,
            )


def problem_code(body: bytes) -> str | None:
    """The ``code`` of a ``{"code", "message"}`` error body (``None`` if it is not one).

    >>> problem_code(b'{"code": "login_failed", "message": "unknown user or wrong password"}')
    'login_failed'
    >>> problem_code(b"Not Found") is None
    True
    """
    if not body.startswith(b'{"code"') or len(body) > 4096:
        return None
    try:
        code = msgspec.json.decode(body).get("code")
    except (msgspec.DecodeError, AttributeError):
        return None
    # Only the room's own stable codes become metric labels.
    return code if isinstance(code, str) and code.isidentifier() and len(code) <= 40 else None
