"""``ledger check``: every invariant of the books, checked by the database itself.

All checks run in one read snapshot, so a room that keeps playing while the
check runs is seen at one instant. Each check is one query that returns the
first offending row (or nothing); the report names the first violation.

The invariants (docs/store.md, "Invariants"):

1. every transaction's entries sum to zero, and it has two entries or more
   (a settlement of a hand in which no chip moved has none);
2. all entries together sum to zero;
3. every balance equals the sum of its account's entries, and each entry's
   balance-after follows from the one before it;
4. no account but the issuer is, or ever was, below zero;
5. an in-play account holds exactly the stacks of its player's seats at that
   table;
6. every finished hand has exactly one settlement (key ``hand:<table>:<number>``),
   no other hand has one, and its entries equal the hand's results plus the
   rake and the house's result.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pokerhouse.store.sql import Context, Stmt, Unit, one

# A subquery, so that EXCEPT applies to the whole union (compound operators
# have equal precedence and group from the left).
_EXPECTED_SETTLEMENTS = (
    "SELECT tx, account, amount FROM ("
    "SELECT h.settlement_id AS tx, COALESCE(a.id, -1) AS account, SUM(p.result) AS amount "
    "FROM hands h JOIN hand_players p ON p.hand_id = h.id "
    "LEFT JOIN ledger_accounts a ON a.kind = 'in-play' AND a.table_id = h.table_id "
    "AND a.user_id = p.user_id WHERE h.status = 'finished' "
    "GROUP BY h.settlement_id, COALESCE(a.id, -1) HAVING SUM(p.result) <> 0 "
    "UNION ALL SELECT h.settlement_id, (SELECT id FROM ledger_accounts WHERE key = 'rake'), "
    "h.rake FROM hands h WHERE h.status = 'finished' AND h.rake <> 0 "
    "UNION ALL SELECT h.settlement_id, (SELECT id FROM ledger_accounts WHERE key = 'house'), "
    "h.house_result FROM hands h WHERE h.status = 'finished' AND h.house_result <> 0"
    ") expected"
)
_ACTUAL_SETTLEMENTS = (
    "SELECT e.transaction_id, e.account_id, e.amount FROM ledger_entries e "
    "JOIN ledger_transactions t ON t.id = e.transaction_id WHERE t.kind = 'settlement'"
)

Describe = Callable[[Sequence[Any]], str]

#: (what is checked, the query for a first violation, how to name it)
CHECKS: tuple[tuple[str, Stmt, Describe], ...] = (
    (
        "transactions balance",
        Stmt(
            "SELECT t.id, t.key, COUNT(e.id), COALESCE(SUM(e.amount), 0) "
            "FROM ledger_transactions t LEFT JOIN ledger_entries e ON e.transaction_id = t.id "
            "GROUP BY t.id, t.key, t.kind HAVING COALESCE(SUM(e.amount), 0) <> 0 "
            "OR COUNT(e.id) = 1 OR (COUNT(e.id) = 0 AND t.kind <> 'settlement') "
            "ORDER BY t.id LIMIT 1"
        ),
        lambda r: f"transaction {r[0]} ({r[1]}) has {r[2]} entries summing to {r[3]}",
    ),
    (
        "entries sum to zero",
        Stmt("SELECT SUM(amount) FROM ledger_entries HAVING SUM(amount) <> 0"),
        lambda r: f"all entries together sum to {r[0]}, not zero",
    ),
    (
        "balances equal entries",
        Stmt(
            "SELECT a.key, a.balance, COALESCE(s.total, 0) FROM ledger_accounts a "
            "LEFT JOIN (SELECT account_id, SUM(amount) AS total FROM ledger_entries "
            "GROUP BY account_id) s ON s.account_id = a.id "
            "WHERE a.balance <> COALESCE(s.total, 0) ORDER BY a.id LIMIT 1"
        ),
        lambda r: f"account {r[0]} has balance {r[1]} but its entries sum to {r[2]}",
    ),
    (
        "balance chain",
        Stmt(
            "SELECT a.key, c.id, c.amount, c.balance_after, c.prev FROM (SELECT id, account_id, "
            "amount, balance_after, LAG(balance_after, 1, 0) OVER "
            "(PARTITION BY account_id ORDER BY id) AS prev FROM ledger_entries) c "
            "JOIN ledger_accounts a ON a.id = c.account_id "
            "WHERE c.balance_after <> c.prev + c.amount ORDER BY c.id LIMIT 1"
        ),
        lambda r: f"entry {r[1]} of {r[0]}: {r[4]} + {r[2]} is not its balance after, {r[3]}",
    ),
    (
        "nothing below zero",
        Stmt(
            "SELECT a.key, e.id, e.balance_after FROM ledger_entries e "
            "JOIN ledger_accounts a ON a.id = e.account_id "
            "WHERE e.balance_after < 0 AND a.kind <> 'issuer' ORDER BY e.id LIMIT 1"
        ),
        lambda r: f"account {r[0]} went below zero ({r[2]}) at entry {r[1]}",
    ),
    (
        "balances not negative",
        Stmt(
            "SELECT key, balance FROM ledger_accounts WHERE balance < 0 AND kind <> 'issuer' "
            "ORDER BY id LIMIT 1"
        ),
        lambda r: f"account {r[0]} is below zero ({r[1]})",
    ),
    (
        "in-play accounts hold the seats",
        Stmt(
            "SELECT a.key, a.balance, COALESCE(s.total, 0) FROM ledger_accounts a "
            "LEFT JOIN (SELECT table_id, user_id, SUM(stack) AS total FROM table_seats "
            "GROUP BY table_id, user_id) s ON s.table_id = a.table_id AND s.user_id = a.user_id "
            "WHERE a.kind = 'in-play' AND a.balance <> COALESCE(s.total, 0) ORDER BY a.id LIMIT 1"
        ),
        lambda r: f"in-play account {r[0]} holds {r[1]} chips but its seats hold {r[2]}",
    ),
    (
        "seats have in-play accounts",
        Stmt(
            "SELECT s.table_id, s.user_id, SUM(s.stack) FROM table_seats s "
            "LEFT JOIN ledger_accounts a ON a.kind = 'in-play' AND a.table_id = s.table_id "
            "AND a.user_id = s.user_id WHERE a.id IS NULL GROUP BY s.table_id, s.user_id "
            "HAVING SUM(s.stack) <> 0 LIMIT 1"
        ),
        lambda r: f"user {r[1]}'s seats at table {r[0]} hold {r[2]} chips but no account does",
    ),
    (
        "finished hands are settled",
        Stmt(
            "SELECT h.id, h.table_id, h.number FROM hands h "
            "LEFT JOIN ledger_transactions t ON t.id = h.settlement_id "
            "WHERE h.status = 'finished' AND (t.id IS NULL OR t.kind <> 'settlement' "
            "OR t.key <> 'hand:' || h.table_id || ':' || h.number) ORDER BY h.id LIMIT 1"
        ),
        lambda r: f"finished hand {r[0]} (table {r[1]}, number {r[2]}) has no settlement",
    ),
    (
        "only finished hands are settled",
        Stmt(
            "SELECT t.id, t.key FROM ledger_transactions t "
            "LEFT JOIN hands h ON h.settlement_id = t.id AND h.status = 'finished' "
            "WHERE (t.kind = 'settlement' AND h.id IS NULL) "
            "OR (t.kind <> 'settlement' AND t.key LIKE 'hand:%') ORDER BY t.id LIMIT 1"
        ),
        lambda r: f"settlement {r[0]} ({r[1]}) belongs to no finished hand",
    ),
    (
        "one settlement per hand",
        Stmt(
            "SELECT settlement_id, COUNT(*) FROM hands WHERE settlement_id IS NOT NULL "
            "GROUP BY settlement_id HAVING COUNT(*) > 1 LIMIT 1"
        ),
        lambda r: f"transaction {r[0]} settles {r[1]} hands",
    ),
    (
        "results are recorded",
        Stmt(
            "SELECT h.id FROM hands h JOIN hand_players p ON p.hand_id = h.id "
            "WHERE h.status = 'finished' AND p.result IS NULL ORDER BY h.id LIMIT 1"
        ),
        lambda r: f"finished hand {r[0]} lacks a seat's result",
    ),
    (
        "settlements equal results",
        Stmt(
            f"SELECT * FROM ({_EXPECTED_SETTLEMENTS} EXCEPT {_ACTUAL_SETTLEMENTS}) missing "
            f"UNION ALL SELECT * FROM ({_ACTUAL_SETTLEMENTS} EXCEPT {_EXPECTED_SETTLEMENTS}) "
            "extra LIMIT 1",
        ),
        lambda r: (
            f"settlement {r[0]} does not match its hand's results "
            f"(account id {r[1]}, amount {r[2]})"
        ),
    ),
)

COUNTS = Stmt(
    "SELECT (SELECT COUNT(*) FROM ledger_transactions), (SELECT COUNT(*) FROM ledger_entries), "
    "(SELECT COUNT(*) FROM ledger_accounts), (SELECT COUNT(*) FROM hands)"
)


@dataclass(frozen=True, slots=True)
class CheckReport:
    """What ``ledger check`` found: ``ok``, or the first violation in words."""

    ok: bool
    violation: str | None
    failed_check: str | None
    transactions: int
    entries: int
    accounts: int
    hands: int
    seconds: float

    def summary(self) -> str:
        """One line for the command line."""
        counts = (
            f"{self.transactions} transactions, {self.entries} entries, {self.accounts} accounts, "
            f"{self.hands} hands"
        )
        if self.ok:
            return f"ledger ok: {counts}, {len(CHECKS)} checks in {self.seconds:.2f} s"
        return f"ledger check failed ({self.failed_check}): {self.violation} [{counts}]"


def check_unit(ctx: Context) -> Unit[CheckReport]:
    """Run every check; stop at the first violation."""
    start = time.perf_counter()
    counts = yield one(COUNTS)
    found: tuple[str, str] | None = None
    for name, stmt, describe in CHECKS:
        row = yield one(stmt)
        if row is not None:
            found = (name, describe(row))
            break
    return CheckReport(
        ok=found is None,
        violation=None if found is None else found[1],
        failed_check=None if found is None else found[0],
        transactions=int(counts[0]),
        entries=int(counts[1]),
        accounts=int(counts[2]),
        hands=int(counts[3]),
        seconds=time.perf_counter() - start,
    )
