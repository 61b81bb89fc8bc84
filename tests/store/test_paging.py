"""Keyset pages of a statement and of a player's hands: each line once, in order, balances right."""

from __future__ import annotations

import pytest

from pokerhouse.store import Account, AccountError, Store, User
from tests.store.conftest import dump, make_users
from tests.store.test_hands import seated_table, settle


async def _moves(store: Store, ann: User, bob: User, count: int) -> None:
    """``count`` transfers between ann and bob, alternating in direction and size."""
    for n in range(count):
        amount = n + 1 if n % 3 else -(n + 1)
        await store.ledger.post(
            f"move{n}",
            "grant",
            {Account.wallet(ann.id): -amount, Account.wallet(bob.id): amount},
        )


async def test_statement_pages_cover_every_line_once_in_order(store: Store) -> None:
    ann, bob = await make_users(store, 2, grant=10_000)
    await _moves(store, ann, bob, 23)
    whole = await store.ledger.statement(ann, limit=1000)
    assert len(whole.lines) == 24 and whole.older is None  # the grant and 23 moves
    pages, before = [], None
    while True:
        page = await store.ledger.statement(ann, limit=5, before=before)
        assert len(page.lines) <= 5 and page.wallet == whole.wallet
        pages.append(page.lines)
        before = page.older
        if before is None:
            break
        assert before == page.lines[0].entry_id
    assert [len(lines) for lines in pages] == [5, 5, 5, 5, 4]
    # Newest page first; each page oldest first, as the statement always was.
    stitched = [line for lines in reversed(pages) for line in lines]
    assert stitched == list(whole.lines)
    ids = [line.entry_id for line in stitched]
    assert ids == sorted(set(ids))
    # Each page's running balances follow on from the page before (stored per entry).
    balance = 0
    for line in stitched:
        balance += line.amount
        assert line.balance == balance
    assert balance == whole.wallet


async def test_a_page_of_exactly_the_rest_says_there_is_nothing_older(store: Store) -> None:
    ann, bob = await make_users(store, 2, grant=1_000)
    await _moves(store, ann, bob, 3)  # four lines
    first = await store.ledger.statement(ann, limit=2)
    assert first.older is not None
    last = await store.ledger.statement(ann, limit=2, before=first.older)
    assert len(last.lines) == 2 and last.older is None
    assert last.lines[0].key.startswith("grant:")
    # Before the very first entry: an empty page, not an error.
    empty = await store.ledger.statement(ann, limit=2, before=last.lines[0].entry_id)
    assert empty.lines == () and empty.older is None


async def test_another_wallet_s_entries_never_show_on_a_page(store: Store) -> None:
    ann, bob = await make_users(store, 2, grant=1_000)
    await _moves(store, ann, bob, 6)
    page = await store.ledger.statement(bob, limit=3)
    assert page.older is not None
    older = await store.ledger.statement(bob, limit=100, before=page.older)
    shown = {line.entry_id for line in page.lines + older.lines}
    assert len(shown) == 7  # bob's grant and six moves, none of ann's entries
    assert all(line.entry_id < page.older for line in older.lines)


@pytest.mark.parametrize("before", [0, -1, 2**63, True, 1.5, "3", [1]])
async def test_a_bad_before_is_refused_and_writes_nothing(store: Store, before: object) -> None:
    (ann,) = await make_users(store, 1)
    snapshot = await dump(store)
    with pytest.raises(AccountError) as statement:
        await store.ledger.statement(ann, before=before)  # type: ignore[arg-type]
    assert statement.value.code == "bad_before"
    with pytest.raises(AccountError) as hands:
        await store.hands.played_by(ann, before=before)  # type: ignore[arg-type]
    assert hands.value.code == "bad_before"
    assert await dump(store) == snapshot


async def test_the_largest_before_is_a_cursor_past_everything(store: Store) -> None:
    (ann,) = await make_users(store, 1)
    page = await store.ledger.statement(ann, before=2**63 - 1)
    assert [line.key for line in page.lines] == [f"grant:user:{ann.id}"]
    assert await store.hands.played_by(ann, before=2**63 - 1) == []


async def test_hand_pages_cover_every_hand_once_newest_first(store: Store) -> None:
    table = await seated_table(store, 2)
    other = await seated_table(store, 2, name="U")
    user = (await store.tables.seats(table))[0].user_id
    for number in range(1, 12):
        await settle(store, table, number, [number, -number])
        await settle(store, other, number, [1, -1])  # hands the player was not in
    whole = await store.hands.played_by(user, limit=100)
    assert len(whole) == 11
    pages, before = [], None
    while True:
        page = await store.hands.played_by(user, limit=4, before=before)
        if not page:
            break
        pages.append(page)
        before = page[-1].id
    assert [len(page) for page in pages] == [4, 4, 3]
    stitched = [hand for page in pages for hand in page]
    assert stitched == whole
    assert [hand.number for hand in stitched] == list(range(11, 0, -1))
    assert [hand.result for hand in stitched] == list(range(11, 0, -1))
