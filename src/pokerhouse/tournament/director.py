"""The tournament director: tournament state in, orders out, no clocks and no I/O.

:meth:`Director.apply` takes an input (:mod:`pokerhouse.tournament.orders`)
and returns the orders it causes, like a table's one door. It seats the
draw, changes the level between hands, moves players and breaks tables,
deals hand for hand on the bubble, places every entry, pays the prizes and
ends (RULES.md "Tournaments"). Everything it decides from is in its
:class:`~pokerhouse.tournament.state.State`, so a store can keep it and any
process carry it on; its random draws are numbered from a seed, so a
tournament deals the same again from the same inputs.

Readings of the rules where they leave a choice: a balancing move goes to
the emptiest table (the lowest numbered of equals) at a seat drawn among its
free ones; the players of a broken table go, in a random order, each to
the emptiest table left at a seat drawn there (so the tables stay within
one); a move leaves a table between its hands and the player sits at the
new table once that one is between hands, dealt in from its next hand.

>>> from pokerhouse.tournament.spec import sit_and_go
>>> director = Director(sit_and_go("3x4", seats=3, buy_in=100, fee=10), seed=1)
>>> _ = director.apply(Register("ann", now=0.0))
>>> _ = director.apply(Register("bob", now=1.0))
>>> [type(order).__name__ for order in director.apply(Register("cy", now=2.0))]
['Started', 'RegistrationClosed', 'OpenTable', 'Deal']
>>> director.status, director.chips_in_play()
('running', 3000)
"""

from __future__ import annotations

import math
import secrets

from pokerhouse.tournament import places as ranking
from pokerhouse.tournament.errors import TournamentError
from pokerhouse.tournament.movement import MovementMixin
from pokerhouse.tournament.orders import (
    BreakEnded,
    BreakStarted,
    Cancel,
    Cancelled,
    CloseTable,
    Deal,
    Finished,
    HandForHand,
    HandReport,
    Input,
    LevelUp,
    Order,
    Placed,
    Refund,
    Register,
    RegistrationClosed,
    Resume,
    Share,
    Start,
    Started,
    Tick,
    Unregister,
)
from pokerhouse.tournament.payouts import prizes
from pokerhouse.tournament.spec import TournamentSpec
from pokerhouse.tournament.state import (
    CANCELLED,
    FINISHED,
    REGISTERING,
    RUNNING,
    Elimination,
    State,
    TournamentEntry,
    dump,
    load,
)

#: Time left on a clock below this is none: sums of float seconds leave crumbs behind.
_INSTANT = 1e-6

#: The longest player name a registration takes.
MAX_NAME = 64


class Director(MovementMixin):
    """One tournament of ``spec``: give it inputs, carry out the orders it returns.

    ``seed`` numbers its random draws (default: a fresh secret one);
    ``state`` carries on a tournament from a stored state.
    """

    def __init__(
        self, spec: TournamentSpec, *, seed: int | None = None, state: State | None = None
    ) -> None:
        self.spec = spec
        self.state = state if state is not None else State(seed=_seed(seed))
        self._orders: list[Order] = []

    # ------------------------------------------------------------ the one door

    def apply(self, given: Input) -> tuple[Order, ...]:
        """Take ``given`` and return the orders it causes, in the order to carry them out.

        An input that cannot be taken raises :class:`TournamentError` and
        changes nothing.
        """
        self._orders = []
        # A late entry runs the clock to its time first, which may close registration:
        # then it is refused and the clock is as it was (the next input runs it again).
        saved = dump(self.state) if type(given) is Register else None
        try:
            self._take(given)
        except TournamentError:
            if saved is not None:
                self.state = load(saved)
                self._forget()
            self._orders = []
            raise
        orders, self._orders = tuple(self._orders), []
        return orders

    def _take(self, given: Input) -> None:
        match given:
            case Register(player, account, now, person):
                self._register(player, account, now, person)
            case Unregister(player, now):
                self._unregister(player, now)
            case Start(now):
                self._start_scheduled(now)
            case Tick(now):
                self._advance(_time(now))
                self._settle()
            case Resume(now):
                # The runner's clock may have started again from anywhere (another process,
                # another machine): from now on the clocks count on its scale.
                self.state.now = _time(now)
            case HandReport():
                self._hand_ended(given)
            case Cancel(reason, now):
                self._cancel(reason, now)
            case _:
                raise TournamentError("bad_report", f"a director takes no {given!r}")

    # ------------------------------------------------------------ entry

    def _register(self, player: str, account: int, now: float, person: int) -> None:
        state = self.state
        if not isinstance(player, str) or not player.strip() or len(player) > MAX_NAME:
            raise TournamentError("bad_tournament", f"a player's name, not {player!r}")
        for name, value in (("an account", account), ("a person", person)):
            if type(value) is not int or value < 0:
                raise TournamentError("bad_tournament", f"{name} is a whole number, not {value!r}")
        # One person, one account in a tournament (RULES.md, "One player, one seat"): a
        # player and their bot account, or two bot accounts of one owner, never both
        # enter, even after one of them is out, whatever the tournament's phase. Checked
        # here, in the director's one step, so registrations sent at once cannot both pass.
        if person and any(
            entry.person == person and entry.account != account for entry in state.entries
        ):
            raise TournamentError(
                "same_owner", "a player and their bot accounts never play one tournament"
            )
        now = _time(now)
        if state.status == RUNNING:
            self._advance(now)
        running = state.status == RUNNING and state.registration_open
        if state.status != REGISTERING and not running:
            raise TournamentError("not_registering", f"{self.spec.name} takes no more entries")
        # One player, one live entry: known by name, or by the room's account when given.
        mine = [
            entry
            for entry in state.entries
            if entry.player == player or (account and entry.account == account)
        ]
        if any(not entry.busted for entry in mine):
            raise TournamentError("already_registered", f"{player} is registered already")
        if mine and len(mine) > self.spec.reentries:
            raise TournamentError("no_reentry", f"{player} has no re-entry left")
        if self.spec.max_entrants is not None and len(state.entries) >= self.spec.max_entrants:
            raise TournamentError("tournament_full", f"{self.spec.name} is full")
        entry = TournamentEntry(
            state.next_entry, player, account, self.spec.structure.stack, person=person
        )
        state.next_entry += 1
        state.entries.append(entry)
        self._forget()
        if running:
            self._place_late(entry)
            self._settle()
        elif self.spec.format == "sit-and-go" and len(state.entries) == self.spec.seats:
            self._start(now)

    def _unregister(self, player: str, now: float) -> None:
        state = self.state
        if state.status != REGISTERING:
            raise TournamentError("not_registering", "unregistering is only before the start")
        mine = [entry for entry in state.entries if entry.player == player]
        if not mine:
            raise TournamentError("not_registered", f"{player!r} is not registered")
        state.now = max(state.now, _time(now))
        state.entries.remove(mine[0])
        self._forget()
        self._refund(mine[0], buy_in=True)

    def _start_scheduled(self, now: float) -> None:
        if self.state.status != REGISTERING:
            raise TournamentError("not_registering", f"{self.spec.name} has started already")
        if self.spec.format == "sit-and-go":
            raise TournamentError("not_registering", "a sit-and-go starts when its seats fill")
        if len(self.state.entries) < self.spec.min_entrants:
            self._cancel(
                f"{len(self.state.entries)} entrants, fewer than {self.spec.min_entrants}", now
            )
            return
        self._start(_time(now))

    def _start(self, now: float) -> None:
        state, structure = self.state, self.spec.structure
        state.status = RUNNING
        state.now = now
        state.level = 0
        state.level_left = float(structure.level_seconds or 0)
        entries = list(state.entries)
        count = math.ceil(len(entries) / self.spec.seats)
        self._rng().shuffle(entries)
        self._emit(Started(len(entries), count))
        for index in range(count):
            table = self._new_table()
            players = entries[index::count]
            seats = sorted(self._rng().sample(range(self.spec.seats), len(players)))
            for entry, seat in zip(players, seats, strict=True):
                entry.table, entry.seat = table.number, seat
        if self.spec.late_levels == 0:
            self._close_registration()
        self._settle()

    def _close_registration(self) -> None:
        state = self.state
        state.registration_open = False
        state.pool = self.pool()
        state.prizes = list(prizes(state.pool, len(state.entries)))
        self._emit(RegistrationClosed(len(state.entries), state.pool, tuple(state.prizes)))
        self._place_outs()

    # ------------------------------------------------------------ hands

    def _hand_ended(self, report: HandReport) -> None:
        self._require_running()
        state = self.state
        table = state.tables.get(report.table) if type(report.table) is int else None
        hand = report.hand
        if hand is not None and table is not None:
            if type(hand) is not int:
                raise TournamentError("bad_report", f"no hand number {hand!r}")
            # Only a number already counted is refused: a table may number beyond the
            # director's count (a hand log voided on reloading counts at the table).
            if hand <= table.hands:
                raise TournamentError(
                    "stale_report", f"table {table.number}'s hand {hand} was reported already"
                )
        if table is None or not table.playing:
            raise TournamentError("bad_report", f"table {report.table!r} was not dealing a hand")
        results = {result.seat: result for result in report.seats}
        if len(results) != len(report.seats) or set(results) != set(table.seats):
            raise TournamentError(
                "bad_report",
                f"table {table.number} seats {sorted(table.seats)}, "
                f"the report names {sorted(results)}",
            )
        for seat, result in results.items():
            entry = self._entry(table.seats[seat])
            if type(result.end) is not int or result.end < 0 or result.start != entry.stack:
                raise TournamentError(
                    "bad_report", f"seat {seat} at table {table.number}: {result!r}"
                )
        if sum(result.end for result in results.values()) != sum(
            result.start for result in results.values()
        ):
            raise TournamentError("bad_report", f"table {table.number}'s chips do not add up")
        button = report.button
        if button is not None and (type(button) is not int or not 0 <= button < self.spec.seats):
            raise TournamentError("bad_report", f"no seat {button!r} for the button")
        now = _time(report.now)
        # Checked: from here on the report is taken.
        self._advance(now)
        table.playing = False
        table.hands += 1
        table.button = button
        state.hands += 1
        busted: list[tuple[int, int]] = []
        for seat, result in sorted(results.items()):
            entry = self._entry(table.seats[seat])
            entry.stack = result.end
            if result.end == 0:
                busted.append((result.start, entry.number))
                self._unseat(table, seat, "busted")
                entry.busted = True
                self._forget()
        if busted:
            groups = ranking.ranked(busted)
            if table.hand_for_hand:
                state.round_outs[table.number] = groups
            else:
                self._eliminate(groups)
        structure = self.spec.structure
        # Only a hand dealt at the level counts towards its length.
        if (
            structure.level_hands is not None
            and state.break_left is None
            and table.level == state.level
        ):
            table.hands_in_level += 1
            if table.hands_in_level >= structure.level_hands:
                self._end_level()
        self._settle()

    def _eliminate(self, groups: list[list[int]]) -> None:
        for group in groups:
            self.state.outs.append(Elimination(group))
            for number in group:
                self._entry(number).out = len(self.state.outs)
        self._place_outs()

    def _place_outs(self) -> None:
        """Place every eliminated entry not yet placed, once the places are final."""
        state = self.state
        if state.registration_open:
            return
        # Groups are placed in the order they went out: the first ``placed`` are done.
        out = sum(len(group.entries) for group in state.outs[: state.placed])
        for group in state.outs[state.placed :]:
            size = len(group.entries)
            out += size
            best = len(state.entries) - out + 1
            won = ranking.group_prizes(state.prizes, best, size)
            for number, prize in zip(group.entries, won, strict=True):
                entry = self._entry(number)
                entry.place, entry.tied, entry.prize = best, size, prize
                self._emit(Placed(entry.number, entry.player, entry.account, best, size, prize))
        state.placed = len(state.outs)

    # ------------------------------------------------------------ after every input

    def _settle(self) -> None:
        """Everything that follows from the state: the round's places, the end, hand for
        hand, breaking and balancing tables, seating, and which tables deal."""
        state = self.state
        if state.status != RUNNING:
            return
        if state.hand_for_hand and not self._anyone_playing() and state.round_outs:
            self._eliminate(ranking.combined(state.round_outs))
            state.round_outs = {}
        if state.hand_for_hand and state.round_outs:
            pass  # the round is still being played: nothing moves until it ends
        elif len(self.active()) == 1:
            self._finish()
            return
        self._break_a_table()
        self._check_bubble()
        self._balance()
        self._seat_arrivals()
        self._deal()

    def _check_bubble(self) -> None:
        state = self.state
        if state.registration_open or (state.hand_for_hand and self._anyone_playing()):
            return  # prizes not known yet, or a hand-for-hand round still being played
        paid = len(state.prizes)
        left = len(self.active())
        if not state.hand_for_hand and left == paid + 1 and len(state.tables) > 1:
            state.hand_for_hand = True
            self._emit(HandForHand(True))
        elif state.hand_for_hand and (left <= paid or len(state.tables) == 1):
            state.hand_for_hand = False
            self._emit(HandForHand(False))

    def _deal(self) -> None:
        state = self.state
        if state.break_left is not None:
            return
        ready = [
            table
            for number, table in sorted(state.tables.items())
            if not table.playing and number != state.breaking and len(table.seats) >= 2
        ]
        if state.hand_for_hand:
            if self._anyone_playing():
                return  # one hand at a time: every table waits for the others to finish
            state.round += 1
        for table in ready:
            table.playing = True
            table.round = state.round
            table.level = state.level
            table.hand_for_hand = state.hand_for_hand
            self._emit(Deal(table.number, state.level, self.stakes))

    def _finish(self) -> None:
        state = self.state
        if state.registration_open:
            self._close_registration()
        (winner,) = self.active()
        table = state.tables[winner.table] if winner.table is not None else None
        if table is not None and winner.seated and winner.seat is not None:
            self._unseat(table, winner.seat, "finished")
        winner.busted = True  # out of play: the last one standing
        self._forget()
        self._eliminate([[winner.number]])
        for number, table in sorted(state.tables.items()):
            if table.opened:
                self._emit(CloseTable(number))
        state.tables = {}
        state.status = FINISHED
        self._emit(Finished())

    # ------------------------------------------------------------ the clock

    def _advance(self, now: float) -> None:
        """Run the clocks to ``now``: breaks, then the level's time."""
        state = self.state
        delta = max(0.0, now - state.now)
        state.now = max(state.now, now)
        if state.status != RUNNING:
            return
        seconds = self.spec.structure.level_seconds
        while True:
            if state.break_left is not None:
                used = min(delta, state.break_left)
                state.break_left -= used
                delta -= used
                if state.break_left > _INSTANT:
                    return
                state.break_left = None
                self._emit(BreakEnded())
                self._next_level()
                continue
            if seconds is None:
                return
            used = min(delta, state.level_left)
            state.level_left -= used
            state.played += used
            delta -= used
            if state.level_left > _INSTANT:
                return
            self._end_level()

    def _end_level(self) -> None:
        """The level is over: late registration may close, a break may begin."""
        state, structure = self.state, self.spec.structure
        if state.registration_open and state.level + 1 >= self.spec.late_levels:
            self._close_registration()
        if structure.break_after(state.level):
            state.break_left = float(structure.break_seconds)
            self._emit(BreakStarted(structure.break_seconds))
        else:
            self._next_level()

    def _next_level(self) -> None:
        state = self.state
        state.level += 1
        state.level_left = float(self.spec.structure.level_seconds or 0)
        for table in state.tables.values():
            table.hands_in_level = 0
        self._emit(LevelUp(state.level, self.stakes))

    # ------------------------------------------------------------ cancelling

    def _cancel(self, reason: str, now: float) -> None:
        state = self.state
        if not isinstance(reason, str) or not reason:
            raise TournamentError("bad_tournament", "a cancellation needs its reason")
        if state.status not in (REGISTERING, RUNNING):
            raise TournamentError("not_running", f"{self.spec.name} is {state.status}")
        state.now = max(state.now, _time(now))
        anyone_out = any(entry.busted for entry in state.entries)
        for entry in state.entries:
            self._refund(entry, buy_in=not anyone_out)
        if anyone_out:
            paid = sum(entry.prize for entry in state.entries)
            self._share(self.pool() - paid)
        for number, table in sorted(state.tables.items()):
            if table.opened:
                self._emit(CloseTable(number))
        state.tables = {}
        state.status = CANCELLED
        self._emit(Cancelled(reason))

    def _share(self, rest: int) -> None:
        """Share what is left of the pool among the entries still in: half equally, half
        by chips; the odd chips one each to the biggest stacks."""
        left = sorted(self.active(), key=lambda entry: (-entry.stack, entry.number))
        if not left or rest <= 0:
            return
        chips = sum(entry.stack for entry in left)
        equal = rest // 2 // len(left)
        by_chips = rest - rest // 2
        amounts = [equal + by_chips * entry.stack // chips for entry in left]
        for index in range(rest - sum(amounts)):
            amounts[index % len(left)] += 1
        for entry, amount in zip(left, amounts, strict=True):
            entry.prize += amount
            self._emit(Share(entry.number, entry.player, entry.account, amount))

    def _refund(self, entry: TournamentEntry, *, buy_in: bool) -> None:
        entry.refunded = True
        self._emit(
            Refund(
                entry.number,
                entry.player,
                entry.account,
                self.spec.buy_in if buy_in else 0,
                self.spec.fee,
            )
        )


def _seed(seed: int | None) -> int:
    if seed is None:
        return secrets.randbits(63)
    if type(seed) is not int:
        raise TournamentError("bad_tournament", f"a seed is a whole number, not {seed!r}")
    return seed


def _time(now: object) -> float:
    if type(now) not in (int, float) or not math.isfinite(float(now)):  # type: ignore[arg-type]
        raise TournamentError("bad_report", f"a time is a number of seconds, not {now!r}")
    return float(now)  # type: ignore[arg-type]
