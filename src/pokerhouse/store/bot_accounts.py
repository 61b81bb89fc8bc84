"""Bot accounts: created as bots, played with API tokens, ranked on their own board.

Reached as :attr:`pokerhouse.store.Store.bots`. A bot account is a user
marked ``is_bot`` and ``api_bot`` (the room never seats it itself, as it does
its house bots), usually owned by the player who made it. It has no
password: it signs in with a token, a session of :data:`TOKEN_TTL` whose
hash alone is kept; a new token or a revocation ends every earlier one.

>>> import asyncio, tempfile
>>> from pokerhouse.store import Store
>>> async def demo(path):
...     async with await Store.open(f"sqlite:///{path}/room.db", upgrade=True) as store:
...         ann = await store.users.create("ann", "correct horse battery")
...         bot, token = await store.bots.create("ann_bot", owner=ann)
...         signed_in = await store.users.session_user(token)
...         await store.bots.revoke("ann_bot", owner=ann)
...         gone = await store.users.session_user(token)
...         return bot.api_bot, bot.owner_id == ann.id, signed_in == bot, gone
>>> with tempfile.TemporaryDirectory() as path:
...     asyncio.run(demo(path))
(True, True, True, None)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pokerhouse.store import names, users
from pokerhouse.store.database import Database
from pokerhouse.store.errors import AccountError
from pokerhouse.store.ledger import check_amount
from pokerhouse.store.sql import Context, Stmt, Unit, all_rows, one, run

#: How long a bot's token lasts (a year): a bot runs unattended; revoke it to end it.
TOKEN_TTL = 365 * 24 * 3600.0

#: The names the room's own bots take (``Ada_bot``, ``Ada_bot2``, ``Ada_tb``): never a
#: bot account's, so no one can pass for the house.
#: Matched against a name's skeleton, so that no look-alike passes either (``Ivo_bot`` reads
#: ``lvo_bot``; its digits ``0`` and ``1`` read ``o`` and ``l``).
HOUSE_BOT_NAME = re.compile(
    "^("
    + "|".join(re.escape(names.username_skeleton(name)) for name in names.HOUSE_BOT_NAMES)
    + r")[_-](bot|tb)[0-9lo]*$"
)

#: Hands a bot needs on the bots' board before it is ranked.
LEADERBOARD_MIN_HANDS = 1

MARK_BOT = Stmt("UPDATE users SET api_bot = true, owner_id = :owner WHERE id = :id")
LOCK_OWNER = Stmt("SELECT 1", postgresql="SELECT 1 FROM (SELECT pg_advisory_xact_lock(:lock)) l")
COUNT_OWNED = Stmt("SELECT count(*) FROM users WHERE owner_id = :owner AND api_bot")
SELECT_OWNED = Stmt(
    "SELECT u.id, u.username, u.created_at, "
    "(SELECT count(*) FROM sessions s WHERE s.user_id = u.id AND s.ended_at IS NULL "
    "AND s.expires_at > :now) FROM users u WHERE u.owner_id = :owner AND u.api_bot "
    "ORDER BY u.id"
)
END_SESSIONS = Stmt(
    "UPDATE sessions SET ended_at = :now WHERE user_id = :id AND ended_at IS NULL "
    "RETURNING token_hash"
)
# Every bot's results at a game's tables for bots only, as the settlements summed them.
LEADERBOARD = Stmt(
    "SELECT u.username, b.hands, b.net, b.squares FROM bot_standings b "
    "JOIN users u ON u.id = b.user_id WHERE b.game = :game AND b.hands >= :least"
)


@dataclass(frozen=True, slots=True)
class OwnedBot:
    """A bot account as its owner sees it: name, when made, and live tokens."""

    id: int
    username: str
    created_at: float
    live_tokens: int


@dataclass(frozen=True, slots=True)
class BotStanding:
    """A bot's line on a game's board: hands, net chips, and the sum of their squares."""

    username: str
    hands: int
    net: int
    squares: float


def bot_name(name: object) -> tuple[str, str, str]:
    """``(shown, key, skeleton)`` of a new bot account's name: it ends in ``_bot`` (so it
    reads as a bot wherever it is named) and is none of the house bots'.

    >>> bot_name("deep_bot")[0]
    'deep_bot'
    >>> bot_name("deep")
    Traceback (most recent call last):
    ...
    pokerhouse.store.errors.AccountError: a bot account's name ends in _bot, as 'deep_bot'
    >>> bot_name("1vo_bot")  # Ivo_bot, to a reader
    Traceback (most recent call last):
    ...
    pokerhouse.store.errors.AccountError: '1vo_bot' is the name of one of the room's own bots
    """
    shown, key, skeleton = names.new_username(name, bot=True)
    if not names.BOT_NAME.search(skeleton):
        raise AccountError(
            "bad_username", f"a bot account's name ends in _bot, as {shown + '_bot'!r}"[:120]
        )
    if HOUSE_BOT_NAME.match(skeleton):
        raise AccountError("bad_username", f"{shown!r} is the name of one of the room's own bots")
    return shown, key, skeleton


def create_bot_unit(
    ctx: Context,
    name: tuple[str, str, str],
    owner: int | None,
    most: int,
    grant: int,
    token_hash: str,
    sign_ups: users.SignUps | None = None,
) -> Unit[users.User]:
    """The bot account, its wallet and grant, and its first token, in one transaction;
    ``too_many_bots`` when ``owner`` has ``most`` already. With ``sign_ups`` (a bot made
    from the web), its grant counts as a sign-up from its owner's address."""
    if owner is not None:
        yield one(LOCK_OWNER, lock=owner)
        (count,) = yield one(COUNT_OWNED, owner=owner)
        if int(count) >= most:
            raise AccountError("too_many_bots", f"a player may keep {most} bot accounts")
    shown, key, skeleton = name
    made = yield from users.create_user_unit(ctx, shown, key, skeleton, None, True, grant, sign_ups)
    yield run(MARK_BOT, id=made.id, owner=owner)
    yield from users.create_session_unit(ctx, made.id, token_hash, TOKEN_TTL)
    return users.User(made.id, made.username, True, made.created_at, True, owner)


def bot_of_unit(ctx: Context, key: str, owner: int | None) -> Unit[users.User]:
    """The bot account named ``key`` whose owner is ``owner`` (``None``: any owner, the
    operator's reach); ``unknown_bot`` if there is no such bot of theirs."""
    row = yield from users.user_row_unit(ctx, key)
    found = None if row is None else users.user_of(row)
    if found is None or not found.api_bot or (owner is not None and found.owner_id != owner):
        raise AccountError("unknown_bot", "no bot account of yours has that name")
    return found


def new_token_unit(
    ctx: Context, key: str, owner: int | None, token_hash: str
) -> Unit[tuple[users.User, list[str]]]:
    """End the bot's tokens and give it a new one; the bot and the ended tokens' hashes."""
    bot = yield from bot_of_unit(ctx, key, owner)
    ended = yield all_rows(END_SESSIONS, id=bot.id, now=ctx.now)
    yield from users.create_session_unit(ctx, bot.id, token_hash, TOKEN_TTL)
    return bot, [row[0] for row in ended]


def revoke_unit(ctx: Context, key: str, owner: int | None) -> Unit[list[str]]:
    """End every token of the bot; the ended tokens' hashes."""
    bot = yield from bot_of_unit(ctx, key, owner)
    ended = yield all_rows(END_SESSIONS, id=bot.id, now=ctx.now)
    return [row[0] for row in ended]


class BotBook:
    """Bot accounts in one store."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def create(
        self,
        name: str,
        *,
        owner: users.User | None = None,
        most: int = 5,
        grant: int = 10_000,
        address: str | None = None,
        per_hour: int = 30,
    ) -> tuple[users.User, str]:
        """A new bot account of ``owner`` (``None``: the operator's) and its token, shown
        this once (``bad_username``, ``username_taken``, ``too_many_bots``). With
        ``address`` (made from the web), its grant is a sign-up from that address: at
        most ``per_hour`` of those an hour, people and bots together (``rate_limited``)."""
        checked = bot_name(name)
        if owner is not None and (owner.is_bot or owner.api_bot):
            raise AccountError("bots_own_no_bots", "a bot account cannot make bot accounts")
        if type(most) is not int or most < 1:
            raise AccountError("bad_limit", f"most is a whole number >= 1, not {most!r}")
        if not (type(grant) is int and grant == 0):
            check_amount(grant, "grant")
        sign_ups = None
        if address is not None:
            if type(per_hour) is not int or per_hour < 1:
                raise AccountError("bad_limit", f"per_hour is an integer >= 1, not {per_hour!r}")
            sign_ups = users.SignUps.of(address, per_hour)
        owner_id = None if owner is None else owner.id
        token = users.new_token()
        hashed = users.token_hash(token)
        bot = await self._db.write(
            lambda ctx: create_bot_unit(ctx, checked, owner_id, most, grant, hashed, sign_ups)
        )
        return bot, token

    async def new_token(
        self, name: str, *, owner: users.User | None = None
    ) -> tuple[users.User, str, list[str]]:
        """A new token for the bot (every earlier one ended): the bot, the token, and the
        ended tokens' hashes (their sockets are to be closed)."""
        key = _key(name)
        token = users.new_token()
        hashed = users.token_hash(token)
        owner_id = None if owner is None else owner.id
        bot, ended = await self._db.write(lambda ctx: new_token_unit(ctx, key, owner_id, hashed))
        return bot, token, ended

    async def revoke(self, name: str, *, owner: users.User | None = None) -> list[str]:
        """End every token of the bot: the ended tokens' hashes."""
        key = _key(name)
        owner_id = None if owner is None else owner.id
        return await self._db.write(lambda ctx: revoke_unit(ctx, key, owner_id))

    async def owned(self, owner: users.User) -> list[OwnedBot]:
        """The bot accounts ``owner`` made, oldest first."""
        rows: Sequence[Any] = await self._db.read(lambda ctx: _owned_unit(ctx, owner.id))
        return [OwnedBot(int(r[0]), r[1], float(r[2]), int(r[3])) for r in rows]

    async def leaderboard(self, game: str) -> list[BotStanding]:
        """Every bot's hands at ``game``'s tables for bots only, unsorted (a bot with no
        such hand is not on the board)."""
        rows: Sequence[Any] = await self._db.read(lambda ctx: _board_unit(ctx, game))
        return [BotStanding(r[0], int(r[1]), int(r[2]), float(r[3])) for r in rows]


def _key(name: object) -> str:
    try:
        return users.username_key(name)[1]
    except AccountError:
        raise AccountError("unknown_bot", "no bot account of yours has that name") from None


def _owned_unit(ctx: Context, owner: int) -> Unit[Any]:
    return (yield all_rows(SELECT_OWNED, owner=owner, now=ctx.now))


def _board_unit(ctx: Context, game: str) -> Unit[Any]:
    return (yield all_rows(LEADERBOARD, game=game, least=LEADERBOARD_MIN_HANDS))
