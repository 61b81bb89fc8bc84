"""Bot accounts in the store: made with a token, owned, limited, renewed and revoked."""

from __future__ import annotations

import pytest

from pokerhouse.store import Account, AccountError, Store
from pokerhouse.store.bot_accounts import TOKEN_TTL
from pokerhouse.store.users import token_hash
from tests.store.conftest import Clock, dump


async def test_a_bot_account_is_a_bot_of_its_owner_with_a_token(store: Store) -> None:
    ann = await store.users.create("ann", "correct horse")
    bot, token = await store.bots.create("Deep_bot", owner=ann, grant=500)
    assert (bot.username, bot.is_bot, bot.api_bot, bot.owner_id) == ("Deep_bot", True, True, ann.id)
    assert await store.ledger.balance(Account.wallet(bot.id)) == 500
    assert await store.users.session_user(token) == bot
    assert await store.users.get("deep_BOT") == bot
    with pytest.raises(AccountError, match="unknown user or wrong password"):
        await store.users.authenticate("deep_bot", "")  # no password: a token or nothing
    (owned,) = await store.bots.owned(ann)
    assert (owned.username, owned.live_tokens) == ("Deep_bot", 1)
    operator_bot, _ = await store.bots.create("house_rules_bot")
    assert operator_bot.owner_id is None and operator_bot.api_bot


async def test_a_token_lasts_a_year_and_a_new_one_ends_the_old(store: Store, clock: Clock) -> None:
    ann = await store.users.create("ann", "correct horse")
    _, first = await store.bots.create("deep_bot", owner=ann)
    bot, second, ended = await store.bots.new_token("deep_bot", owner=ann)
    assert ended == [token_hash(first)]
    assert await store.users.session_user(first) is None
    assert await store.users.session_user(second) == bot
    clock.now += TOKEN_TTL - 1
    assert await store.users.session_user(second) == bot
    clock.now += 2
    assert await store.users.session_user(second) is None
    assert (await store.bots.owned(ann))[0].live_tokens == 0


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("deep", "bad_username"),  # a bot account's name ends in _bot
        ("Ada_bot", "bad_username"),  # a house bot's
        ("ada_bot7", "bad_username"),
        ("Zoe-bot", "bad_username"),
        ("a b_bot", "bad_username"),
        ("1vo_bot", "bad_username"),  # Ivo_bot, to a reader
        ("lnes_bot2", "bad_username"),
        ("Ada_tb", "bad_username"),  # not a bot account's ending
    ],
)
async def test_names_that_are_not_a_bot_accounts_are_refused(
    store: Store, name: str, code: str
) -> None:
    before = await dump(store)
    with pytest.raises(AccountError) as caught:
        await store.bots.create(name)
    assert caught.value.code == code
    assert await dump(store) == before


async def test_owners_limits_and_reach(store: Store) -> None:
    ann = await store.users.create("ann", "correct horse")
    bob = await store.users.create("bob", "correct horse")
    for n in range(3):
        await store.bots.create(f"ann{n}_bot", owner=ann, most=3)
    before = await dump(store)
    with pytest.raises(AccountError) as caught:
        await store.bots.create("ann3_bot", owner=ann, most=3)
    assert caught.value.code == "too_many_bots"
    assert await dump(store) == before
    await store.bots.create("bob0_bot", owner=bob, most=3)  # the limit is per owner
    bot = await store.users.get("ann0_bot")
    with pytest.raises(AccountError) as caught:
        await store.bots.create("sub_bot", owner=bot)
    assert caught.value.code == "bots_own_no_bots"
    for call in (store.bots.revoke, store.bots.new_token):
        with pytest.raises(AccountError) as caught:
            await call("ann0_bot", owner=bob)
        assert caught.value.code == "unknown_bot"
    with pytest.raises(AccountError) as caught:
        await store.bots.revoke("ann", owner=None)  # a person is no bot account
    assert caught.value.code == "unknown_bot"
    assert await store.bots.revoke("ann0_bot", owner=ann) != []
    assert await store.bots.revoke("ann0_bot") == []  # the operator's reach; nothing left


async def test_no_person_takes_a_name_that_reads_as_a_bots(store: Store) -> None:
    for name in ("Ada_bot1", "deep_bot10", "x-BOT"):
        with pytest.raises(AccountError) as caught:
            await store.users.create(name, "correct horse")
        assert caught.value.code == "bad_username", name
    assert (await store.users.create("abbot", "correct horse")).username == "abbot"
