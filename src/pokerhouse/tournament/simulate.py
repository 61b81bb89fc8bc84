"""A whole tournament of bots on the pure engine and director, on a simulated clock.

Each table is a real :class:`~pokerhouse.table.Table` dealing through its
one door; the director's orders are carried out as the room carries them
out. Time is simulated: a hand takes ``seconds_per_hand`` plus
``seconds_per_action`` for each action, so tables finish their hands at
different moments, as in a room, and the levels, breaks, moves and hand
for hand happen as they would there. The chips in play are checked after
every hand.

>>> from pokerhouse.tournament.spec import sit_and_go
>>> result = simulate(sit_and_go("3x4", seats=6), seed=7)
>>> result.entrants, len(result.standings), result.chips_conserved
(6, 6, True)
>>> [standing.prize for standing in result.standings][:3]
[390, 210, 0]
"""

from __future__ import annotations

import heapq
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pokerhouse.bots import get as get_bot
from pokerhouse.bots.base import Bot
from pokerhouse.engine.actions import Action
from pokerhouse.engine.hand import View
from pokerhouse.table import (
    Leave,
    SetStakes,
    Sit,
    SitTogether,
    Table,
    TableLimits,
)
from pokerhouse.tournament.director import Director
from pokerhouse.tournament.errors import TournamentError
from pokerhouse.tournament.orders import (
    BreakStarted,
    CloseTable,
    Deal,
    Finished,
    HandForHand,
    HandReport,
    LevelUp,
    OpenTable,
    Order,
    Register,
    SeatPlayer,
    SeatResult,
    Start,
    Tick,
    UnseatPlayer,
)
from pokerhouse.tournament.spec import TournamentSpec

#: Simulated seconds a hand takes: dealing and showing down, and each decision.
SECONDS_PER_HAND = 20.0
SECONDS_PER_ACTION = 3.0

#: No tournament table holds more chips than this (the table's buy-in cap).
_MOST_CHIPS = 10**12


@dataclass(frozen=True, slots=True)
class Standing:
    """Where one entry finished and what it won."""

    place: int
    tied: int
    entry: int
    player: str
    bot: str
    prize: int

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {
            "place": self.place,
            "tied": self.tied,
            "entry": self.entry,
            "player": self.player,
            "bot": self.bot,
            "prize": self.prize,
        }


@dataclass(frozen=True, slots=True)
class SimulatedTournament:
    """A finished tournament: the finish and prizes, and what it took."""

    name: str
    game: str
    entrants: int
    pool: int
    standings: tuple[Standing, ...]
    hands: int
    actions: int
    moves: int
    tables_broken: int
    levels: int
    breaks: int
    hand_for_hand: bool
    simulated_seconds: float
    seconds: float
    chips_conserved: bool

    @property
    def hands_per_second(self) -> float:
        """Hands dealt per second of the machine's time, bots' thinking included."""
        return self.hands / self.seconds if self.seconds > 0 else float("inf")

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {
            "name": self.name,
            "game": self.game,
            "entrants": self.entrants,
            "pool": self.pool,
            "hands": self.hands,
            "actions": self.actions,
            "moves": self.moves,
            "tables_broken": self.tables_broken,
            "levels": self.levels,
            "breaks": self.breaks,
            "hand_for_hand": self.hand_for_hand,
            "simulated_seconds": round(self.simulated_seconds, 1),
            "seconds": round(self.seconds, 3),
            "hands_per_second": round(self.hands_per_second, 1),
            "chips_conserved": self.chips_conserved,
            "standings": [standing.as_dict() for standing in self.standings],
        }


class _Runner:
    """Carries out a director's orders on live tables and reports their hands back."""

    def __init__(
        self,
        director: Director,
        bots: dict[str, Bot],
        rng: random.Random,
        seconds_per_hand: float,
        seconds_per_action: float,
        on_hand: Callable[[int, int], None] | None = None,
    ) -> None:
        self.director = director
        self.on_hand = on_hand
        self.spec = director.spec
        self.bots = bots
        self.rng = rng
        self.seconds_per_hand = seconds_per_hand
        self.seconds_per_action = seconds_per_action
        self.tables: dict[int, Table] = {}
        self.players: dict[int, dict[int, str]] = {}
        self.ending: list[tuple[float, int, HandReport]] = []
        self.now = 0.0
        self.breaks = 0
        self.levels = 1
        self.hand_for_hand = False
        self.conserved = True
        self.finished = False
        self.actions = 0

    def give(self, given: Any) -> None:
        """Hand the director an input and carry out what it orders."""
        self.carry_out(self.director.apply(given))

    def carry_out(self, orders: Sequence[Order]) -> None:
        for order in orders:
            match order:
                case OpenTable(number, seats, stakes):
                    table = Table(
                        self.spec.game,
                        seats=self.spec.seats,
                        limits=TableLimits(min_buy_in=1, max_buy_in=_MOST_CHIPS),
                        rng=random.Random(self.rng.getrandbits(64)),
                        log_size=0,
                        may_sit_out=False,
                    )
                    table.apply(SetStakes(stakes))
                    table.apply(
                        SitTogether(tuple((s.seat, s.player, s.stack, s.entry) for s in seats))
                    )
                    self.tables[number] = table
                    self.players[number] = {s.seat: s.player for s in seats}
                case SeatPlayer(number, seating):
                    self.tables[number].apply(
                        Sit(seating.seat, seating.player, seating.stack, seating.entry)
                    )
                    self.players[number][seating.seat] = seating.player
                case UnseatPlayer(number, seat):
                    self.tables[number].apply(Leave(seat))
                    del self.players[number][seat]
                case CloseTable(number):
                    del self.tables[number], self.players[number]
                case Deal(number, _, stakes):
                    self._deal(number, stakes)
                case LevelUp():
                    self.levels += 1
                case BreakStarted():
                    self.breaks += 1
                case HandForHand(on):
                    self.hand_for_hand = self.hand_for_hand or on
                case Finished():
                    self.finished = True
                case _:
                    pass

    def _deal(self, number: int, stakes: Any) -> None:
        table = self.tables[number]
        table.apply(SetStakes(stakes))
        players = self.players[number]
        before = {seat: self._stack(table, seat) for seat in players}

        def policy(seat: int, view: View) -> Action:
            return self.bots[players[seat]].choose(view)

        summary = table.play_hand(policy)
        results = tuple(
            SeatResult(seat, before[seat], self._stack(table, seat)) for seat in sorted(players)
        )
        self.actions += len(summary.hand.actions)
        took = self.seconds_per_hand + self.seconds_per_action * len(summary.hand.actions)
        report = HandReport(number, results, table.button, self.now + took)
        heapq.heappush(self.ending, (report.now, number, report))

    @staticmethod
    def _stack(table: Table, seat: int) -> int:
        info = table.seat(seat)
        assert info is not None
        return info.stack

    def run(self) -> None:
        """Report the hands as their simulated time comes, to the end."""
        director = self.director
        chips = len(director.entries) * self.spec.structure.stack
        while not self.finished:
            if self.ending:
                self.now, _, report = heapq.heappop(self.ending)
                self.give(report)
            elif director.on_break:
                assert director.state.break_left is not None
                self.now += director.state.break_left
                self.give(Tick(self.now))
            else:
                raise TournamentError(
                    "not_running",
                    "no table is dealing and nothing is waiting: the tournament stalled",
                )
            if director.status == "running" and director.chips_in_play() != chips:
                self.conserved = False
            if self.on_hand is not None:
                self.on_hand(director.state.hands, len(director.active()))


def simulate(
    spec: TournamentSpec,
    *,
    entrants: int | None = None,
    bots: Sequence[str] = ("random",),
    seed: int | None = None,
    seconds_per_hand: float = SECONDS_PER_HAND,
    seconds_per_action: float = SECONDS_PER_ACTION,
    on_hand: Callable[[int, int], None] | None = None,
) -> SimulatedTournament:
    """Play tournament ``spec`` to the end with ``entrants`` bots (default: a sit-and-go's
    seats), named round the entrants from ``bots``; ``seed`` fixes everything.
    ``on_hand(hands, left)`` is called after every hand (a progress bar's hook)."""
    count = spec.seats if entrants is None else entrants
    if type(count) is not int or count < spec.min_entrants:
        raise TournamentError(
            "bad_tournament",
            f"{spec.name} needs at least {spec.min_entrants} entrants, not {count!r}",
        )
    if spec.max_entrants is not None and count > spec.max_entrants:
        raise TournamentError(
            "bad_tournament", f"{spec.name} takes at most {spec.max_entrants} entrants, not {count}"
        )
    if not bots:
        raise TournamentError("bad_tournament", "name at least one bot")
    rng = random.Random(seed)
    director = Director(spec, seed=rng.getrandbits(63))
    names = [f"{bots[index % len(bots)]}-{index + 1}" for index in range(count)]
    players = {
        name: get_bot(
            bots[index % len(bots)], game=spec.game, rng=random.Random(rng.getrandbits(64))
        )
        for index, name in enumerate(names)
    }
    runner = _Runner(director, players, rng, seconds_per_hand, seconds_per_action, on_hand)
    started = time.perf_counter()
    for name in names:
        runner.give(Register(name))
    if spec.format == "scheduled":
        runner.give(Start(0.0))
    runner.run()
    seconds = time.perf_counter() - started
    standings = tuple(
        Standing(
            entry.place or 0,
            entry.tied,
            entry.number,
            entry.player,
            players[entry.player].name,
            entry.prize,
        )
        for entry in sorted(director.entries, key=lambda entry: (entry.place or 0, entry.number))
    )
    state = director.state
    return SimulatedTournament(
        name=spec.name,
        game=spec.game,
        entrants=len(director.entries),
        pool=state.pool,
        standings=standings,
        hands=state.hands,
        actions=runner.actions,
        moves=state.moves,
        tables_broken=state.broken,
        levels=runner.levels,
        breaks=runner.breaks,
        hand_for_hand=runner.hand_for_hand,
        simulated_seconds=runner.now,
        seconds=seconds,
        chips_conserved=runner.conserved,
    )
