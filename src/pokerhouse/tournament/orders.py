"""What a tournament director takes (inputs) and what it gives out (orders).

Both are plain data. A runner (the room, or :mod:`pokerhouse.tournament.simulate`)
hands the director an input, carries out the orders it returns in their
order, and reports back: a :class:`HandEnded` for every :class:`Deal`.
Times are seconds on the runner's clock; the director only ever subtracts
them.

Tables are numbered from 1 and seats from 0, as at any table; an entry is
one buy-in (a player who re-enters holds two entries, each with its own
place).
"""

from __future__ import annotations

from dataclasses import dataclass

from pokerhouse.tournament.structure import Stakes

# ---------------------------------------------------------------- inputs


@dataclass(frozen=True, slots=True)
class Register:
    """``player`` (the room's ``account``) buys in; during late registration, a new entry
    seated at once (a re-entry, if the structure allows one, after a bust).

    ``person`` is who plays the account (the account itself for a person; the
    owner's account for a bot account; 0: not told): one person enters a
    tournament under one account only (RULES.md, "One player, one seat").
    """

    player: str
    account: int = 0
    now: float = 0.0
    person: int = 0


@dataclass(frozen=True, slots=True)
class Unregister:
    """``player`` takes the buy-in and fee back: only before the start."""

    player: str
    now: float = 0.0


@dataclass(frozen=True, slots=True)
class Start:
    """A scheduled tournament's time has come (a sit-and-go starts when it fills)."""

    now: float


@dataclass(frozen=True, slots=True)
class Tick:
    """Time has passed: levels, breaks and late registration move on."""

    now: float


@dataclass(frozen=True, slots=True)
class Resume:
    """The runner was down and is back at ``now``: no clock counts the time between."""

    now: float


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat's chips at the start and at the end of a hand."""

    seat: int
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class HandReport:
    """A hand ordered by :class:`Deal` ended at ``table``.

    ``seats`` covers every seat the director has seated there; ``button`` is
    the table's button after the hand (the seat that deals next, or the
    nearest before it). ``hand`` is the hand's number at the table (its
    first is 1; voided hands count), when the reporter knows it: a report of a
    hand the director has counted already is refused as ``stale_report``, so a
    hand reported
    twice (by its table, and again by a catch-up that looked before the
    first report was read) is taken once.
    """

    table: int
    seats: tuple[SeatResult, ...]
    button: int | None
    now: float
    hand: int | None = None


@dataclass(frozen=True, slots=True)
class Cancel:
    """The tournament cannot be carried on: refunds and shares as RULES.md says."""

    reason: str
    now: float = 0.0


#: Everything :meth:`~pokerhouse.tournament.Director.apply` takes.
Input = Register | Unregister | Start | Tick | Resume | HandReport | Cancel

# ---------------------------------------------------------------- orders


@dataclass(frozen=True, slots=True)
class Seating:
    """A seat at a new table: who sits there with how many chips."""

    seat: int
    entry: int
    player: str
    account: int
    stack: int


@dataclass(frozen=True, slots=True)
class OpenTable:
    """Open ``table`` with these players (the high-card draw gives the button) at ``stakes``."""

    table: int
    seats: tuple[Seating, ...]
    stakes: Stakes


@dataclass(frozen=True, slots=True)
class SeatPlayer:
    """Seat a moved or late player at ``table`` (between its hands)."""

    table: int
    seat: Seating


@dataclass(frozen=True, slots=True)
class UnseatPlayer:
    """Take ``entry`` off ``table`` between hands: ``busted``, ``moved`` (to ``to_table``),
    or ``finished`` (the winner)."""

    table: int
    seat: int
    entry: int
    reason: str
    to_table: int | None = None


@dataclass(frozen=True, slots=True)
class CloseTable:
    """``table`` is empty and done with (broken, or the tournament ended)."""

    table: int


@dataclass(frozen=True, slots=True)
class Deal:
    """Deal the next hand at ``table`` at ``level``'s ``stakes``."""

    table: int
    level: int
    stakes: Stakes


@dataclass(frozen=True, slots=True)
class Started:
    """The tournament began with ``entrants`` on ``tables`` tables."""

    entrants: int
    tables: int


@dataclass(frozen=True, slots=True)
class LevelUp:
    """``level`` (0 is the first) begins: every table deals its next hand at ``stakes``."""

    level: int
    stakes: Stakes


@dataclass(frozen=True, slots=True)
class BreakStarted:
    """A break of ``seconds``: no table starts a hand until it ends; every clock stands."""

    seconds: int


@dataclass(frozen=True, slots=True)
class BreakEnded:
    """The break is over."""


@dataclass(frozen=True, slots=True)
class RegistrationClosed:
    """No more entries: ``entrants``, the ``pool`` and the ``prizes`` by place are final."""

    entrants: int
    pool: int
    prizes: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HandForHand:
    """Hand for hand begins (``on``) at the bubble, or ends once it bursts."""

    on: bool


@dataclass(frozen=True, slots=True)
class Placed:
    """``entry`` finished in ``place`` (tied with ``tied - 1`` others for the places from
    ``place`` down) and wins ``prize`` chips (0 out of the money)."""

    entry: int
    player: str
    account: int
    place: int
    tied: int
    prize: int


@dataclass(frozen=True, slots=True)
class Refund:
    """Give ``entry``'s ``buy_in`` and ``fee`` back (either may be 0)."""

    entry: int
    player: str
    account: int
    buy_in: int
    fee: int


@dataclass(frozen=True, slots=True)
class Share:
    """A cancelled tournament's pool shared: ``amount`` to a player still in."""

    entry: int
    player: str
    account: int
    amount: int


@dataclass(frozen=True, slots=True)
class Finished:
    """The tournament is over: every entry has its place and every prize is out."""


@dataclass(frozen=True, slots=True)
class Cancelled:
    """The tournament is called off (``reason``); the refunds and shares came before."""

    reason: str


#: Everything :meth:`~pokerhouse.tournament.Director.apply` gives out.
Order = (
    OpenTable
    | SeatPlayer
    | UnseatPlayer
    | CloseTable
    | Deal
    | Started
    | LevelUp
    | BreakStarted
    | BreakEnded
    | RegistrationClosed
    | HandForHand
    | Placed
    | Refund
    | Share
    | Finished
    | Cancelled
)
