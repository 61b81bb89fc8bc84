"""Every path a card takes to a viewer agrees with the one rule, and the rule with RULES.md.

:func:`pokerhouse.engine.visibility.shown_to` decides what a viewer is shown
of an event or of a seat's cards. Random hands of every game are played at a
:class:`~pokerhouse.table.Table` with players (one account holding several
Casino Hold'em boxes), a spectator, an account that never sits and, between
hands, a newcomer in a seat someone left. At every step:

- **the rule itself**, against an oracle written from RULES.md "Information"
  alone (not from the events' declarations): each viewer sees its own hole
  cards (a Teen Patti player once it looks), every face-up card, every card
  shown at showdown and, in a sideshow, the other player's; never another's
  hidden card, a mucked card, a burned or undealt one; a spectator no hole
  card until it is shown. The state (``Hand.cards_for``) must equal the
  oracle card for card, and every event ``shown_to`` gives must hold no card
  outside it, nor tell of a box's hidden cards (an AA Bonus's outcome and
  the hand's name) to anyone who may not see them;
- **live frames**: each address gets exactly ``shown_to(event, seats its
  account held when it happened)``, encoded, as the outbox sends them;
- **snapshots** (a fresh one after every step): every card is the rule's for
  the account's seats now, and the bot client's rebuilt view
  (:func:`pokerhouse.client.rebuild.rebuild_view`) holds the same cards.

After each hand, the JSON history of each seat, of each account's seats and
of a spectator (the hand API's copy, and what its equity is counted from)
holds exactly the rule's events and the rule's final cards; its text and PHH
forms and the equity hold no other card. At the end, ``resume`` from an
arbitrary sequence number replays the rule's frames to every address, the
newcomer included, and ``Table.since`` gives the same events.

``POKERHOUSE_VISIBILITY_EXAMPLES`` random tables a game (default 60, each of
two to four hands: about 160 hands a game). A last test holds the outbox to
one decision and one encoding per audience of an event, however many watch.
"""

from __future__ import annotations

import json
import os
import random
import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerhouse.analysis.equity import equity_by_street
from pokerhouse.cards import Card
from pokerhouse.client.rebuild import rebuild_view
from pokerhouse.engine.actions import Action, ActionKind, LegalActions
from pokerhouse.engine.events import (
    DEALER,
    BoardDealt,
    CardsDealt,
    Event,
    HandShown,
)
from pokerhouse.engine.hand import Hand
from pokerhouse.engine.visibility import Viewer, shown_to
from pokerhouse.games.casino_holdem import BonusSettled, CasinoHoldemView
from pokerhouse.games.teen_patti import CardsLooked, SideshowCompared
from pokerhouse.history.json_history import from_json, record, to_json
from pokerhouse.history.phh import to_phh
from pokerhouse.history.text import to_text
from pokerhouse.server.socket import outgoing
from pokerhouse.server.table import outbox as outbox_module
from pokerhouse.server.table.outbox import Outbox
from pokerhouse.table import (
    Act,
    AddChips,
    Leave,
    Logged,
    SetWager,
    Sit,
    StartHand,
    Table,
    TableLimits,
)
from tests.helpers import random_action

EXAMPLES = int(os.environ.get("POKERHOUSE_VISIBILITY_EXAMPLES", "60"))
TABLE_ID = 1
SPECTATOR, STRANGER, NEWCOMER = 900, 901, 902
CARD = re.compile(r"^[2-9TJQKA][cdhs]$")

OPTIONS: dict[str, dict[str, Any]] = {
    "3x4": {"ante": 1, "small_bet": 2},
    "razz": {"ante": 1, "bring_in": 1, "small_bet": 2, "big_bet": 4},
    "teen-patti": {"ante": 1, "sideshow": True},
    "casino-holdem": {"min_ante": 1, "max_ante": 20, "max_payout": 500},
}


# ---------------------------------------------------------------- the rule, from RULES.md


@dataclass
class Oracle:
    """What one viewer (hand seats; empty: a spectator) may know of a hand, event by event.

    Written from RULES.md, not from the events' own declarations: a card is
    known when it is face up, the viewer's own and not a blind Teen Patti
    hand's, the viewer's own after it looks, shown to everybody, or shown to
    the viewer in a sideshow it took part in. The dealer's hole cards are
    nobody's until shown.
    """

    game: str
    seats: frozenset[int]
    held: dict[int, list[Card]] = field(default_factory=dict)
    known: dict[int, list[bool]] = field(default_factory=dict)
    board: list[Card] = field(default_factory=list)

    def learn(self, event: Event) -> None:
        """Take in one server-side event."""
        if isinstance(event, CardsDealt):
            cards = [card for card in event.cards if card is not None]
            own = event.seat in self.seats and event.seat != DEALER and self.game != "teen-patti"
            self.held.setdefault(event.seat, []).extend(cards)
            self.known.setdefault(event.seat, []).extend(up or own for up in event.face_up)
        elif isinstance(event, BoardDealt):
            self.board.extend(event.cards)
        else:
            for seat in self._shown(event):
                self._reveal(seat)

    def _shown(self, event: Event) -> list[int]:
        """The seats whose hidden cards ``event`` shows this viewer."""
        if isinstance(event, HandShown):  # shown at showdown: to everybody
            return [event.seat]
        if isinstance(event, CardsLooked) and event.seat in self.seats:  # a Teen Patti look
            return [event.seat]
        pair = [event.asker, event.target] if isinstance(event, SideshowCompared) else []
        return pair if self.seats.intersection(pair) else []  # a sideshow: to its two players

    def _reveal(self, seat: int) -> None:
        self.known[seat] = [True] * len(self.held[seat])

    def cards(self, seat: int) -> tuple[Card | None, ...]:
        """Seat ``seat``'s cards as the viewer may know them."""
        return tuple(
            card if known else None
            for card, known in zip(self.held.get(seat, ()), self.known.get(seat, ()), strict=True)
        )

    @property
    def allowed(self) -> set[Card]:
        """Every card the viewer may know now."""
        found = set(self.board)
        for seat in self.held:
            found.update(card for card in self.cards(seat) if card is not None)
        return found


def viewer_of(seats: frozenset[int]) -> Viewer:
    """The engine's viewer for a set of hand seats: ``None`` for none, an int for one."""
    if not seats:
        return None
    return next(iter(seats)) if len(seats) == 1 else seats


def cards_of(value: Any) -> Iterator[Card]:
    """Every card in a value: engine objects, tuples, or JSON with cards as text."""
    if isinstance(value, Card):
        yield value
    elif isinstance(value, str):
        if CARD.match(value):
            yield Card.parse(value)
    elif isinstance(value, dict):
        for item in value.values():
            yield from cards_of(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from cards_of(item)
    elif isinstance(value, Event):
        yield from cards_of([getattr(value, name) for name in value.__dataclass_fields__])


def text(cards: tuple[Card | None, ...]) -> list[str | None]:
    return [None if card is None else str(card) for card in cards]


# ---------------------------------------------------------------- a table and its outbox


@dataclass
class Room:
    """A table, its outbox as the table task drives it, and each address's messages.

    An address is its account's number (the spectator's account is ``None``).
    """

    table: Table
    accounts: dict[int, int | None]
    outbox: Outbox = field(init=False)
    got: dict[int, list[bytes]] = field(default_factory=dict)
    read: dict[int, int] = field(default_factory=dict)
    #: Each event's number -> the table seats each account held when it happened.
    held: dict[int, dict[int, frozenset[int]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.outbox = Outbox(TABLE_ID, self.deliver, keep=1_000_000)
        for address, account in self.accounts.items():
            self.watch(address, account)

    def deliver(self, address: int, messages: Any) -> None:
        self.got.setdefault(address, []).extend(messages)

    def watch(self, address: int, account: int | None) -> None:
        self.accounts[address] = account
        self.outbox.add(address, account, views=True)
        self.read[address] = len(self.got.get(address, []))

    def apply(self, command: Any) -> tuple[Logged, ...]:
        """One step, sent as the table task sends it; its frames checked."""
        # Seats change hands only between hands: as held before the step, as held at each event.
        before = {a: self.table.seats_of_account(a) for a in self.accounts.values() if a}
        step = self.table.apply(command)
        self.held.update((logged.seq, before) for logged in step)
        if self.outbox.events(step):
            self.outbox.private(self.table)
        self.outbox.views(self.table, {})
        self.outbox.flush()
        for address, account in self.accounts.items():
            messages = [json.loads(raw) for raw in self.new(address)]
            frames = [m for m in messages if m["type"] == "event"]
            assert frames == [expected(logged, account) for logged in step], (address, account)
            (snapshot,) = [m for m in messages if m["type"] == "snapshot"]
            check_snapshot(self.table, snapshot["view"], account)
        return tuple(step)

    def new(self, address: int) -> list[bytes]:
        got = self.got.get(address, [])
        start, self.read[address] = self.read[address], len(got)
        return got[start:]


def expected(logged: Logged, account: int | None) -> Any:
    """The frame an account's address is sent: the event as the seats it held then see it."""
    shown = shown_to(logged.event, logged.viewer(account))
    encoded = None if shown is None else outgoing.encode_event(shown)
    frame = outgoing.EventFrame(table=TABLE_ID, seq=logged.seq, event=encoded)
    return json.loads(outgoing.encode(frame))


def hand_viewer(table: Table, account: int | None) -> frozenset[int]:
    """The running hand's seats ``account`` holds now."""
    if account is None:
        return frozenset()
    held = table.seats_of_account(account)
    return frozenset(i for i, seat in enumerate(table.hand_seats) if seat in held)


def check_snapshot(table: Table, view: dict[str, Any], account: int | None) -> None:
    """A snapshot's cards, and the bot client's rebuilt view, are the rule's."""
    hand = table.hand
    if hand is None:
        assert view["hand"] is None
        return
    seats = hand_viewer(table, account)
    cards = hand.cards_for(viewer_of(seats))
    for index, seat in enumerate(table.hand_seats):
        assert view["seats"][seat]["cards"] == text(cards[index]), (seat, account)
    if isinstance(public := hand.view(None), CasinoHoldemView):
        assert view["hand"]["facts"]["dealer_cards"] == text(public.dealer_cards)
    mine: list[int | None] = [table.hand_seats[index] for index in seats]
    for holder in mine or [None]:
        rebuilt = rebuild_view(view, holder)
        assert rebuilt.cards == cards
        if holder is not None and len(seats) == 1:
            assert rebuilt == hand.view(table.hand_seats.index(holder))


# ---------------------------------------------------------------- the rule at every step


def check_rule(hand: Hand, viewers: list[frozenset[int]], cursors: dict[Any, Any]) -> None:
    """The state and every new event, for each viewer, against the RULES.md oracle."""
    for seats in viewers:
        oracle, cursor = cursors.get(seats) or (Oracle(hand.game, seats), 0)
        viewer = viewer_of(seats)
        for event in hand.events[cursor:]:
            oracle.learn(event)
            shown = shown_to(event, viewer)
            leaked = set(cards_of(shown)) - oracle.allowed
            assert not leaked, f"{viewer} is shown {sorted(map(str, leaked))} in {shown}"
            if isinstance(shown, BonusSettled):
                # Whether a box's cards made a pair of aces, and their name, tell of them.
                assert None not in oracle.cards(shown.seat), f"{viewer} is shown {shown}"
        cursors[seats] = (oracle, len(hand.events))
        cards = hand.cards_for(viewer)
        assert cards == tuple(oracle.cards(seat) for seat in range(hand.players)), viewer
        if not isinstance(viewer, frozenset):  # the engine's own views: one seat or none
            view = hand.view(viewer)
            assert view.cards == cards
            if viewer is not None:
                assert hand.own_cards(viewer) == (cards[viewer], view.board)
            if isinstance(view, CasinoHoldemView):
                assert view.dealer_cards == oracle.cards(DEALER)


def check_histories(hand: Hand, viewers: list[frozenset[int]], equity: bool) -> None:
    """Each viewer's copy of the finished hand: the rule's events and its final cards."""
    for seats in viewers:
        viewer = viewer_of(seats)
        oracle = Oracle(hand.game, seats)
        for event in hand.events:
            oracle.learn(event)
        copy = record(hand, viewer)
        events = [shown_to(event, viewer) for event in hand.events]
        assert copy.events == tuple(event for event in events if event is not None)
        assert dict(copy.cards) == {seat: oracle.cards(seat) for seat in copy.cards}
        assert set(copy.cards) == set(oracle.held)
        assert from_json(to_json(hand, viewer)) == copy
        document = copy.to_dict()
        allowed = {str(card) for card in oracle.allowed}
        assert {str(card) for card in cards_of(document)} <= allowed
        words = set(re.findall(r"\b[2-9TJQKA][cdhs]\b", to_text(hand, viewer)))
        assert words <= allowed, viewer
        if hand.game == "razz":
            actions = tomllib.loads(to_phh(hand, seat=viewer))["actions"]
            written = {
                token[i : i + 2]
                for line in actions
                for token in line.split()
                if re.fullmatch(r"([2-9TJQKA?][cdhs?])+", token)
                for i in range(0, len(token), 2)
            }
            assert written - {"??"} <= allowed, viewer
        if equity:
            streets = equity_by_street(document, samples=100)
            assert {str(c) for c in cards_of([s.to_dict() for s in streets])} <= allowed


# ---------------------------------------------------------------- driving random hands


def seat_players(game: str, rng: random.Random) -> Room:
    """A table's room with its players seated (one account a person) and watching."""
    table = Table(
        game,
        seats=6,
        options=OPTIONS[game],
        limits=TableLimits(1, 1000),
        rng=random.Random(rng.getrandbits(64)),
        log_size=None,
        hand_options=({"manual_showdown": rng.random() < 0.5} if game in ("3x4", "razz") else None),
    )
    room = Room(table, {SPECTATOR: None, STRANGER: STRANGER})
    seats = rng.sample(range(6), rng.randint(2, 5))
    people = [(seat, 1 + n) for n, seat in enumerate(seats)]
    if game == "casino-holdem":
        # One person holds up to three boxes: an account that sees several seats.
        people = [(seat, 1 if n < 3 else 2 + n) for n, seat in enumerate(seats)]
    for seat, account in people:
        if account not in room.accounts:
            room.watch(account, account)
        room.apply(Sit(seat, f"P{account}", 300, account=account))
    return room


#: How often a random player takes each kind of action it is offered: hands reach
#: showdowns, mucks, looks and sideshows, not only folds.
WEIGHTS = {
    ActionKind.FOLD: 1,
    ActionKind.CHECK: 6,
    ActionKind.CALL: 6,
    ActionKind.BET: 2,
    ActionKind.RAISE: 1,
    ActionKind.COMPLETE: 2,
    ActionKind.LOOK: 3,
    ActionKind.SHOW: 3,
    ActionKind.SIDESHOW: 6,
    ActionKind.ACCEPT: 3,
    ActionKind.DECLINE: 1,
    ActionKind.SHOW_HAND: 1,
    ActionKind.MUCK: 1,
}


def choose(legal: LegalActions, rng: random.Random) -> Action:
    """A random legal action, weighted by kind, with a random amount where one is due."""
    offered = list(legal)
    (pick,) = rng.choices(offered, [WEIGHTS.get(option.kind, 2) for option in offered])
    return random_action(pick, rng)


def play(room: Room, rng: random.Random, hands: int, draw_since: float) -> None:
    table = room.table
    for number in range(hands):
        for seat in table.occupied:
            info = table.seat(seat)
            if info is not None and info.stack < 100:
                room.apply(AddChips(seat, 300 - info.stack))
        if table.banked:
            for seat in table.occupied:
                ante = rng.randint(1, 5)
                room.apply(SetWager(seat, ante, rng.choice((0, 0, rng.randint(1, ante)))))
        room.apply(StartHand())
        hand = table.hand
        assert hand is not None
        places = table.hand_seats
        viewers = [frozenset(), *(frozenset({i}) for i in range(hand.players))]
        for account in {a for a in room.accounts.values() if a is not None}:
            seats = hand_viewer(table, account)
            if len(seats) > 1:
                viewers.append(seats)
        viewers.append(frozenset(rng.sample(range(hand.players), 2)))
        cursors: dict[Any, Any] = {}
        while table.hand is not None:
            check_rule(hand, viewers, cursors)
            to_act = table.to_act()
            assert to_act is not None
            room.apply(Act(to_act, choose(table.view(to_act).legal, rng)))
        check_rule(hand, viewers, cursors)
        check_histories(hand, viewers, equity=number == 0)
        assert table.last_hand_seats == places
        if number == 0 and len(table.occupied) > 2:
            # The first player leaves; a newcomer sits in the seat and watches.
            seat = table.occupied[0]
            room.apply(Leave(seat))
            room.watch(NEWCOMER, NEWCOMER)
            room.apply(Sit(seat, "Newcomer", 300, account=NEWCOMER))
    check_resume(room, int(draw_since * table.seq))


def check_resume(room: Room, since: int) -> None:
    """``resume`` and ``Table.since`` from ``since``: the rule's frames for every address."""
    table = room.table
    log = [logged for logged in table.log if logged.seq > since]
    for address, account in room.accounts.items():
        for logged in log:
            # Logged.viewer, the account as a viewer, is the seats it held at the event.
            held = room.held[logged.seq].get(account or 0, frozenset())
            assert logged.viewer(account) == (held or None) or not logged.readers
        room.new(address)
        assert room.outbox.replay(address, since, table.seq)
        room.outbox.flush()
        frames = [json.loads(raw) for raw in room.new(address)]
        assert frames == [expected(logged, account) for logged in log], (address, since)
        answer = table.since(since, account)
        assert answer == [
            (logged.seq, shown_to(logged.event, logged.viewer(account))) for logged in log
        ]


@pytest.mark.parametrize("game", sorted(OPTIONS))
@settings(max_examples=EXAMPLES, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), hands=st.integers(2, 4), since=st.floats(0, 1))
def test_every_path_shows_each_viewer_what_the_one_rule_does(
    game: str, seed: int, hands: int, since: float
) -> None:
    rng = random.Random(seed)
    play(seat_players(game, rng), rng, hands, since)


def test_the_outbox_decides_and_encodes_once_per_audience_not_per_watcher(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    counted = {"decided": 0, "encoded": 0}
    decide, encode = shown_to, outgoing.encode

    def deciding(subject: Any, viewer: Viewer) -> Any:
        counted["decided"] += 1
        return decide(subject, viewer)

    def encoding(message: Any) -> bytes:
        counted["encoded"] += 1
        return encode(message)

    monkeypatch.setattr(outbox_module, "shown_to", deciding)
    monkeypatch.setattr(outgoing, "encode", encoding)
    table = Table("3x4", seats=5, options=OPTIONS["3x4"], rng=random.Random(4))
    box = Outbox(TABLE_ID, lambda address, messages: None)
    for seat in range(5):
        table.apply(Sit(seat, f"P{seat}", 100, account=seat + 1))
        for copy in range(3):
            box.add(10 * seat + copy, seat + 1)
    for address in range(100, 130):
        box.add(address, None)
    rng = random.Random(4)
    table.apply(StartHand())
    steps = 0
    while table.hand is not None:
        to_act = table.to_act()
        assert to_act is not None
        step = table.apply(Act(to_act, choose(table.view(to_act).legal, rng)))
        counted.update(decided=0, encoded=0)
        box.events(step)
        assert counted["decided"] <= 2 * len(step) and counted["encoded"] <= 2 * len(step)
        steps += 1
    assert steps
