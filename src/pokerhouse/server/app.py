"""The ASGI app: routes, the room's life, and the web client's files.

:func:`create_app` builds a Starlette app whose lifespan opens the store,
starts the room (every table's task) and stops it again. Tests build one
with a manual clock and no pauses, and serve it on a real socket.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import random
import time
from collections.abc import AsyncIterator, Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import msgspec
from argon2 import PasswordHasher
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket

from pokerhouse.server import collector, frames
from pokerhouse.server.api import Api, problem
from pokerhouse.server.clock import Clock
from pokerhouse.server.connection import Connection
from pokerhouse.server.logs import now_ms, record
from pokerhouse.server.metrics import CONTENT_TYPE, Metrics
from pokerhouse.server.openapi import openapi_document
from pokerhouse.server.room import Room
from pokerhouse.server.services import Services
from pokerhouse.server.settings import RoomSettings
from pokerhouse.server.ws import Limits, websocket_endpoint, with_abort
from pokerhouse.store import Store, TableConfig
from pokerhouse.store.users import token_hash

log = logging.getLogger("pokerhouse.server")
requests = logging.getLogger("pokerhouse.requests")


class Site:
    """Everything a running room holds: the store, the shared services, the room, the API."""

    def __init__(
        self,
        database_url: str | None = None,
        *,
        settings: RoomSettings | None = None,
        clock: Clock | None = None,
        rng: random.Random | None = None,
        tables: Sequence[TableConfig] | None = None,
        store_options: Mapping[str, Any] | None = None,
    ) -> None:
        self.database_url = database_url
        self.settings = settings if settings is not None else RoomSettings()
        self.store_options = dict(store_options or {})
        if self.settings.argon2 is not None and "password_hasher" not in self.store_options:
            time_cost, memory_cost, parallelism = self.settings.argon2
            self.store_options["password_hasher"] = PasswordHasher(
                time_cost=time_cost, memory_cost=memory_cost, parallelism=parallelism
            )
        self._clock = clock
        self._rng = rng
        self._tables = tables
        self.metrics = Metrics()
        self.limits = Limits(self.settings)
        #: Open sockets by the hash of the session token they were opened with.
        self.sockets: dict[str, set[Connection]] = {}
        self.api = Api(self)
        self._store: Store | None = None
        self._services: Services | None = None
        self._room: Room | None = None

    @property
    def store(self) -> Store:
        assert self._store is not None, "the room is not started"
        return self._store

    @property
    def services(self) -> Services:
        assert self._services is not None, "the room is not started"
        return self._services

    @property
    def room(self) -> Room:
        assert self._room is not None, "the room is not started"
        return self._room

    def session_ended(self, token: str) -> None:
        """Close every socket signed in with ``token``: an ended session authorises nothing."""
        for conn in self.sockets.pop(token_hash(token), ()):
            conn.send(frames.error("signed_out", "this session has ended: sign in again"))
            conn.kill("signed_out", drop=False)

    async def start(self) -> None:
        """Open the store and start the room."""
        options = {"deadline": self.settings.database_seconds, **self.store_options}
        self._store = await Store.open(self.database_url, **options)
        self._services = Services(
            self._store,
            settings=self.settings,
            clock=self._clock,
            rng=self._rng,
            metrics=self.metrics,
        )
        self._room = Room(self._services, self._tables)
        runners = self._room.runners
        self.metrics.hands_in_progress.set_function(
            lambda: sum(1 for runner in runners.values() if runner.table.hand is not None)
        )
        self.metrics.tables_available.set_function(
            lambda: sum(1 for runner in runners.values() if runner.available)
        )
        await self._room.start()
        log.info("room started: %d tables on %s", len(self._room.runners), self._store.url)

    async def stop(self) -> None:
        """Stop the room and close the store."""
        if self._room is not None:
            await self._room.stop()
        if self._store is not None:
            await self._store.close()


def web_root() -> Path | None:
    """The web client's folder inside the package, if it is there."""
    root = Path(str(resources.files("pokerhouse").joinpath("web")))
    return root if (root / "index.html").is_file() else None


def create_app(site: Site) -> Starlette:
    """The room as an ASGI app over ``site``."""
    api = site.api

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await site.start()
        # What start-up built (tables, lookup tables, modules) lives as long as the room:
        # out of the collector's sight, and what lives on after it, every few seconds.
        thresholds = collector.take_over()
        collector.freeze(sweep=True)
        frozen = asyncio.get_running_loop().create_task(collector.keep_frozen())
        try:
            yield
        finally:
            frozen.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await frozen
            await site.stop()
            gc.set_threshold(*thresholds)  # the process may go on (tests run many rooms)

    async def ws(websocket: WebSocket) -> None:
        await websocket_endpoint(site, websocket)

    async def openapi(request: Request) -> Response:
        return JSONResponse(openapi_document())

    async def metrics(request: Request) -> Response:
        return Response(site.metrics.render(), media_type=CONTENT_TYPE)

    # The API is a mount of its own, so that a wrong method on one of its paths is its
    # 405, not a miss passed on to the web client's files.
    api_routes = [
        Route("/openapi.json", openapi),
        Route("/csrf", api.csrf),
        Route("/register", api.register, methods=["POST"]),
        Route("/login", api.login, methods=["POST"]),
        Route("/logout", api.logout, methods=["POST"]),
        Route("/me", api.me),
        Route("/me/hands", api.my_hands),
        Route("/me/ledger", api.my_ledger),
        Route("/me/top-up", api.top_up, methods=["POST"]),
        Route("/tables", api.tables),
        Route("/hands/{hand_id:int}", api.hand),
    ]
    routes: list[Route | WebSocketRoute | Mount] = [
        Route("/healthz", api.health),
        Route("/metrics", metrics),
        Mount("/api", routes=api_routes),
        WebSocketRoute("/ws", ws),
    ]
    root = web_root()
    if root is not None:
        routes.append(Mount("/", StaticFiles(directory=root, html=True), name="web"))
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={HTTPException: http_problem, Exception: server_problem},
    )
    return RequestLog(app, site.metrics)  # type: ignore[return-value]


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
        if scope["type"] == "websocket":
            await self.app(with_abort(scope, send), receive, send)
            return
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
