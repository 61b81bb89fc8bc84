"""Names a new account may not take: look-alikes, mixed scripts, invisible letters, bots' names."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config

from pokerhouse.store import AccountError, Store
from pokerhouse.store.migrate import migration_engine, upgrade
from pokerhouse.store.schema import metadata
from pokerhouse.store.urls import parse_url
from tests.store.conftest import FAST_HASHER, dump

PASSWORD = "password1"


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("\u0410d\u0430_b\u043et", "Cyrillic A, a and o among Latin letters"),
        ("\u0391da", "a Greek Alpha before Latin letters"),
        ("Pav\u0435l", "a Cyrillic e"),
        ("Bob\u3164", "ends in HANGUL FILLER"),
        ("\u3164\u3164\u3164", "only fillers"),
        ("\u115fAnn", "HANGUL CHOSEONG FILLER"),
        ("Ann\u1160", "HANGUL JUNGSEONG FILLER"),
        ("Ann\uffa0", "HALFWIDTH HANGUL FILLER"),
        ("Ada_bot", "a bot's name"),
        ("ada_BOT7", "a bot's name with a number"),
        ("zed-bot", "ends in -bot"),
        ("Ada_b0t", "ends in _bot to the eye"),
        ("Zed_\u0432ot", "Cyrillic among Latin"),
    ],
)
async def test_a_person_may_not_take_such_a_name(store: Store, name: str, why: str) -> None:
    before = await dump(store)
    with pytest.raises(AccountError) as caught:
        await store.users.create(name, PASSWORD)
    assert caught.value.code == "bad_username", why
    assert await dump(store) == before


@pytest.mark.parametrize(
    "name", ["Zo\u00eb-\u548c", "\u0410\u0434\u0430", "\u5c71\u7530_\u592a\u90ce", "Ma\u00f1ana",
             "\u65e5\u672c\u3072\u3089\u30ab\u30bf", "\u0391\u03b8\u03b7\u03bd\u03ac", "Robot"],
)  # fmt: skip
async def test_names_in_one_writing_system_are_names(store: Store, name: str) -> None:
    user = await store.users.create(name, PASSWORD)
    assert (await store.users.get(name)).id == user.id


async def test_bots_are_created_under_bot_names(store: Store) -> None:
    bot = await store.users.create("Ada_bot", None, bot=True, grant=0)
    assert bot.is_bot
    # A look-alike of the bot's name, whatever the rule that sees it first.
    for name, code in [
        ("Ada_bot", "bad_username"),
        ("\u0410d\u0430_b\u043et", "bad_username"),
        ("Ada_b0t", "bad_username"),
    ]:
        with pytest.raises(AccountError) as caught:
            await store.users.create(name, PASSWORD)
        assert caught.value.code == code, name
    with pytest.raises(AccountError) as caught:
        await store.users.create("Ada_b0t", None, bot=True, grant=0)
    assert caught.value.code == "username_taken"


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Alice", "AIice"),  # capital I for l
        ("Bob", "B0b"),  # zero for o
        ("Will1", "Willl"),  # one for l
        ("ABE", "\u0410\u0412\u0415"),  # all Cyrillic, reads ABE
        ("\u0410\u0412\u0415", "abe"),  # the other way round
        ("Ocean", "\u041e\u0441\u0435\u0430n"),  # Cyrillic O, c, e, a: mixed, refused
        ("Rosa", "Ro\u0455\u0430"),  # Cyrillic dze and a: mixed, refused
    ],
)
async def test_a_look_alike_of_a_taken_name_is_taken(store: Store, first: str, second: str) -> None:
    await store.users.create(first, PASSWORD)
    before = await dump(store)
    with pytest.raises(AccountError) as caught:
        await store.users.create(second, PASSWORD)
    assert caught.value.code in ("username_taken", "bad_username")
    if caught.value.code == "bad_username":
        assert "one script" in str(caught.value)
    assert await dump(store) == before


async def test_a_look_alike_taken_at_once_is_taken_once(store: Store) -> None:
    """Two sign-ups of look-alike names at the same time: the unique index keeps one."""
    results = await asyncio.gather(
        store.users.create("Olga", PASSWORD),
        store.users.create("0lga", PASSWORD),
        return_exceptions=True,
    )
    made = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, AccountError)]
    assert len(made) == 1 and [e.code for e in refused] == ["username_taken"]


async def test_the_migration_gives_older_accounts_their_skeletons(empty_db_url: str) -> None:
    """At revision 0001 look-alikes could both sign up: the older keeps its skeleton."""
    url = parse_url(empty_db_url)
    if url.get_backend_name() == "sqlite":
        Path(str(url.database)).parent.mkdir(parents=True, exist_ok=True)
    engine = migration_engine(url)
    try:
        async with engine.begin() as connection:

            def to_0001(sync: sa.Connection) -> None:
                config = Config()
                config.set_main_option("script_location", "pokerhouse.store:migrations")
                config.attributes["connection"] = sync
                command.upgrade(config, "0001")
                users = sa.table(
                    "users",
                    sa.column("username"),
                    sa.column("username_key"),
                    sa.column("password_hash"),
                    sa.column("is_bot"),
                    sa.column("created_at"),
                )
                for name in ("Alice", "AIice", "Ada_bot", "\u0410d\u0430_b\u043et"):
                    sync.execute(
                        users.insert().values(
                            username=name,
                            username_key=name.casefold(),
                            password_hash=None,
                            is_bot=name == "Ada_bot",
                            created_at=1.0,
                        )
                    )

            await connection.run_sync(to_0001)
    finally:
        await engine.dispose()
    await upgrade(url)
    store = await Store.open(empty_db_url, password_hasher=FAST_HASHER)
    try:
        rows = (await dump(store))["users"]
        # SELECT * reads the columns in the schema's order, later migrations' last.
        at = list(metadata.tables["users"].columns.keys()).index("username_skeleton")
        skeletons = {row[1]: row[at] for row in rows}
        assert skeletons == {
            "Alice": "alice",
            "AIice": None,  # the younger look-alike keeps its name, not the skeleton
            "Ada_bot": "ada_bot",
            "\u0410d\u0430_b\u043et": None,
        }
        # The older accounts still log in by their names; no new look-alike is let in.
        assert (await store.users.get("AIice")).username == "AIice"
        with pytest.raises(AccountError) as caught:
            await store.users.create("A1ice", PASSWORD)
        assert caught.value.code == "username_taken"
    finally:
        await store.close()
