"""Table writes and hand records as values, checked before any statement runs.

The server writes a hand as it goes: a :class:`HandStart` (spec, seats, deck),
one :class:`ActionRecord` per accepted action, and a :class:`HandFinish`
(results, rake, history) or a :class:`HandVoid`; and every chip that comes
to a table or leaves it: a :class:`SeatIn` (a buy-in, chips added) and a
:class:`SeatOut` (a cash-out). Any mix of them, for any number of tables,
goes into one :class:`Batch` and one database transaction (group commit),
each write carrying its table's lease (the fencing token: a stale one is
refused). Hands are named by ``(table_id, number)``, which the table's task
always knows, so a start and the actions after it can share a commit.

A :class:`HandLog` carries the deck order and seed: it is for the server
alone (resuming a hand) and never for a client. :class:`HandRecord`, the
read model, leaves them out.

>>> from pokerhouse.cards import Deck
>>> import random
>>> order = [str(card) for card in Deck(random.Random(1)).order()]
>>> start = HandStart(1, 1, "3x4", {}, {}, [(0, 1, 100), (1, 2, 100)], order, 1)
>>> start.checked().seats[1]
HandSeat(table_seat=1, user_id=2, stack=100)
>>> ActionRecord(1, 1, 0, 0, "raise", 1.5).checked()
Traceback (most recent call last):
...
pokerhouse.store.errors.HandLogError: an action amount is a whole number or None, not 1.5
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pokerhouse.cards import FULL_DECK
from pokerhouse.engine.actions import Action, ActionKind
from pokerhouse.errors import PokerError
from pokerhouse.games import get_game
from pokerhouse.history.figures import FIELDS
from pokerhouse.store.accounts import Transaction
from pokerhouse.store.errors import HandLogError, LedgerError
from pokerhouse.store.ledger import MAX_CHIPS, check_key

_KINDS = frozenset(kind.value for kind in ActionKind)
_CARD_NAMES = frozenset(str(card) for card in FULL_DECK)
_MAX_REASON = 500
_MAX_INT64 = 2**63 - 1
_MAX_CLIENT_ID = 64

HandKey = tuple[int, int]


@dataclass(frozen=True, slots=True)
class HandSeat:
    """A seat dealt into a hand: the table seat, its player and the stack it started with."""

    table_seat: int
    user_id: int
    stack: int


@dataclass(frozen=True, slots=True)
class HandStart:
    """A hand about to be dealt: everything that re-creates it, the deck included.

    ``seats`` are in hand-seat order (``(table_seat, user_id, stack)``
    triples or :class:`HandSeat`); ``deck_order`` is the full deck, top card
    first, and ``deck_seed`` seeds the RNG of later reshuffles;
    ``start_seq`` is the table's message sequence number at the hand's start.
    ``lease`` is the table's fencing token (``None``: never leased).
    """

    table_id: int
    number: int
    game: str
    spec: Mapping[str, Any]
    setup: Mapping[str, Any]
    seats: Sequence[HandSeat | tuple[int, int, int]]
    deck_order: Sequence[str]
    deck_seed: int
    start_seq: int = 0
    lease: int | None = None

    def checked(self) -> HandStart:
        """This start with canonical values; :class:`HandLogError` ``bad_hand`` if malformed."""
        _ids(self.table_id, self.number, self.lease)
        try:
            game = get_game(self.game).name if isinstance(self.game, str) else get_game("?").name
        except PokerError as error:
            raise HandLogError("bad_hand", f"hand {self.number}: {error}") from None
        order = tuple(self.deck_order) if isinstance(self.deck_order, (list, tuple)) else ()
        # A set lookup per card: parsing 52 cards would cost more than the whole write.
        if len(order) != 52 or len(set(order)) != 52 or not _CARD_NAMES.issuperset(order):
            raise HandLogError(
                "bad_hand", "a deck order is the 52 cards, each once, as text like 'As' or 'Td'"
            )
        _int(self.deck_seed, "deck seed", -_MAX_INT64, _MAX_INT64)
        _int(self.start_seq, "start sequence number", 0, _MAX_INT64)
        seats = tuple(_seat(seat) for seat in self.seats)
        if not 1 <= len(seats) <= 10 or len({s.table_seat for s in seats}) != len(seats):
            raise HandLogError("bad_hand", "a hand has 1 to 10 seats, each table seat once")
        return dataclasses.replace(
            self,
            game=game,
            spec=_json_object(self.spec, "spec"),
            setup=_json_object(self.setup, "setup"),
            seats=seats,
            deck_order=order,
        )


@dataclass(frozen=True, slots=True)
class ActionRecord:
    """One accepted action: the hand, its sequence number (0 for the first) and the action."""

    table_id: int
    number: int
    seq: int
    seat: int
    kind: str
    amount: int | None = None
    lease: int | None = None
    #: Whose action it was, and the client's own id for it (unique per hand and user).
    user_id: int | None = None
    client_id: str | None = None

    @staticmethod
    def of(table_id: int, number: int, seq: int, seat: int, action: Action) -> ActionRecord:
        """The record of an engine :class:`Action`."""
        return ActionRecord(table_id, number, seq, seat, action.kind.value, action.amount)

    def checked(self) -> ActionRecord:
        """This record if well formed; :class:`HandLogError` ``bad_action`` otherwise."""
        _ids(self.table_id, self.number, self.lease)
        _int(self.seq, "action sequence number", 0, 100_000, code="bad_action")
        _int(self.seat, "action seat", 0, 9, code="bad_action")
        if self.kind not in _KINDS:
            raise HandLogError("bad_action", f"unknown action kind {self.kind!r}")
        amount = self.amount
        if amount is not None and (type(amount) is not int or abs(amount) > MAX_CHIPS):
            raise HandLogError(
                "bad_action", f"an action amount is a whole number or None, not {amount!r}"
            )
        if self.user_id is not None:
            _int(self.user_id, "action user id", 1, _MAX_INT64, code="bad_action")
        client = self.client_id
        if client is not None and (
            not isinstance(client, str)
            or not 1 <= len(client) <= _MAX_CLIENT_ID
            or not client.isprintable()
            or self.user_id is None
        ):
            raise HandLogError(
                "bad_action",
                f"a client id is 1 to {_MAX_CLIENT_ID} printable characters, with its user",
            )
        return self


@dataclass(frozen=True, slots=True)
class HandFinish:
    """A hand's end: each hand seat's chip change after rake, the rake, the house's
    result (Casino Hold'em) and the JSON history. The results, rake and house
    result sum to zero. ``figures``, when given, are each hand seat's play
    counters (:data:`pokerhouse.history.figures.FIELDS`, in order), summed into
    its player's statistics with the settlement."""

    table_id: int
    number: int
    results: Sequence[int]
    rake: int = 0
    house_result: int = 0
    history: str | None = None
    lease: int | None = None
    figures: Sequence[Sequence[int]] | None = None

    def checked(self) -> HandFinish:
        """This finish if well formed and balanced; :class:`HandLogError` ``bad_results``."""
        _ids(self.table_id, self.number, self.lease)
        results = tuple(self.results) if isinstance(self.results, Sequence) else ()
        for value in (*results, self.house_result):
            _int(value, "a result", -MAX_CHIPS, MAX_CHIPS, code="bad_results")
        _int(self.rake, "the rake", 0, MAX_CHIPS, code="bad_results")
        if not results:
            raise HandLogError("bad_results", "a finished hand has one result per seat")
        total = sum(results) + self.rake + self.house_result
        if total != 0:
            raise HandLogError(
                "bad_results", f"results, rake and house result sum to {total}, not zero"
            )
        history = self.history
        # The server writes it (history.to_json); a look at its ends, not a parse,
        # which would cost more than the rest of the settlement's checks.
        if history is not None and (
            not isinstance(history, str)
            or not history.lstrip().startswith("{")
            or not history.rstrip().endswith("}")
        ):
            raise HandLogError("bad_results", "a hand history is the text of a JSON object")
        return HandFinish(
            self.table_id,
            self.number,
            results,
            self.rake,
            self.house_result,
            history,
            self.lease,
            _figures(self.figures, len(results)),
        )


def _figures(
    figures: Sequence[Sequence[int]] | None, seats: int
) -> tuple[tuple[int, ...], ...] | None:
    """Figures of ``seats`` hand seats, checked: one row of counters a seat."""
    if figures is None:
        return None
    rows = tuple(figures) if isinstance(figures, Sequence) else ()
    if len(rows) != seats:
        raise HandLogError("bad_results", "a finished hand has one row of figures per seat")
    checked = []
    for row in rows:
        values = tuple(row) if isinstance(row, Sequence) else ()
        if len(values) != len(FIELDS):
            raise HandLogError("bad_results", f"a seat's figures are {len(FIELDS)} counters")
        for value in values:
            _int(value, "a figure", 0, MAX_CHIPS, code="bad_results")
        checked.append(values)
    return tuple(checked)


@dataclass(frozen=True, slots=True)
class HandVoid:
    """A hand that cannot go on: nothing is settled and every chip stays where it was."""

    table_id: int
    number: int
    reason: str
    lease: int | None = None

    def checked(self) -> HandVoid:
        """This void if well formed; :class:`HandLogError` ``bad_hand`` otherwise."""
        _ids(self.table_id, self.number, self.lease)
        reason = self.reason
        if not isinstance(reason, str) or not 1 <= len(reason) <= _MAX_REASON:
            raise HandLogError("bad_hand", f"a void reason is 1 to {_MAX_REASON} characters")
        if not reason.isprintable():
            raise HandLogError("bad_hand", "a void reason is printable text")
        return self


@dataclass(frozen=True, slots=True)
class SeatIn:
    """Chips from ``user_id``'s wallet to a seat: a buy-in that seats them (``add``
    false) or chips added to the seat they hold (``add`` true), between hands.

    ``key`` is the ledger transaction's idempotency key. ``fund`` (the room's
    own bots) first tops the wallet up from the issuer to ``amount`` if it
    holds less (a ``top-up`` under ``key`` + ``:fund``).
    """

    table_id: int
    seat: int
    user_id: int
    amount: int
    key: str
    lease: int | None = None
    add: bool = False
    fund: bool = False

    def checked(self) -> SeatIn:
        """This move if well formed; :class:`HandLogError` ``bad_seat_move`` otherwise."""
        _seat_move(self.table_id, self.seat, self.user_id, self.key, self.lease)
        _int(self.amount, "a buy-in", 1, MAX_CHIPS, code="bad_seat_move")
        if type(self.add) is not bool or type(self.fund) is not bool:
            raise HandLogError("bad_seat_move", "add and fund are True or False")
        return self


@dataclass(frozen=True, slots=True)
class SeatOut:
    """``user_id`` stands up from a seat holding ``chips``; they go back to the wallet.

    ``chips`` must be what the seat holds once the rest of the batch is
    written (a settlement before it included): a mismatch is refused.
    """

    table_id: int
    seat: int
    user_id: int
    chips: int
    key: str
    lease: int | None = None

    def checked(self) -> SeatOut:
        """This move if well formed; :class:`HandLogError` ``bad_seat_move`` otherwise."""
        _seat_move(self.table_id, self.seat, self.user_id, self.key, self.lease)
        _int(self.chips, "a stack", 0, MAX_CHIPS, code="bad_seat_move")
        return self


@dataclass(frozen=True, slots=True)
class Batch:
    """Table writes for one commit, written in this order: chips to seats, hand starts,
    actions, finishes, voids, then cash-outs.

    ``verified`` says every item is a checked one (:meth:`checked` made it): a
    batch is checked once on its way to the database, however many hands it
    passes through.
    """

    starts: Sequence[HandStart] = ()
    actions: Sequence[ActionRecord] = ()
    finishes: Sequence[HandFinish] = ()
    voids: Sequence[HandVoid] = ()
    seats_in: Sequence[SeatIn] = ()
    seats_out: Sequence[SeatOut] = ()
    verified: bool = field(default=False, repr=False, compare=False)

    def checked(self) -> Batch:
        """Every item checked (the first bad one raises)."""
        if self.verified:
            return self
        return Batch(
            _checked(self.starts),
            _checked(self.actions),
            _checked(self.finishes),
            _checked(self.voids),
            _checked(self.seats_in),
            _checked(self.seats_out),
            verified=True,
        )

    def __len__(self) -> int:
        return (
            len(self.starts)
            + len(self.actions)
            + len(self.finishes)
            + len(self.voids)
            + len(self.seats_in)
            + len(self.seats_out)
        )

    @staticmethod
    def merged(batches: Sequence[Batch]) -> Batch:
        """One batch holding every write of ``batches``, each kind in their order."""
        if len(batches) == 1:
            return batches[0]
        return Batch(
            [item for batch in batches for item in batch.starts],
            [item for batch in batches for item in batch.actions],
            [item for batch in batches for item in batch.finishes],
            [item for batch in batches for item in batch.voids],
            [item for batch in batches for item in batch.seats_in],
            [item for batch in batches for item in batch.seats_out],
            verified=all(batch.verified for batch in batches),
        )


_Item = TypeVar("_Item", HandStart, ActionRecord, HandFinish, HandVoid, SeatIn, SeatOut)


def _checked(items: Sequence[_Item]) -> tuple[_Item, ...]:
    # Most kinds are empty in most batches: no generator for them.
    return tuple([item.checked() for item in items]) if items else ()


@dataclass(frozen=True, slots=True)
class BatchResult:
    """What a commit did: the new hands' ids and the settlements it posted."""

    hand_ids: dict[HandKey, int] = field(default_factory=dict)
    settlements: dict[HandKey, Transaction] = field(default_factory=dict)
    #: Each seat move's transaction by its key (``None``: a cash-out of an empty stack).
    moves: dict[str, Transaction | None] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class LoggedAction:
    """An action as logged."""

    seq: int
    seat: int
    kind: str
    amount: int | None
    user_id: int | None = None
    client_id: str | None = None


@dataclass(frozen=True, slots=True)
class HandLog:
    """A hand's full log, deck included: for the server to resume the hand. Never send it."""

    id: int
    table_id: int
    number: int
    game: str
    spec: dict[str, Any]
    setup: dict[str, Any]
    seats: tuple[HandSeat, ...]
    deck_order: tuple[str, ...]
    deck_seed: int
    start_seq: int
    status: str
    actions: tuple[LoggedAction, ...]


@dataclass(frozen=True, slots=True)
class StoredHand:
    """A hand as the room may show it: no deck order, no seed."""

    id: int
    table_id: int
    number: int
    game: str
    spec: dict[str, Any]
    setup: dict[str, Any]
    seats: tuple[HandSeat, ...]
    results: tuple[int, ...] | None
    start_seq: int
    status: str
    started_at: float
    finished_at: float | None
    rake: int | None
    house_result: int | None
    history: str | None
    void_reason: str | None
    settlement_id: int | None
    actions: tuple[LoggedAction, ...]


@dataclass(frozen=True, slots=True)
class HandSummary:
    """One line of a player's hands: where, when, and what they won or lost."""

    id: int
    table_id: int
    number: int
    game: str
    status: str
    started_at: float
    finished_at: float | None
    result: int | None


def summary_of(row: Sequence[Any]) -> HandSummary:
    """A :class:`HandSummary` from a row of (id, table, number, game, status, started,
    finished, result); the result only of a finished hand."""
    result = None if row[4] != "finished" or row[7] is None else int(row[7])
    return HandSummary(
        int(row[0]), int(row[1]), int(row[2]), row[3], row[4], float(row[5]), row[6], result
    )


def _ids(table_id: object, number: object, lease: object) -> None:
    _int(table_id, "table id", 1, _MAX_INT64)
    _int(number, "hand number", 1, _MAX_INT64)
    if lease is not None:
        _int(lease, "lease token", 0, _MAX_INT64)


def _seat_move(table_id: object, seat: object, user_id: object, key: object, lease: object) -> None:
    _int(table_id, "table id", 1, _MAX_INT64, code="bad_seat_move")
    _int(seat, "seat", 0, 99, code="bad_seat_move")
    _int(user_id, "user id", 1, _MAX_INT64, code="bad_seat_move")
    if lease is not None:
        _int(lease, "lease token", 0, _MAX_INT64, code="bad_seat_move")
    try:
        check_key(key)
    except LedgerError as error:
        raise HandLogError("bad_seat_move", str(error)) from None


def _int(value: object, what: str, low: int, high: int, *, code: str = "bad_hand") -> None:
    if type(value) is not int or not low <= value <= high:
        raise HandLogError(
            code, f"{what} must be a whole number from {low} to {high}, not {value!r}"
        )


def _seat(seat: object) -> HandSeat:
    if isinstance(seat, HandSeat):
        seat = (seat.table_seat, seat.user_id, seat.stack)
    if not isinstance(seat, (tuple, list)) or len(seat) != 3:
        raise HandLogError("bad_hand", f"a hand seat is (table_seat, user_id, stack), not {seat!r}")
    table_seat, user_id, stack = seat
    _int(table_seat, "table seat", 0, 99)
    _int(user_id, "user id", 1, _MAX_INT64)
    _int(stack, "stack", 1, MAX_CHIPS)
    return HandSeat(table_seat, user_id, stack)


def _json_object(value: object, what: str) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        raise HandLogError("bad_hand", f"the {what} is a JSON object")
    try:
        json.dumps(value, allow_nan=False)  # encodable: the unit encodes it again
        return dict(value)
    except (TypeError, ValueError) as error:
        raise HandLogError("bad_hand", f"the {what} is not plain JSON: {error}") from None


def encode(value: Mapping[str, Any]) -> str:
    """Compact, sorted JSON text."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True)
