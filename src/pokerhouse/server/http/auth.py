"""Who is asking: session cookies, CSRF protection, same-origin checks.

* The session token lives in an HttpOnly, SameSite=Lax cookie; the database
  keeps only its hash.
* A state-changing request must carry the ``X-CSRF-Token`` header equal to
  the ``ph_csrf`` cookie (double submit: another site can make the browser
  send the cookie, but cannot read it to copy it into a header), and, when
  the browser says where the request comes from (``Origin``), come from
  this site. The websocket handshake checks ``Origin`` the same way.

How often anyone may ask is :mod:`.rate_limits`'; how password hashes take
turns, :mod:`.hash_gate`.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Mapping
from urllib.parse import urlsplit

SESSION_COOKIE = "ph_session"
CSRF_COOKIE = "ph_csrf"
CSRF_HEADER = "x-csrf-token"


def new_csrf_token() -> str:
    """A fresh random token for the double-submit cookie."""
    return secrets.token_urlsafe(24)


def csrf_ok(cookies: Mapping[str, str], headers: Mapping[str, str]) -> bool:
    """Whether the request's CSRF header matches its CSRF cookie (compared in constant time)."""
    cookie = cookies.get(CSRF_COOKIE, "")
    header = headers.get(CSRF_HEADER, "")
    return bool(cookie) and len(cookie) <= 200 and hmac.compare_digest(cookie, header)


def same_origin(origin: str | None, host: str | None, scheme: str) -> bool:
    """Whether ``origin`` (the ``Origin`` header) is this site; no header is not a browser's.

    >>> same_origin("http://127.0.0.1:8000", "127.0.0.1:8000", "http")
    True
    >>> same_origin("https://evil.example", "127.0.0.1:8000", "http")
    False
    >>> same_origin(None, "127.0.0.1:8000", "http")
    True
    """
    if origin is None:
        return True
    if origin == "null" or not host:
        return False
    parts = urlsplit(origin)
    wanted = "https" if scheme in ("https", "wss") else "http"
    return parts.scheme == wanted and parts.netloc.lower() == host.lower()
