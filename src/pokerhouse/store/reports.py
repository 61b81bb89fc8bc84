"""Read units: balances, statements, hand records and the logs to resume.

Only :func:`hand_log_unit` and :func:`unfinished_unit` read ``hand_decks``;
everything a later API may show (records, summaries, statements) is built
from queries that never select the deck order or its seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pokerhouse.store.accounts import Account, Statement, StatementLine, TransactionKind
from pokerhouse.store.errors import HandLogError, LedgerError
from pokerhouse.store.handlog import (
    HandLog,
    HandSeat,
    HandSummary,
    LoggedAction,
    StoredHand,
    summary_of,
)
from pokerhouse.store.hands import decode
from pokerhouse.store.sql import Context, Stmt, Unit, all_rows, one

BALANCE = Stmt("SELECT balance FROM ledger_accounts WHERE key = :key")
HAND = Stmt(
    "SELECT id, table_id, number, game, spec, setup, start_seq, status, started_at, "
    "finished_at, rake, house_result, history, void_reason, settlement_id FROM hands "
    "WHERE id = :id"
)
PLAYERS = Stmt(
    "SELECT table_seat, user_id, stack, result FROM hand_players "
    "WHERE hand_id = :id ORDER BY hand_seat"
)
ACTIONS = Stmt(
    "SELECT seq, seat, kind, amount, user_id, client_id FROM hand_actions "
    "WHERE hand_id = :id ORDER BY seq"
)
APPLIED = Stmt(
    "SELECT a.seq FROM hand_actions a JOIN hands h ON h.id = a.hand_id "
    "WHERE h.table_id = :table AND h.number = :number AND a.user_id = :user "
    "AND a.client_id = :client"
)
DECK = Stmt("SELECT deck_order, deck_seed FROM hand_decks WHERE hand_id = :id")
UNFINISHED = Stmt("SELECT id FROM hands WHERE status = 'running' ORDER BY id")
UNFINISHED_AT = Stmt(
    "SELECT id FROM hands WHERE status = 'running' AND table_id = :table ORDER BY id"
)
_USER_HANDS = (
    "SELECT h.id, h.table_id, h.number, h.game, h.status, h.started_at, h.finished_at, "
    "SUM(p.result) FROM hand_players p JOIN hands h ON h.id = p.hand_id "
    "WHERE p.user_id = :user {before}GROUP BY h.id, h.table_id, h.number, h.game, h.status, "
    "h.started_at, h.finished_at ORDER BY h.id DESC LIMIT :limit"
)
# Two statements, not one with ":before IS NULL OR ...": PostgreSQL cannot type a bare
# NULL parameter, and the plain form keeps each plan simple. Hand ids are unique and
# only grow, so "older than the oldest shown" is exactly "id below it" (keyset paging).
USER_HANDS = Stmt(_USER_HANDS.format(before=""))
USER_HANDS_BEFORE = Stmt(_USER_HANDS.format(before="AND h.id < :before "))
HANDS_PLAYED = Stmt(
    "SELECT table_id, COUNT(*) FROM hands WHERE status = 'finished' GROUP BY table_id"
)
LAST_NUMBER = Stmt("SELECT MAX(number) FROM hands WHERE table_id = :table")
_STATEMENT = (
    "SELECT t.id, t.key, t.kind, t.memo, t.created_at, e.amount, e.balance_after, e.id "
    "FROM ledger_entries e JOIN ledger_transactions t ON t.id = e.transaction_id "
    "JOIN ledger_accounts a ON a.id = e.account_id "
    "WHERE a.key = :key {before}ORDER BY e.id DESC LIMIT :limit"
)
# Paged by entry id, the statement's order (index ix_ledger_entries_account covers it):
# transaction ids need not follow the entries' order when writers overlap.
STATEMENT = Stmt(_STATEMENT.format(before=""))
STATEMENT_BEFORE = Stmt(_STATEMENT.format(before="AND e.id < :before "))
# Room chips only: a tournament's table holds the tournament's own chips.
IN_PLAY = Stmt(
    "SELECT a.table_id, a.balance FROM ledger_accounts a "
    "JOIN room_tables t ON t.id = a.table_id AND t.tournament_id IS NULL "
    "WHERE a.kind = 'in-play' AND a.user_id = :user AND a.balance <> 0 ORDER BY a.table_id"
)


def balance_unit(ctx: Context, account: Account) -> Unit[int]:
    """An account's balance (a column kept with the entries: no sum to compute)."""
    row = yield one(BALANCE, key=account.key)
    if row is None:
        if account.kind.value == "in-play":
            return 0  # never bought in there
        raise LedgerError("unknown_account", f"there is no account {account}")
    return int(row[0])


def _actions(rows: Sequence[Sequence[Any]]) -> tuple[LoggedAction, ...]:
    return tuple(LoggedAction(int(r[0]), int(r[1]), r[2], r[3], r[4], r[5]) for r in rows)


def applied_unit(
    ctx: Context, table_id: int, number: int, user_id: int, client_id: str
) -> Unit[bool]:
    """Whether hand ``number`` at the table logged an action of ``user_id`` under ``client_id``."""
    row = yield one(APPLIED, table=table_id, number=number, user=user_id, client=client_id)
    return row is not None


def hand_record_unit(ctx: Context, hand_id: int) -> Unit[StoredHand]:
    """A hand as the room may show it (no deck)."""
    row = yield one(HAND, id=hand_id)
    if row is None:
        raise HandLogError("unknown_hand", f"there is no hand {hand_id!r}")
    players = yield all_rows(PLAYERS, id=hand_id)
    actions = yield all_rows(ACTIONS, id=hand_id)
    finished = row[7] == "finished"
    return StoredHand(
        id=int(row[0]),
        table_id=int(row[1]),
        number=int(row[2]),
        game=row[3],
        spec=decode(row[4]),
        setup=decode(row[5]),
        seats=tuple(HandSeat(int(p[0]), int(p[1]), int(p[2])) for p in players),
        results=tuple(int(p[3]) for p in players) if finished else None,
        start_seq=int(row[6]),
        status=row[7],
        started_at=float(row[8]),
        finished_at=row[9],
        rake=row[10],
        house_result=row[11],
        history=row[12],
        void_reason=row[13],
        settlement_id=row[14],
        actions=_actions(actions),
    )


def hand_log_unit(ctx: Context, hand_id: int) -> Unit[HandLog]:
    """A hand's full log, deck included (server-side only)."""
    record = yield from hand_record_unit(ctx, hand_id)
    deck = yield one(DECK, id=hand_id)
    return HandLog(
        id=record.id,
        table_id=record.table_id,
        number=record.number,
        game=record.game,
        spec=record.spec,
        setup=record.setup,
        seats=record.seats,
        deck_order=tuple(deck[0].split()),
        deck_seed=int(deck[1]),
        start_seq=record.start_seq,
        status=record.status,
        actions=record.actions,
    )


def unfinished_unit(ctx: Context, table_id: int | None) -> Unit[list[HandLog]]:
    """The log of every running hand (of one table, or all)."""
    if table_id is None:
        rows = yield all_rows(UNFINISHED)
    else:
        rows = yield all_rows(UNFINISHED_AT, table=table_id)
    logs = []
    for row in rows:
        logs.append((yield from hand_log_unit(ctx, int(row[0]))))
    return logs


def user_hands_unit(
    ctx: Context, user_id: int, limit: int, before: int | None = None
) -> Unit[list[HandSummary]]:
    """A player's hands, newest first, with what they won or lost in each.

    With ``before``, only hands whose id is below it: the page after one whose
    oldest hand was ``before``.
    """
    if before is None:
        rows = yield all_rows(USER_HANDS, user=user_id, limit=limit)
    else:
        rows = yield all_rows(USER_HANDS_BEFORE, user=user_id, limit=limit, before=before)
    return [summary_of(row) for row in rows]


def hands_played_unit(ctx: Context) -> Unit[dict[int, int]]:
    """Finished hands per table id."""
    return {int(r[0]): int(r[1]) for r in (yield all_rows(HANDS_PLAYED))}


def last_number_unit(ctx: Context, table_id: int) -> Unit[int]:
    """The highest hand number a table has used (finished, voided or running); 0 if none."""
    row = yield one(LAST_NUMBER, table=table_id)
    return int(row[0]) if row is not None and row[0] is not None else 0


def statement_unit(
    ctx: Context, user_id: int, username: str, limit: int, before: int | None = None
) -> Unit[Statement]:
    """The wallet's last ``limit`` entries (oldest first) with running balances.

    With ``before`` (an entry id), the last ``limit`` entries older than it.
    ``older`` in the result is the cursor for the page before this one, if any.
    """
    wallet = Account.wallet(user_id)
    # One row past the page tells whether an older page exists, without a COUNT.
    if before is None:
        rows = yield all_rows(STATEMENT, key=wallet.key, limit=limit + 1)
    else:
        rows = yield all_rows(STATEMENT_BEFORE, key=wallet.key, limit=limit + 1, before=before)
    page = rows[:limit]
    lines = tuple(
        StatementLine(
            int(r[0]),
            r[1],
            TransactionKind(r[2]),
            r[3],
            float(r[4]),
            int(r[5]),
            int(r[6]),  # balance_after: stored per entry, so right on any page
            int(r[7]),
        )
        for r in reversed(page)
    )
    older = lines[0].entry_id if len(rows) > limit else None
    balance = yield from balance_unit(ctx, wallet)
    in_play = {int(r[0]): int(r[1]) for r in (yield all_rows(IN_PLAY, user=user_id))}
    return Statement(user_id, username, lines, balance, in_play, older)
