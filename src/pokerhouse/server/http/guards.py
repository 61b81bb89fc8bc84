"""The room's edge against hostile clients: Host names, response headers, slow request heads.

* :class:`HostGuard` answers only requests whose ``Host`` is one of the
  room's names (the loopback names, the address it serves, and room.toml's
  ``allowed_hosts``): a page on another site whose name an attacker points
  at 127.0.0.1 (DNS rebinding) sends its own name as ``Host``, and is
  refused with ``400 bad_host`` (a websocket handshake with 403).
* :class:`SecurityHeaders` puts anti-framing and no-sniffing headers on
  every HTTP answer: no other site may frame the room's pages.
* :func:`head_timeout` bounds the time a connection may take to send a
  request's head (and the body its ``Content-Length`` announces). uvicorn
  has no setting for it: ``timeout_keep_alive`` runs only between requests,
  after a response, and is cancelled by the first byte of the next one;
  ``h11_max_incomplete_event_size`` bounds a head's size, not its time;
  ``limit_concurrency`` refuses everyone once the slow clients fill it. So
  the room hands uvicorn its own HTTP protocol class (the ``http`` setting
  takes one): a small wrapper around uvicorn's own protocol that passes
  every call through and closes the connection whose head does not arrive
  in time, answering ``408`` when no response is under way on it.
* :func:`uvicorn_options` is what ``pokerhouse serve`` (and the tests'
  server) give uvicorn from the room's settings: these guards, and
  ``X-Forwarded-For`` trusted only from the proxies room.toml names.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
from collections.abc import Callable, Iterable
from typing import Any, cast

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pokerhouse.server.http.problems import problem
from pokerhouse.server.runtime.logs import record
from pokerhouse.server.site import Site

log = logging.getLogger("pokerhouse.requests")

#: Host names every room answers to: a browser on this machine.
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")

#: Headers on every HTTP answer (an answer that sets one itself keeps its own).
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy", b"frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
)


def host_name(header: str) -> str:
    """The name in a ``Host`` header, without its port, lower case.

    >>> host_name("Example.COM:8000"), host_name("[::1]:8000"), host_name("127.0.0.1")
    ('example.com', '::1', '127.0.0.1')
    """
    header = header.strip().lower()
    if header.startswith("["):  # an IPv6 literal, maybe with a port after it
        return header[1:].partition("]")[0]
    if header.count(":") == 1:
        return header.partition(":")[0]
    return header


def allowed_names(configured: Iterable[str], served: str | None = None) -> tuple[str, ...]:
    """The names a room answers to: loopback, the address it serves (unless a wildcard
    such as ``0.0.0.0``) and those configured (``*`` for any, ``*.example.com`` for a
    domain's names).

    >>> allowed_names(["poker.example.com"], "0.0.0.0")
    ('127.0.0.1', 'localhost', '::1', 'poker.example.com')
    >>> allowed_names([], "192.168.1.5")
    ('127.0.0.1', 'localhost', '::1', '192.168.1.5')
    """
    names = list(LOOPBACK_NAMES)
    if served and served not in ("0.0.0.0", "::", ""):
        names.append(host_name(served) if served.startswith("[") else served.lower())
    names += [name.lower() for name in configured]
    return tuple(dict.fromkeys(names))


def host_allowed(name: str, allowed: Iterable[str]) -> bool:
    """Whether ``name`` (from :func:`host_name`) is one of ``allowed``.

    >>> [host_allowed(name, ["*.example.com"]) for name in ("a.example.com", "example.com")]
    [True, False]
    >>> host_allowed("evil.example", ["127.0.0.1"]), host_allowed("anything", ["*"])
    (False, True)
    """
    for pattern in allowed:
        if pattern == "*" or pattern == name:
            return True
        if pattern.startswith("*.") and name.endswith(pattern[1:]):
            return True
    return False


class HostGuard:
    """ASGI middleware: refuse a request whose ``Host`` is not one of the room's names."""

    def __init__(self, app: ASGIApp, allowed: Iterable[str]) -> None:
        self.app = app
        self.allowed = tuple(allowed)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        header = ""
        for key, value in scope.get("headers", ()):
            if key == b"host":
                header = value.decode("latin-1")
                break
        if host_allowed(host_name(header), self.allowed):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008, "reason": "bad_host"})
            return
        response = problem(400, "bad_host", "this room does not answer to that Host name")
        await response(scope, receive, send)


class SecurityHeaders:
    """ASGI middleware: anti-framing, no-sniffing and referrer headers on every answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                present = {key.lower() for key, _ in headers}
                headers += [(k, v) for k, v in SECURITY_HEADERS if k not in present]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, sending)


# ---------------------------------------------------------------- slow request heads

_TIMEOUT_BODY = b'{"code":"request_timeout","message":"the request did not arrive in time"}'
REQUEST_TIMEOUT = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\n"
    b"connection: close\r\ncontent-length: " + str(len(_TIMEOUT_BODY)).encode() + b"\r\n\r\n"
) + _TIMEOUT_BODY
#: A head longer than this is uvicorn's to refuse (its own bound is 16 KiB); the guard
#: stops keeping it.
_MAX_HEAD = 65536


def head_timeout(
    inner: type[asyncio.Protocol], seconds: float, on_timeout: Callable[[str], None]
) -> type[asyncio.Protocol]:
    """An HTTP protocol class for uvicorn's ``http`` setting: ``inner`` (uvicorn's own),
    closing a connection whose request head is not complete within ``seconds`` of its
    first byte (or, for a new connection, of its opening); a body its ``Content-Length``
    announces must arrive in the same time. ``on_timeout`` gets the client's address.

    The wrapper passes every call through to ``inner`` unchanged and only watches the
    bytes go by. It lets go of a connection that upgrades (the websocket protocol takes
    the transport over) or sends a chunked body (whose end it does not parse; the time
    between requests is uvicorn's ``timeout_keep_alive``).
    """

    class HeadTimeout(asyncio.Protocol):
        def __init__(self, **kwargs: Any) -> None:
            self.inner = inner(**kwargs)
            self.transport: asyncio.Transport | None = None
            self.timer: asyncio.TimerHandle | None = None
            self.head = bytearray()
            self.body = 0  # bytes of an announced body still to come
            self.guarding = True
            self.requests = 0  # complete requests seen on this connection

        # -------------------------------------------------------- asyncio.Protocol

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            # uvloop's transports are not asyncio.Transport subclasses, but have its methods.
            self.transport = cast(asyncio.Transport, transport)
            self._arm()
            self.inner.connection_made(transport)

        def data_received(self, data: bytes) -> None:
            if self.guarding:
                self._watch(data)
            self.inner.data_received(data)

        def eof_received(self) -> bool | None:
            return self.inner.eof_received()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            self.guarding = False
            self.inner.connection_lost(exc)

        def pause_writing(self) -> None:
            self.inner.pause_writing()

        def resume_writing(self) -> None:
            self.inner.resume_writing()

        # -------------------------------------------------------- the guard

        def _arm(self) -> None:
            if self.timer is None:
                loop = asyncio.get_running_loop()
                self.timer = loop.call_later(seconds, self._expired)

        def _disarm(self) -> None:
            if self.timer is not None:
                self.timer.cancel()
                self.timer = None

        def _watch(self, data: bytes) -> None:
            """Follow heads and announced bodies through ``data``."""
            while data and self.guarding:
                if self.body:
                    taken = min(self.body, len(data))
                    self.body -= taken
                    data = data[taken:]
                    if not self.body:
                        self._disarm()  # the request is complete
                    continue
                self._arm()  # the first byte of a head (a no-op while armed)
                start = max(0, len(self.head) - 3)
                self.head += data
                end = self.head.find(b"\r\n\r\n", start)
                if end < 0:
                    if len(self.head) > _MAX_HEAD:
                        self._let_go()
                    return
                head, data = bytes(self.head[: end + 4]), bytes(self.head[end + 4 :])
                self.head = bytearray()
                self.requests += 1
                self._headers(head)

        def _headers(self, head: bytes) -> None:
            """A head is complete: what follows it, from the headers that say so."""
            length = 0
            for line in head.split(b"\r\n")[1:]:
                name, _, value = line.partition(b":")
                name = name.strip().lower()
                if name == b"upgrade" or (
                    name == b"transfer-encoding" and b"chunked" in value.lower()
                ):
                    self._let_go()
                    return
                if name == b"content-length":
                    value = value.strip()
                    length = int(value) if value.isdigit() and len(value) < 12 else 0
            self.body = length
            if not length:
                self._disarm()

        def _let_go(self) -> None:
            self._disarm()
            self.guarding = False
            self.head = bytearray()

        def _expired(self) -> None:
            self.timer = None
            transport = self.transport
            if transport is None or transport.is_closing():
                return
            peer = transport.get_extra_info("peername")
            on_timeout(str(peer[0]) if isinstance(peer, tuple) and peer else "?")
            # Nothing was answered on this connection yet, so nothing is half written.
            if self.requests == 0:
                transport.write(REQUEST_TIMEOUT)
            transport.close()

    return HeadTimeout


def uvicorn_options(site: Site) -> dict[str, Any]:
    """What the room's settings ask of uvicorn: the request-head bound (``http``) and
    forwarded headers trusted only from the proxies named in ``forwarded_allow_ips``
    (uvicorn's default trusts them from 127.0.0.1, so any local client could claim
    any address)."""
    from uvicorn.protocols.http.auto import AutoHTTPProtocol

    settings = site.settings

    def timed_out(client: str) -> None:
        site.metrics.error("request_timeout")
        record(log, "request_timeout", client=client)

    trusted = list(settings.forwarded_allow_ips)
    return {
        "http": head_timeout(AutoHTTPProtocol, settings.request_head_seconds, timed_out),
        "proxy_headers": bool(trusted),
        "forwarded_allow_ips": trusted or None,
    }


def check_proxy(value: str) -> str:
    """A ``forwarded_allow_ips`` entry: an IP address or network (``ValueError`` if not).

    >>> check_proxy("10.0.0.0/8"), check_proxy("::1")
    ('10.0.0.0/8', '::1')
    """
    ipaddress.ip_network(value, strict=False)
    return value
