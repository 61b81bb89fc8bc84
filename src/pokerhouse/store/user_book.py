"""The store's door for users: accounts, passwords and sessions.

Reached as :attr:`pokerhouse.store.Store.users`. A user signs up with a name
and a password (a bot may have none), logs in, and holds sessions whose
tokens the database keeps only as hashes (the units are in
:mod:`pokerhouse.store.users`):

>>> import asyncio, tempfile
>>> from pokerhouse.store import Store
>>> async def demo(path):
...     async with await Store.open(f"sqlite:///{path}/room.db") as store:
...         ann = await store.users.create("Ann", None, bot=True, grant=500)
...         token = await store.users.new_session(ann)
...         signed_in = await store.users.session_user(token)
...         ended = await store.users.end_session(token)
...         return signed_in == ann, ended, await store.users.session_user(token)
>>> with tempfile.TemporaryDirectory() as path:
...     asyncio.run(demo(path))
(True, True, None)
"""

from __future__ import annotations

from collections.abc import Sequence

from pokerhouse.store import names, users
from pokerhouse.store.arguments import user_id_of
from pokerhouse.store.database import Database
from pokerhouse.store.errors import AccountError
from pokerhouse.store.ledger import check_amount
from pokerhouse.store.users import User


class UserBook:
    """The users and sessions of one store."""

    def __init__(self, db: Database, passwords: users.Passwords) -> None:
        self._db = db
        self._passwords = passwords

    async def create(
        self,
        username: str,
        password: str | None,
        *,
        bot: bool = False,
        grant: int = 10_000,
        address: str | None = None,
        per_hour: int = 30,
    ) -> User:
        """A new user with a wallet holding ``grant`` chips (a ``grant`` transaction from
        the issuer). Bots may have no password (they never log in).

        The name must be one a new account may take (:mod:`pokerhouse.store.names`:
        one script, nothing invisible, no bot's name for a person: ``bad_username``)
        and must not look like a taken one (``username_taken``). With ``address`` (a
        sign-up from the web), at most ``per_hour`` accounts an hour come from it
        (``rate_limited``), counted in the database with the sign-up itself.
        """
        if type(bot) is not bool:
            raise AccountError("bad_user", f"bot is True or False, not {bot!r}")
        shown, key, skeleton = names.new_username(username, bot=bot)
        if not (type(grant) is int and grant == 0):
            check_amount(grant, "grant")
        if password is None and not bot:
            raise AccountError("bad_password", "a player needs a password")
        sign_ups = None
        if address is not None:
            if type(per_hour) is not int or per_hour < 1:
                raise AccountError("bad_limit", f"per_hour is an integer >= 1, not {per_hour!r}")
            sign_ups = users.SignUps.of(address, per_hour)
            limit = sign_ups
            # Checked before the costly hash too; the write checks it again, atomically.
            await self._db.read(lambda ctx: users.sign_ups_unit(ctx, limit))
        hashed = (
            None if password is None else await self._passwords.hash(users.check_password(password))
        )
        return await self._db.write(
            lambda ctx: users.create_user_unit(
                ctx, shown, key, skeleton, hashed, bot, grant, sign_ups
            )
        )

    async def authenticate(self, username: str, password: str) -> User:
        """The user whose name and password these are; ``login_failed`` for an unknown
        user and a wrong password alike. A hash made with older parameters is redone."""
        try:
            _, key = users.username_key(username)
        except AccountError:
            key = None
        row = (
            None if key is None else await self._db.read(lambda ctx: users.user_row_unit(ctx, key))
        )
        stored = None if row is None else row[4]
        if not isinstance(password, str) or len(password) > 1024:
            password = ""
        if not await self._passwords.verify(stored, password) or row is None or stored is None:
            raise AccountError("login_failed", "unknown user or wrong password")
        if self._passwords.needs_rehash(stored):
            new = await self._passwords.hash(password)
            await self._db.write(lambda ctx: users.rehash_unit(ctx, int(row[0]), stored, new))
        return users.user_of(row)

    async def get(self, user: int | str) -> User:
        """A user by id or username; ``unknown_user`` if there is none."""
        if isinstance(user, str):
            _, key = users.username_key(user)
            row = await self._db.read(lambda ctx: users.user_row_unit(ctx, key))
        elif type(user) is int:
            row = await self._db.read(lambda ctx: users.user_by_id_unit(ctx, user))
        else:
            raise AccountError("unknown_user", f"a user is an id or a username, not {user!r}")
        if row is None:
            raise AccountError("unknown_user", f"there is no user {user!r}")
        return users.user_of(row)

    async def new_session(self, user: User | int, *, ttl: float = users.SESSION_TTL) -> str:
        """A new session token for ``user`` (the database keeps only its hash)."""
        user_id = user_id_of(user)
        if type(ttl) not in (int, float) or not 0 < ttl <= 366 * 24 * 3600:
            raise AccountError("bad_ttl", f"a session lasts up to a year, not {ttl!r} s")
        token = users.new_token()
        hashed = users.token_hash(token)
        await self._db.write(lambda ctx: users.create_session_unit(ctx, user_id, hashed, ttl))
        return token

    async def session_user(self, token: str) -> User | None:
        """The user of a live session, or ``None`` (unknown, expired or ended)."""
        if (hashed := users.token_hash_or_none(token)) is None:
            return None
        row = await self._db.read(lambda ctx: users.session_user_unit(ctx, hashed))
        return None if row is None else users.user_of(row)

    async def end_session(self, token: str) -> bool:
        """Log out: whether a live session ended."""
        if (hashed := users.token_hash_or_none(token)) is None:
            return False
        return await self._db.write(lambda ctx: users.end_session_unit(ctx, hashed)) > 0

    async def live_sessions(self, hashes: Sequence[str]) -> set[str]:
        """Which of the sessions ``hashes`` (tokens' hashes) are live: not ended or expired."""
        return await self._db.read(lambda ctx: users.live_sessions_unit(ctx, sorted(set(hashes))))
