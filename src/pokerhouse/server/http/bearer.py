"""API tokens: ``Authorization: Bearer <token>``, how bot accounts sign in.

A bot account has no password; it sends its token on every HTTP request and
on the websocket's handshake. A request that names a token is the token's
alone: a bad, ended or revoked one, or a person's session (a person signs
in with the browser's cookie), is refused with ``401 bad_token`` (never
taken as a spectator's), and the CSRF header is not asked for (a browser
never adds this header across sites by itself, and this site allows no
cross-origin requests that could). Another scheme's header (a proxy's HTTP
Basic) is not the room's: the cookie decides.

>>> bearer_token("Bearer abc.DEF_123-xyz")
'abc.DEF_123-xyz'
>>> bearer_token(None) is None
True
>>> bearer_token("Basic dXNlcjpwdw==") is None  # another scheme's (a proxy's): not ours
True
>>> bearer_token("Bearer not a token")
Traceback (most recent call last):
...
pokerhouse.server.http.bearer.BadToken: send Authorization: Bearer <token>
"""

from __future__ import annotations

import re
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from pokerhouse.errors import PokerError
from pokerhouse.server.http.problems import problem

#: A token as the room makes them (URL-safe base64), within sane lengths.
_TOKEN = re.compile(r"[A-Za-z0-9._~+/=-]{10,100}")


class BadToken(PokerError):
    """The request's token is malformed, unknown, ended or revoked."""

    default_code = "bad_token"

    def __init__(self, message: str) -> None:
        super().__init__("bad_token", message)


def bearer_token(header: str | None) -> str | None:
    """The token of an ``Authorization: Bearer`` header; ``None`` for no header or another
    scheme's (a proxy's HTTP Basic, say: the session cookie decides then); :class:`BadToken`
    for a malformed token."""
    if header is None:
        return None
    scheme, _, token = header.strip().partition(" ")
    if scheme.lower() != "bearer":
        return None
    token = token.strip()
    if not _TOKEN.fullmatch(token):
        raise BadToken("send Authorization: Bearer <token>")
    return token


def bot_of(user: Any) -> Any:
    """``user`` if it is a bot account, else ``None``: a token signs in bot accounts only (a
    person's session lives in the browser's cookie, never in a script's header)."""
    return user if user is not None and user.api_bot else None


async def refused(request: Request, error: Exception) -> Response:
    """``401 bad_token`` (with ``WWW-Authenticate``), the answer to :class:`BadToken`."""
    return problem(
        401,
        "bad_token",
        str(error) or "this token signs nobody in",
        **{"WWW-Authenticate": 'Bearer error="invalid_token"'},
    )


class BearerAuth:
    """ASGI middleware of the HTTP API: a request that sends ``Authorization: Bearer`` is
    signed in as the token's bot account or refused (``401 bad_token``; ``503
    room_unavailable`` when the store cannot check it), whatever the endpoint; the user
    found is kept in the request's state (``bearer``), so no handler looks it up again."""

    def __init__(self, app: ASGIApp, site: Any) -> None:
        self.app = app
        self.site = site

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        header = None
        for name, value in scope["headers"]:
            if name == b"authorization":
                header = value.decode("latin-1")
                break
        if header is not None:
            try:
                token = bearer_token(header)
                if token is None:  # another scheme's: not the room's business
                    await self.app(scope, receive, send)
                    return
                try:
                    user = bot_of(await self.site.store.users.session_user(token))
                except Exception:  # the store's trouble (a driver's, too): come back soon
                    answer = problem(
                        503,
                        "room_unavailable",
                        "tokens cannot be checked now: try again soon",
                        **{"Retry-After": "5"},
                    )
                    await answer(scope, receive, send)
                    return
                if user is None:
                    raise BadToken("this token signs nobody in: it is unknown, ended or revoked")
            except BadToken as error:
                await (await refused(Request(scope), error))(scope, receive, send)
                return
            scope.setdefault("state", {})["bearer"] = user
        await self.app(scope, receive, send)
