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

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from pokerhouse.analysis.equity import SAMPLES, equity_by_street
from pokerhouse.server.hands.api import HAND_REFUSALS, HandsApi
from pokerhouse.server.hands.schemas import EquityStreet, HandEquity, HandPath
from pokerhouse.server.http.context import HttpContext
from pokerhouse.server.http.problems import problem
from pokerhouse.server.http.route_table import Entry, Refusal, Routes

#: The most a count may take; the streets left after it are sampled more thinly.
DEADLINE_SECONDS = 2.0
#: Requests that may wait for the worker; beyond them, ``503 busy``.
MAX_WAITING = 4
#: Answers kept.
KEPT = 256


class Equity:
    """The endpoint, with its one worker and the answers kept (the hands' handlers make
    the viewer's copy)."""

    def __init__(self, api: HttpContext) -> None:
        self.hands = HandsApi(api)
        self.worker = asyncio.Semaphore(1)
        self.waiting = 0
        self.kept: OrderedDict[tuple[int, str], HandEquity] = OrderedDict()

    async def answer(self, request: Request) -> HandEquity | Response:
        """Each street's equities of hand ``{hand_id}`` as this user may see it."""
        copy = await self.hands.hand_copy(request)
        if isinstance(copy, Response):
            return copy
        key = (copy.found.id, repr(copy.viewer))
        if key in self.kept:
            self.kept.move_to_end(key)
            return self.kept[key]
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
        body = HandEquity(
            **copy.about(),
            game=document["game"],
            samples=SAMPLES,
            streets=[msgspec.convert(street.to_dict(), EquityStreet) for street in streets],
        )
        self.kept[key] = body
        while len(self.kept) > KEPT:
            self.kept.popitem(last=False)
        return body


ROUTES = Routes(
    "hands",
    Equity,
    (
        Entry(
            "GET",
            "/api/hands/{hand_id:int}/equity",
            Equity.answer,
            "Each street's equity of a finished hand, from this user's copy",
            description="Built only from the copy GET /api/hands/{hand_id} gives the same "
            "user: a card the user was not shown is unknown (one of the deck's). Counted "
            "exactly where the ways are few, else sampled with a fixed seed.",
            params=HandPath,
            answer=HandEquity,
            answered="The streets.",
            refusals=(
                *HAND_REFUSALS,
                Refusal(
                    503,
                    ("busy",),
                    "Too many counts waiting (see Retry-After).",
                    headers=("Retry-After",),
                ),
            ),
        ),
    ),
)
