"""A scripted runner for director tests: it keeps the seats the orders make and ends
hands with the chips a test says, so each rule is tried without dealing cards."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from pokerhouse.tournament import Director, HandReport, Register, SeatResult, Start, Tick
from pokerhouse.tournament.orders import (
    CloseTable,
    Deal,
    OpenTable,
    Order,
    SeatPlayer,
    UnseatPlayer,
)
from pokerhouse.tournament.spec import TournamentSpec


class Harness:
    """Drives a director as a room would, checking every order against the seats it keeps."""

    def __init__(self, spec: TournamentSpec, seed: int = 1) -> None:
        self.director = Director(spec, seed=seed)
        self.spec = spec
        self.seats: dict[int, dict[int, int]] = {}
        self.playing: set[int] = set()
        self.buttons: dict[int, int | None] = {}
        self.orders: list[Order] = []
        self.now = 0.0

    def give(self, given: Any) -> list[Order]:
        orders = list(self.director.apply(given))
        self.orders += orders
        for order in orders:
            match order:
                case OpenTable(table, seatings, _):
                    assert table not in self.seats
                    self.seats[table] = {s.seat: s.entry for s in seatings}
                    self.buttons[table] = min(self.seats[table])
                case SeatPlayer(table, seating):
                    assert table not in self.playing, "seated during a hand"
                    assert seating.seat not in self.seats[table]
                    self.seats[table][seating.seat] = seating.entry
                case UnseatPlayer(table, seat, entry):
                    assert table not in self.playing, "unseated during a hand"
                    assert self.seats[table].pop(seat) == entry
                case CloseTable(table):
                    # Only a cancelled tournament closes tables with players or a hand on.
                    if self.director.status != "cancelled":
                        assert not self.seats[table] and table not in self.playing
                    del self.seats[table]
                    self.playing.discard(table)
                case Deal(table):
                    assert table not in self.playing and len(self.seats[table]) >= 2
                    self.playing.add(table)
                case _:
                    pass
        return orders

    def register(self, count: int, start: bool = True) -> list[Order]:
        for number in range(1, count + 1):
            self.give(Register(f"p{number}", account=number, now=self.now))
        if start and self.spec.format == "scheduled":
            return self.give(Start(self.now))
        return self.orders

    def stack(self, entry: int) -> int:
        return next(e.stack for e in self.director.entries if e.number == entry)

    def end(
        self,
        table: int,
        changes: Mapping[int, int] | None = None,
        *,
        button: int | None = None,
        seconds: float = 1.0,
    ) -> list[Order]:
        """End ``table``'s hand with each seat's chips changed by ``changes`` (seat: delta)."""
        changes = dict(changes or {})
        self.now += seconds
        results = []
        for seat, entry in sorted(self.seats[table].items()):
            start = self.stack(entry)
            results.append(SeatResult(seat, start, start + changes.get(seat, 0)))
        self.playing.discard(table)
        if button is not None:
            self.buttons[table] = button
        return self.give(HandReport(table, tuple(results), self.buttons[table], self.now))

    def bust(self, table: int, losers: Sequence[int], winner: int, **kwargs: Any) -> list[Order]:
        """End ``table``'s hand with ``losers`` (seats) losing every chip to ``winner``."""
        entries = self.seats[table]
        changes = {seat: -self.stack(entries[seat]) for seat in losers}
        changes[winner] = -sum(changes.values())
        return self.end(table, changes, **kwargs)

    def tick(self, seconds: float) -> list[Order]:
        self.now += seconds
        return self.give(Tick(self.now))

    def sizes(self) -> dict[int, int]:
        return self.director.table_sizes()

    def random_hand(self, rng: random.Random, bust_chance: float = 0.3) -> list[Order]:
        """End a random dealing table's hand with chips moved at random, busts now and then."""
        table = rng.choice(sorted(self.playing))
        seats = sorted(self.seats[table])
        winner = rng.choice(seats)
        changes: dict[int, int] = {}
        for seat in seats:
            if seat == winner:
                continue
            stack = self.stack(self.seats[table][seat])
            lost = stack if rng.random() < bust_chance else rng.randint(0, stack)
            changes[seat] = -lost
        changes[winner] = -sum(changes.values())
        buttons = [seat for seat in range(self.spec.seats)]
        return self.end(table, changes, button=rng.choice(buttons), seconds=rng.uniform(5, 60))

    def step(self, rng: random.Random, bust_chance: float = 0.3) -> list[Order]:
        """The next thing that happens: a hand ends, or (nothing dealing) the break runs out."""
        if self.playing:
            return self.random_hand(rng, bust_chance)
        left = self.director.state.break_left
        assert left is not None, "no table deals and no break is on: the tournament stalled"
        return self.tick(left)
