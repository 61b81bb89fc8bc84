"""The table's hands: dealing one, taking actions, ending, raking and voiding it.

This is the hands half of :class:`~pokerhouse.table.Table` (its seats are in
:mod:`pokerhouse.table.seating`). A hand is dealt from a deck order and a
reshuffle seed the table records with it, so a room stores exactly what
deals it again; the engine's events are passed on in table seats, each
with the accounts that held the hand's seats; the end of a hand settles the
stacks, takes the rake, lets leavers go and moves the button.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping
from typing import Any

from pokerhouse.cards import Card, Deck
from pokerhouse.engine.actions import Action, ActionKind
from pokerhouse.engine.events import HandEnded, HandStarted, PotAwarded
from pokerhouse.engine.hand import Hand, View
from pokerhouse.errors import EngineFault, OutOfTurn, PokerError
from pokerhouse.table import records
from pokerhouse.table.errors import TableError
from pokerhouse.table.events import (
    HandVoided,
    PlayerBusted,
    RakeTaken,
    SittingOut,
    TableHandEnded,
    TableHandStarted,
    TimedOut,
)
from pokerhouse.table.rake import Rake
from pokerhouse.table.seating import SeatingMixin

#: Timeouts in a row after which a player is sat out at the end of the hand.
TIMEOUTS_TO_SIT_OUT = 2

#: What a timed-out seat does, the first of these it may: nothing costs less.
_DEFAULTS = (
    ActionKind.CHECK,
    ActionKind.MUCK,
    ActionKind.DECLINE,
    ActionKind.FOLD,
    ActionKind.BRING_IN,
)

#: The largest reshuffle seed the table draws (it fits a signed 64-bit column).
_SEED_BITS = 62


def _seed_of(order: tuple[Card, ...] | list[Card]) -> int:
    """A reshuffle seed for a deck order: its hash, in :data:`_SEED_BITS` bits."""
    digest = hashlib.blake2b(bytes(int(card) for card in order), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> (64 - _SEED_BITS)


class DealingMixin(SeatingMixin):
    """Hands (see the module's docstring); mixed into ``Table``."""

    hand_options: dict[str, Any]
    rake: Rake | None
    _house: int
    _hand: Hand | None
    _last_hand: Hand | None
    _hands_played: int
    _rake_taken: int
    _last_hand_seats: tuple[int, ...]
    _cursor: int
    _hand_accounts: Mapping[int, int]
    # The running hand's seat of each table seat in it.
    _index_of: dict[int, int]
    _spec_fields: dict[str, Any]
    _last_end: TableHandEnded | HandVoided | None

    # ------------------------------------------------------------ queries

    @property
    def hand(self) -> Hand | None:
        """The running hand (``None`` between hands): read it, never act on it directly."""
        return self._hand

    @property
    def last_hand(self) -> Hand | None:
        """The hand dealt last, running or over (for its history)."""
        return self._last_hand

    @property
    def last_hand_seats(self) -> tuple[int, ...]:
        """The table seats of the hand dealt last, in hand order (kept after it ends)."""
        return self._last_hand_seats

    @property
    def hands_played(self) -> int:
        """Hands ended so far (voided ones included): the next hand is one more."""
        return self._hands_played

    @property
    def house(self) -> int:
        """The house's bankroll at a banked game."""
        return self._house

    @property
    def rake_taken(self) -> int:
        """Chips the room has taken in rake at this table."""
        return self._rake_taken

    @property
    def hand_number(self) -> int | None:
        """The running hand's number (hands are numbered from 1), ``None`` between hands."""
        return self.hands_played + 1 if self.hand is not None else None

    def hand_seat(self, seat: int) -> int | None:
        """Table seat -> its seat in the running hand (``None``: not in it)."""
        # type() is int: True would otherwise pass for seat 1.
        return self._index_of.get(seat) if type(seat) is int else None

    def view(self, seat: int | None) -> View:
        """The running hand as table seat ``seat`` may see it (``None``: a spectator).

        This is the engine's view, in the hand's own seat numbers (see
        :attr:`hand_seats`): what a bot decides from.
        """
        hand = self._running()
        if seat is None:
            return hand.view(None)
        # The seat is checked here: the engine's own view needs no second check.
        return hand._view(self._hand_index(seat))

    def to_act(self) -> int | None:
        """The table seat whose decision the running hand waits for."""
        hand = self._running()
        return None if hand.to_act is None else self.hand_seats[hand.to_act]

    def default_action(self, seat: int) -> Action:
        """What the table does for ``seat`` when its time runs out.

        Check when checking is free, muck at a showdown choice, decline a
        sideshow, otherwise fold (a box folds at Casino Hold'em). The Razz
        bring-in may not fold: it posts the bring-in, its smallest choice.
        """
        legal = self.view(seat).legal
        for kind in _DEFAULTS:
            if kind in legal:
                return Action(kind)
        raise TableError("no_decision", f"seat {seat} has no decision to make now")

    # ------------------------------------------------------------ commands

    def _start_hand(
        self,
        order: tuple[Card, ...] | None,
        seed: int | None,
        seats: tuple[int, ...] | None = None,
        setup: dict[str, Any] | None = None,
    ) -> None:
        if self.hand is not None:
            raise TableError("hand_in_progress", "a hand is already being played")
        if seats is not None:
            playing = self._named_seats(seats)
            dealer = None if self.banked else playing[-1]
        else:
            dealer = None if self.banked else self._dealer()
            playing = list(self.ready()) if self.banked else self._clockwise_from(dealer)
        if len(playing) < self.info.min_players:
            raise TableError(
                "not_enough_players",
                f"{self.info.title} needs {self.info.min_players} players ready to play, "
                f"{len(playing)} are",
            )
        if seed is not None and (type(seed) is not int or abs(seed) >= 1 << _SEED_BITS):
            raise TableError("bad_command", f"a deck seed is a whole number, not {seed!r}")
        if order is not None and not isinstance(order, tuple | list):
            raise TableError("bad_command", f"a deck order is a sequence of cards, not {order!r}")
        if order is None:
            # One shuffle of the table's RNG a hand; the reshuffle seed is drawn from the
            # order itself (a hash of a secret, random permutation).
            reshuffle = random.Random()
            deck = Deck.shuffled(self._rng, reshuffle)
            dealt = deck.order()
            if seed is None:
                seed = _seed_of(dealt)
            reshuffle.seed(seed)
        else:
            # A given order is checked as it is read: the 52 cards, each once.
            dealt = Deck.from_order(order).order()
            if seed is None:
                seed = _seed_of(dealt)
            deck = Deck.from_order(dealt, random.Random(seed))
        stacks = [self._occupant(seat).stack for seat in playing]
        kwargs = dict(self.hand_options)
        kwargs.update(self._banked_kwargs(playing) if setup is None else setup)
        hand = self.info.hand_type(self.spec, stacks, deck, **kwargs)
        # Only now that the hand is dealt does anything at the table change.
        if dealer is not None and dealer != self.button:
            self._set_button(dealer, "moved")
        self._hand = self._last_hand = hand
        self._hand_seats = tuple(playing)
        self._index_of = {seat: index for index, seat in enumerate(playing)}
        accounts = tuple(self._occupant(seat).account for seat in playing)
        self._hand_accounts = dict(zip(playing, accounts, strict=True))
        self._cursor = 0
        number = self.hands_played + 1
        seq = self._journal.emit(
            TableHandStarted(
                number=number,
                button=-1 if self.button is None or self.banked else self.button,
                seats=self.hand_seats,
                stacks=tuple(stacks),
            )
        )
        self._journal.records.append(
            records.DealLogged(
                number=number,
                game=self.info.name,
                seats=self.hand_seats,
                accounts=accounts,
                stacks=tuple(stacks),
                spec=self._spec_fields,
                setup=hand.setup(),
                deck=dealt,
                deck_seed=seed,
                start_seq=seq - 1,
            )
        )
        self._pass_on_hand_events(hand)

    def _named_seats(self, seats: tuple[int, ...]) -> list[int]:
        """Seats a resumed hand names: each seated, with chips, once."""
        if not isinstance(seats, tuple) or len(set(seats)) != len(seats):
            raise TableError("bad_command", f"a hand's seats are distinct table seats: {seats!r}")
        for seat in seats:
            state = self._occupant(seat)
            if state.stack < 1:
                raise TableError("not_enough_players", f"seat {seat} has no chips to play")
        return list(seats)

    def _act(
        self,
        seat: int,
        action: Action | None,
        number: int | None,
        client_id: str | None,
        timed_out: bool,
    ) -> None:
        hand = self._hand
        if hand is None:
            raise TableError("no_hand", "no hand is being played")
        index = self._hand_index(seat)
        if number is not None and number != self._hands_played + 1:
            raise TableError(
                "stale_hand",
                f"that was meant for hand #{number}; hand #{self.hands_played + 1} is running",
            )
        if client_id is not None and (type(client_id) is not str or not client_id):
            raise TableError("bad_command", f"a client id is text, not {client_id!r}")
        if timed_out:
            if hand.to_act != index:
                raise TableError("not_your_turn", f"seat {seat} is not the one to act")
            action = self.default_action(seat)
        assert action is not None
        if hand.to_act is not None and hand.to_act != index and not hand.is_over:
            # Said here in table seats: the engine would name its own seat numbers.
            raise OutOfTurn(
                "out_of_turn",
                f"it is seat {self.hand_seats[hand.to_act]}'s turn to act, not seat {seat}'s",
            )
        before = len(self._journal.events)
        if timed_out:
            player = self._occupant(seat).player
            self._journal.emit(TimedOut(seat=seat, player=player, action=action))
        self._act_in_turn(hand, seat, index, action, timed_out, before, client_id)

    def _act_in_turn(
        self,
        hand: Hand,
        seat: int,
        index: int,
        action: Action,
        timed_out: bool,
        before: int,
        client_id: str | None = None,
    ) -> None:
        """Apply ``action`` for ``seat`` (hand seat ``index``), the seat to act.

        A refused action takes back the events emitted since ``before``.
        """
        try:
            hand.act(action, index)
        except EngineFault as fault:
            self._void(hand, fault.code + ": " + str(fault))
            return
        except PokerError:
            del self._journal.events[before:]
            raise
        except Exception as error:
            # A failure of the engine outside its own guard: the hand cannot be trusted.
            self._void(hand, f"engine_fault: {type(error).__name__}: {error}")
            return
        taken = hand.actions[-1][1]
        self._journal.records.append(
            records.ActionLogged(
                self.hands_played + 1,
                len(hand.actions) - 1,
                index,
                taken.kind.value,
                taken.amount,
                self._hand_accounts.get(seat, 0),
                client_id,
            )
        )
        self._timeouts[seat] = self._timeouts.get(seat, 0) + 1 if timed_out else 0
        self._pass_on_hand_events(hand)

    def _pass_on_hand_events(self, hand: Hand) -> None:
        """Pass the hand's new events on in table seats; end the hand if it is over."""
        events = hand.events_from(self._cursor)
        self._cursor += len(events)
        seats = self._hand_seats
        accounts = self._hand_accounts
        append = self._journal.events.append  # what Journal.emit does, at every action
        # The table restates the hand's start and end by table seat.
        for event in events:
            if type(event) is not HandStarted and type(event) is not HandEnded:
                append((event, seats, accounts))
        if hand.is_over:
            self._end_hand(hand)

    def _end_hand(self, hand: Hand) -> None:
        seats = self.hand_seats
        net = list(hand.results())
        rake = self._take_rake(hand, net)
        for index, seat in enumerate(seats):
            state = self._occupant(seat)
            state.stack = hand.starting_stacks[index] + net[index]
        house = -sum(net) - rake if self.banked else 0
        self._house += house
        self._rake_taken += rake
        self._chips_out += rake
        self._hands_played += 1
        self._hand = None
        self._hand_seats = ()
        self._index_of = {}
        self._last_end = TableHandEnded(
            number=self.hands_played,
            seats=seats,
            net=tuple(net),
            house=house,
            stacks=tuple(self._occupant(seat).stack for seat in seats),
            rake=rake,
        )
        self._journal.emit(self._last_end)
        self._journal.records.append(
            records.settled(hand, self.hands_played, tuple(net), rake, house)
        )
        self._after_hand(seats)

    def _take_rake(self, hand: Hand, net: list[int]) -> int:
        """Take the rake from the pots' winners (changing ``net``); emit what was taken."""
        if self.rake is None or not hand.past_first_round:
            return 0
        pots = [
            (event.amount, event.winners, event.shares)
            for event in hand.events
            if isinstance(event, PotAwarded)
        ]
        amount, paid = self.rake.take(pots)
        if not amount:
            return 0
        for index, part in paid.items():
            net[index] -= part
        order = sorted(paid)
        self._journal.emit(
            RakeTaken(
                number=self.hands_played + 1,
                amount=amount,
                seats=tuple(self.hand_seats[index] for index in order),
                shares=tuple(paid[index] for index in order),
            )
        )
        return amount

    def _void(self, hand: Hand | None, reason: str) -> None:
        """Call the hand off: every stack is as it was before the deal."""
        seats = self.hand_seats
        self._hands_played += 1
        self._hand = None
        self._hand_seats = ()
        self._index_of = {}
        self._last_end = HandVoided(number=self.hands_played, reason=reason)
        self._journal.emit(self._last_end)
        self._journal.records.append(records.VoidLogged(self.hands_played, reason))
        self._after_hand(seats, move_button=False)

    def _void_undealt(self, number: int, reason: str) -> None:
        """Void a stored hand that could not be dealt again: its number stays used."""
        if type(number) is not int or number <= self.hands_played:
            raise TableError(
                "bad_command",
                f"hand {number!r} is not after the {self.hands_played} hands played",
            )
        self._hands_played = number - 1
        self._last_hand_seats = ()
        self._void(None, reason)

    def _after_hand(self, seats: tuple[int, ...], move_button: bool = True) -> None:
        """Let leavers go, mark the broke, sit out who timed out twice; move the button."""
        self._last_hand_seats = seats
        for seat in seats:
            state = self._occupant(seat)
            if state.leaving:
                self._remove(seat)
                continue
            if state.stack < self._needs(state) and not (self.banked and state.ante == 0):
                self._journal.emit(PlayerBusted(seat=seat, player=state.player))
            timeouts = self._timeouts.get(seat, 0)
            if timeouts >= TIMEOUTS_TO_SIT_OUT and self.may_sit_out and not state.sitting_out:
                state.sitting_out = True
                self._journal.emit(
                    SittingOut(seat=seat, player=state.player, out=True, reason="timeouts")
                )
        if move_button and not self.banked and self.button is not None and self.occupied:
            following = self._next_ready(self.button)
            if following is not None and following != self.button:
                self._set_button(following, "moved")

    # ------------------------------------------------------------ internals

    def _hand_index(self, seat: int) -> int:
        index = self.hand_seat(seat)
        if index is None:
            self._check_seat_number(seat)  # a bad seat number says so first
            raise TableError("not_in_hand", f"seat {seat} is not in this hand")
        return index

    def _running(self) -> Hand:
        if self.hand is None:
            raise TableError("no_hand", "no hand is being played")
        return self.hand

    def _require_no_hand(self, what: str) -> None:
        if self.hand is not None:
            raise TableError("hand_in_progress", f"cannot {what} during a hand")

    def _banked_kwargs(self, playing: list[int]) -> dict[str, Any]:
        if not self.banked:
            return {}
        boxes = [self._occupant(seat) for seat in playing]
        return {"antes": [box.ante for box in boxes], "bonuses": [box.bonus for box in boxes]}
