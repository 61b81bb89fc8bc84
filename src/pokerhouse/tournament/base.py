"""What every part of the director shares: its spec and state, queries, small helpers."""

from __future__ import annotations

import random

from pokerhouse.tournament.errors import TournamentError
from pokerhouse.tournament.orders import Order, UnseatPlayer
from pokerhouse.tournament.spec import TournamentSpec
from pokerhouse.tournament.state import RUNNING, State, TableState, TournamentEntry
from pokerhouse.tournament.structure import Stakes


class DirectorBase:
    """A tournament's spec and state, what anyone may ask of them, and the helpers its
    parts share (orders out, numbered draws, entries and tables by number)."""

    spec: TournamentSpec
    state: State
    _orders: list[Order]
    #: The entries still in, and entries by number: kept until an entry comes, goes or busts
    #: (:meth:`_forget`), since a big tournament asks for them many times a hand.
    _active: list[TournamentEntry] | None = None
    _by_number: dict[int, TournamentEntry] | None = None

    # ------------------------------------------------------------ queries

    @property
    def status(self) -> str:
        """``registering``, ``running``, ``finished`` or ``cancelled``."""
        return self.state.status

    @property
    def entries(self) -> tuple[TournamentEntry, ...]:
        """Every entry, in the order they came."""
        return tuple(self.state.entries)

    def active(self) -> list[TournamentEntry]:
        """The entries still in (not busted), in the order they came."""
        if self._active is None:
            self._active = [entry for entry in self.state.entries if not entry.busted]
        return list(self._active)

    def chips_in_play(self) -> int:
        """The chips of the entries still in: entries times the starting stack, always."""
        return sum(entry.stack for entry in self.active())

    @property
    def level(self) -> int:
        """The level being played (0 is the first)."""
        return self.state.level

    @property
    def stakes(self) -> Stakes:
        """The current level's amounts."""
        return self.spec.structure.stakes(self.state.level)

    @property
    def on_break(self) -> bool:
        """Whether a break is on."""
        return self.state.break_left is not None

    def table_sizes(self) -> dict[int, int]:
        """Players at or on their way to each table."""
        sizes = {number: 0 for number in self.state.tables}
        for entry in self.active():
            if entry.table is not None:
                sizes[entry.table] += 1
        return sizes

    def pool(self) -> int:
        """The prize pool: the buy-ins, or the guarantee if that is more."""
        entrants = len(self.state.entries)
        return max(entrants * self.spec.buy_in, self.spec.guarantee)

    # ------------------------------------------------------------ helpers

    def _emit(self, order: Order) -> None:
        self._orders.append(order)

    def _rng(self) -> random.Random:
        """The next numbered draw's generator: the same seed gives the same draws."""
        self.state.draws += 1
        return random.Random(f"{self.state.seed}/{self.state.draws}")

    def _require_running(self) -> None:
        if self.state.status != RUNNING:
            raise TournamentError("not_running", f"{self.spec.name} is {self.state.status}")

    def _anyone_playing(self) -> bool:
        return any(table.playing for table in self.state.tables.values())

    def _entry(self, number: int) -> TournamentEntry:
        if self._by_number is None:
            self._by_number = {entry.number: entry for entry in self.state.entries}
        entry = self._by_number.get(number)
        if entry is None:
            raise TournamentError("bad_report", f"no entry {number}")
        return entry

    def _forget(self) -> None:
        """An entry came, went or busted: the lists kept of them are out of date."""
        self._active = None
        self._by_number = None

    def _new_table(self) -> TableState:
        table = TableState(self.state.next_table)
        self.state.tables[table.number] = table
        self.state.next_table += 1
        return table

    def _free_seat(self, number: int) -> int:
        """A seat drawn among those of table ``number`` nobody sits in or is moving to."""
        taken = {
            entry.seat
            for entry in self.active()
            if entry.table == number and entry.seat is not None
        }
        free = [seat for seat in range(self.spec.seats) if seat not in taken]
        return self._rng().choice(free)

    def _unseat(self, table: TableState, seat: int, reason: str, to: int | None = None) -> None:
        number = table.seats.pop(seat)
        entry = self._entry(number)
        entry.table = entry.seat = None
        entry.seated = False
        self._emit(UnseatPlayer(table.number, seat, number, reason, to))
