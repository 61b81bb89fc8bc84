"""Where a table runs: leased and loaded here, reloaded, fenced, handed over or taken over.

A table's task runs its table only while this node holds its lease and has it
loaded from the store (``available``). This is that part of the task's life:

- **loading** (:meth:`Ownership.load`): lease the table, read its seats and
  any unfinished hand, and carry that hand on by replaying its deck and
  actions (or void it, if its log is damaged); the last owner's clocks,
  banks, away and window go on where they were (:mod:`.handover`);
- **a store outage** (:meth:`Ownership.lost`): stop, forget, and reload what
  was saved, until the store answers;
- **a lost lease** (:meth:`Ownership.fence`): another node runs the table now:
  it stops here at once, for good (until taken over again);
- **several nodes** (:meth:`Ownership.take_over`, :meth:`Ownership.hand_over`):
  take a table run elsewhere whose lease lapsed, or give one up for a
  less-loaded node between two hands; keep the rules' state for the next
  owner (:meth:`Ownership.keep_carried`).

Every transition happens in the table's own task, between two inputs.
"""

from __future__ import annotations

import asyncio
import logging
import time

from pokerhouse.errors import PokerError
from pokerhouse.server.errors import Unavailable
from pokerhouse.server.socket import outgoing
from pokerhouse.server.table import handover, info, recorder
from pokerhouse.server.table.handle import TaskHandle
from pokerhouse.server.table.inputs import TimerTick
from pokerhouse.store import Batch, HandLog, HandVoid, StoreError, TableBookError
from pokerhouse.store.rebuild import deal_again
from pokerhouse.table import VoidHand, records

log = logging.getLogger("pokerhouse.table")
#: The ticks that have a table run elsewhere taken over, and the table given up for a
#: less-loaded node (no timer's kinds).
TAKE_OVER, HAND_OVER = "take_over", "hand_over"


class Ownership:
    """Whether this node runs its task's table, and its moves (see the module's docstring)."""

    def __init__(self, task: TaskHandle) -> None:
        self.task = task
        self.carrier = handover.Carrier()
        #: Waiting to give the table up at the end of the hand in play.
        self.handing_over = False
        self.reloading: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Load the table; one whose lease another node holds stays unloaded (fenced:
        every request and watch is answered ``table_moved``) until :meth:`take_over`."""
        try:
            await self.load(reclaim=True)
        except TableBookError as error:
            if error.code != "lease_held":
                raise
            self.task.fenced = True

    def take_over(self) -> None:
        """Have the task lease and load the table, run elsewhere until now, if its lease
        is free or lapsed (its node stopped or died); its hand goes on from its log. The
        task does it between two inputs, never beside a step of its own."""
        self.task.post(TimerTick(TAKE_OVER, 0))

    def hand_over(self) -> None:
        """Give the table up for a less-loaded node (:mod:`..cluster.spread`), between two
        hands."""
        self.handing_over = True
        self.task.post(TimerTick(HAND_OVER, 0))

    async def hand_over_now(self) -> None:
        """Give the table up now, unless a hand or a betting window is on (then after it)."""
        task = self.task
        busy = task.table.hand is not None or task.rules.window_open
        if task.fenced or not task.available or busy:
            return
        self.handing_over = False
        self.keep_carried()  # the next owner takes up the rules' state as it is now
        store, owner = task.services.store, task.services.settings.owner
        try:
            released = await store.tables.release(task.id, owner, task.lease)
        except (StoreError, OSError) as error:
            log.warning("table %s: not given up: %s", task.id, error)
            return
        if not released:
            return self.fence("taken by another node")
        # Quietly: the watchers follow the table to its next owner as soon as it runs it.
        task.fenced, task.available = True, False
        task.timers.cancel_all()
        log.info("table %s: given up for a less-loaded node", task.id)

    async def take_over_now(self) -> None:
        """Lease and load a table run elsewhere until now, if its lease lapsed."""
        task = self.task
        if not task.fenced or (self.reloading is not None and not self.reloading.done()):
            return
        task.fenced = False  # meanwhile a request hears room_unavailable: soon back
        self.handing_over = False
        try:
            await self.load(reclaim=False)
        except (StoreError, OSError, Unavailable) as error:
            task.fenced, task.available = True, False
            log.info("table %s: not taken over: %s", task.id, error)
            return
        except Exception:
            task.fenced, task.available = True, False
            raise
        log.warning("table %s: taken over under lease %s", task.id, task.lease)

    async def load(self, reclaim: bool = True) -> None:
        """(Re)build the table from the store: seats, then any unfinished hand, by replay
        (``reclaim``: a running lease under this node's name may be taken, as at start)."""
        task = self.task
        store, settings = task.services.store, task.services.settings
        lease = await store.tables.acquire(
            task.id, settings.owner, seconds=settings.lease_seconds, reclaim=reclaim
        )
        seated = await store.tables.seats(task.id)
        logs = await store.hands.unfinished(task.id)
        last = await store.hands.last_number(task.id)
        users = {row.seat: await store.users.get(row.user_id) for row in seated}
        state = handover.decode(await task.services.bus.kept(handover.key(task.id)) or b"")
        running = logs[-1] if logs else None
        for stale in logs[:-1]:  # a table runs one hand at a time: older ones cannot go on
            void = HandVoid(task.id, stale.number, "superseded by a later hand", lease)
            await task.services.committer.commit(Batch(voids=[void]))
        button = None
        if running is not None and not task.info.banked:
            button = running.seats[-1].table_seat
        entries = tuple(
            (row.seat, users[row.seat].username, row.stack, row.user_id) for row in seated
        )
        played = last - 1 if running else last
        # Everything is read: only now does the task's state change.
        task.timers.cancel_all()
        task.lease = lease
        rng = task.services.rng
        task.table = info.new_table(task.config, task.spec, rng, lease, entries, button, played)
        task.bots.clear()
        task.users = users
        for seat, user in users.items():
            if user.is_bot and not user.api_bot:
                task.bots.seated(seat, user)
        task.rules.reset()
        task.outbox.forget()
        task.applied = {}
        if running is not None:
            await self.resume(running)
        task.available = True
        now = task.services.clock.now()
        self.carrier = handover.Carrier()
        if state is not None:  # the last owner's clocks, banks, away and window go on
            task.perform_intents(task.rules.restore(state, task.table, now, time.time()))
        for address in list(task.outbox.watchers):
            task.outbox.snapshot(address, task.table, task.extras())
        task.perform_intents(task.rules.after(task.table, now, task.bots.seats))
        task.outbox.flush()
        await task.policy.loaded()

    async def resume(self, stored: HandLog) -> None:
        """Carry a stored hand on from its deck and actions, or void it if its log is damaged."""
        task = self.task
        await task.policy.resuming(stored)
        applied = task.applied.setdefault(stored.number, set())
        try:
            last = deal_again(task.table, stored, applied)
        except (PokerError, ValueError) as error:
            reason = f"damaged log: {error}"[:400]
            log.warning("table %s: hand %s voided: %s", task.id, stored.number, reason)
            running = task.table.hand is not None
            void = VoidHand(reason) if running else VoidHand(reason, stored.number)
            await task.commit(task.table.apply(void))
            return
        log.info(
            "table %s: hand %s resumed after %d actions",
            task.id,
            stored.number,
            len(stored.actions),
        )
        if task.table.hand is None and last is not None:
            # Every action was stored but not what ended the hand: store that now.
            rest = [r for r in last.records if not isinstance(r, records.ActionLogged)]
            batch = recorder.batch(task.id, task.lease, rest, task.bots.is_bot_account)
            await task.services.committer.commit(batch)

    async def reload(self) -> None:
        """After a database failure: retry loading until the store answers."""
        task = self.task
        while not task.fenced:
            try:
                await self.load()
                log.info("table %s: reloaded from the store", task.id)
                return
            except asyncio.CancelledError:
                raise
            except StoreError as error:
                if getattr(error, "code", "") == "lease_held":
                    self.fence(str(error))
                    return
                log.warning("table %s: store still unavailable: %s", task.id, error)
            except OSError as error:
                log.warning("table %s: store still unavailable: %s", task.id, error)
            await task.services.clock.sleep(task.services.settings.retry_seconds)

    def carry(self) -> None:
        """Note whether the room rules' state changed (kept by :meth:`keep_carried`)."""
        task = self.task
        if task.available and not task.fenced and task.services.bus.shared:
            self.carrier.note(task.rules.signature())

    def keep_carried(self) -> None:
        """Keep the rules' state for the next owner if it changed (the room: every second)."""
        task = self.task
        if self.carrier.due and task.available and not task.fenced:
            self.carrier.due = False
            state = task.rules.carry(task.services.clock.now(), time.time())
            task.services.bus.keep(*handover.record(task.id, state))

    def lost(self, error: BaseException) -> None:
        """The store failed mid-command: stop, forget, and reload what was saved."""
        task = self.task
        if not task.available:
            return
        log.warning("table %s: store failed (%s); reloading from it", task.id, error)
        task.available = False
        task.timers.cancel_all()
        task.outbox.drop()
        text = "the table lost its database; it will be back"
        task.outbox.broadcast(outgoing.error("room_unavailable", text, table=task.id))
        task.outbox.flush()
        self.reloading = asyncio.get_running_loop().create_task(self.reload())

    def fence(self, reason: str) -> None:
        """The lease went to another owner: stop this table here at once, for good."""
        task = self.task
        if task.fenced:
            return
        log.warning("table %s: lease lost (%s); the table stops here", task.id, reason)
        task.fenced = True
        if self.reloading is not None and self.reloading is not asyncio.current_task():
            self.reloading.cancel()  # a reload would run it again under the lost lease
        task.available = False
        task.timers.cancel_all()
        task.outbox.drop()
        text = "this table is run elsewhere now"
        task.outbox.broadcast(outgoing.error("table_moved", text, table=task.id))
        task.outbox.flush()

    def lease_lost(self) -> None:
        """The room's lease renewal found this table's lease gone."""
        self.fence("not renewed")
