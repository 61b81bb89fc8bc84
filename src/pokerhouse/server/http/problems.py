"""What every endpoint answers with and reads: problems, typed answers, bodies, the client's
address.

Every answer with a JSON body is a msgspec type, encoded once by :func:`json_answer`;
a refusal is a :class:`Problem`. Every request body is JSON, decoded once into a
typed schema; anything else gets ``400`` with ``{"code", "message"}`` and changes
nothing; a body past :data:`MAX_BODY` bytes is refused before it is all read.

>>> problem(404, "unknown_hand", "no such hand").body
b'{"code":"unknown_hand","message":"no such hand"}'
"""

from __future__ import annotations

from typing import TypeVar

import msgspec
from starlette.requests import Request
from starlette.responses import Response

#: The largest request body read, in bytes; a larger one is refused before it is all read.
MAX_BODY = 4096

S = TypeVar("S", bound=msgspec.Struct)


class Problem(msgspec.Struct):
    """A refusal: a stable code, and a sentence for people. A refused request changed
    nothing."""

    code: str
    message: str


_encoder = msgspec.json.Encoder()


def json_answer(body: msgspec.Struct, status: int = 200, **headers: str) -> Response:
    """An answer whose body is ``body`` as compact JSON.

    >>> answer = json_answer(Problem("busy", "try again"), 503, **{"Retry-After": "1"})
    >>> answer.status_code, answer.headers["retry-after"], answer.body
    (503, '1', b'{"code":"busy","message":"try again"}')
    """
    return Response(
        _encoder.encode(body), status_code=status, headers=headers, media_type="application/json"
    )


def problem(status: int, code: str, message: str, **headers: str) -> Response:
    """An error response: ``{"code", "message"}`` with ``status``."""
    return json_answer(Problem(code, message), status, **headers)


class BadRequest(Exception):
    """A request refused before anything was done."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code

    def answer(self) -> Response:
        """The refusal as a :class:`Problem`."""
        return problem(self.status, self.code, str(self))


async def read_json(request: Request, schema: type[S]) -> S:
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
