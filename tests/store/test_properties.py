"""Property tests: random postings, good and bad, against a model of the ledger.

Whatever is posted, the balances are what the model says (only accepted
postings moved chips, each once), every refusal carries the code the model
expects, and ``ledger check`` passes (also run by the fixture after the test).
"""

from __future__ import annotations

import uuid
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokerhouse.store import HOUSE, ISSUER, RAKE, Account, LedgerError, Store

N_USERS = 3

amounts = st.one_of(
    st.integers(-3_000, 3_000),
    st.sampled_from([0, 1.5, True, -(2**60)]),
)
posting = st.tuples(
    st.integers(0, 5),  # key, from a small pool so keys repeat
    st.sampled_from(["grant", "top-up", "rake"]),
    st.dictionaries(st.integers(0, N_USERS + 2), amounts, min_size=1, max_size=4),
    st.booleans(),  # balance the entries with the issuer
)


def _account(index: int) -> Account:
    if index < N_USERS:
        return Account.wallet(index + 1)
    return [HOUSE, RAKE, ISSUER][index - N_USERS]


def _expected(
    balances: dict[Account, int],
    used: dict[str, Any],
    key: str,
    kind: str,
    entries: dict[Account, Any],
) -> str | None:
    """The code the ledger must refuse with, or None if the posting goes through."""
    values = list(entries.values())
    if len(entries) < 2:
        return "too_few_entries"
    for value in values:
        if type(value) is not int:
            return "bad_amount"
        if value == 0:
            return "zero_amount"
        if abs(value) > 2**53:
            return "amount_too_large"
    if sum(values) != 0:
        return "unbalanced"
    fingerprint = (kind, sorted((a.key, v) for a, v in entries.items()))
    if key in used:
        return None if used[key] == fingerprint else "idempotency_conflict"
    for account, value in entries.items():
        if account != ISSUER and balances[account] + value < 0:
            return "insufficient_funds"
    return None


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(postings=st.lists(posting, max_size=12))
async def test_random_postings_keep_the_books(
    store: Store, postings: list[tuple[int, str, dict[int, Any], bool]]
) -> None:
    if not (await store.database.read(_count_users)):
        for n in range(N_USERS):
            await store.users.create(f"user{n}", None, bot=True, grant=1_000)
    accounts = [_account(i) for i in range(N_USERS + 3)]
    balances = {account: await store.ledger.balance(account) for account in accounts}
    prefix = uuid.uuid4().hex[:8]
    used: dict[str, Any] = {}
    for key_index, kind, raw, balance_with_issuer in postings:
        key = f"{prefix}:{key_index}"
        entries = {_account(i): v for i, v in raw.items()}
        if balance_with_issuer and all(type(v) is int for v in entries.values()):
            rest = -sum(entries.values())
            if rest:
                entries[ISSUER] = entries.get(ISSUER, 0) + rest
                if entries[ISSUER] == 0:
                    del entries[ISSUER]
        expected = _expected(balances, used, key, kind, entries)
        try:
            await store.ledger.post(key, kind, entries)
        except LedgerError as error:
            assert error.code == expected, (entries, str(error))
        else:
            assert expected is None, (entries, expected)
            if key not in used:
                used[key] = (kind, sorted((a.key, v) for a, v in entries.items()))
                for account, value in entries.items():
                    balances[account] += value
    for account in accounts:
        assert await store.ledger.balance(account) == balances[account], account
    report = await store.check()
    assert report.ok, report.summary()


def _count_users(ctx: Any) -> Any:
    from pokerhouse.store.sql import Stmt, one

    row = yield one(Stmt("SELECT COUNT(*) FROM users"))
    return row[0]
