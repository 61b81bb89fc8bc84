"""The composition root: everything a running room holds, put together once.

:class:`Site` owns the settings, the store, the services every table shares,
the room (its tables' tasks) and the per-player limits; the HTTP handlers
and the websocket endpoint receive it. It imports none of them.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Mapping, Sequence
from typing import Any

from argon2 import PasswordHasher

from pokerhouse.server.cluster.bus import Bus, SessionEnded
from pokerhouse.server.cluster.redis_bus import RedisBus
from pokerhouse.server.http.rate_limits import Throttle
from pokerhouse.server.http.shared_limits import (
    MemoryThrottle,
    RedisThrottle,
    Throttles,
    ThrottleUnavailable,
)
from pokerhouse.server.room import Room
from pokerhouse.server.runtime.clock import Clock
from pokerhouse.server.runtime.metrics import Metrics
from pokerhouse.server.runtime.stopping import cancel_and_wait
from pokerhouse.server.settings import RoomSettings
from pokerhouse.server.socket import outgoing
from pokerhouse.server.socket.connection import Connection, Flusher
from pokerhouse.server.socket.message_rates import Limits
from pokerhouse.server.socket.open_sockets import SocketLimits
from pokerhouse.server.socket.signins import SessionSockets
from pokerhouse.server.table.services import Services
from pokerhouse.store import Store, TableConfig
from pokerhouse.store.errors import DatabaseError
from pokerhouse.store.users import token_hash

log = logging.getLogger("pokerhouse.server")

#: The back-off of failed logins per account: five free, then 1 s doubling up to 15 min.
LOGINS: dict[str, Any] = {"free": 5, "base": 1.0, "cap": 900.0}
#: Per address: thirty free (a shared address is many players), then the same.
ADDRESSES: dict[str, Any] = {"free": 30, "base": 1.0, "cap": 900.0}
#: Seconds between looks at the store for the open sockets' sessions that ended elsewhere.
SESSION_SWEEP_SECONDS = 5.0


class Site:
    """Everything a running room holds: the settings, the store, the shared services, the room."""

    def __init__(
        self,
        database_url: str | None = None,
        *,
        settings: RoomSettings | None = None,
        clock: Clock | None = None,
        rng: random.Random | None = None,
        tables: Sequence[TableConfig] | None = None,
        store_options: Mapping[str, Any] | None = None,
        redis_url: str | None = None,
        bus: Bus | None = None,
    ) -> None:
        self.database_url = database_url
        #: The bus to the room's other nodes: Redis at ``redis_url``, ``bus``, or none.
        self.settings = settings if settings is not None else RoomSettings()
        # One Redis client for the bus, the login throttles and the message rates.
        self._redis: Any = None
        if redis_url is not None:
            import redis.asyncio as redis

            self._redis = redis.Redis.from_url(
                redis_url, socket_timeout=5.0, socket_connect_timeout=5.0
            )
        self.bus = bus
        if bus is None and redis_url is not None:
            prefix = self.settings.redis_prefix
            self.bus = RedisBus(redis_url, prefix=prefix, client=self._redis)
        self.store_options = dict(store_options or {})
        if self.settings.argon2 is not None and "password_hasher" not in self.store_options:
            time_cost, memory_cost, parallelism = self.settings.argon2
            self.store_options["password_hasher"] = PasswordHasher(
                time_cost=time_cost, memory_cost=memory_cost, parallelism=parallelism
            )
        self._clock = clock
        self._rng = rng
        self._tables = tables
        self.metrics = Metrics()
        #: Failed logins per account and per address: one budget for every node.
        self.logins: Throttles
        self.addresses: Throttles
        self._settling: asyncio.Task[None] | None = None
        self._sweeping: asyncio.Task[None] | None = None
        self.limits = Limits(self.settings, self._redis)
        if self._redis is not None:
            prefix = self.settings.redis_prefix
            self.logins = RedisThrottle(self._redis, "logins", prefix=prefix, **LOGINS)
            self.addresses = RedisThrottle(self._redis, "addresses", prefix=prefix, **ADDRESSES)
        else:
            # The room's clock, so a test can run out the back-off without waiting for it.
            self.logins = MemoryThrottle(Throttle(**LOGINS), self._now)
            self.addresses = MemoryThrottle(Throttle(**ADDRESSES), self._now)
        self.socket_limits = SocketLimits(
            self.settings.sockets_per_account, self.settings.sockets_per_address
        )
        #: Open sockets by the hash of the session token they were opened with.
        self.sessions: SessionSockets[Connection] = SessionSockets()
        self.sockets = self.sessions.sockets
        #: Sends every connection's queued frames at the end of each turn of the loop.
        self.flusher = Flusher()
        self._store: Store | None = None
        self._services: Services | None = None
        self._room: Room | None = None

    @property
    def store(self) -> Store:
        assert self._store is not None, "the room is not started"
        return self._store

    @property
    def services(self) -> Services:
        assert self._services is not None, "the room is not started"
        return self._services

    @property
    def room(self) -> Room:
        assert self._room is not None, "the room is not started"
        return self._room

    def _now(self) -> float:
        return self.services.clock.now()

    def session_ended(self, token: str) -> None:
        """Close every socket signed in with ``token``, on every node: an ended session
        authorises nothing."""
        self.sessions_ended([token_hash(token)])

    def sessions_ended(self, sessions: Sequence[str]) -> None:
        """:meth:`session_ended` for sessions known by their hashes (a bot's tokens,
        ended by a new one or revoked)."""
        for session in sessions:
            self._close_session(session)
            if self._room is not None and self._room.bus.shared:
                self._room.bus.broadcast(SessionEnded(session))

    def _close_session(self, session: str) -> None:
        """Close the sockets here signed in with the session of hash ``session``."""
        for conn in self.sessions.end(session):
            conn.send(outgoing.error("signed_out", "this session has ended: sign in again"))
            conn.kill("signed_out", drop=False)

    async def start(self) -> None:
        """Open the store and start the room."""
        options = {"deadline": self.settings.database_seconds, **self.store_options}
        self._store = await Store.open(self.database_url, **options)
        self._services = Services(
            self._store,
            settings=self.settings,
            clock=self._clock,
            rng=self._rng,
            metrics=self.metrics,
        )
        self._room = Room(self._services, self._tables, self.bus)
        self._room.relay.session_listeners.append(self._close_session)
        tasks = self._room.tasks
        self.metrics.hands_in_progress.set_function(
            lambda: sum(
                1 for task in tasks.values() if task.table.hand is not None and not task.fenced
            )
        )
        self.metrics.remote_watchers.set_function(self._room.relay.remote_watchers)
        self.metrics.tables_available.set_function(
            lambda: sum(1 for task in tasks.values() if task.available)
        )
        await self._room.start()
        if self._redis is not None:
            self._settling = asyncio.get_running_loop().create_task(self._settle(), name="limits")
        self._sweeping = asyncio.get_running_loop().create_task(self._sweep(), name="sessions")
        log.info("room started: %d tables on %s", len(tasks), self._store.url)

    async def _settle(self) -> None:
        """Every second: this node's message counts into the room's (several nodes)."""
        failing = False
        while True:
            await asyncio.sleep(1.0)
            try:
                await self.limits.settle()
            except ThrottleUnavailable as error:
                if not failing:
                    log.warning("rate limits: counts not settled: %s", error)
                failing = True
            else:
                failing = False

    async def _sweep(self) -> None:
        """Every few seconds: close the sockets whose sessions ended where no message of it
        reaches this node (a bot's token revoked or replaced from the command line, a
        session expired)."""
        failing = False
        while True:
            await asyncio.sleep(SESSION_SWEEP_SECONDS)
            open_ = list(self.sessions.sockets)
            if not open_:
                continue
            try:
                live = await self.store.users.live_sessions(open_)
            except (DatabaseError, OSError) as error:  # the store is down: tried again next time
                if not failing:
                    log.warning("sessions: not checked: %s", error)
                failing = True
                continue
            failing = False
            for session in open_:
                if session not in live:
                    self._close_session(session)

    async def stop(self) -> None:
        """Stop the room and close the store."""
        for task in (self._sweeping, self._settling):
            if task is not None:
                await cancel_and_wait(task)
        if self._room is not None:
            await self._room.stop()
        if self._store is not None:
            await self._store.close()
        if self._redis is not None:
            await self._redis.aclose()
