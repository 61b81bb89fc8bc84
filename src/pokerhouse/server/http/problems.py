"""What every endpoint answers with and reads: problems, bodies, the client's address.

Every request body is JSON, decoded once into a typed schema; anything else
gets ``400`` with ``{"code", "message"}`` and changes nothing; a body past
:data:`MAX_BODY` bytes is refused before it is all read.
"""

from __future__ import annotations

from typing import Any

import msgspec
from starlette.requests import Request
from starlette.responses import JSONResponse

#: The largest request body read, in bytes; a larger one is refused before it is all read.
MAX_BODY = 4096


def problem(status: int, code: str, message: str, **headers: str) -> JSONResponse:
    """An error response: ``{"code", "message"}`` with ``status``."""
    return JSONResponse({"code": code, "message": message}, status_code=status, headers=headers)


class BadRequest(Exception):
    """A request refused before anything was done."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code


async def read_json(request: Request, schema: type[msgspec.Struct]) -> Any:
    """The request body decoded into ``schema``; raises :class:`BadRequest`."""
    body = await read_body(request)
    try:
        return msgspec.json.decode(body, type=schema)
    except msgspec.ValidationError as error:
        raise BadRequest(400, "bad_request", str(error)) from None
    except msgspec.DecodeError:
        raise BadRequest(400, "bad_json", "the body must be one JSON object") from None
    except RecursionError:  # JSON nested past the decoder's recursion limit
        raise BadRequest(400, "too_deep", "the body is JSON nested too deep") from None


async def read_body(request: Request, limit: int = MAX_BODY) -> bytes:
    """The body, read no further than ``limit`` bytes (a liar's Content-Length included)."""
    too_large = BadRequest(413, "body_too_large", f"a request body is at most {limit} bytes")
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise too_large
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise too_large
    return bytes(body)


def client_address(request: Request) -> str:
    """The address a request comes from (the proxy's, unless the room trusts it)."""
    return request.client.host if request.client else "?"
