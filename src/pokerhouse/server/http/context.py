"""What every endpoint needs of the room: the site, who is asking, and the CSRF guard.

A request is signed in by its API token (:mod:`.bearer`, bot accounts) or
else its session cookie. A state-changing request needs the CSRF header
(see :mod:`.auth`). The login throttles and the password hash gate are the
room's, shared by every endpoint that checks a password.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from pokerhouse.server.http import auth
from pokerhouse.server.http.hash_gate import HashGate
from pokerhouse.server.http.problems import problem
from pokerhouse.server.site import Site
from pokerhouse.store import StoreError, User
from pokerhouse.store.users import HASHES_AT_ONCE


class HttpContext:
    """What the HTTP endpoints share: the site, who asks, the guard, the password gates."""

    def __init__(self, site: Site) -> None:
        self.site = site
        self.logins = site.logins
        self.addresses = site.addresses
        self.hashing = HashGate(HASHES_AT_ONCE, site.settings.hashes_per_address)

    async def user(self, request: Request) -> User | None:
        """The signed-in user of a request, from its API token (:mod:`.bearer`) or else its
        session cookie."""
        bearer: User | None = getattr(request.state, "bearer", None)
        if bearer is not None:  # signed in by its token (:class:`.bearer.BearerAuth`)
            return bearer
        token = request.cookies.get(auth.SESSION_COOKIE)
        if not token:
            return None
        try:
            return await self.site.store.users.session_user(token)
        except StoreError:
            return None

    def guard(self, request: Request) -> Response | None:
        """Refuse a state-changing request from another site or without the CSRF header
        (a request with an API token needs neither: no browser sends one by itself)."""
        if getattr(request.state, "bearer", None) is not None:
            return None
        scheme = request.url.scheme
        if not auth.same_origin(request.headers.get("origin"), request.headers.get("host"), scheme):
            return problem(403, "bad_origin", "this request comes from another site")
        if not auth.csrf_ok(request.cookies, request.headers):
            return problem(
                403, "csrf", f"send the {auth.CSRF_COOKIE} cookie's value as X-CSRF-Token"
            )
        return None
