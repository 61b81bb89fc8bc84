"""A table: seats, buy-ins and the button over many hands of one game.

The table is pure and synchronous like the engine: no I/O, no clocks, the
RNG injected. :meth:`Table.start_hand` deals a :class:`~pokerhouse.engine.Hand`
to the seats that play, the caller drives it with ``hand.act`` (or
:meth:`Table.act`), and :meth:`Table.end_hand` carries the stacks back, busts
the broke, lets leavers go and moves the button. :meth:`Table.play_hand` does
all three with a policy choosing each action.

Table seats are numbered 0 to ``seats - 1`` clockwise; inside a hand, seat 0
is the first playing seat left of the button and the button is the last, so
:attr:`Table.hand_seats` maps one numbering to the other.

>>> import random
>>> table = Table("3x4", seats=6, rng=random.Random(5))
>>> table.sit(4, "Ann", 200)
>>> table.sit(1, "Bob", 200)
>>> table.button
4
>>> hand = table.start_hand()
>>> table.hand_seats  # hand seat 0 is Bob (left of the button), Ann deals
(1, 4)
>>> from pokerhouse.engine import Action, ActionKind
>>> while not hand.is_over:
...     legal = hand.legal_actions()
...     _ = hand.act(Action.check() if ActionKind.CHECK in legal else Action.call())
>>> summary = table.end_hand()
>>> sum(summary.net.values()), table.button
(0, 1)
>>> table.chips_conserved()
True
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pokerhouse.cards import Card, Deck, RandomSource
from pokerhouse.engine.actions import Action
from pokerhouse.engine.events import Event
from pokerhouse.engine.hand import Hand, View
from pokerhouse.games import GameInfo, get_game
from pokerhouse.table.errors import TableError
from pokerhouse.table.events import (
    ButtonPlaced,
    ChipsAdded,
    PlayerBusted,
    PlayerLeft,
    PlayerSat,
    SeatDrawCard,
    SittingOut,
    TableHandEnded,
    TableHandStarted,
)
from pokerhouse.table.seats import Seat, SeatInfo, TableLimits

#: What :meth:`Table.play_hand` asks for each decision: (table seat, its view) -> action.
Policy = Callable[[int, View], Action]

__all__ = ["HandSummary", "Policy", "Table"]


@dataclass(frozen=True, slots=True)
class HandSummary:
    """One finished hand: the table seats that played and each one's result."""

    number: int
    seats: tuple[int, ...]
    net: Mapping[int, int]
    house: int
    hand: Hand = field(repr=False, compare=False)


class Table:
    """A table of ``seats`` seats for one game.

    ``spec`` (or ``options`` to build one) fixes the game's stakes for every
    hand; ``limits`` bounds buy-ins and rebuys; ``rng`` shuffles every deck and
    the seat draw (default: the system's secure RNG). At a banked game
    (Casino Hold'em) the house starts with ``house_bankroll`` and collects or
    pays every box's result. ``hand_options`` are extra keyword arguments for
    every hand (``manual_showdown=True``, for one).
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
        if type(house_bankroll) is not int:
            raise TableError("bad_amount", "the house bankroll must be a whole number of chips")
        self.info: GameInfo = info
        self.spec: Any = spec
        self.size = size
        self.limits = limits if limits is not None else TableLimits()
        self.hand_options: dict[str, Any] = dict(hand_options or {})
        self._rng: RandomSource = rng if rng is not None else secrets.SystemRandom()
        self._seats: list[Seat | None] = [None] * size
        self._events: list[Event] = []
        self.button: int | None = None
        self.house = house_bankroll
        self.hand: Hand | None = None
        self.hand_seats: tuple[int, ...] = ()
        self.hands_played = 0
        # Chips that came to the table and left it, for the conservation check.
        self._chips_in = house_bankroll
        self._chips_out = 0

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
    def events(self) -> tuple[Event, ...]:
        """Every table event so far (seating, draws, button, chips, hand starts and ends)."""
        return tuple(self._events)

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
        """The seat of ``player``, if seated."""
        for n, state in enumerate(self._seats):
            if state is not None and state.player == player:
                return n
        return None

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
        """Whether the chips on the table equal those bought in, less those taken away."""
        return self.chips_on_table() == self._chips_in - self._chips_out

    # ------------------------------------------------------------ seating

    def sit(self, seat: int, player: str, buy_in: int) -> None:
        """Seat ``player`` with ``buy_in`` chips; during a hand they wait for the next.

        The first player to sit at a table without a button becomes the dealer.
        """
        self._check_sit(seat, player, buy_in, set())
        self._place(seat, player, buy_in)
        if self.button is None and not self.banked:
            self._set_button(seat, "first_to_sit")

    def sit_together(self, players: Iterable[tuple[int, str, int]]) -> dict[int, Card]:
        """Seat several players at once, as at a tournament start: ``(seat, player, buy_in)``.

        At a table without a button, each is dealt one card face up (in seat
        order) and the highest card takes the button, equal ranks by suit order
        (clubs, diamonds, hearts, spades); returns the cards drawn (empty when
        no draw was needed).
        """
        entries = list(players)
        taken: set[int] = set()
        names: set[str] = set()
        for seat, player, buy_in in entries:
            self._check_sit(seat, player, buy_in, taken)
            if player in names:
                raise TableError("already_seated", f"{player} is listed twice")
            taken.add(seat)
            names.add(player)
        for seat, player, buy_in in sorted(entries):
            self._place(seat, player, buy_in)
        if self.button is not None or self.banked or not entries:
            return {}
        if len(entries) == 1:
            self._set_button(entries[0][0], "first_to_sit")
            return {}
        deck = Deck(self._rng)
        drawn: dict[int, Card] = {}
        for seat, player, _ in sorted(entries):
            drawn[seat] = deck.deal()
            self._emit(SeatDrawCard(seat=seat, player=player, card=drawn[seat]))
        # Cards are 4 * rank + suit, so the highest int is the highest rank, then suit.
        self._set_button(max(drawn, key=lambda seat: int(drawn[seat])), "seat_draw")
        return drawn

    def leave(self, seat: int) -> int | None:
        """Stand ``seat``'s player up; returns the chips they take.

        A player in the running hand leaves when it ends (returns ``None``):
        their chips are still in play until then.
        """
        state = self._occupant(seat)
        if seat in self.hand_seats:
            state.leaving = True
            return None
        return self._remove(seat)

    def rebuy(self, seat: int, amount: int) -> None:
        """Add ``amount`` chips between hands; the stack after must be within the buy-in limits."""
        state = self._occupant(seat)
        if seat in self.hand_seats:
            raise TableError("in_hand", f"seat {seat} is in the hand: add chips after it")
        if type(amount) is not int or amount < 1:
            raise TableError(
                "bad_amount", f"a rebuy must be a whole number of chips, not {amount!r}"
            )
        after = state.stack + amount
        if after > self.limits.max_buy_in:
            raise TableError(
                "buy_in_too_large",
                f"a rebuy of {amount} would make the stack {after}, above the table maximum "
                f"of {self.limits.max_buy_in}",
            )
        if after < self.limits.min_buy_in:
            raise TableError(
                "buy_in_too_small",
                f"a rebuy of {amount} would make the stack {after}, below the table minimum "
                f"of {self.limits.min_buy_in}",
            )
        state.stack = after
        state.bought_in += amount
        state.rebuys += 1
        self._chips_in += amount
        self._emit(ChipsAdded(seat=seat, player=state.player, amount=amount, stack=after))

    def sit_out(self, seat: int, out: bool = True) -> None:
        """Stop (or, with ``out=False``, resume) being dealt in, from the next hand."""
        state = self._occupant(seat)
        if state.sitting_out != out:
            state.sitting_out = out
            self._emit(SittingOut(seat=seat, player=state.player, out=out))

    def sit_in(self, seat: int) -> None:
        """Be dealt in again from the next hand."""
        self.sit_out(seat, out=False)

    def set_wager(self, seat: int, ante: int, bonus: int = 0) -> None:
        """A box's bets for the next hands at a banked game (the ante and the side bonus)."""
        state = self._occupant(seat)
        if not self.banked:
            raise TableError("bad_wager", f"{self.info.title} has no wagers against the house")
        if seat in self.hand_seats:
            raise TableError("in_hand", f"box {seat} is in the hand: change bets after it")
        for name, value in (("ante", ante), ("bonus", bonus)):
            if type(value) is not int or value < 0:
                raise TableError("bad_wager", f"the {name} must be a whole number >= 0")
        low = getattr(self.spec, "min_ante", 1)
        high = getattr(self.spec, "max_ante", ante)
        if not low <= ante <= high:
            raise TableError("bad_wager", f"the ante must be from {low} to {high}, not {ante}")
        least = getattr(self.spec, "bonus_minimum", 1)
        if bonus and not least <= bonus <= ante:
            raise TableError(
                "bad_wager", f"a bonus is 0 or from {least} up to the ante ({ante}), not {bonus}"
            )
        state.ante, state.bonus = ante, bonus

    # ------------------------------------------------------------ hands

    def start_hand(self, deck: Deck | None = None) -> Hand:
        """Deal a hand to the seats that play; ``deck`` overrides the shuffled one."""
        if self.hand is not None:
            raise TableError("hand_in_progress", "a hand is already being played")
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
        kwargs.update(self._banked_kwargs(playing))
        hand = self.info.hand_type(
            self.spec, stacks, deck if deck is not None else Deck(self._rng), **kwargs
        )
        # Only now that the hand is dealt does anything at the table change.
        if dealer is not None and dealer != self.button:
            self._set_button(dealer, "moved")
        self.hand = hand
        self.hand_seats = tuple(playing)
        self._emit(
            TableHandStarted(
                number=self.hands_played + 1,
                button=-1 if self.button is None or self.banked else self.button,
                seats=self.hand_seats,
                stacks=tuple(stacks),
            )
        )
        return hand

    def view(self, seat: int | None) -> View:
        """The running hand as table seat ``seat`` may see it (``None``: a spectator)."""
        hand = self._running()
        if seat is None:
            return hand.view(None)
        # A bool would otherwise pass for seat 0 or 1 (True == 1).
        self._check_seat_number(seat)
        index = self.hand_seat(seat)
        if index is None:
            raise TableError("not_in_hand", f"seat {seat} is not in this hand")
        return hand.view(index)

    def to_act(self) -> int | None:
        """The table seat whose decision the running hand waits for."""
        hand = self._running()
        return None if hand.to_act is None else self.hand_seats[hand.to_act]

    def act(self, seat: int, action: Action) -> tuple[Event, ...]:
        """Apply ``action`` for table seat ``seat`` in the running hand."""
        hand = self._running()
        self._check_seat_number(seat)
        index = self.hand_seat(seat)
        if index is None:
            raise TableError("not_in_hand", f"seat {seat} is not in this hand")
        return hand.act(action, index)

    def end_hand(self) -> HandSummary:
        """Carry the finished hand's stacks back to the seats and get ready for the next."""
        hand = self._running()
        if not hand.is_over:
            raise TableError("hand_not_over", "the hand is not over yet")
        seats = self.hand_seats
        net = hand.results()
        for index, seat in enumerate(seats):
            self._occupant(seat).stack = hand.stacks[index]
        house = -sum(net) if self.banked else 0
        self.house += house
        self.hands_played += 1
        self.hand = None
        self.hand_seats = ()
        self._emit(TableHandEnded(number=self.hands_played, seats=seats, net=net, house=house))
        for seat in seats:
            state = self._occupant(seat)
            if state.leaving:
                self._remove(seat)
            elif state.stack < self._needs(state):
                self._emit(PlayerBusted(seat=seat, player=state.player))
        if not self.banked and self.button is not None and self.occupied:
            following = self._next_ready(self.button)
            if following is not None and following != self.button:
                self._set_button(following, "moved")
        return HandSummary(
            number=self.hands_played,
            seats=seats,
            net=dict(zip(seats, net, strict=True)),
            house=house,
            hand=hand,
        )

    def play_hand(self, policy: Policy, deck: Deck | None = None) -> HandSummary:
        """Start a hand, ask ``policy(table_seat, view)`` for every decision, end it."""
        hand = self.start_hand(deck)
        while not hand.is_over:
            index = hand.to_act
            assert index is not None
            hand.act(policy(self.hand_seats[index], hand.view(index)), index)
        return self.end_hand()

    # ------------------------------------------------------------ internals

    def _emit(self, event: Event) -> None:
        self._events.append(event)

    def _check_seat_number(self, seat: object) -> None:
        if type(seat) is not int or not 0 <= seat < self.size:
            raise TableError("bad_seat", f"no seat {seat!r} (seats are 0 to {self.size - 1})")

    def _occupant(self, seat: int) -> Seat:
        self._check_seat_number(seat)
        state = self._seats[seat]
        if state is None:
            raise TableError("seat_empty", f"nobody sits in seat {seat}")
        return state

    def _check_sit(self, seat: int, player: str, buy_in: int, taken: set[int]) -> None:
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
        if self.find(player) is not None:
            raise TableError(
                "already_seated", f"{player} is already seated at seat {self.find(player)}"
            )
        self.limits.check_buy_in(buy_in)

    def _place(self, seat: int, player: str, buy_in: int) -> None:
        state = Seat(player=player, stack=buy_in, bought_in=buy_in)
        if self.banked:
            state.ante, state.bonus = self._default_wager()
        self._seats[seat] = state
        self._chips_in += buy_in
        self._emit(PlayerSat(seat=seat, player=player, chips=buy_in))

    def _remove(self, seat: int) -> int:
        state = self._occupant(seat)
        self._seats[seat] = None
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

    def _default_wager(self) -> tuple[int, int]:
        ante = getattr(self.spec, "min_ante", None)
        return (ante if isinstance(ante, int) and ante > 0 else 1), 0

    def _needs(self, state: Seat) -> int:
        """Chips a seat must hold to be dealt in.

        A box at a banked game needs its ante, its bonus and the call (twice the
        ante), so that it can always choose to call; anywhere else one chip.
        """
        return 3 * state.ante + state.bonus if self.banked else 1

    def _banked_kwargs(self, playing: list[int]) -> dict[str, Any]:
        if not self.banked:
            return {}
        boxes = [self._occupant(seat) for seat in playing]
        return {"antes": [box.ante for box in boxes], "bonuses": [box.bonus for box in boxes]}
