"""What makes a kind of table: the named hooks its one task calls.

Every table of the room runs in one :class:`~pokerhouse.server.table.task.TableTask`
the same way: its inbox, its one way through (command, step, commit, outbox),
its clocks, its lease. What differs between a table of the room, a home game
(:mod:`pokerhouse.server.private.policy`) and a tournament's table
(:mod:`pokerhouse.server.tournaments.policy`) is the policy the task is given,
an object with these hooks (RULES.md, "The room", "Home games", "Tournaments"):

- **who may watch and sit:** :meth:`TablePolicy.admits` (anyone else hears of
  no such table) and :meth:`TablePolicy.may_sit` (a refusal raises);
  ``seats_ordered``: whether the table's seats are someone else's to give (a
  tournament's director), so its players' own sit, leave and sit-out requests
  are refused;
- **what happens between hands and when a hand ends:**
  :meth:`TablePolicy.between_hands` runs before the room's own work between
  hands (sitting out the absent, the house bots, the next deal) and says
  whether that work goes on; :meth:`TablePolicy.stepped` hears every stored
  step; :meth:`TablePolicy.resuming` comes before a stored hand is carried on;
- **orders to carry out:** :meth:`TablePolicy.carry_out` (a tournament
  director's) and :meth:`TablePolicy.host` (a home game's host's);
- and the moments around them: :meth:`TablePolicy.loaded` after the table is
  loaded from the store, :meth:`TablePolicy.watched` after a watch begins,
  :attr:`TablePolicy.closed` once the table will never deal again.

A policy is given its task once (:meth:`TablePolicy.attach`), before any
hook is called; hooks run in the task's own loop, one input at a time.

>>> policy = PublicPolicy()
>>> policy.seats_ordered, policy.everyone_watches, policy.closed
(False, True, False)
"""

from __future__ import annotations

from typing import Protocol

from pokerhouse.server.errors import RoomError
from pokerhouse.server.socket.incoming import HostMessage
from pokerhouse.server.table.handle import TaskHandle
from pokerhouse.server.table.inputs import Caller
from pokerhouse.store import HandLog, User
from pokerhouse.table import Step


class TablePolicy(Protocol):
    """The hooks a table task calls (see the module's docstring)."""

    #: The table's seats are given by someone else (a tournament director): its players
    #: never sit, leave, sit out or add chips themselves.
    seats_ordered: bool
    #: Anyone may watch the table and talk to it (:meth:`admits` is not asked).
    everyone_watches: bool

    def attach(self, task: TaskHandle) -> None:
        """Be the policy of ``task`` (once, before any hook)."""
        ...

    @property
    def closed(self) -> bool:
        """Whether the table deals no more, ever (its task may be dropped)."""
        ...

    async def loaded(self) -> None:
        """The table was (re)loaded from the store."""
        ...

    async def admits(self, user_id: int | None) -> bool:
        """Whether ``user_id`` (``None``: nobody signed in) may watch and talk to the
        table; anyone else hears of no such table."""
        ...

    async def may_sit(self, user: User) -> None:
        """Refuse ``user`` a seat (a :class:`~pokerhouse.server.errors.RoomError`)."""
        ...

    async def watched(self, caller: Caller) -> None:
        """``caller`` began watching the table (and has its snapshot)."""
        ...

    async def between_hands(self) -> bool:
        """No hand is running and the pause after the last is over: do the table's own
        work; whether the room's (sit out the absent, tend the bots, deal) goes on."""
        ...

    def stepped(self, step: Step) -> None:
        """A step was stored and told to the watchers."""
        ...

    async def resuming(self, stored: HandLog) -> None:
        """The stored hand ``stored`` is about to be carried on."""
        ...

    async def carry_out(self, order: object) -> None:
        """Carry out an order from outside the table (a refusal raises)."""
        ...

    async def host(self, caller: Caller, message: HostMessage) -> None:
        """Carry out a host's ``message`` (a refusal raises)."""
        ...


class PublicPolicy:
    """A table of the room's own: anyone watches, anyone the table's kind allows sits,
    and between hands the room does its usual work."""

    seats_ordered = False
    everyone_watches = True

    def attach(self, task: TaskHandle) -> None:
        self.task = task

    @property
    def closed(self) -> bool:
        return False

    async def loaded(self) -> None:
        return None

    async def admits(self, user_id: int | None) -> bool:
        return True

    async def may_sit(self, user: User) -> None:
        return None

    async def watched(self, caller: Caller) -> None:
        return None

    async def between_hands(self) -> bool:
        return True

    def stepped(self, step: Step) -> None:
        return None

    async def resuming(self, stored: HandLog) -> None:
        return None

    async def carry_out(self, order: object) -> None:
        raise RoomError("not_tournament", f"table {self.task.id} has no tournament")

    async def host(self, caller: Caller, message: HostMessage) -> None:
        raise RoomError("not_private", f"table {self.task.id} is not a private table")
