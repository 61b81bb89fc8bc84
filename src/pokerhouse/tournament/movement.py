"""Moving players: late entries' seats, breaking a table, balancing, seating arrivals.

RULES.md "Tournaments", "Balancing": after each hand, one player moves from
the fullest table to the emptiest when they differ by two or more (the
player who would get the fullest table's button next), the move leaving a
table only between its hands; when the players left fit in one table
fewer, the table with the fewest (ties: the highest numbered) breaks as
soon as its hand ends.
"""

from __future__ import annotations

from pokerhouse.tournament.base import DirectorBase
from pokerhouse.tournament.orders import CloseTable, OpenTable, Seating, SeatPlayer
from pokerhouse.tournament.state import TableState, TournamentEntry


class MovementMixin(DirectorBase):
    """Where entries sit, and the moves that keep the tables full and even."""

    def _place_late(self, entry: TournamentEntry) -> None:
        """A late entry's seat: at the emptiest table with room, or at a new table."""
        sizes = self.table_sizes()
        roomy = [
            number
            for number, size in sizes.items()
            if size < self.spec.seats and number != self.state.breaking
        ]
        if roomy:
            least = min(sizes[number] for number in roomy)
            number = min(number for number in roomy if sizes[number] == least)
        else:
            number = self._new_table().number
        entry.table, entry.seat = number, self._free_seat(number)

    def _break_a_table(self) -> None:
        """Choose the table to break afresh (the players may no longer fit, or another
        table may now have fewer), and break it if it is between hands."""
        state = self.state
        state.breaking = None
        if len(state.tables) < 2:
            return
        sizes = self.table_sizes()
        if len(self.active()) > (len(sizes) - 1) * self.spec.seats:
            return
        fewest = min(sizes.values())
        number = state.breaking = max(n for n, size in sizes.items() if size == fewest)
        if state.tables[number].playing:
            return
        table = state.tables[number]
        movers = [self._entry(entry) for entry in table.seats.values()]
        movers += [entry for entry in self.active() if entry.table == number and not entry.seated]
        self._rng().shuffle(movers)
        for entry in movers:
            sizes = self.table_sizes()
            del sizes[number]
            least = min(sizes.values())
            target = min(other for other, size in sizes.items() if size == least)
            if entry.seated:
                assert entry.seat is not None
                self._unseat(table, entry.seat, "moved", target)
            entry.table, entry.seat = target, self._free_seat(target)
            state.moves += 1
        del state.tables[number]
        state.breaking = None
        state.broken += 1
        if table.opened:
            self._emit(CloseTable(number))

    def _balance(self) -> None:
        state = self.state
        while len(state.tables) > 1:
            sizes = self.table_sizes()
            if state.breaking is not None:
                del sizes[state.breaking]
            if len(sizes) < 2:
                return
            most, least = max(sizes.values()), min(sizes.values())
            if most - least < 2:
                return
            givers = [
                number
                for number, size in sorted(sizes.items())
                if size == most and not state.tables[number].playing
            ]
            if not givers:
                return  # the fullest tables are dealing: the move waits for their hands to end
            table = state.tables[givers[0]]
            target = min(number for number, size in sizes.items() if size == least)
            seat = self._next_button(table)
            if seat is None:
                return  # every player of the fullest table is still on the way there
            entry = self._entry(table.seats[seat])
            self._unseat(table, seat, "moved", target)
            entry.table, entry.seat = target, self._free_seat(target)
            state.moves += 1

    def _next_button(self, table: TableState) -> int | None:
        """The seated player who would get the button next at ``table``."""
        if not table.seats:
            return None
        start = table.button if table.button is not None else 0
        for step in range(self.spec.seats):
            seat = (start + step) % self.spec.seats
            if seat in table.seats:
                return seat
        return None

    def _seat_arrivals(self) -> None:
        """Players on their way to a table between hands sit down. A new table opens once
        two are there, so that its high-card draw for the button has players to draw."""
        state = self.state
        arriving: dict[int, list[TournamentEntry]] = {}
        for entry in self.active():
            if (
                entry.table is not None
                and not entry.seated
                and not state.tables[entry.table].playing
            ):
                arriving.setdefault(entry.table, []).append(entry)
        for number in sorted(arriving):
            table = state.tables[number]
            if not table.opened and len(arriving[number]) < 2:
                continue
            entries = sorted(arriving[number], key=lambda entry: entry.seat or 0)
            seatings = []
            for entry in entries:
                assert entry.seat is not None
                table.seats[entry.seat] = entry.number
                entry.seated = True
                seatings.append(
                    Seating(entry.seat, entry.number, entry.player, entry.account, entry.stack)
                )
            if table.opened:
                for seating in seatings:
                    self._emit(SeatPlayer(number, seating))
            else:
                table.opened = True
                self._emit(OpenTable(number, tuple(seatings), self.stakes))
