"""Play a bot at one table of the room over the websocket: :class:`BotRunner`.

The runner signs in with the bot account's token (``Authorization: Bearer``),
watches the table with ``"views": true`` (a fresh snapshot after every
step), sits, and at each decision of its seat calls the bot with a
:class:`~pokerhouse.client.decision.Decision` and sends the answer as an
``act`` with an id of its own. What it takes care of, so a bot's author
need not:

- **One act per decision.** A decision is acted on once: the runner sends
  nothing more until the room answers (``ack``), and acts again only on a
  later snapshot. An answer the engine would refuse is replaced by the
  room's default (check, muck, decline, bring in, fold) before it is sent.
  A refused act (``out_of_turn`` after a timeout, ``stale_hand``) is
  dropped and the next snapshot decides.
- **Reconnects and restarts.** A dropped socket (or a room restarting) is
  dialled again after 0.5 s, doubling up to 10 s, for up to
  ``give_up_seconds`` without a connection; then ``resume`` with the last
  event seen: a fresh snapshot carries play on. An act not answered (by a
  new socket, or within 5 s) is sent again with the same id: the room
  applies it once. The room keeps seats across restarts; the runner finds
  its seat by its name, and sits again only if the seat is gone (stood up
  after a long absence).
- **Rate limits.** Sends are paced at 10 a second (bursts of 20), half the
  room's limit; a ``rate_limited`` answer pauses every send 1 s, doubling
  to 8 s, and an act not yet answered is sent again after the pause (the
  refusal names no message).
- **Seat and chips.** ``seat`` (default: the first free one) and ``buy_in``
  (default: the table's minimum, the least at risk). Busted (or, at Casino
  Hold'em, short of a box's stake), the seat is topped up between hands
  back to the buy-in with ``add_chips`` (``add_chips=False``: not).
  A seat found sitting out is sat in again.
- **Casino Hold'em.** Each betting window the runner places the box's
  ``ante`` (default: the table's minimum) and ``bonus`` (default 0), so
  the round is dealt without waiting out the window.
- **Stopping.** ``run(hands=N)`` plays N hands: it sits out from its N-th
  hand's start and stands up (cashed out) when it ends; :meth:`stop`
  stands up at once (at the end of a hand in play: the room folds for a
  player who is leaving; stopped while the room is out of reach, the seat
  stays, and the room sits it out). Refusals that no retry mends stop the
  runner with :class:`BotStopped` and the room's code: ``bad_token``,
  ``signed_out``, ``people_only``, ``bots_only``, ``same_owner``,
  ``unknown_table``, a buy-in refused (``insufficient_funds``,
  ``buy_in_too_small``...), a chosen seat taken (``seat_taken``) or none
  such (``bad_seat``), no free seat (``table_full``), a Casino Hold'em
  wager the table does not take (``bad_wager``), the room unreachable
  (``unreachable``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

import websockets
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

from pokerhouse.client.decision import Decision
from pokerhouse.client.outcomes import BotStopped, HandPlayed, RunSummary
from pokerhouse.client.pacing import Backoff, Clock, Pacer, Sleep
from pokerhouse.client.policy import checked, decider, default_action
from pokerhouse.client.urls import websocket_url
from pokerhouse.errors import InvalidSpec, PokerError

__all__ = ["BotRunner", "BotStopped", "HandPlayed", "RunSummary"]

log = logging.getLogger("pokerhouse.client")

#: Refusals no retry mends: the runner stops with the code.
FATAL = frozenset(
    {
        "bad_token",
        "signed_out",
        "login_required",
        "people_only",
        "bots_only",
        "same_owner",
        "unknown_table",
        "tournament_table",
        "bad_wager",  # the ante or bonus asked for is not the table's to take
    }
)
#: An act the room has not answered within this many seconds is sent again (same id).
UNANSWERED_SECONDS = 5.0
#: Refusals of a buy-in that asking again would only repeat.
_SIT_FATAL = frozenset(
    {
        "insufficient_funds",
        "buy_in_too_small",
        "buy_in_too_large",
        "bad_amount",
        "bad_seat",
        "bad_message",
        "already_seated",
    }
)


class _Reconnect(Exception):
    """The room asked the client to go (``table_moved``): dial again."""


def _stop_if_refused(error: ConnectionClosed) -> None:
    """A socket the room closed as a policy violation (1008) is a refusal: do not dial again.

    The close's reason is the refusal's code (``bad_token``, ``signed_out``...).
    """
    closed = error.rcvd
    if closed is not None and closed.code == 1008:
        reason = closed.reason.strip()
        code = reason if reason.replace("_", "").isalpha() else "closed_by_room"
        raise BotStopped(code, f"the room closed the connection: {reason or 'policy'}") from None


class BotRunner:
    """Plays ``bot`` at table ``table`` of the room at ``room`` with the bot account's
    ``token`` (see the module's docstring for everything it handles).

    ``on_hand`` is called with a :class:`HandPlayed` after every hand its seat
    was dealt in; :attr:`refusals` counts the room's refusals by code.
    ``clock`` and ``sleep`` time the pacing and the reconnect back-off.
    """

    def __init__(
        self,
        bot: object,
        *,
        room: str,
        token: str,
        table: int,
        seat: int | None = None,
        buy_in: int | None = None,
        ante: int | None = None,
        bonus: int = 0,
        add_chips: bool = True,
        on_hand: Callable[[HandPlayed], None] | None = None,
        give_up_seconds: float = 300.0,
        clock: Clock = time.monotonic,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self.decide = decider(bot)
        self.url = websocket_url(room)
        if not token or not token.isprintable() or " " in token:
            raise InvalidSpec("bad_token", "the bot account's token is missing or malformed")
        self.token, self.table = token, table
        self.wanted_seat, self.buy_in = seat, buy_in
        self.ante, self.bonus, self.add_chips = ante, bonus, add_chips
        self.on_hand = on_hand
        self.give_up_seconds = give_up_seconds
        self.clock, self.sleep = clock, sleep
        self.pacer = Pacer(clock=clock, sleep=sleep)
        self.backoff = Backoff()
        self.hands = self.net = self.reconnects = 0
        #: The room's refusals so far, by code (``rate_limited``, ``out_of_turn``...).
        self.refusals: Counter[str] = Counter()
        self.user: str | None = None
        self.seat: int | None = None
        self._prefix = secrets.token_hex(6)
        self._ids = 0
        self._limit: int | None = None
        self._stopping = asyncio.Event()
        self._ws: Any = None
        # The table as last seen: its snapshot, and the newest event's number.
        self._view: dict[str, Any] | None = None
        self._view_seq = -1
        self._seq = -1
        self._acted_seq = -1
        self._pending: dict[str, Any] | None = None
        self._resend_at: float | None = None
        # After a rate_limited refusal: look again (and ask again) no sooner than this.
        self._wake_at: float | None = None
        self._left = False
        self._reset_requests()

    # ------------------------------------------------------------ the public face

    async def run(self, hands: int | None = None) -> RunSummary:
        """Play until ``hands`` hands are played (``None``: until :meth:`stop`); the result.

        Raises :class:`BotStopped` when the room refuses the bot for good.
        """
        self._limit = hands
        lost_since: float | None = None
        while not self._done():
            try:
                async with websockets.connect(
                    self.url,
                    additional_headers={"Authorization": f"Bearer {self.token}"},
                    open_timeout=30,
                    max_size=2**20,
                ) as ws:
                    self._ws = ws
                    lost_since = None
                    await self._session(ws)
                    if self._done():
                        break
            except InvalidStatus as error:
                raise BotStopped(
                    "handshake_refused", f"the room refused the connection: {error}"
                ) from None
            except ConnectionClosed as error:
                _stop_if_refused(error)
            except (OSError, InvalidHandshake, TimeoutError, _Reconnect):
                pass
            finally:
                self._ws = None
            if self._done():
                break
            now = self.clock()
            lost_since = now if lost_since is None else lost_since
            if now - lost_since > self.give_up_seconds:
                raise BotStopped("unreachable", f"no connection to {self.url} for a while")
            self.reconnects += 1
            await self._pause(self.backoff.next())
        return RunSummary(self.hands, self.net, self.reconnects)

    async def _pause(self, seconds: float) -> None:
        """Wait before dialling again, or less if :meth:`stop` is called meanwhile."""
        pause = asyncio.ensure_future(self.sleep(seconds))
        stopping = asyncio.ensure_future(self._stopping.wait())
        await asyncio.wait({pause, stopping}, return_when=asyncio.FIRST_COMPLETED)
        pause.cancel()
        stopping.cancel()

    def stop(self) -> None:
        """Stand up and end :meth:`run` (safe to call from a signal handler's callback)."""
        self._stopping.set()

    # ------------------------------------------------------------ one connection

    async def _session(self, ws: Any) -> None:
        self._reset_requests()
        # The room's first word: hello, or why the token is refused (then it closes).
        for message in json.loads(await asyncio.wait_for(ws.recv(), 30)):
            self._handle(message)
        if self._seq >= 0:
            await self._send(
                {"type": "resume", "table": self.table, "since": self._seq, "views": True}
            )
        else:
            await self._send({"type": "watch", "table": self.table, "views": True})
        self._refreshing = self._view is None
        if self._pending is not None:
            await self._send(self._pending)  # the same id: applied once whatever happened
        stopping = asyncio.ensure_future(self._stopping.wait())
        try:
            while True:
                receiving = asyncio.ensure_future(ws.recv())
                wakes = [at for at in (self._resend_at, self._wake_at) if at is not None]
                timeout = max(0.0, min(wakes) - self.clock()) if wakes else None
                done, _ = await asyncio.wait(
                    {receiving, stopping}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
                )
                if receiving in done:
                    for message in json.loads(receiving.result()):
                        self._handle(message)
                    self.backoff.reset()
                else:
                    receiving.cancel()
                if self._stopping.is_set():
                    await self._stand_up()
                    return
                if self._wake_at is not None and self.clock() >= self._wake_at:
                    self._wake_at = None
                await self._resend_if_due()
                await self._advance()
                if self._done():
                    return
        finally:
            stopping.cancel()

    async def _stand_up(self) -> None:
        if self.seat is not None:
            await self._send({"type": "leave", "table": self.table})
        self._left = True

    def _done(self) -> bool:
        return self._left or (self._stopping.is_set() and self._ws is None)

    def _reset_requests(self) -> None:
        """What was asked on the last socket and not answered: asked again on this one."""
        self._refreshing = False
        self._sit_sent = False
        self._sit_in_sent = False
        self._wagered: int | None = None
        self._topped_up: int | None = None
        self._sat_out = False
        self._leave_sent = False

    # ------------------------------------------------------------ what the room says

    def _handle(self, message: Mapping[str, Any]) -> None:
        kind = message.get("type")
        if kind == "hello":
            self.user = message.get("user")
            if self.user is None:
                raise BotStopped("login_required", "the room did not sign the token in")
        elif kind == "error":
            self._refused(message)
        elif message.get("table") != self.table:
            return
        elif kind == "snapshot":
            self._view, self._view_seq = message["view"], message["seq"]
            self._seq = max(self._seq, message["seq"])
            self._refreshing = False
            self._find_seat()
        elif kind == "event":
            self._seq = max(self._seq, message["seq"])
            if message["event"] is not None:
                self._event(message["event"])
        elif kind == "window" and self._view is not None:
            # A window opened by the room's timer comes with no snapshot: note it in the view.
            self._view["window"] = {"open": message["open"], "placed": []}
        elif kind == "ack" and self._pending is not None and message["id"] == self._pending["id"]:
            self._pending = self._resend_at = None
            self.pacer.accepted()

    def _refused(self, message: Mapping[str, Any]) -> None:
        code, text = str(message.get("code")), str(message.get("message", ""))
        self.refusals[code] += 1
        if code in FATAL:
            raise BotStopped(code, text)
        mine = self._pending is not None and message.get("id") == self._pending["id"]
        if code == "rate_limited":
            # The room names no id here (it read nothing of the message): an act still
            # unanswered may be the refused one, and sending it again is safe.
            pause = self.pacer.refused()
            if self._pending is not None:
                self._resend_at = self.clock() + pause
            self._reset_requests()  # whatever was refused is asked again after the pause
            self._wake_at = self.clock() + pause
            return
        if code == "table_moved":
            raise _Reconnect
        if mine:
            log.info("table %s: act %s refused: %s [%s]", self.table, message["id"], text, code)
            self._pending = self._resend_at = None  # the next snapshot decides
            return
        if self._sit_sent and self.seat is None:
            if code == "seat_taken" and self.wanted_seat is None:
                self._sit_sent = False  # another seat, from the next snapshot
                return
            if code == "seat_taken" or code in _SIT_FATAL:
                raise BotStopped(code, text)
            self._sit_sent = False  # the table was away, say: ask again from the next snapshot
        if code == "insufficient_funds":
            self.add_chips = False
        log.info("table %s: refused: %s [%s]", self.table, text, code)

    def _event(self, event: Mapping[str, Any]) -> None:
        kind = event["type"]
        if kind == "player_sat" and event["player"] == self.user:
            self.seat = event["seat"]
        elif kind == "player_left" and event["seat"] == self.seat:
            self.seat = None
            if self._leave_sent:
                self._left = True
        elif kind == "table_hand_ended" and self.seat is not None and self.seat in event["seats"]:
            index = event["seats"].index(self.seat)
            net, stack = event["net"][index], event["stacks"][index]
            self.hands += 1
            self.net += net
            if self.on_hand is not None:
                self.on_hand(HandPlayed(self.table, event["number"], self.seat, net, stack))

    def _find_seat(self) -> None:
        assert self._view is not None
        mine = [
            entry["seat"]
            for entry in self._view["seats"]
            if entry is not None and entry["player"] == self.user
        ]
        self.seat = mine[0] if mine else None
        if self.seat is None and self._leave_sent:
            self._left = True

    # ------------------------------------------------------------ what to do now

    async def _advance(self) -> None:
        view = self._view
        if self._refreshing or self._wake_at is not None:
            return
        if view is None or self._seq > self._view_seq:
            # No snapshot yet (the watch was refused), or events past it (a resume replayed
            # them): ask for the table as it is.
            self._refreshing = True
            await self._send({"type": "watch", "table": self.table, "views": True})
            return
        if self.seat is None:
            if self._finishing():
                self._left = True  # stood up (or never sat): the run is over
            elif not self._sit_sent:
                await self._sit(view)
            return
        entry = view["seats"][self.seat]
        hand = view["hand"]
        dealt = hand is not None and self.seat in hand["hand_seats"]
        if self._finishing():
            if not self._leave_sent:  # a hand dealt meanwhile is folded for the leaver
                self._leave_sent = True
                await self._send({"type": "leave", "table": self.table})
        elif self._limit is not None and dealt and self.hands == self._limit - 1:
            if not self._sat_out:  # the last hand is running: be dealt no more after it
                self._sat_out = True
                await self._send({"type": "sit_out", "table": self.table})
        elif entry["sitting_out"] and not entry["leaving"] and not self._sit_in_sent:
            self._sit_in_sent = True
            await self._send({"type": "sit_in", "table": self.table})
        if not dealt:
            await self._between_hands(view, entry)
            return
        own = hand["mine"].get(str(self.seat)) or {}
        mine_to_act = hand["to_act"] == self.seat and own.get("decision")
        if mine_to_act and self._pending is None and self._view_seq > self._acted_seq:
            await self._act(Decision.from_snapshot(self.table, self._view_seq, view, self.seat))

    def _finishing(self) -> bool:
        return self._limit is not None and self.hands >= self._limit

    async def _sit(self, view: Mapping[str, Any]) -> None:
        free = [n for n, entry in enumerate(view["seats"]) if entry is None]
        seat = self.wanted_seat
        if seat is None:
            if not free:
                raise BotStopped("table_full", f"table {self.table} has no free seat")
            seat = free[0]
        info = view.get("table") or {}
        amount = self.buy_in if self.buy_in is not None else int(info.get("min_buy_in", 1))
        self._sit_sent = True
        await self._send({"type": "sit", "table": self.table, "seat": seat, "buy_in": amount})

    async def _between_hands(self, view: Mapping[str, Any], entry: Mapping[str, Any]) -> None:
        info = view.get("table") or {}
        played = int(view["hands_played"])
        casino = view["game"] == "casino-holdem"
        ante = self.ante if self.ante is not None else int(info.get("spec", {}).get("min_ante", 1))
        stake = 3 * ante + self.bonus if casino else 1
        if self.add_chips and entry["stack"] < stake and self._topped_up != played:
            target = self.buy_in if self.buy_in is not None else int(info.get("min_buy_in", 1))
            room = int(info.get("max_buy_in", target)) - entry["stack"]
            amount = min(max(target, stake) - entry["stack"], room)
            if amount > 0:
                self._topped_up = played
                await self._send(
                    {"type": "add_chips", "table": self.table, "seat": self.seat, "amount": amount}
                )
        window = view.get("window")
        placing = casino and window and window["open"] and self.seat not in window["placed"]
        if placing and self._wagered != played and not self._finishing():
            self._wagered = played
            wager = {"table": self.table, "seat": self.seat, "ante": ante, "bonus": self.bonus}
            await self._send({"type": "wager", **wager})

    async def _act(self, decision: Decision) -> None:
        legal = decision.legal
        try:
            answer = await asyncio.to_thread(self.decide, decision)
            action = checked(answer, legal)
        except PokerError as error:
            log.warning(
                "table %s: the bot's answer is refused (%s): the default", self.table, error
            )
            action = default_action(legal)
        except Exception:
            log.exception("table %s: the bot failed: the default action instead", self.table)
            action = default_action(legal)
        self._ids += 1
        message = {
            "type": "act",
            "table": self.table,
            "hand": decision.hand,
            "action": action,
            "id": f"{self._prefix}-{self._ids}",
        }
        self._pending, self._acted_seq = message, decision.seq
        self._resend_at = self.clock() + UNANSWERED_SECONDS
        await self._send(message)

    async def _resend_if_due(self) -> None:
        due = self._resend_at is not None and self.clock() >= self._resend_at
        if due and self._pending is not None:
            self._resend_at = self.clock() + UNANSWERED_SECONDS
            await self._send(self._pending)

    async def _send(self, message: Mapping[str, Any]) -> None:
        await self.pacer.wait()
        ws = self._ws
        if ws is not None:
            await ws.send(json.dumps(message))
