"""``GET /api/hands/{id}/equity``: each street's equity of a finished hand, for its viewer.

The answer is built from exactly the copy of the hand that ``GET
/api/hands/{id}`` gives the same user (:meth:`.api.HandsApi.hand_copy`): a player's own
cards and what was shown, a spectator's only what was shown. A card the
viewer was never shown is unknown to the count, one of the deck's
(:mod:`pokerhouse.analysis.equity`). The work is bounded: one count at a time
in a worker thread, each street sampled at most ``SAMPLES`` deals and the
whole answer within ``DEADLINE_SECONDS``; a few requests may wait for the
worker, more are refused (``503 busy``). A finished hand never changes, so
answers are kept (per hand and viewer) for the next asker.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from pokerhouse.analysis.equity import SAMPLES, equity_by_street
from pokerhouse.server.hands.api import HandsApi
from pokerhouse.server.http.problems import problem

#: The most a count may take; the streets left after it are sampled more thinly.
DEADLINE_SECONDS = 2.0
#: Requests that may wait for the worker; beyond them, ``503 busy``.
MAX_WAITING = 4
#: Answers kept.
KEPT = 256


def route(hands: HandsApi) -> Route:
    """The endpoint's route, for the API's mount (``hands`` makes the viewer's copy)."""
    return Route("/hands/{hand_id:int}/equity", Equity(hands).answer)


class Equity:
    """The endpoint, with its one worker and the answers kept."""

    def __init__(self, hands: HandsApi) -> None:
        self.hands = hands
        self.worker = asyncio.Semaphore(1)
        self.waiting = 0
        self.kept: OrderedDict[tuple[int, str], dict[str, Any]] = OrderedDict()

    async def answer(self, request: Request) -> Response:
        """Each street's equities of hand ``{hand_id}`` as this user may see it."""
        copy = await self.hands.hand_copy(request)
        if isinstance(copy, Response):
            return copy
        key = (copy.found.id, repr(copy.viewer))
        if key in self.kept:
            self.kept.move_to_end(key)
            return JSONResponse(self.kept[key])
        if self.waiting >= MAX_WAITING:
            busy = "the equity counter is busy: try again"
            return problem(503, "busy", busy, **{"Retry-After": "1"})
        document = copy.document()
        self.waiting += 1
        try:
            async with self.worker:
                deadline = time.monotonic() + DEADLINE_SECONDS
                streets = await asyncio.to_thread(
                    equity_by_street, document, seed=copy.found.id, deadline=deadline
                )
        finally:
            self.waiting -= 1
        body = {
            **copy.about(),
            "game": document["game"],
            "samples": SAMPLES,
            "streets": [street.to_dict() for street in streets],
        }
        self.kept[key] = body
        while len(self.kept) > KEPT:
            self.kept.popitem(last=False)
        return JSONResponse(body)
