"""A table: seats, buy-ins and the button over many hands of one game.

The table is pure and synchronous like the engine: no I/O, no clocks, the
RNG injected. It has one door, :meth:`Table.apply`, which takes a typed
command (:mod:`pokerhouse.table.commands`, plain data) and returns a
:class:`~pokerhouse.table.journal.Step`: exactly the events the command
caused, each with the table's gapless sequence number, and the records
(:mod:`pokerhouse.table.records`) a room stores before it broadcasts them.
The table deals, ends and settles every hand itself; its state is read-only
from outside, and queries (:meth:`Table.seat`, :meth:`Table.view`...) are
free. A step that brought chips to the table can be taken back
(:meth:`Table.revert`) when the room could not store it.

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
>>> [type(record).__name__ for record in step.records]
['ActionLogged', 'HandSettled']
>>> [logged.seq for logged in table.log][:4], table.chips_conserved()
([1, 2, 3, 4], True)
"""

from __future__ import annotations

import dataclasses
import random
import secrets
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pokerhouse.engine.actions import Action
from pokerhouse.engine.events import Event
from pokerhouse.engine.frozen import quick_init
from pokerhouse.engine.hand import Hand, View
from pokerhouse.engine.visibility import shown_to
from pokerhouse.errors import InvalidSpec
from pokerhouse.games import get_game
from pokerhouse.history.json_history import spec_to_dict
from pokerhouse.table.commands import (
    Act,
    AddChips,
    Command,
    Leave,
    SetStakes,
    SetWager,
    Sit,
    SitIn,
    SitOut,
    SitTogether,
    StartHand,
    Timeout,
    VoidHand,
)
from pokerhouse.table.dealing import DealingMixin
from pokerhouse.table.errors import TableError
from pokerhouse.table.events import HandVoided, StakesSet, TableHandEnded
from pokerhouse.table.journal import Journal, Logged, Pending, Step, numbered
from pokerhouse.table.rake import Rake
from pokerhouse.table.seating import Entry
from pokerhouse.table.seats import Seat, TableLimits

#: What :func:`play_hand` asks for each decision: (table seat, its view) -> action.
Policy = Callable[[int, View], Action]

__all__ = ["HandResult", "Policy", "Table"]

#: Commands whose step can be taken back: they only bring chips or players to the table.
_REVERTIBLE = (Sit, SitTogether, AddChips)


@quick_init
@dataclass(frozen=True, slots=True)
class HandResult:
    """One finished hand: the table seats that played and each one's result (net of rake)."""

    number: int
    seats: tuple[int, ...]
    net: Mapping[int, int]
    house: int
    hand: Hand = field(repr=False, compare=False)
    rake: int = 0
    voided: bool = False


class Table(DealingMixin):
    """A table of ``seats`` seats for one game.

    ``spec`` (or ``options`` to build one) fixes the game's stakes for every
    hand; ``limits`` bounds buy-ins and added chips; ``rng`` shuffles every
    deck and the seat draw (default: the system's secure RNG). At a banked
    game (Casino Hold'em) the house starts with ``house_bankroll`` and collects
    or pays every box's result, and one player may hold up to
    ``boxes_per_player`` boxes. ``rake`` is the room's cut of each pot at a
    pool game. ``hand_options`` are extra keyword arguments for every hand
    (``manual_showdown=True``, for one). ``log_size`` bounds the events kept
    for :meth:`since` (``None``: keep them all; 0: none); ``first_seq`` and
    ``hands_played`` let a table go on numbering where a stored one stopped,
    and ``seated`` and ``button`` seat the players it had. With
    ``may_sit_out=False`` (a tournament's table) nobody sits out: ``SitOut``
    is refused and timeouts never sit a player out; the clock acts instead.
    """

    def __init__(
        self,
        game: str,
        *,
        seats: int | None = None,
        spec: Any = None,
        options: Mapping[str, Any] | None = None,
        limits: TableLimits | None = None,
        rng: random.Random | None = None,
        house_bankroll: int = 0,
        hand_options: Mapping[str, Any] | None = None,
        rake: Rake | None = None,
        boxes_per_player: int = 3,
        log_size: int | None = None,
        first_seq: int = 0,
        hands_played: int = 0,
        seated: Iterable[Entry] = (),
        button: int | None = None,
        may_sit_out: bool = True,
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
        self.info = info
        self.spec = spec
        # The spec's fields, for every hand's record (changed only by SetStakes).
        self._spec_fields = spec_to_dict(spec)
        self.size = size
        self.limits = limits if limits is not None else TableLimits()
        self.hand_options = dict(hand_options or {})
        self.rake = rake
        self.boxes_per_player = boxes_per_player if info.banked else 1
        if type(may_sit_out) is not bool:
            raise TableError("bad_command", f"may_sit_out is true or false, not {may_sit_out!r}")
        self.may_sit_out = may_sit_out
        self._rng = rng if rng is not None else secrets.SystemRandom()
        self._seats: list[Seat | None] = [None] * size
        self._by_account = None
        self._journal = Journal(first_seq)
        # The events kept for since(), newest last (numbered when read: the last is seq).
        self._log: deque[Pending] = deque(maxlen=log_size)
        self._button = None
        self._house = house_bankroll
        self._hand = None
        self._last_hand = None
        self._hand_seats = ()
        self._index_of = {}
        self._hands_played = hands_played
        self._rake_taken = 0
        self._cursor = 0
        self._hand_accounts = {}
        self._last_hand_seats = ()
        self._timeouts: dict[int, int] = {}
        # The closing event of the hand that ended last (what its summary reads).
        self._last_end = None
        # Chips that came to the table and left it, for the conservation check.
        self._chips_in = house_bankroll
        self._chips_out = 0
        self._restore(seated, button)

    # ------------------------------------------------------------ the one door

    def apply(self, command: Command) -> Step:
        """Carry out ``command``: the events it caused, numbered, and the records to store.

        A command that is not allowed raises a :class:`~pokerhouse.errors.PokerError`
        (a :class:`TableError`, or the engine's error for a bad action) and
        changes nothing.
        """
        undo = None
        if type(command) is not Act and isinstance(command, _REVERTIBLE):
            undo = (self._save_seats(), self._journal.seq, len(self._log))
        try:
            self._dispatch(command)
        except BaseException:
            # A refused command raises before its first change, so it emitted nothing.
            self._journal.drop()
            raise
        events, first, records = self._journal.take()
        if self._log.maxlen != 0:
            self._log.extend(events)
        return Step(events, first, records, undo)

    def revert(self, step: Step) -> None:
        """Take back ``step``, the last one applied, which brought players or chips
        (a :class:`Sit`, :class:`SitTogether` or :class:`AddChips`): for a room
        that could not store it, so the table is as the store still has it."""
        undo = step._undo
        if undo is None:
            raise TableError("bad_command", "only a step that seated players or added chips")
        seats, seq, kept = undo
        if step.last_seq != self._journal.seq:
            raise TableError("bad_command", "only the last step applied can be taken back")
        self._restore_seats(seats)
        self._journal.seq = seq
        while len(self._log) > kept:
            self._log.pop()

    def _dispatch(self, command: Command) -> None:
        if type(command) is Act:  # the commonest by far: no pattern matching for it
            self._act(command.seat, command.action, command.hand, command.client_id, False)
            return
        match command:
            case Act(seat, action, number, client_id):
                self._act(seat, action, number, client_id, timed_out=False)
            case Sit(seat, player, buy_in, account):
                self._sit(seat, player, buy_in, account)
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
            case SetStakes(stakes):
                self._set_stakes(stakes)
            case StartHand(order, seed, seats, setup):
                self._start_hand(order, seed, seats, dict(setup) if setup is not None else None)
            case VoidHand(reason, number):
                if not isinstance(reason, str) or not reason:
                    raise TableError("bad_command", "a void needs its reason")
                if number is None or self.hand is not None:
                    self._void(self._running(), reason)
                else:
                    self._void_undealt(number, reason)
            case Timeout(seat, number):
                self._act(seat, None, number, None, timed_out=True)
            case _:
                raise TableError("bad_command", f"a table takes no {command!r}")

    def _set_stakes(self, stakes: tuple[tuple[str, int], ...]) -> None:
        self._require_no_hand("change the stakes")
        fields = set(self._spec_fields)
        changed: dict[str, int] = {}
        for pair in stakes:
            if len(pair) != 2 or pair[0] not in fields or type(pair[1]) is not int:
                raise TableError("bad_spec", f"{self.game} has no stake {pair!r}")
            name, value = pair
            if getattr(self.spec, name) != value:
                changed[name] = value
        if not changed:
            return
        try:
            spec = dataclasses.replace(self.spec, **changed)
        except InvalidSpec as error:
            raise TableError("bad_spec", str(error)) from None
        self.spec = spec
        self._spec_fields = spec_to_dict(spec)
        self._journal.emit(StakesSet(stakes=tuple(sorted(changed.items()))))

    # ------------------------------------------------------------ queries

    @property
    def game(self) -> str:
        """The game's registry name."""
        return self.info.name

    @property
    def seq(self) -> int:
        """The sequence number of the last event (``first_seq`` before the first)."""
        return self._journal.seq

    @property
    def log(self) -> tuple[Logged, ...]:
        """The events kept (all of them, unless ``log_size`` bounds them), numbered."""
        return numbered(list(self._log), self.seq - len(self._log) + 1)

    @property
    def events(self) -> tuple[Event, ...]:
        """The events of :attr:`log`, without their numbers (server-side: unfiltered)."""
        return tuple([logged.event for logged in self.log])

    def since(self, seq: int, account: int | None = None) -> list[tuple[int, Event | None]] | None:
        """Events after ``seq`` as the holder of ``account`` may read them: ``(seq, event)``.

        Each event is what :func:`~pokerhouse.engine.visibility.shown_to` shows
        the seats ``account`` held when it happened (:meth:`Logged.viewer`),
        whoever holds them now; a spectator (``None``) and anyone who held
        none of its seats get what it shows to all, or ``None`` in its place,
        so the numbers stay gapless. ``None`` for the whole answer when the
        log no longer holds everything after ``seq`` (the viewer needs a
        fresh view).
        """
        if type(seq) is not int or seq > self.seq or seq < 0:
            return None
        first = self.seq - len(self._log) + 1
        if seq < self.seq and (not self._log or first > seq + 1):
            return None
        shown: list[tuple[int, Event | None]] = []
        for logged in self.log:
            if logged.seq <= seq:
                continue
            shown.append((logged.seq, shown_to(logged.event, logged.viewer(account))))
        return shown

    def chips_on_table(self) -> int:
        """Every stack plus the house's bankroll (between hands)."""
        self._require_no_hand("count the chips")
        return sum(state.stack for state in self._seats if state is not None) + self.house

    def chips_conserved(self) -> bool:
        """Whether the chips on the table equal those brought, less those taken away."""
        return self.chips_on_table() == self._chips_in - self._chips_out

    def last_summary(self, hand: Hand) -> HandResult:
        """The summary of the hand that just ended (from its closing event)."""
        event = self._last_end
        if isinstance(event, TableHandEnded):
            return HandResult(
                number=event.number,
                seats=event.seats,
                net=dict(zip(event.seats, event.net, strict=True)),
                house=event.house,
                hand=hand,
                rake=event.rake,
            )
        if isinstance(event, HandVoided):
            return HandResult(event.number, self.last_hand_seats, {}, 0, hand, voided=True)
        raise TableError("no_hand", "no hand has ended")

    def play_hand(self, policy: Policy, order: StartHand | None = None) -> HandResult:
        """Deal a hand (``order``: the :class:`StartHand` to deal it with) and ask
        ``policy(table_seat, view)`` for every decision, to the end: a loop over
        :meth:`apply`."""
        self.apply(order if order is not None else StartHand())
        dealt = self.last_hand
        assert dealt is not None
        while (hand := self._hand) is not None:
            index = hand.to_act
            assert index is not None
            seat = self._hand_seats[index]
            # The view a query gives; every change goes through the door.
            self.apply(Act(seat, policy(seat, hand._view(index))))
        return self.last_summary(dealt)
