"""The table's chairs: who sits where with how many chips, the button, and wagers.

This is the seating half of :class:`~pokerhouse.table.Table` (its hands are
in :mod:`pokerhouse.table.dealing`): seating commands, the button's rules
(RULES.md, Common: the first to sit deals, the seat draw when players sit
down together, one occupied seat clockwise after every hand) and the queries
about seats. Every change is announced in the table's journal as an event,
and every chip that comes to the table or leaves it as a record.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable
from typing import Any, cast

from pokerhouse.cards import Card, Deck
from pokerhouse.errors import InvalidSpec
from pokerhouse.games import GameInfo, WagerRules
from pokerhouse.table import records
from pokerhouse.table.errors import TableError
from pokerhouse.table.events import (
    ButtonPlaced,
    ChipsAdded,
    PlayerLeaving,
    PlayerLeft,
    PlayerSat,
    SeatDrawCard,
    SittingOut,
    WagerSet,
)
from pokerhouse.table.journal import Journal
from pokerhouse.table.seats import Seat, SeatInfo, TableLimits

_NO_SEATS: frozenset[int] = frozenset()

#: A seated entry: ``(seat, player, stack)`` or ``(seat, player, stack, account)``.
Entry = tuple[int, str, int] | tuple[int, str, int, int]


def _entry(entry: object, what: str) -> tuple[int, str, int, int]:
    """``(seat, player, chips, account)`` from a seated entry (account 0 if none)."""
    if not isinstance(entry, tuple) or len(entry) not in (3, 4):
        raise TableError("bad_command", f"a {what} entry is (seat, player, chips[, account])")
    account = entry[3] if len(entry) == 4 else 0
    if type(account) is not int or account < 0:
        raise TableError("bad_command", f"an account is a whole number >= 0, not {account!r}")
    return entry[0], entry[1], entry[2], account


class SeatingMixin:
    """Seats and the button (see the module's docstring); mixed into ``Table``."""

    info: GameInfo
    spec: Any
    size: int
    limits: TableLimits
    boxes_per_player: int
    may_sit_out: bool
    _hand_seats: tuple[int, ...]
    _rng: random.Random
    _journal: Journal
    _seats: list[Seat | None]
    _timeouts: dict[int, int]
    _chips_in: int
    _chips_out: int
    _button: int | None
    # Each account's seats, made when first asked for (None: to be made again).
    _by_account: dict[int, frozenset[int]] | None

    @property
    def button(self) -> int | None:
        """The seat of the dealer button (``None``: nobody sits, or a banked game)."""
        return self._button

    @property
    def hand_seats(self) -> tuple[int, ...]:
        """The table seats of the running hand, in hand order (empty between hands)."""
        return self._hand_seats

    @property
    def banked(self) -> bool:
        """Whether players play against the house (no button, a bankroll)."""
        return self.info.banked

    # ------------------------------------------------------------ queries

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
            account=state.account,
        )

    def leaving(self, seat: int) -> bool:
        """Whether the player at ``seat`` asked to leave (``False`` for an empty seat).

        Asked at every decision: no snapshot of the seat is made for it.
        """
        self._check_seat_number(seat)
        state = self._seats[seat]
        return state is not None and state.leaving

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

    def seats_of_account(self, account: int) -> frozenset[int]:
        """Every seat the account ``account`` holds now (empty: none)."""
        # Asked for each watcher at every step: kept, and forgotten when a seat changes hands.
        by_account = self._by_account
        if by_account is None:
            groups: dict[int, set[int]] = {}
            for n, state in enumerate(self._seats):
                if state is not None:
                    groups.setdefault(state.account, set()).add(n)
            by_account = self._by_account = {a: frozenset(seats) for a, seats in groups.items()}
        return by_account.get(account, _NO_SEATS)

    def account_of(self, seat: int) -> int | None:
        """The account that holds ``seat`` (``None``: nobody sits there)."""
        self._check_seat_number(seat)
        state = self._seats[seat]
        return None if state is None else state.account

    def ready(self) -> tuple[int, ...]:
        """Seats that would be dealt in now: seated, not sitting out, not busted."""
        return tuple(n for n in range(self.size) if self._plays(n))

    # ------------------------------------------------------------ commands

    def _restore(self, seated: Iterable[Entry], button: int | None) -> None:
        """Seat the players a stored table had, as they were (no events, no buy-in limits)."""
        for item in seated:
            seat, player, stack, account = _entry(item, "seated")
            self._check_seat_number(seat)
            if self._seats[seat] is not None:
                raise TableError("seat_taken", f"seat {seat} is listed twice")
            if type(stack) is not int or stack < 0:
                raise TableError("bad_amount", f"a stack is a whole number >= 0, not {stack!r}")
            if len(self.seats_of(player)) >= self.boxes_per_player:
                raise TableError("already_seated", f"{player} holds too many seats")
            state = Seat(player=player, stack=stack, bought_in=stack, account=account)
            if self.banked:
                state.ante, state.bonus = self._wager_rules().default_ante, 0
            self._seats[seat] = state
            self._by_account = None
            self._chips_in += stack
        if button is not None and not self.banked:
            self._check_seat_number(button)
            self._button = button
        elif self.occupied and not self.banked:
            self._button = self.occupied[0]

    def _sit(self, seat: int, player: str, buy_in: int, account: int) -> None:
        if type(account) is not int or account < 0:
            raise TableError("bad_command", f"an account is a whole number >= 0, not {account!r}")
        self._check_sit(seat, player, buy_in, set())
        self._place(seat, player, buy_in, account)
        if self.button is None and not self.banked:
            self._set_button(seat, "first_to_sit")

    def _sit_together(self, players: Iterable[Entry]) -> None:
        entries = [_entry(item, "seat") for item in players]
        taken: set[int] = set()
        names: dict[str, int] = {}
        for seat, player, buy_in, _ in entries:
            self._check_sit(seat, player, buy_in, taken, names.get(player, 0))
            taken.add(seat)
            names[player] = names.get(player, 0) + 1
        for seat, player, buy_in, account in sorted(entries):
            self._place(seat, player, buy_in, account)
        if self.button is not None or self.banked or not entries:
            return
        if len(entries) == 1:
            self._set_button(entries[0][0], "first_to_sit")
            return
        deck = Deck(self._rng)
        drawn: dict[int, Card] = {}
        for seat, player, _, _ in sorted(entries):
            drawn[seat] = deck.deal()
            self._journal.emit(SeatDrawCard(seat=seat, player=player, card=drawn[seat]))
        # Cards are 4 * rank + suit, so the highest int is the highest rank, then suit.
        self._set_button(max(drawn, key=lambda seat: int(drawn[seat])), "seat_draw")

    def _leave(self, seat: int) -> None:
        state = self._occupant(seat)
        if seat in self.hand_seats:
            if not state.leaving:
                state.leaving = True
                self._journal.emit(PlayerLeaving(seat=seat, player=state.player))
            return
        self._remove(seat)

    def _add_chips(self, seat: int, amount: int) -> None:
        state = self._check_add_chips(seat, amount)
        after = state.stack + amount
        state.stack = after
        state.bought_in += amount
        state.rebuys += 1
        self._chips_in += amount
        seq = self._journal.emit(
            ChipsAdded(seat=seat, player=state.player, amount=amount, stack=after)
        )
        self._journal.records.append(records.ChipsIn(seat, state.account, amount, seq))

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
        if out and not self.may_sit_out:
            raise TableError(
                "no_sitting_out", "nobody sits out here: every player is dealt every hand"
            )
        if not out:
            self._timeouts.pop(seat, None)
        if state.sitting_out != out:
            state.sitting_out = out
            self._journal.emit(SittingOut(seat=seat, player=state.player, out=out))

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
            self._journal.emit(WagerSet(seat=seat, ante=ante, bonus=bonus))

    # ------------------------------------------------------------ taking a step back

    def _save_seats(self) -> tuple[list[Seat | None], int | None, dict[int, int], int, int]:
        """The seats as they are (copies), for :meth:`_restore_seats`."""
        return (
            [copy.copy(state) for state in self._seats],
            self.button,
            dict(self._timeouts),
            self._chips_in,
            self._chips_out,
        )

    def _restore_seats(
        self, saved: tuple[list[Seat | None], int | None, dict[int, int], int, int]
    ) -> None:
        seats, self._button, timeouts, self._chips_in, self._chips_out = saved
        self._seats = [copy.copy(state) for state in seats]
        self._by_account = None
        self._timeouts = dict(timeouts)

    # ------------------------------------------------------------ internals

    def _check_seat_number(self, seat: object) -> None:
        if type(seat) is not int or not 0 <= seat < self.size:
            raise TableError("bad_seat", f"no seat {seat!r} (seats are 0 to {self.size - 1})")

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

    def _place(self, seat: int, player: str, buy_in: int, account: int) -> None:
        state = Seat(player=player, stack=buy_in, bought_in=buy_in, account=account)
        if self.banked:
            state.ante, state.bonus = self._wager_rules().default_ante, 0
        self._seats[seat] = state
        self._by_account = None
        self._chips_in += buy_in
        seq = self._journal.emit(PlayerSat(seat=seat, player=player, chips=buy_in))
        self._journal.records.append(records.BuyIn(seat, account, buy_in, seq))

    def _remove(self, seat: int) -> int:
        state = self._occupant(seat)
        self._seats[seat] = None
        self._by_account = None
        self._timeouts.pop(seat, None)
        self._chips_out += state.stack
        seq = self._journal.emit(PlayerLeft(seat=seat, player=state.player, chips=state.stack))
        self._journal.records.append(records.CashOut(seat, state.account, state.stack, seq))
        if not self.occupied:
            self._button = None
        return state.stack

    def _set_button(self, seat: int, reason: str) -> None:
        self._button = seat
        self._journal.emit(ButtonPlaced(seat=seat, reason=reason))

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

    def _wager_rules(self) -> WagerRules:
        return cast(WagerRules, self.spec)

    def _needs(self, state: Seat) -> int:
        """Chips a seat must hold to be dealt in: the game says, for a box; else one chip."""
        if self.banked:
            return self._wager_rules().stake_needed(state.ante, state.bonus)
        return 1
