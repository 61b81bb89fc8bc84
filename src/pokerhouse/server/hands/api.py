"""Hand histories over HTTP: the player's hands, and one hand's history and downloads.

- ``GET /api/me/hands``: the player's hands, newest first, paged;
- ``GET /api/hands/{id}``: a hand's history as the asker may see it
  (``?format=json|text|phh``): a player dealt in gets their own copy, anyone
  else the spectator's once the hand is over; a private table's hands are
  its host's and guests' alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response

from pokerhouse.engine.hand import Hand
from pokerhouse.errors import PokerError
from pokerhouse.history.json_history import Viewer
from pokerhouse.history.json_history import record as history_record
from pokerhouse.history.phh import to_phh
from pokerhouse.history.replay import replay
from pokerhouse.history.text import to_text
from pokerhouse.server.hands.schemas import (
    HandFacts,
    HandFormat,
    HandHistory,
    HandLine,
    HandList,
    HandPath,
    HandPlayer,
    HandsQuery,
)
from pokerhouse.server.http.context import HttpContext
from pokerhouse.server.http.problems import problem
from pokerhouse.server.http.queries import BadQuery, read_path, read_query
from pokerhouse.server.http.route_table import LOGIN_REQUIRED, Entry, Refusal, Routes
from pokerhouse.store import AccountError, StoredHand, StoreError, User


@dataclass(frozen=True)
class HandCopy:
    """A stored hand and the viewer whose copy of it an answer is built from."""

    found: StoredHand
    hand: Hand
    viewer: Viewer
    mine: list[int]
    names: list[str]
    #: Whether each hand seat's player is a bot (a house bot or a bot account).
    bots: list[bool]

    def document(self) -> dict[str, Any]:
        """The viewer's JSON history: other players' unshown cards are null in it."""
        return history_record(self.hand, self.viewer).to_dict()

    def about(self) -> dict[str, Any]:
        """The hand's facts around its history (:class:`.schemas.HandFacts`' fields): table,
        number, players, the viewer's seats."""
        found = self.found
        players = [
            HandPlayer(i, seat.table_seat, self.names[i], self.bots[i])
            for i, seat in enumerate(found.seats)
        ]
        you = self.mine[0] if self.mine else None
        facts = HandFacts(
            found.id, found.table_id, found.number, found.status, players, you, self.mine
        )
        return msgspec.structs.asdict(facts)


class HandsApi:
    """The handlers, over the store's hand logs."""

    def __init__(self, api: HttpContext) -> None:
        self.api = api
        self.site = api.site

    async def my_hands(self, request: Request) -> HandList | Response:
        """``GET /api/me/hands``: the player's hands, newest first (``?limit=``, ``?before=``).

        ``next`` is the ``before`` of the page after this one, or null: no older hands.
        """
        user = await self.api.user(request)
        if user is None:
            return problem(401, "login_required", "sign in first")
        try:
            page = read_query(request.query_params, HandsQuery)
        except BadQuery as error:
            return problem(400, error.code, str(error))
        # One hand past the page tells whether an older page exists.
        hands = await self.site.store.hands.played_by(
            user, limit=page.limit + 1, before=page.before
        )
        shown = hands[: page.limit]
        return HandList(
            [msgspec.convert(hand, HandLine, from_attributes=True) for hand in shown],
            shown[-1].id if len(hands) > page.limit else None,
        )

    async def hand_copy(self, request: Request) -> HandCopy | Response:
        """The hand ``{hand_id}`` of the path as this user may see it, or the refusal.

        A player dealt in gets their own copy (every box they held); anyone
        else the spectator's, once the hand is over. Every answer about a
        hand (its history in each format, its equity) is built from this copy.
        """
        path = read_path(request.path_params, HandPath)
        if path is None:
            return problem(404, "unknown_hand", "no such hand")  # past what the database holds
        store = self.site.store
        try:
            found = await store.hands.get(path.hand_id)
        except StoreError:
            return problem(404, "unknown_hand", "no such hand")
        user = await self.api.user(request)
        mine = [
            index
            for index, seat in enumerate(found.seats)
            if user is not None and seat.user_id == user.id
        ]
        if not mine and not await self._may_read(found.table_id, user):
            return problem(404, "unknown_hand", "no such hand")  # a private table's: not a word
        if found.status == "running":
            # Its players see it at the table; its history is written when it ends.
            return problem(403, "hand_running", "a hand's history opens when the hand ends")
        if found.history is None:
            return problem(
                409, "no_history", f"hand {found.number} has no history ({found.status})"
            )
        try:
            hand = replay(found.history)
        except PokerError:
            return problem(500, "bad_history", "this hand's history does not replay")
        # A player with several boxes sees every one of them: one viewer, many seats.
        viewer: Viewer = None if not mine else mine[0] if len(mine) == 1 else frozenset(mine)
        names, bots = [], []
        for seat in found.seats:
            try:
                player = await store.users.get(seat.user_id)
            except AccountError:
                names.append(f"Seat {seat.table_seat + 1}")
                bots.append(False)
            else:
                names.append(player.username)
                bots.append(player.is_bot)
        return HandCopy(found, hand, viewer, mine, names, bots)

    async def _may_read(self, table_id: int, user: User | None) -> bool:
        """Whether ``user`` may read a hand of ``table_id`` they were not dealt in: anyone at
        a public table; at a private one, its host and guests only."""
        table = await self.site.store.tables.get(table_id)
        host = table.config.host
        if host is None:
            return True
        if user is None:
            return False
        if user.id == host:
            return True
        return await self.site.store.private.standing(table_id, user.id) in ("asked", "approved")

    async def hand(self, request: Request) -> HandHistory | Response:
        """``GET /api/hands/{id}``: a hand's history as this user may see it (``?format=``)."""
        try:
            fmt = read_query(request.query_params, HandFormat).format
        except BadQuery as error:
            return problem(400, error.code, str(error))
        copy = await self.hand_copy(request)
        if isinstance(copy, Response):
            return copy
        found, hand, viewer, names = copy.found, copy.hand, copy.viewer, copy.names
        if fmt == "text":
            # One player's boxes are told apart by their seats (the text needs distinct names).
            printed = names
            if len(set(names)) < len(names):
                printed = [
                    f"{name} (box {seat.table_seat + 1})"
                    for name, seat in zip(names, found.seats, strict=True)
                ]
            # Seats as the table numbers them, as the page and the lobby do.
            seats = [seat.table_seat for seat in found.seats]
            return PlainTextResponse(to_text(hand, viewer, names=printed, seats=seats))
        if fmt == "phh":
            if hand.game != "razz":
                return problem(400, "no_phh", f"PHH is written for Razz only, not for {hand.game}")
            # The viewer's copy only: another seat's hidden cards are written "??".
            text = to_phh(hand, seat=viewer, players=names, table=found.table_id, hand=found.number)
            return PlainTextResponse(text, media_type="application/toml")
        return HandHistory(**copy.about(), history=copy.document())


#: What asking for a hand may be refused with, whatever is asked of it.
HAND_REFUSALS = (
    Refusal(403, ("hand_running",), "A running hand's history opens when the hand ends."),
    Refusal(404, ("unknown_hand",), "No such hand, or one of a private table not yours."),
    Refusal(409, ("no_history",), "The hand has no history (voided)."),
)

ROUTES = Routes(
    "hands",
    HandsApi,
    (
        Entry(
            "GET",
            "/api/me/hands",
            HandsApi.my_hands,
            "The player's hands, newest first, a page at a time",
            query=HandsQuery,
            answer=HandList,
            answered="The hands.",
            refusals=(LOGIN_REQUIRED,),
        ),
        Entry(
            "GET",
            "/api/hands/{hand_id:int}",
            HandsApi.hand,
            "A hand's history as this user may see it",
            params=HandPath,
            query=HandFormat,
            answer=HandHistory,
            texts=("text/plain", "application/toml"),
            answered="The history: JSON, readable text, or PHH (Razz).",
            refusals=(
                Refusal(400, ("no_phh",), "PHH for a game other than Razz."),
                *HAND_REFUSALS,
            ),
        ),
    ),
)
