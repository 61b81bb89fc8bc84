"""How the room behaves between the rules: pauses, windows, buffers, bots' thinking time.

The table definitions (game, stakes, seats, clock) live in the store; these
settings are the room's own, from ``room.toml`` or the defaults. Tests set
the pauses to 0 and drive the clock by hand.

>>> RoomSettings(bot_think=(0.0, 0.0)).think_time()
0.0
"""

from __future__ import annotations

import random
import socket
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class RoomSettings:
    """The room's timing and sizes.

    ``bot_think``: a bot waits a random time in this range before acting, as
    a person would. ``hand_pause``: seconds between the end of a hand and the
    next deal, so the players see the showdown (``bots_pause`` when only bots
    played the hand). ``window_seconds``: Casino
    Hold'em's betting window. ``away_seconds``: a player sat out this long is
    stood up and cashed out. ``log_size``: events a table keeps for clients
    resuming after a drop. ``retry_seconds``: how often a table whose
    database failed tries to reload. ``database_seconds``: the deadline of
    every database call (a SQLite lock waited for, a PostgreSQL connect or
    unit of work); past it the call fails with ``database_timeout`` or
    ``database_busy`` and the table reloads, so nothing waits forever.
    ``owner``: this process's name on its table leases (the machine's name by
    default, so a room that restarts takes its tables back at once);
    ``lease_seconds``: how long a lease lasts unless renewed (the room renews
    its leases every third of that).
    """

    bot_think: tuple[float, float] = (0.8, 2.5)
    hand_pause: float = 5.0
    bots_pause: float = 2.0
    window_seconds: float = 10.0
    away_seconds: float = 600.0
    #: A few hands' events (a 3x4 hand at six seats is about 100): a client back after a
    #: drop of seconds finds what it missed; one away longer gets a snapshot. Each event
    #: kept costs a few hundred bytes, per table: 1,024 made 150 MB at 500 tables.
    log_size: int = 256
    retry_seconds: float = 1.0
    database_seconds: float = 5.0
    #: How often a table with too few players looks again.
    idle_seconds: float = 2.0
    owner: str = field(default_factory=lambda: f"node-{socket.gethostname()}"[:200])
    lease_seconds: float = 7.5
    #: What the room's keys in Redis begin with (rooms sharing one Redis differ here).
    redis_prefix: str = "pokerhouse"
    #: Whether nodes on one bus share the tables out, each running about its share (false:
    #: the first node up runs every table while it lives; the others only relay).
    spread_tables: bool = True
    #: Chip grant of a new account (RULES.md: 10,000 play-money chips).
    grant: int = 10_000
    #: Bot accounts one player may keep (RULES.md, bots).
    bots_per_account: int = 5
    #: How often the server pings a websocket, and how long a ping may go unanswered
    #: before the socket is closed (a half-open socket is found within twice this).
    ping_seconds: float = 20.0
    #: Bytes a slow client may have waiting before it is cut off.
    max_buffer: int = 1 << 20
    #: Seconds a peer may leave the room's data unread before the kernel drops the
    #: connection (``TCP_USER_TIMEOUT``): one that reads nothing takes no close either.
    stall_seconds: float = 30.0
    #: New accounts one address may open in an hour.
    registrations_per_hour: int = 30
    #: Websockets one account, and one address, may hold open at once; a handshake past
    #: either is refused (``error`` ``too_many_sockets``, then closed with 1013).
    sockets_per_account: int = 16
    sockets_per_address: int = 64
    #: Seconds a connection may take to send a request's head (and announced body);
    #: past it the connection is closed (``408`` if nothing was answered on it yet).
    request_head_seconds: float = 10.0
    #: Proxies whose ``X-Forwarded-For`` / ``X-Forwarded-Proto`` the room believes (IP
    #: addresses or networks). Empty: none, every client is the address it connects from.
    forwarded_allow_ips: tuple[str, ...] = ()
    #: ``Host`` names the room answers to besides the loopback names and the address it
    #: serves (``*.example.com`` for a domain's names, ``*`` for any).
    allowed_hosts: tuple[str, ...] = ()
    #: Games that always have a sit-and-go open (RULES.md, Tournaments), and how long its
    #: last seat waits for a person before a bot takes it.
    sit_and_gos: tuple[str, ...] = ()
    sit_and_go_bots_after: float = 60.0
    #: The built-in structure they play (regular, turbo, hyper).
    sit_and_go_structure: str = "turbo"
    #: Games of the scheduled tournament, one starting every ``scheduled_every`` seconds
    #: (on the hour by default), each game in turn; ``scheduled_bots`` bots enter each.
    scheduled_games: tuple[str, ...] = ()
    scheduled_every: float = 3600.0
    scheduled_bots: int = 20
    scheduled_structure: str = "regular"
    #: Structures of the room's own (room.toml ``[structures.NAME]``): each a table of
    #: settings for ``pokerhouse.tournament.from_mapping`` (``base`` names a built-in one),
    #: named by ``sit_and_go_structure`` and ``scheduled_structure`` like a built-in.
    structures: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    #: Whether ``GET /metrics`` (Prometheus) is served; off, it is a 404.
    metrics: bool = False
    #: Password hashes (logins, sign-ups) one address may have in flight at once; beyond
    #: it a request is refused with ``429 rate_limited`` rather than queued.
    hashes_per_address: int = 2
    #: argon2id's ``(time_cost, memory_cost in KiB, parallelism)`` for new password hashes;
    #: ``None``: argon2-cffi's defaults. Lighter costs are for load tests, never for a room
    #: people use: they make stolen hashes cheaper to crack.
    argon2: tuple[int, int, int] | None = None
    #: Messages one player (over all their sockets; a spectator per socket) may send:
    #: a steady rate and a burst; beyond it each gets ``rate_limited``.
    messages_per_second: float = 20.0
    message_burst: int = 60
    #: Chat lines one player may send: one every two seconds, bursts of five.
    chat_per_second: float = 0.5
    chat_burst: int = 5
    #: The room's own garbage-collection policy (:mod:`.collector`) instead of CPython's.
    gc_freeze: bool = False

    def think_time(self, rng: random.Random | None = None) -> float:
        """How long a bot thinks this time."""
        low, high = self.bot_think
        if high <= low:
            return low
        return (rng or random).uniform(low, high)
