"""A room's addresses from the URL its operator gives: the websocket's and the HTTP API's.

>>> http_url("ws://127.0.0.1:8000/ws")
'http://127.0.0.1:8000'
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit, urlunsplit

from pokerhouse.errors import InvalidSpec

_SCHEMES = {"http": "ws", "https": "wss", "ws": "ws", "wss": "wss"}


def websocket_url(room: str) -> str:
    """The room's ``/ws`` address from its base URL (``http``, ``https``, ``ws``, ``wss``).

    >>> websocket_url("http://127.0.0.1:8000/")
    'ws://127.0.0.1:8000/ws'
    >>> websocket_url("poker.example.com")
    Traceback (most recent call last):
    ...
    pokerhouse.errors.InvalidSpec: 'poker.example.com' is not a room's URL (http://host:port)
    """
    parts = urlsplit(room.strip())
    schemes = _SCHEMES
    if parts.scheme not in schemes or not parts.hostname or parts.query or parts.fragment:
        raise InvalidSpec("bad_url", f"{room!r} is not a room's URL (http://host:port)")
    try:
        parts.port  # noqa: B018 - a port that is no number raises here
    except ValueError:
        raise InvalidSpec("bad_url", f"{room!r} has a bad port") from None
    path = parts.path.rstrip("/")
    if not path.endswith("/ws"):
        path += "/ws"
    return urlunsplit((schemes[parts.scheme], parts.netloc, path, "", ""))


def http_url(room: str) -> str:
    """The room's base URL for HTTP (no trailing slash), from any URL
    :func:`websocket_url` takes."""
    websocket_url(room)
    parts = urlsplit(room.strip())
    scheme = {"ws": "http", "wss": "https"}.get(parts.scheme, parts.scheme)
    path = parts.path.rstrip("/").removesuffix("/ws")
    return urlunsplit((scheme, parts.netloc, path, "", ""))


def in_the_clear(room: str) -> bool:
    """Whether what is sent to ``room`` crosses a network unencrypted: ``http`` or ``ws``
    to a host other than this machine (``localhost`` or a loopback address).

    >>> in_the_clear("http://127.0.0.1:8000"), in_the_clear("ws://[::1]:8000/ws")
    (False, False)
    >>> in_the_clear("http://poker.example.com"), in_the_clear("https://poker.example.com")
    (True, False)
    """
    websocket_url(room)
    parts = urlsplit(room.strip())
    if parts.scheme in ("https", "wss"):
        return False
    host = parts.hostname or ""
    if host == "localhost":
        return False
    try:
        return not ipaddress.ip_address(host).is_loopback
    except ValueError:
        return True  # a name: it may resolve anywhere
