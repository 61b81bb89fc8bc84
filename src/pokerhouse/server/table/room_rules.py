"""The room's own rules around a table's hands, sans I/O: clocks, banks, window, away.

RULES.md, "The room": each decision has a time limit and then the player's
time bank; a player still away when a hand ends is sat out, and one sat out
for ``away_seconds`` is stood up; Casino Hold'em deals after a betting
window that closes early once every seated person has confirmed their bets
(which stand from round to round until changed); a hand's end is held on
the felt for a pause before the next deal. This object keeps that state and
answers, for a table and the time, with table commands to apply and
intents (timers to set or cancel, announcements to make). It never waits,
sleeps or sends: the table task does all of that, and a test drives these
rules with plain calls and numbers for the time.

>>> import random
>>> from pokerhouse.table import Sit, Table
>>> table = Table("3x4", seats=2, rng=random.Random(1))
>>> _ = table.apply(Sit(0, "Ann", 100, account=1)); _ = table.apply(Sit(1, "Bob", 100, account=2))
>>> rules = RoomRules(Timing(decision=15, bank=30, hand_pause=3), banked=False)
>>> rules.next_round(table, now=0.0, bots=frozenset())
[StartHand(order=None, seed=None, seats=None, setup=None)]
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from pokerhouse.engine.actions import Action, ActionKind
from pokerhouse.games import get_game
from pokerhouse.server.table.decision_clock import TimeBanks
from pokerhouse.server.table.handover import Carried
from pokerhouse.table import Act, Command, Leave, SetWager, SitOut, StartHand, Table, Timeout


@dataclass(frozen=True, slots=True)
class SetTimer:
    """Call the table back with ``kind`` in ``delay`` seconds (replacing one of that kind)."""

    kind: str
    delay: float


@dataclass(frozen=True, slots=True)
class CancelTimer:
    """Forget the timer of ``kind``."""

    kind: str


@dataclass(frozen=True, slots=True)
class ClockStarted:
    """A person's decision started: tell every watcher whose, and the time it has."""

    hand: int
    seat: int
    limit_ms: int
    bank_ms: int


@dataclass(frozen=True, slots=True)
class WindowOpened:
    """Casino Hold'em's betting window opened for ``seconds``."""

    seconds: float


@dataclass(frozen=True, slots=True)
class BotTurn:
    """A house bot is to act at ``seat`` in hand ``hand``: ask its policy."""

    seat: int
    hand: int


#: What the rules ask the task to do, besides table commands.
Intent = SetTimer | CancelTimer | ClockStarted | WindowOpened

#: Seconds a player who lost at showdown has to choose to show or muck (no time bank:
#: then the room mucks for them, a timeout like any other).
SHOWDOWN_CHOICE_SECONDS = 5.0

_SHOWDOWN_CHOICE = frozenset({ActionKind.SHOW_HAND, ActionKind.MUCK})


def showdown_choice(table: Table) -> bool:
    """Whether the decision due is a showdown's show-or-muck (RULES.md: a hand that
    cannot win may be mucked)."""
    hand = table.hand
    return hand is not None and {a.kind for a in hand.legal_actions()} == _SHOWDOWN_CHOICE


#: The timers a table has.
TIMERS = ("decision", "next", "window", "away")


@dataclass(frozen=True, slots=True)
class Timing:
    """A table's clock and the room's pauses, in seconds.

    ``decision`` and ``bank``: a decision's limit and the time bank after it;
    ``hand_pause``: how long a finished hand stays on the felt before the next
    deal (``bots_pause`` when no person played it: nobody is reading);
    ``window``: Casino Hold'em's betting window; ``away``: how long a
    player sat out stays seated; ``idle``: how often a table short of
    players looks again; ``bot_think``: a house bot's pause before it acts.
    """

    decision: float = 15.0
    bank: float = 30.0
    hand_pause: float = 5.0
    bots_pause: float = 2.0
    window: float = 10.0
    away: float = 600.0
    idle: float = 2.0
    bot_think: tuple[float, float] = (0.8, 2.5)


@dataclass(slots=True)
class RoomRules:
    """The room's rules for one table (see the module's docstring)."""

    timing: Timing
    banked: bool
    rng: random.Random = field(default_factory=random.Random)
    banks: TimeBanks = field(init=False)
    #: Casino Hold'em: the window is open, and the boxes whose player confirmed in it.
    window_open: bool = False
    placed: set[int] = field(default_factory=set)
    #: The seat whose decision the last :meth:`after` started (its owner is told).
    started: int | None = None
    #: When the running decision's time is up (``None``: no decision is running).
    due_at: float | None = None
    _decision: tuple[int, int, int] | None = None
    #: When the betting window opened (``None``: closed).
    window_since: float | None = None
    #: A private table its host paused: no hand is dealt (nor window opened) until resumed;
    #: and one its host closed (every stack cashed out at the hand's end, no new seat).
    paused: bool = False
    closing: bool = False
    _away_since: dict[int, float] = field(default_factory=dict)
    # A decision carried from the table's last owner, and its seconds run there.
    _carried: tuple[tuple[int, int, int], float] | None = None
    # Set when a hand ends: the next pause between hands sits out who is away.
    _sweep: bool = False
    # The pending "next" timer: when it fires, and whether it is a pause to keep.
    _next_due: float | None = None
    _next_is_pause: bool = False

    def __post_init__(self) -> None:
        self.banks = TimeBanks(self.timing.decision, self.timing.bank)

    # ------------------------------------------------------------ after each step

    def after(
        self,
        table: Table,
        now: float,
        bots: frozenset[int],
        ended: Iterable[int] | None = None,
    ) -> list[Intent]:
        """What follows a step: the next decision's clock, or the next hand's timer.

        ``ended`` are the seats of a hand the step ended (their banks refill).
        """
        self.started = None
        if table.hand is not None:
            return self._next_decision(table, now, bots)
        intents: list[Intent] = [CancelTimer("decision")]
        self._decision = None
        self.due_at = None
        self.banks.current = None
        if ended is not None:
            seats = tuple(ended)
            self._sweep = True
            self.banks.refill(seats)
            pause = self.timing.hand_pause
            if seats and all(seat in bots for seat in seats):
                pause = min(pause, self.timing.bots_pause)
            if not self.window_open:
                intents.append(self._next(pause, now, pause=True))
        elif not self.window_open and (self._next_due is None or not self._next_is_pause):
            # Something changed between hands (a player sat down): look at once,
            # unless the last hand is still on show.
            intents.append(self._next(0.0, now, pause=False))
        return intents

    def _next(self, delay: float, now: float, *, pause: bool) -> SetTimer:
        self._next_due = now + delay
        self._next_is_pause = pause
        return SetTimer("next", delay)

    def _next_decision(self, table: Table, now: float, bots: frozenset[int]) -> list[Intent]:
        hand = table.hand
        assert hand is not None
        seat = table.to_act()
        number = table.hand_number
        if seat is None or number is None:
            return []
        key = (number, seat, len(hand.actions))
        leaving = seat not in bots and table.leaving(seat)
        if key == self._decision and not leaving:
            return []
        if key != self._decision:
            self._decision = key
            previous = self.banks.current
            if previous is not None:
                # The last decision is over: what it used past its limit leaves its bank.
                self.banks.finish(previous.seat, now)
        if seat in bots:
            self.banks.current = None
            return [self._decision_timer(self._think(), now)]
        if leaving:
            # A player who asked to leave is not waited for, even in the middle of the
            # decision they asked it in: the room folds for them at once.
            self.banks.current = None
            return [self._decision_timer(0.0, now)]
        if showdown_choice(table):
            # Show or muck a losing hand: a short choice, the bank untouched.
            self.banks.current = None
            self.started = seat
            seconds = min(self.timing.decision, SHOWDOWN_CHOICE_SECONDS)
            return [
                ClockStarted(number, seat, int(seconds * 1000), 0),
                self._decision_timer(seconds, now),
            ]
        start = now
        if self._carried is not None:
            if self._carried[0] == key:  # the same decision, taken over: its clock goes on
                start = now - self._carried[1]
            self._carried = None
        decision = self.banks.start(seat, start)
        limit, bank = decision.remaining(now)
        self.started = seat
        return [
            ClockStarted(number, seat, int(limit * 1000), int(bank * 1000)),
            self._decision_timer(max(0.0, decision.deadline - now), now),
        ]

    def _decision_timer(self, delay: float, now: float) -> SetTimer:
        self.due_at = now + delay
        return SetTimer("decision", delay)

    def _think(self) -> float:
        low, high = self.timing.bot_think
        return low if high <= low else self.rng.uniform(low, high)

    # ------------------------------------------------------------ timers

    def decision_due(self, table: Table, bots: frozenset[int]) -> Command | BotTurn | None:
        """The decision's time is up: a bot moves, a leaver folds, a person times out."""
        if table.hand is None:
            return None
        seat = table.to_act()
        number = table.hand_number
        if seat is None or number is None:
            return None
        if seat in bots:
            return BotTurn(seat, number)
        if table.leaving(seat):
            legal = table.view(seat).legal
            action = Action.fold() if ActionKind.FOLD in legal else table.default_action(seat)
            return Act(seat, action, hand=number)
        if not showdown_choice(table):  # a show-or-muck runs on no bank: it keeps its time
            self.banks.time_out(seat)
        return Timeout(seat, hand=number)  # the table checks, mucks, declines or folds

    def between_hands(
        self, table: Table, now: float, present: Callable[[int], bool], bots: frozenset[int]
    ) -> tuple[list[Command], list[Intent]]:
        """The pause between hands is over: sit out who is away, stand up the long-away."""
        self._next_due = None
        sweep, self._sweep = self._sweep, False
        commands: list[Command] = []
        for seat in table.occupied:
            info = table.seat(seat)
            if info is None or seat in bots:
                continue
            if sweep and not info.sitting_out and not present(info.account):
                # Still away when the hand ended (RULES.md, Disconnection): sat out.
                commands.append(SitOut(seat))
                self._away_since.setdefault(seat, now)
            elif info.sitting_out:
                self._away_since.setdefault(seat, now)
        leaving, intents = self.away_due(table, now, sat_out=commands)
        return commands + leaving, intents

    def away_due(
        self, table: Table, now: float, sat_out: Iterable[Command] = ()
    ) -> tuple[list[Command], list[Intent]]:
        """Stand up whoever has been sat out for ``away`` seconds; the next such moment."""
        going_out = {command.seat for command in sat_out if isinstance(command, SitOut)}
        commands: list[Command] = []
        for seat, since in list(self._away_since.items()):
            info = table.seat(seat)
            if info is None or not (info.sitting_out or seat in going_out):
                del self._away_since[seat]
            elif now - since >= self.timing.away:
                commands.append(Leave(seat))
                del self._away_since[seat]
        if not self._away_since:
            return commands, [CancelTimer("away")]
        first = min(self._away_since.values())
        return commands, [SetTimer("away", max(0.0, first + self.timing.away - now))]

    def back(self, seats: Iterable[int]) -> None:
        """A player is back (watching again, or sitting in): not away any more."""
        for seat in seats:
            self._away_since.pop(seat, None)

    def left(self, seat: int) -> None:
        """A player stood up: the seat's next occupant starts afresh."""
        self.banks.forget(seat)
        self._away_since.pop(seat, None)
        self.placed.discard(seat)

    # ------------------------------------------------------------ the next round

    def next_round(self, table: Table, now: float, bots: frozenset[int]) -> list[Command | Intent]:
        """Deal (or, at Casino Hold'em, open the betting window), or wait for players."""
        if table.hand is not None:
            return []
        if self.banked:
            return self._open_window(table, now, bots)
        return self.deal(table, now)

    def deal(self, table: Table, now: float) -> list[Command | Intent]:
        """Deal the next hand if enough players are ready; otherwise look again later."""
        out: list[Command | Intent] = []
        if self.banked:
            self.window_open = False
            self.window_since = None
            self.placed = set()
            out.append(CancelTimer("window"))
        if table.hand is not None:
            return out
        if self.paused or self.closing or len(table.ready()) < get_game(table.game).min_players:
            # Nobody to deal to yet: look again in a while (a seat taken deals at once).
            out.append(self._next(self.timing.idle, now, pause=False))
            return out
        out.append(StartHand())
        return out

    def _open_window(
        self, table: Table, now: float, bots: frozenset[int]
    ) -> list[Command | Intent]:
        if self.window_open:
            return []
        if self.paused or self.closing:
            return [self._next(self.timing.idle, now, pause=False)]
        boxes = table.occupied
        if not boxes:
            return [self._next(self.timing.idle, now, pause=False)]
        self.window_open = True
        self.window_since = now
        out: list[Command | Intent] = []
        minimum = int(getattr(table.spec, "min_ante", 1))
        for seat in boxes:
            if seat in bots:
                info = table.seat(seat)
                if info is not None and info.ante == 0:
                    out.append(SetWager(seat, minimum, 0))
                self.placed.add(seat)
        out.append(WindowOpened(self.timing.window))
        if self._everyone_placed(table, bots):
            out.extend(self.deal(table, now))
        else:
            out.append(SetTimer("window", self.timing.window))
        return out

    def confirmed(self, table: Table, seat: int, now: float, bots: frozenset[int]) -> list[Any]:
        """A player confirmed a box's bets: deal once every seated person has."""
        self.placed.add(seat)
        if self.window_open and self._everyone_placed(table, bots):
            return self.deal(table, now)
        return []

    def _everyone_placed(self, table: Table, bots: frozenset[int]) -> bool:
        for seat in table.occupied:
            info = table.seat(seat)
            if info is None or seat in bots or info.sitting_out:
                continue
            if seat not in self.placed:
                return False
        return True

    # ------------------------------------------------------------ what a snapshot shows

    def extras(self, now: float) -> dict[str, Any]:
        """The decision clock and the betting window, for a snapshot."""
        decision = self.banks.current
        clock = None
        if decision is not None:
            limit, bank = decision.remaining(now)
            clock = {
                "seat": decision.seat,
                "limit_ms": int(limit * 1000),
                "bank_ms": int(bank * 1000),
            }
        window = {"open": self.window_open, "placed": sorted(self.placed)} if self.banked else None
        return {"clock": clock, "window": window}

    def reset(self) -> None:
        """Forget every decision and window (the table was reloaded from the store)."""
        self._decision = None
        self.banks.current = None
        self.window_open = False
        self.window_since = None
        self.placed = set()
        self._next_due = None
        self.started = None
        self.due_at = None
        self._carried = None

    # ------------------------------------------------------------ to the next owner

    def carry(self, now: float, wall: float) -> Carried:
        """What the table's next owner needs to go on as this one would (:mod:`.carried`);
        ``now`` on this node's clock, ``wall`` the same moment on the wall clock."""
        current, key = self.banks.current, self._decision
        decision = None
        if current is not None and key is not None and key[1] == current.seat:
            decision = Carried.PendingDecision(*key, elapsed=now - current.started)
        return Carried(
            written=wall,
            banks=self.banks.lefts(),
            decision=decision,
            away={seat: now - since for seat, since in self._away_since.items()},
            window=None if self.window_since is None else now - self.window_since,
            placed=sorted(self.placed),
        )

    def signature(self) -> tuple[object, ...]:
        """What of :meth:`carry`'s record changes only with an input (not with the time):
        while it is the same, the record last kept is as good as a new one."""
        return (
            self._decision if self.banks.current is not None else None,
            tuple(sorted(self.banks.lefts().items())),
            tuple(sorted(self._away_since)),
            self.window_open,
            tuple(sorted(self.placed)),
        )

    def restore(self, state: Carried, table: Table, now: float, wall: float) -> list[Intent]:
        """Go on from the last owner's ``state`` (just after :meth:`reset`, the table
        rebuilt): its banks, the decision under way with the time it has run, who is
        away since when, and an open betting window. The timers this asks for follow."""
        occupied = set(table.occupied)
        self.banks.restore({s: left for s, left in state.banks.items() if s in occupied})
        decision = state.decision
        if decision is not None and table.hand is not None:
            key = (decision.hand, decision.seat, decision.actions)
            self._carried = (key, state.age(wall, decision.elapsed))
        intents: list[Intent] = []
        for seat, away in state.away.items():
            info = table.seat(seat)
            if info is not None and info.sitting_out:
                self._away_since[seat] = now - state.age(wall, away)
        if self._away_since:
            first = min(self._away_since.values())
            intents.append(SetTimer("away", max(0.0, first + self.timing.away - now)))
        if self.banked and state.window is not None and table.hand is None:
            opened = state.age(wall, state.window)
            self.window_open = True
            self.window_since = now - opened
            self.placed = {seat for seat in state.placed if seat in occupied}
            intents.append(SetTimer("window", max(0.0, self.timing.window - opened)))
        return intents
