"""A table: seats, buy-ins and the button over many hands of one game.

The table is pure and synchronous like the engine: no I/O, no clocks, the
RNG injected. It has one door, :meth:`Table.apply`, which takes a typed
command (:mod:`pokerhouse.table.commands`) and returns exactly the events
it caused, each with the table's gapless sequence number: the batch a
server stores and then broadcasts. The table deals, ends and settles every
hand itself; queries (:meth:`Table.seat`, :meth:`Table.view`...) are free.

Table seats are numbered 0 to ``seats - 1`` clockwise, and every event the
table gives out uses them. Inside a hand the engine numbers seats from the
first playing seat left of the button; :attr:`Table.hand_seats` maps one
numbering to the other, and :meth:`Table.view` is the engine's view of a
seat (what a bot plays from).

>>> import random
>>> from pokerhouse.engine import Action, ActionKind
>>> table = Table("3x4", seats=6, rng=random.Random(5))
>>> [logged.event.type_name for logged in table.apply(Sit(4, "Ann", 200))]
['player_sat', 'button_placed']
>>> _ = table.apply(Sit(1, "Bob", 200))
>>> started = table.apply(StartHand())
>>> started[0].event.type_name, table.hand_seats  # Bob (seat 1) is left of the button
('table_hand_started', (1, 4))
>>> while table.hand is not None:
...     seat = table.to_act()
...     legal = table.view(seat).legal
...     action = Action.check() if ActionKind.CHECK in legal else Action.call()
...     step = table.apply(Act(seat, action))
>>> step[-2].event.type_name, step[-1].event.type_name  # the hand ended and the button moved
('table_hand_ended', 'button_placed')
>>> [logged.seq for logged in table.log][:4], table.chips_conserved()
([1, 2, 3, 4], True)
"""

from __future__ import annotations

import secrets
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from pokerhouse.cards import Card, Deck, RandomSource
from pokerhouse.engine.actions import Action, ActionKind
from pokerhouse.engine.events import (
    Event,
    HandEnded,
    HandStarted,
    PotAwarded,
    Viewer,
    check_viewer,
    for_seat,
    renumber,
)
from pokerhouse.engine.frozen import quick_init
from pokerhouse.engine.hand import Hand, View
from pokerhouse.errors import EngineFault, InvalidSpec, OutOfTurn, PokerError
from pokerhouse.games import GameInfo, WagerRules, get_game
from pokerhouse.table.commands import (
    Act,
    AddChips,
    Command,
    Leave,
    Logged,
    SetWager,
    Sit,
    SitIn,
    SitOut,
    SitTogether,
    StartHand,
    Timeout,
    VoidHand,
)
from pokerhouse.table.errors import TableError
from pokerhouse.table.events import (
    ButtonPlaced,
    ChipsAdded,
    HandVoided,
    PlayerBusted,
    PlayerLeaving,
    PlayerLeft,
    PlayerSat,
    RakeTaken,
    SeatDrawCard,
    SittingOut,
    TableHandEnded,
    TableHandStarted,
    TimedOut,
    WagerSet,
)
from pokerhouse.table.rake import Rake
from pokerhouse.table.seats import Seat, SeatInfo, TableLimits

#: What :meth:`Table.play_hand` asks for each decision: (table seat, its view) -> action.
Policy = Callable[[int, View], Action]

#: Timeouts in a row after which a player is sat out at the end of the hand.
TIMEOUTS_TO_SIT_OUT = 2

__all__ = ["HandSummary", "Policy", "Table"]


#: What a timed-out seat does, the first of these it may: nothing costs less.
_DEFAULTS = (
    ActionKind.CHECK,
    ActionKind.MUCK,
    ActionKind.DECLINE,
    ActionKind.FOLD,
    ActionKind.BRING_IN,
)


@quick_init
@dataclass(frozen=True, slots=True)
class HandSummary:
    """One finished hand: the table seats that played and each one's result (net of rake)."""

    number: int
    seats: tuple[int, ...]
    net: Mapping[int, int]
    house: int
    hand: Hand = field(repr=False, compare=False)
    rake: int = 0
    voided: bool = False


def _in_table_seats(event: Event, seats: tuple[int, ...] | None) -> Event:
    """A logged event in table seat numbers (``seats``: the map of a hand's own event)."""
    return event if seats is None else renumber(event, seats)


class Table:
    """A table of ``seats`` seats for one game.

    ``spec`` (or ``options`` to build one) fixes the game's stakes for every
    hand; ``limits`` bounds buy-ins and added chips; ``rng`` shuffles every
    deck and the seat draw (default: the system's secure RNG). At a banked
    game (Casino Hold'em) the house starts with ``house_bankroll`` and collects
    or pays every box's result, and one player may hold up to
    ``boxes_per_player`` boxes. ``rake`` is the room's cut of each pot at a
    pool game. ``hand_options`` are extra keyword arguments for every hand
    (``manual_showdown=True``, for one). ``log_size`` bounds the events kept
    for :meth:`since` (``None``: keep them all); ``first_seq`` and
    ``hands_played`` let a table go on numbering where a stored one stopped.
    """

    def __init__(
        self,
        game: str,
        *,
        seats: int | None = None,
        spec: Any = None,
        options: Mapping[str, Any] | None = None,
        limits: TableLimits | None = None,
        rng: RandomSource | None = None,
        house_bankroll: int = 0,
        hand_options: Mapping[str, Any] | None = None,
        rake: Rake | None = None,
        boxes_per_player: int = 3,
        log_size: int | None = None,
        first_seq: int = 0,
        hands_played: int = 0,
        seated: Iterable[tuple[int, str, int]] = (),
        button: int | None = None,
    ) -> None:
        info = get_game(game)
        size = info.max_players if seats is None else seats
        if type(size) is not int or not info.min_players <= size <= info.max_players:
            raise TableError(
                "bad_seat",
                f"a {info.title} table has {info.min_players} to {info.max_players} seats, "
                f"not {size!r}",
            )
        if spec is None:
            spec = info.spec(**dict(options or {}))
        elif not isinstance(spec, info.spec_type):
            raise TableError("bad_spec", f"{info.name} needs a {info.spec_type.__name__}")
        for name, value, least in (
            ("house_bankroll", house_bankroll, None),
            ("boxes_per_player", boxes_per_player, 1),
            ("first_seq", first_seq, 0),
            ("hands_played", hands_played, 0),
        ):
            if type(value) is not int or (least is not None and value < least):
                raise TableError("bad_amount", f"{name} must be a whole number, not {value!r}")
        if rake is not None and (info.banked or not isinstance(rake, Rake)):
            raise TableError("bad_rake", f"{info.title} takes no rake" if info.banked else "")
        self.info: GameInfo = info
        self.spec: Any = spec
        self.size = size
        self.limits = limits if limits is not None else TableLimits()
        self.hand_options: dict[str, Any] = dict(hand_options or {})
        self.rake = rake
        self.boxes_per_player = boxes_per_player if info.banked else 1
        self._rng: RandomSource = rng if rng is not None else secrets.SystemRandom()
        self._seats: list[Seat | None] = [None] * size
        # The events kept, each with the seat map of a hand's own events (see
        # Logged): numbered from ``seq - len(_log) + 1``, the numbers are gapless.
        self._log: deque[tuple[Event, tuple[int, ...] | None]] = deque(maxlen=log_size)
        # Events of the command being applied, with the seat map of a hand's own events.
        self._pending: list[tuple[Event, tuple[int, ...] | None]] = []
        #: The sequence number of the last event (0 before the first).
        self.seq = first_seq
        self.button: int | None = None
        self.house = house_bankroll
        self.hand: Hand | None = None
        #: The hand dealt last (running or over), for its history.
        self.last_hand: Hand | None = None
        self.hand_seats: tuple[int, ...] = ()
        self.hands_played = hands_played
        #: Chips the room has taken in rake at this table.
        self.rake_taken = 0
        self._cursor = 0
        #: The table seats of the hand dealt last, in hand order (kept after it ends).
        self.last_hand_seats: tuple[int, ...] = ()
        self._timeouts: dict[int, int] = {}
        # The closing event of the hand that ended last (what its summary reads).
        self._last_end: TableHandEnded | HandVoided | None = None
        # Chips that came to the table and left it, for the conservation check.
        self._chips_in = house_bankroll
        self._chips_out = 0
        self._restore(seated, button)

    def _restore(self, seated: Iterable[tuple[int, str, int]], button: int | None) -> None:
        """Seat the players a stored table had, as they were (no events, no buy-in limits)."""
        for entry in seated:
            if not isinstance(entry, tuple) or len(entry) != 3:
                raise TableError(
                    "bad_command", f"a seated entry is (seat, player, stack): {entry!r}"
                )
            seat, player, stack = entry
            self._check_seat_number(seat)
            if self._seats[seat] is not None:
                raise TableError("seat_taken", f"seat {seat} is listed twice")
            if type(stack) is not int or stack < 0:
                raise TableError("bad_amount", f"a stack is a whole number >= 0, not {stack!r}")
            if len(self.seats_of(player)) >= self.boxes_per_player:
                raise TableError("already_seated", f"{player} holds too many seats")
            state = Seat(player=player, stack=stack, bought_in=stack)
            if self.banked:
                state.ante, state.bonus = self._wager_rules().default_ante, 0
            self._seats[seat] = state
            self._chips_in += stack
        if button is not None and not self.banked:
            self._check_seat_number(button)
            self.button = button
        elif self.occupied and not self.banked:
            self.button = self.occupied[0]

    # ------------------------------------------------------------ the one door

    def apply(self, command: Command) -> tuple[Logged, ...]:
        """Carry out ``command``; the events it caused, numbered, in order.

        A command that is not allowed raises a :class:`~pokerhouse.errors.PokerError`
        (a :class:`TableError`, or the engine's error for a bad action) and
        changes nothing.
        """
        try:
            self._dispatch(command)
        finally:
            # A refused command raises before its first change, so it emitted nothing.
            events, self._pending = self._pending, []
        return self._number(events)

    def _number(self, events: list[tuple[Event, tuple[int, ...] | None]]) -> tuple[Logged, ...]:
        """Give a command's events their sequence numbers and keep them in the log."""
        seq = self.seq
        logged = tuple(
            [Logged(seq + n, event, seats) for n, (event, seats) in enumerate(events, 1)]
        )
        self.seq = seq + len(logged)
        self._log.extend(events)
        return logged

    def check(self, command: Sit | AddChips) -> None:
        """Raise what :meth:`apply` would raise for a seating ``command``, changing nothing.

        For a caller that must do something else first, and only if the table
        will take the command: a room moves a buy-in from the player's wallet
        between the check and the command.
        """
        match command:
            case Sit(seat, player, buy_in):
                self._check_sit(seat, player, buy_in, set())
            case AddChips(seat, amount):
                self._check_add_chips(seat, amount)
            case _:
                raise TableError(
                    "bad_command", f"only seating commands are checked, not {command!r}"
                )

    def _dispatch(self, command: Command) -> None:
        # The commonest command first: a match tries its cases in order.
        match command:
            case Act(seat, action, number):
                self._act(seat, action, number, timed_out=False)
            case Sit(seat, player, buy_in):
                self._sit(seat, player, buy_in)
            case SitTogether(players):
                self._sit_together(players)
            case Leave(seat):
                self._leave(seat)
            case AddChips(seat, amount):
                self._add_chips(seat, amount)
            case SitOut(seat):
                self._sit_out(seat, True)
            case SitIn(seat):
                self._sit_out(seat, False)
            case SetWager(seat, ante, bonus):
                self._set_wager(seat, ante, bonus)
            case StartHand(deck, seats, setup):
                self._start_hand(deck, seats, dict(setup) if setup is not None else None)
            case VoidHand(reason):
                if not isinstance(reason, str) or not reason:
                    raise TableError("bad_command", "a void needs its reason")
                self._void(self._running(), reason)
            case Timeout(seat, number):
                self._act(seat, None, number, timed_out=True)
            case _:
                raise TableError("bad_command", f"a table takes no {command!r}")

    # ------------------------------------------------------------ queries

    @property
    def game(self) -> str:
        """The game's registry name."""
        return self.info.name

    @property
    def banked(self) -> bool:
        """Whether players play against the house (no button, a bankroll)."""
        return self.info.banked

    @property
    def log(self) -> tuple[Logged, ...]:
        """The events kept (all of them, unless ``log_size`` bounds them), numbered."""
        first = self.seq - len(self._log) + 1
        return tuple(
            [Logged(first + n, event, seats) for n, (event, seats) in enumerate(self._log)]
        )

    @property
    def events(self) -> tuple[Event, ...]:
        """The events of :attr:`log`, without their numbers (server-side: unfiltered)."""
        return tuple([_in_table_seats(event, seats) for event, seats in self._log])

    @property
    def hand_number(self) -> int | None:
        """The running hand's number (hands are numbered from 1), ``None`` between hands."""
        return self.hands_played + 1 if self.hand is not None else None

    def since(self, seq: int, viewer: Viewer = None) -> list[tuple[int, Event | None]] | None:
        """Events after ``seq`` as ``viewer`` may see them: ``(seq, event or None)``.

        ``None`` in place of an event the viewer may not see at all, so its
        numbers stay gapless; ``None`` for the whole answer when the log no
        longer holds everything after ``seq`` (the viewer needs a fresh view).
        """
        check_viewer(viewer)
        if seq > self.seq or seq < 0:
            return None
        first = self.seq - len(self._log) + 1
        if seq < self.seq and (not self._log or first > seq + 1):
            return None
        skip = seq - first + 1 if self._log else 0
        shown: list[tuple[int, Event | None]] = []
        for index, (event, seats) in enumerate(self._log):
            if index >= skip:
                shown.append((first + index, for_seat(_in_table_seats(event, seats), viewer)))
        return shown

    def seat(self, seat: int) -> SeatInfo | None:
        """A snapshot of ``seat``, ``None`` when it is empty."""
        self._check_seat_number(seat)
        state = self._seats[seat]
        if state is None:
            return None
        return SeatInfo(
            seat=seat,
            player=state.player,
            stack=state.stack,
            bought_in=state.bought_in,
            rebuys=state.rebuys,
            sitting_out=state.sitting_out,
            leaving=state.leaving,
            in_hand=seat in self.hand_seats,
            ante=state.ante,
            bonus=state.bonus,
            needs=self._needs(state),
        )

    @property
    def seats(self) -> tuple[SeatInfo | None, ...]:
        """Every seat in order, ``None`` for an empty one."""
        return tuple(self.seat(n) for n in range(self.size))

    @property
    def occupied(self) -> tuple[int, ...]:
        """Seats with a player, in order."""
        return tuple(n for n, state in enumerate(self._seats) if state is not None)

    def find(self, player: str) -> int | None:
        """The (first) seat of ``player``, if seated."""
        seats = self.seats_of(player)
        return seats[0] if seats else None

    def seats_of(self, player: str) -> tuple[int, ...]:
        """Every seat ``player`` holds (several boxes at a banked game)."""
        return tuple(
            n for n, state in enumerate(self._seats) if state is not None and state.player == player
        )

    def ready(self) -> tuple[int, ...]:
        """Seats that would be dealt in now: seated, not sitting out, not busted."""
        return tuple(n for n in range(self.size) if self._plays(n))

    def hand_seat(self, seat: int) -> int | None:
        """Table seat -> its seat in the running hand (``None``: not in it)."""
        try:
            return self.hand_seats.index(seat)
        except ValueError:
            return None

    def chips_on_table(self) -> int:
        """Every stack plus the house's bankroll (between hands)."""
        self._require_no_hand("count the chips")
        return sum(state.stack for state in self._seats if state is not None) + self.house

    def chips_conserved(self) -> bool:
        """Whether the chips on the table equal those brought, less those taken away."""
        return self.chips_on_table() == self._chips_in - self._chips_out

    def view(self, seat: int | None) -> View:
        """The running hand as table seat ``seat`` may see it (``None``: a spectator).

        This is the engine's view, in the hand's own seat numbers (see
        :attr:`hand_seats`): what a bot decides from.
        """
        hand = self._running()
        if seat is None:
            return hand.view(None)
        return hand.view(self._hand_index(seat))

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

    # ------------------------------------------------------------ conveniences

    def play_hand(self, policy: Policy, deck: Deck | None = None) -> HandSummary:
        """Start a hand and ask ``policy(table_seat, view)`` for every decision, to the end."""
        self.apply(StartHand(deck))
        hand = self.last_hand
        assert hand is not None
        # What ``apply(Act(seat, policy(seat, self.view(seat))))`` does for each
        # decision, without the checks that the seat to act passes by definition.
        while (current := self.hand) is not None:
            index = current.to_act
            assert index is not None
            seat = self.hand_seats[index]
            action = policy(seat, current._view(index))
            events = self._pending
            try:
                self._act_in_turn(current, seat, index, action, False, 0)
            except BaseException:
                self._pending = []
                raise
            # Numbered as apply numbers them; nobody asked for the Logged values.
            self.seq += len(events)
            if self._log.maxlen != 0:
                self._log.extend(events)
            events.clear()
        return self.last_summary(hand)

    def last_summary(self, hand: Hand) -> HandSummary:
        """The summary of the hand that just ended (from its closing event)."""
        event = self._last_end
        if isinstance(event, TableHandEnded):
            return HandSummary(
                number=event.number,
                seats=event.seats,
                net=dict(zip(event.seats, event.net, strict=True)),
                house=event.house,
                hand=hand,
                rake=event.rake,
            )
        if isinstance(event, HandVoided):
            return HandSummary(event.number, self.last_hand_seats, {}, 0, hand, voided=True)
        raise TableError("no_hand", "no hand has ended")

    # ------------------------------------------------------------ seating

    def _sit(self, seat: int, player: str, buy_in: int) -> None:
        self._check_sit(seat, player, buy_in, set())
        self._place(seat, player, buy_in)
        if self.button is None and not self.banked:
            self._set_button(seat, "first_to_sit")

    def _sit_together(self, players: Iterable[tuple[int, str, int]]) -> None:
        entries = list(players)
        taken: set[int] = set()
        names: dict[str, int] = {}
        for entry in entries:
            if not isinstance(entry, tuple) or len(entry) != 3:
                raise TableError(
                    "bad_command", f"a seat entry is (seat, player, buy_in): {entry!r}"
                )
            seat, player, buy_in = entry
            self._check_sit(seat, player, buy_in, taken, names.get(player, 0))
            taken.add(seat)
            names[player] = names.get(player, 0) + 1
        for seat, player, buy_in in sorted(entries):
            self._place(seat, player, buy_in)
        if self.button is not None or self.banked or not entries:
            return
        if len(entries) == 1:
            self._set_button(entries[0][0], "first_to_sit")
            return
        deck = Deck(self._rng)
        drawn: dict[int, Card] = {}
        for seat, player, _ in sorted(entries):
            drawn[seat] = deck.deal()
            self._emit(SeatDrawCard(seat=seat, player=player, card=drawn[seat]))
        # Cards are 4 * rank + suit, so the highest int is the highest rank, then suit.
        self._set_button(max(drawn, key=lambda seat: int(drawn[seat])), "seat_draw")

    def _leave(self, seat: int) -> None:
        state = self._occupant(seat)
        if seat in self.hand_seats:
            if not state.leaving:
                state.leaving = True
                self._emit(PlayerLeaving(seat=seat, player=state.player))
            return
        self._remove(seat)

    def _add_chips(self, seat: int, amount: int) -> None:
        state = self._check_add_chips(seat, amount)
        after = state.stack + amount
        state.stack = after
        state.bought_in += amount
        state.rebuys += 1
        self._chips_in += amount
        self._emit(ChipsAdded(seat=seat, player=state.player, amount=amount, stack=after))

    def _check_add_chips(self, seat: int, amount: int) -> Seat:
        state = self._occupant(seat)
        if seat in self.hand_seats:
            raise TableError("in_hand", f"seat {seat} is in the hand: add chips after it")
        if type(amount) is not int or amount < 1:
            raise TableError(
                "bad_amount", f"chips added must be a whole number >= 1, not {amount!r}"
            )
        after = state.stack + amount
        if after > self.limits.max_buy_in:
            raise TableError(
                "buy_in_too_large",
                f"adding {amount} would make the stack {after}, above the table maximum "
                f"of {self.limits.max_buy_in}",
            )
        if after < self.limits.min_buy_in:
            raise TableError(
                "buy_in_too_small",
                f"adding {amount} would make the stack {after}, below the table minimum "
                f"of {self.limits.min_buy_in}",
            )
        return state

    def _sit_out(self, seat: int, out: bool) -> None:
        state = self._occupant(seat)
        if not out:
            self._timeouts.pop(seat, None)
        if state.sitting_out != out:
            state.sitting_out = out
            self._emit(SittingOut(seat=seat, player=state.player, out=out))

    def _set_wager(self, seat: int, ante: int, bonus: int) -> None:
        state = self._occupant(seat)
        if not self.banked:
            raise TableError("bad_wager", f"{self.info.title} has no wagers against the house")
        if seat in self.hand_seats:
            raise TableError("in_hand", f"box {seat} is in the hand: change bets after it")
        if ante == 0 and bonus == 0 and type(ante) is int and type(bonus) is int:
            pass  # the box sits the next rounds out
        else:
            try:
                self._wager_rules().check_wager(ante, bonus)
            except InvalidSpec as error:
                raise TableError(error.code, str(error)) from None
        if (state.ante, state.bonus) != (ante, bonus):
            state.ante, state.bonus = ante, bonus
            self._emit(WagerSet(seat=seat, ante=ante, bonus=bonus))

    # ------------------------------------------------------------ hands

    def _start_hand(
        self,
        deck: Deck | None,
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
        stacks = [self._occupant(seat).stack for seat in playing]
        kwargs = dict(self.hand_options)
        kwargs.update(self._banked_kwargs(playing) if setup is None else setup)
        hand = self.info.hand_type(
            self.spec, stacks, deck if deck is not None else Deck(self._rng), **kwargs
        )
        # Only now that the hand is dealt does anything at the table change.
        if dealer is not None and dealer != self.button:
            self._set_button(dealer, "moved")
        self.hand = self.last_hand = hand
        self.hand_seats = tuple(playing)
        self._cursor = 0
        self._emit(
            TableHandStarted(
                number=self.hands_played + 1,
                button=-1 if self.button is None or self.banked else self.button,
                seats=self.hand_seats,
                stacks=tuple(stacks),
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

    def _act(self, seat: int, action: Action | None, number: int | None, timed_out: bool) -> None:
        hand = self._running()
        index = self._hand_index(seat)
        if number is not None and number != self.hands_played + 1:
            raise TableError(
                "stale_hand",
                f"that was meant for hand #{number}; hand #{self.hands_played + 1} is running",
            )
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
        before = len(self._pending)
        if timed_out:
            player = self._occupant(seat).player
            self._emit(TimedOut(seat=seat, player=player, action=action))
        self._act_in_turn(hand, seat, index, action, timed_out, before)

    def _act_in_turn(
        self, hand: Hand, seat: int, index: int, action: Action, timed_out: bool, before: int
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
            del self._pending[before:]
            raise
        except Exception as error:
            # A failure of the engine outside its own guard: the hand cannot be trusted.
            self._void(hand, f"engine_fault: {type(error).__name__}: {error}")
            return
        self._timeouts[seat] = self._timeouts.get(seat, 0) + 1 if timed_out else 0
        self._pass_on_hand_events(hand)

    def _pass_on_hand_events(self, hand: Hand) -> None:
        """Renumber the hand's new events into table seats; end the hand if it is over."""
        events = hand.events_from(self._cursor)
        self._cursor += len(events)
        seats = self.hand_seats
        # The table restates the hand's start and end by table seat.
        if len(events) == 1:  # the commonest case: one action taken
            event = events[0]
            if type(event) is not HandStarted and type(event) is not HandEnded:
                self._pending.append((event, seats))
        else:
            self._pending.extend(
                [
                    (event, seats)
                    for event in events
                    if type(event) is not HandStarted and type(event) is not HandEnded
                ]
            )
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
        self.house += house
        self.rake_taken += rake
        self._chips_out += rake
        self.hands_played += 1
        self.hand = None
        self.hand_seats = ()
        self._last_end = TableHandEnded(
            number=self.hands_played,
            seats=seats,
            net=tuple(net),
            house=house,
            stacks=tuple(self._occupant(seat).stack for seat in seats),
            rake=rake,
        )
        self._emit(self._last_end)
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
        self._emit(
            RakeTaken(
                number=self.hands_played + 1,
                amount=amount,
                seats=tuple(self.hand_seats[index] for index in order),
                shares=tuple(paid[index] for index in order),
            )
        )
        return amount

    def _void(self, hand: Hand, reason: str) -> None:
        """Call the hand off: every stack is as it was before the deal."""
        seats = self.hand_seats
        self.hands_played += 1
        self.hand = None
        self.hand_seats = ()
        self._last_end = HandVoided(number=self.hands_played, reason=reason)
        self._emit(self._last_end)
        self._after_hand(seats, move_button=False)

    def _after_hand(self, seats: tuple[int, ...], move_button: bool = True) -> None:
        """Let leavers go, mark the broke, sit out who timed out twice; move the button."""
        self.last_hand_seats = seats
        for seat in seats:
            state = self._occupant(seat)
            if state.leaving:
                self._remove(seat)
                continue
            if state.stack < self._needs(state) and not (self.banked and state.ante == 0):
                self._emit(PlayerBusted(seat=seat, player=state.player))
            if self._timeouts.get(seat, 0) >= TIMEOUTS_TO_SIT_OUT and not state.sitting_out:
                state.sitting_out = True
                self._emit(SittingOut(seat=seat, player=state.player, out=True, reason="timeouts"))
        if move_button and not self.banked and self.button is not None and self.occupied:
            following = self._next_ready(self.button)
            if following is not None and following != self.button:
                self._set_button(following, "moved")

    # ------------------------------------------------------------ internals

    def _emit(self, event: Event) -> None:
        self._pending.append((event, None))

    def _check_seat_number(self, seat: object) -> None:
        if type(seat) is not int or not 0 <= seat < self.size:
            raise TableError("bad_seat", f"no seat {seat!r} (seats are 0 to {self.size - 1})")

    def _hand_index(self, seat: int) -> int:
        # A bool would otherwise pass for seat 0 or 1 (True == 1).
        self._check_seat_number(seat)
        index = self.hand_seat(seat)
        if index is None:
            raise TableError("not_in_hand", f"seat {seat} is not in this hand")
        return index

    def _occupant(self, seat: int) -> Seat:
        self._check_seat_number(seat)
        state = self._seats[seat]
        if state is None:
            raise TableError("seat_empty", f"nobody sits in seat {seat}")
        return state

    def _check_sit(
        self, seat: int, player: str, buy_in: int, taken: set[int], listed: int = 0
    ) -> None:
        self._check_seat_number(seat)
        if not isinstance(player, str) or not player.strip():
            raise TableError("bad_name", f"a player needs a name, not {player!r}")
        # Names are printed in narration and logs: a newline or terminal escape would
        # forge lines there, and surrounding blanks would pass for another player.
        if not player.isprintable() or player != player.strip():
            raise TableError(
                "bad_name",
                f"a name is printable text without blanks around it, not {player!r}",
            )
        occupant = self._seats[seat]
        if occupant is not None or seat in taken:
            who = f" by {occupant.player}" if occupant is not None else ""
            raise TableError("seat_taken", f"seat {seat} is taken{who}")
        held = len(self.seats_of(player)) + listed
        if held >= self.boxes_per_player:
            where = ", ".join(str(n) for n in self.seats_of(player)) or "this table"
            limit = "" if self.boxes_per_player == 1 else f" (at most {self.boxes_per_player})"
            raise TableError("already_seated", f"{player} is already seated at {where}{limit}")
        self.limits.check_buy_in(buy_in)

    def _place(self, seat: int, player: str, buy_in: int) -> None:
        state = Seat(player=player, stack=buy_in, bought_in=buy_in)
        if self.banked:
            state.ante, state.bonus = self._wager_rules().default_ante, 0
        self._seats[seat] = state
        self._chips_in += buy_in
        self._emit(PlayerSat(seat=seat, player=player, chips=buy_in))

    def _remove(self, seat: int) -> int:
        state = self._occupant(seat)
        self._seats[seat] = None
        self._timeouts.pop(seat, None)
        self._chips_out += state.stack
        self._emit(PlayerLeft(seat=seat, player=state.player, chips=state.stack))
        if not self.occupied:
            self.button = None
        return state.stack

    def _set_button(self, seat: int, reason: str) -> None:
        self.button = seat
        self._emit(ButtonPlaced(seat=seat, reason=reason))

    def _plays(self, seat: int) -> bool:
        state = self._seats[seat]
        if state is None or state.sitting_out or state.leaving:
            return False
        if self.banked and state.ante == 0:
            return False
        return state.stack >= self._needs(state)

    def _next_ready(self, after: int) -> int | None:
        for step in range(1, self.size + 1):
            seat = (after + step) % self.size
            if self._plays(seat):
                return seat
        return None

    def _dealer(self) -> int | None:
        """Where the button is for the next hand: on its seat, or the next one dealt in."""
        if self.button is not None and self._plays(self.button):
            return self.button
        return self._next_ready(self.button if self.button is not None else -1)

    def _clockwise_from(self, dealer: int | None) -> list[int]:
        """Playing seats from the first left of the dealer round to the dealer."""
        if dealer is None:
            return []
        return [
            (dealer + step) % self.size
            for step in range(1, self.size + 1)
            if self._plays((dealer + step) % self.size)
        ]

    def _running(self) -> Hand:
        if self.hand is None:
            raise TableError("no_hand", "no hand is being played")
        return self.hand

    def _require_no_hand(self, what: str) -> None:
        if self.hand is not None:
            raise TableError("hand_in_progress", f"cannot {what} during a hand")

    # ------------------------------------------------------------ banked games

    def _wager_rules(self) -> WagerRules:
        return cast(WagerRules, self.spec)

    def _needs(self, state: Seat) -> int:
        """Chips a seat must hold to be dealt in: the game says, for a box; else one chip."""
        if self.banked:
            return self._wager_rules().stake_needed(state.ante, state.bonus)
        return 1

    def _banked_kwargs(self, playing: list[int]) -> dict[str, Any]:
        if not self.banked:
            return {}
        boxes = [self._occupant(seat) for seat in playing]
        return {"antes": [box.ante for box in boxes], "bonuses": [box.bonus for box in boxes]}
