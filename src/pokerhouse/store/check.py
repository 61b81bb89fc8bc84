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
   rake and the house's result;
7. a tournament's entries paid, got back and won what the ledger moved for
   them; its pool holds nothing once it has ended, and its overlay is what
   the room put in;
8. a tournament's chips account is minus the chips at its tables, and zero
   once it has ended;
9. a running tournament's chips in play (at its tables, and those of its
   players between tables) are its entries times the starting stack, and
   its entries are the stored ones not refunded in full.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pokerhouse.store.sql import Context, Stmt, Unit, all_rows, one
from pokerhouse.tournament.spec import TournamentSpec
from pokerhouse.tournament.state import load as load_state

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
            "WHERE e.balance_after < 0 AND a.kind NOT IN ('issuer', 'chips') ORDER BY e.id LIMIT 1"
        ),
        lambda r: f"account {r[0]} went below zero ({r[2]}) at entry {r[1]}",
    ),
    (
        "balances not negative",
        Stmt(
            "SELECT key, balance FROM ledger_accounts WHERE balance < 0 "
            "AND kind NOT IN ('issuer', 'chips') "
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

# What the ledger moved to or from an entry's wallet under its keys (``e``: the entry's row).
_MOVED = (
    "COALESCE((SELECT SUM(le.amount) FROM ledger_transactions t "
    "JOIN ledger_entries le ON le.transaction_id = t.id "
    "JOIN ledger_accounts w ON w.id = le.account_id AND w.key = 'wallet:' || e.user_id "
    "WHERE t.key IN ({keys})), 0)"
)


def _entry_key(what: str) -> str:
    return f"'tournament:' || e.tournament_id || ':{what}:' || e.number"


CHECKS += (
    (
        "tournament entries are in the ledger",
        Stmt(
            "SELECT * FROM (SELECT e.tournament_id, e.number, e.paid, e.refunded, e.prize, "
            f"{_MOVED.format(keys=_entry_key('entry'))} AS paid_in, "
            f"{_MOVED.format(keys=_entry_key('refund'))} AS paid_back, "
            f"{_MOVED.format(keys=_entry_key('prize') + ', ' + _entry_key('share'))} AS won "
            "FROM tournament_entries e) m WHERE paid <> -paid_in OR refunded <> paid_back "
            "OR prize <> won ORDER BY tournament_id, number LIMIT 1"
        ),
        lambda r: (
            f"entry {r[1]} of tournament {r[0]} paid {r[2]}, got back {r[3]} and won {r[4]}, "
            f"but the ledger moved {-r[5]}, {r[6]} and {r[7]}"
        ),
    ),
    (
        "tournament pools",
        Stmt(
            "SELECT * FROM (SELECT t.id, t.status, a.balance, t.overlay, COALESCE(("
            "SELECT SUM(le.amount) FROM ledger_entries le JOIN ledger_transactions x "
            "ON x.id = le.transaction_id WHERE le.account_id = a.id AND x.kind = 'overlay'), 0) "
            "AS added FROM tournaments t JOIN ledger_accounts a ON a.key = 'pool:' || t.id) p "
            "WHERE (status IN ('finished', 'cancelled') AND balance <> 0) OR overlay <> added "
            "ORDER BY id LIMIT 1"
        ),
        lambda r: (
            f"tournament {r[0]} has ended ({r[1]}) with {r[2]} chips in its pool"
            if r[2] and r[1] in ("finished", "cancelled")
            else f"tournament {r[0]} says the room added {r[3]} chips, the ledger {r[4]}"
        ),
    ),
)

CHECKS += (
    (
        "tournament chips",
        Stmt(
            "SELECT * FROM (SELECT t.id, t.status, c.balance, COALESCE((SELECT SUM(a.balance) "
            "FROM ledger_accounts a JOIN room_tables r ON r.id = a.table_id "
            "WHERE a.kind = 'in-play' AND r.tournament_id = t.id), 0) AS seated "
            "FROM tournaments t JOIN ledger_accounts c ON c.key = 'chips:' || t.id) x "
            "WHERE balance + seated <> 0 OR (status IN ('finished', 'cancelled') AND seated <> 0) "
            "ORDER BY id LIMIT 1"
        ),
        lambda r: (
            f"tournament {r[0]} ({r[1]}) issued {-r[2]} chips to its tables, which hold {r[3]}"
        ),
    ),
)

#: Running tournaments: their state (JSON), starting stack (in the spec) and stored entries.
RUNNING_TOURNAMENTS = Stmt(
    "SELECT t.id, t.state, t.spec FROM tournaments t WHERE t.status IN ('registering', 'running') "
    "ORDER BY t.id"
)
_LIVE = "SELECT id FROM tournaments WHERE status IN ('registering', 'running')"
SEATED = Stmt(
    "SELECT r.tournament_id, s.user_id, s.stack FROM table_seats s "
    f"JOIN room_tables r ON r.id = s.table_id WHERE r.tournament_id IN ({_LIVE})"
)
ENTRY_ROWS = Stmt(
    "SELECT tournament_id, number, paid, refunded FROM tournament_entries e "
    "WHERE tournament_id IN (SELECT id FROM tournaments "
    "WHERE status IN ('registering', 'running')) "
    "ORDER BY tournament_id, number"
)


def _tournament_chips(
    states: Sequence[Sequence[Any]],
    rows: Sequence[Sequence[Any]],
    seated: Sequence[Sequence[Any]],
) -> tuple[str, str] | None:
    """Invariant 9 over each live tournament's stored state, entry rows and seats."""
    stored: dict[int, dict[int, tuple[int, int]]] = {}
    for tournament, number, paid, refunded in rows:
        stored.setdefault(tournament, {})[number] = (paid, refunded)
    at_tables: dict[int, dict[int, int]] = {}
    for tournament, user, stack in seated:
        by_user = at_tables.setdefault(tournament, {})
        by_user[user] = by_user.get(user, 0) + stack
    for tournament, state_json, spec_json in states:
        state = load_state(state_json)
        stack = TournamentSpec.from_dict(json.loads(spec_json)).structure.stack
        # A player seated at one of its tables counts with the chips there (the tables
        # settle a hand before the director hears of it); one between tables, with the
        # chips the director holds for them.
        by_user = at_tables.get(tournament, {})
        chips = sum(by_user.values()) + sum(
            entry.stack
            for entry in state.entries
            if not entry.busted and entry.account not in by_user
        )
        if chips != len(state.entries) * stack:
            return (
                "tournament chips in play",
                f"tournament {tournament} has {chips} chips in play, not {len(state.entries)} "
                f"entries times {stack}",
            )
        rows_of = stored.get(tournament, {})
        numbers = {entry.number for entry in state.entries}
        gone = {n for n, (paid, refunded) in rows_of.items() if paid and refunded == paid}
        if numbers != set(rows_of) - gone:
            return (
                "tournament entries",
                f"tournament {tournament} plays entries {sorted(numbers)}, but its stored "
                f"entries not refunded are {sorted(set(rows_of) - gone)}",
            )
    return None


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
            return f"ledger ok: {counts}, {len(CHECKS) + 2} checks in {self.seconds:.2f} s"
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
    if found is None:
        states = yield all_rows(RUNNING_TOURNAMENTS)
        if states:
            rows = yield all_rows(ENTRY_ROWS)
            found = _tournament_chips(states, rows, (yield all_rows(SEATED)))
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
