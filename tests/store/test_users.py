"""Users, passwords and sessions."""

from __future__ import annotations

import hashlib

import pytest
from argon2 import PasswordHasher

from pokerhouse.store import Account, AccountError, Store
from tests.store.conftest import FAST_HASHER, Clock, dump


async def test_create_and_authenticate(store: Store) -> None:
    ann = await store.users.create("Ann_1", "correct horse")
    assert ann.username == "Ann_1" and not ann.is_bot
    assert await store.ledger.balance(Account.wallet(ann.id)) == 10_000
    assert await store.users.authenticate("ann_1", "correct horse") == ann
    assert await store.users.get("ANN_1") == ann
    assert await store.users.get(ann.id) == ann


async def test_unknown_user_and_wrong_password_fail_alike(store: Store) -> None:
    await store.users.create("ann", "correct horse")
    errors = []
    for name, password in [("ann", "wrong horse"), ("nobody", "correct horse"), ("x", "pw")]:
        with pytest.raises(AccountError) as caught:
            await store.users.authenticate(name, password)
        errors.append((caught.value.code, str(caught.value)))
    assert len(set(errors)) == 1 and errors[0][0] == "login_failed"


async def test_a_bot_without_a_password_cannot_log_in(store: Store) -> None:
    bot = await store.users.create("robot-7", None, bot=True, grant=0)
    assert bot.is_bot and await store.ledger.balance(Account.wallet(bot.id)) == 0
    with pytest.raises(AccountError, match="unknown user or wrong password"):
        await store.users.authenticate("robot-7", "")


async def test_usernames_are_unique_case_insensitively_after_nfkc(store: Store) -> None:
    await store.users.create("Julie", "password1")
    before = await dump(store)
    for twin in ["julie", "JULIE", "Ｊｕｌｉｅ"]:
        with pytest.raises(AccountError) as caught:
            await store.users.create(twin, "password1")
        assert caught.value.code == "username_taken"
    assert await dump(store) == before


@pytest.mark.parametrize(
    "name",
    ["ab", "a" * 21, "has space", "tab\tname", "semi;colon", "bell\x07", "", "ü" * 21, 42, None],
)
async def test_bad_usernames_are_refused(store: Store, name: object) -> None:
    before = await dump(store)
    with pytest.raises(AccountError) as caught:
        await store.users.create(name, "password1")  # type: ignore[arg-type]
    assert caught.value.code == "bad_username"
    assert await dump(store) == before


async def test_unicode_letters_are_names(store: Store) -> None:
    user = await store.users.create("Zoë-和", "password1")
    assert (await store.users.get("ZOË-和")).id == user.id


@pytest.mark.parametrize("password", ["short", "x" * 1025, None, 12345678])
async def test_bad_passwords_are_refused(store: Store, password: object) -> None:
    with pytest.raises(AccountError) as caught:
        await store.users.create("ann", password)  # type: ignore[arg-type]
    assert caught.value.code == "bad_password"


async def test_bad_grants_are_refused(store: Store) -> None:
    before = await dump(store)
    for grant, code in [(-5, "negative_amount"), (1.5, "bad_amount"), (True, "bad_amount")]:
        with pytest.raises(Exception) as caught:
            await store.users.create("ann", None, bot=True, grant=grant)  # type: ignore[arg-type]
        assert getattr(caught.value, "code", None) == code
    assert await dump(store) == before


async def test_a_hash_with_old_parameters_is_redone_at_login(db_url: str, clock: Clock) -> None:
    old = await Store.open(db_url, clock=clock, password_hasher=FAST_HASHER)
    try:
        await old.users.create("ann", "correct horse")
    finally:
        await old.close()
    stronger = PasswordHasher(time_cost=2, memory_cost=512, parallelism=1)
    new = await Store.open(db_url, clock=clock, password_hasher=stronger)
    try:
        rows = (await dump(new))["users"]
        assert "t=1" in rows[0][3]
        await new.users.authenticate("ann", "correct horse")
        rows = (await dump(new))["users"]
        assert "t=2" in rows[0][3] and "m=512" in rows[0][3]
        await new.users.authenticate("ann", "correct horse")
    finally:
        await new.close()


async def test_sessions_store_only_a_hash_and_expire(store: Store, clock: Clock) -> None:
    ann = await store.users.create("ann", "correct horse")
    token = await store.users.new_session(ann, ttl=60)
    assert len(token) >= 43  # 256 bits, URL-safe base64
    rows = (await dump(store))["sessions"]
    assert rows[0][0] == hashlib.sha256(token.encode()).hexdigest()
    assert token not in repr(rows)
    assert await store.users.session_user(token) == ann
    clock.now += 61
    assert await store.users.session_user(token) is None


async def test_live_sessions_are_those_neither_ended_nor_expired(
    store: Store, clock: Clock
) -> None:
    ann = await store.users.create("ann", "correct horse")
    short, ended, kept = [await store.users.new_session(ann, ttl=ttl) for ttl in (60, 600, 600)]
    await store.users.end_session(ended)
    hashes = [hashlib.sha256(token.encode()).hexdigest() for token in (short, ended, kept)]
    unknown = hashlib.sha256(b"never made").hexdigest()
    assert await store.users.live_sessions([*hashes, unknown, hashes[2]]) == {hashes[0], hashes[2]}
    clock.now += 61
    assert await store.users.live_sessions(hashes) == {hashes[2]}
    assert await store.users.live_sessions([]) == set()


async def test_logout_ends_a_session(store: Store) -> None:
    ann = await store.users.create("ann", "correct horse")
    token = await store.users.new_session(ann.id)
    other = await store.users.new_session(ann)
    assert await store.users.end_session(token) is True
    assert await store.users.end_session(token) is False
    assert await store.users.session_user(token) is None
    assert await store.users.session_user(other) == ann
    assert await store.users.session_user("not-a-token-at-all") is None
    assert await store.users.session_user(None) is None  # type: ignore[arg-type]


async def test_unknown_users(store: Store) -> None:
    for user in ["nobody", 12345]:
        with pytest.raises(AccountError) as caught:
            await store.users.get(user)
        assert caught.value.code == "unknown_user"
    for user_id in [0, 12345]:
        with pytest.raises(AccountError) as caught:
            await store.users.new_session(user_id)
        assert caught.value.code == "unknown_user"
