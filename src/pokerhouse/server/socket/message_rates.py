"""The room's message and chat rate limits, per player over all their sockets.

>>> from pokerhouse.server.settings import RoomSettings
>>> limits = Limits(RoomSettings(messages_per_second=1.0, message_burst=2))
>>> [limits.messages.allow("user:1", now=0.0) for _ in range(3)]
[True, True, False]
"""

from __future__ import annotations

from typing import Any

from pokerhouse.server.http.rate_limits import RateLimit
from pokerhouse.server.http.shared_limits import SharedRateLimit
from pokerhouse.server.settings import RoomSettings
from pokerhouse.server.socket.connection import Connection


class Limits:
    """The room's message and chat rate limits, per player over all their sockets.

    A signed-in player's budget is theirs whatever socket they use, so opening
    more sockets buys no more messages; spectators (no account) share one
    budget per address, for the same reason. On several nodes (``redis``) the
    budget is the room's, whichever nodes the sockets are on.
    """

    def __init__(self, settings: RoomSettings, redis: Any = None) -> None:
        self.messages: RateLimit | SharedRateLimit
        self.chat: RateLimit | SharedRateLimit
        if redis is None:
            self.messages = RateLimit(settings.messages_per_second, settings.message_burst)
            self.chat = RateLimit(settings.chat_per_second, settings.chat_burst)
        else:  # several nodes: one budget for the room (a `redis.asyncio.Redis` client)
            prefix = settings.redis_prefix
            self.messages = SharedRateLimit(
                redis, "messages", settings.messages_per_second, settings.message_burst,
                prefix=prefix,
            )  # fmt: skip
            self.chat = SharedRateLimit(
                redis, "chat", settings.chat_per_second, settings.chat_burst, prefix=prefix
            )

    async def settle(self) -> None:
        """Add this node's counts to the room's (several nodes; alone, nothing to do)."""
        for limit in (self.messages, self.chat):
            if isinstance(limit, SharedRateLimit):
                await limit.settle()

    @staticmethod
    def key(conn: Connection, address: str) -> str:
        """Whose budget a connection spends: its player's, or its address's."""
        return f"user:{conn.user_id}" if conn.user_id is not None else f"addr:{address}"

    def closed(self, conn: Connection, address: str, last: bool) -> None:
        """A socket closed: the spectators' budget goes with the address's last socket
        (a player's stays theirs)."""
        if conn.user_id is None and last:
            self.messages.forget(self.key(conn, address))
            self.chat.forget(self.key(conn, address))
