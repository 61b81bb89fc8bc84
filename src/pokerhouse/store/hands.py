"""Table writes in the database: one unit of work for a whole batch (group commit).

The batch runs in a fixed order: the leases of every table in it are checked
(on PostgreSQL share-locked, so a new lease waits for writes in flight), then
chips come to seats (buy-ins, chips added), hand starts, action appends,
finishes and voids, and last the cash-outs. An append names the hand's
next sequence number, checked and advanced in one statement. The finishes'
settlements lock their accounts together, in id order, and write balances,
entries, seat stacks, results and the "finished" mark in the same
transaction, so a hand's settlement and the cash-outs of those who leave at
its end are one transaction. Any refusal raises and the whole batch is
rolled back.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from pokerhouse.games import get_game
from pokerhouse.store import seats, stats
from pokerhouse.store.accounts import (
    HOUSE,
    RAKE,
    Account,
    AccountKind,
    Transaction,
    TransactionKind,
)
from pokerhouse.store.errors import (
    HandLogError,
    IdempotencyConflict,
    LedgerError,
    StaleLease,
    TableBookError,
)
from pokerhouse.store.handlog import (
    ActionRecord,
    Batch,
    BatchResult,
    HandFinish,
    HandKey,
    HandStart,
    HandVoid,
    SeatIn,
    SeatOut,
    encode,
)
from pokerhouse.store.ledger import (
    LEDGER_CTES_PG,
    Posting,
    account_ids,
    existing,
    ledger_arrays,
    lock_and_check,
    transaction_of,
    trusted_posting,
    write,
)
from pokerhouse.store.sql import Context, Stmt, Unit, all_rows, many, one

LEASES = Stmt(
    "SELECT id, lease_token, game FROM room_tables WHERE id IN (SELECT value FROM json_each(:ids))",
    postgresql="SELECT id, lease_token, game FROM room_tables "
    "WHERE id = ANY(CAST(:ids AS BIGINT[])) ORDER BY id FOR SHARE",
)
TABLE_SEATS = Stmt("SELECT seat, user_id, stack FROM table_seats WHERE table_id = :table")
INSERT_HAND = Stmt(
    "INSERT INTO hands (table_id, number, game, spec, setup, start_seq, status, next_seq, "
    "started_at) VALUES (:table, :number, :game, :spec, :setup, :start_seq, 'running', 0, :now) "
    "ON CONFLICT DO NOTHING RETURNING id"
)
INSERT_PLAYER = Stmt(
    "INSERT INTO hand_players (hand_id, hand_seat, table_seat, user_id, stack) "
    "VALUES (:hand, :hand_seat, :table_seat, :user, :stack)"
)
INSERT_DECK = Stmt(
    "INSERT INTO hand_decks (hand_id, deck_order, deck_seed) VALUES (:hand, :order, :seed)"
)
HAND_STATE = Stmt(
    "SELECT id, status, next_seq FROM hands WHERE table_id = :table AND number = :number"
)
RUNNING_HAND = Stmt("SELECT number FROM hands WHERE table_id = :table AND status = 'running'")
# Check and advance the hand's next sequence number in one statement.
ADVANCE = Stmt(
    "UPDATE hands SET next_seq = :next WHERE table_id = :table AND number = :number "
    "AND status = 'running' AND next_seq = :first RETURNING id"
)
# Every hand of a batch advanced in one statement: [table, number, first, next] rows.
ADVANCE_MANY = Stmt(
    "UPDATE hands SET next_seq = json_extract(v.value, '$[3]') FROM json_each(:rows) AS v "
    "WHERE hands.table_id = json_extract(v.value, '$[0]') "
    "AND hands.number = json_extract(v.value, '$[1]') AND hands.status = 'running' "
    "AND hands.next_seq = json_extract(v.value, '$[2]') "
    "RETURNING hands.id, hands.table_id, hands.number",
    postgresql="UPDATE hands h SET next_seq = v.next FROM unnest(CAST(:tables AS BIGINT[]), "
    "CAST(:numbers AS BIGINT[]), CAST(:firsts AS BIGINT[]), CAST(:nexts AS BIGINT[])) "
    "AS v(table_id, number, first, next) WHERE h.table_id = v.table_id "
    "AND h.number = v.number AND h.status = 'running' AND h.next_seq = v.first "
    "RETURNING h.id, h.table_id, h.number",
)
INSERT_ACTION = Stmt(
    "INSERT INTO hand_actions (hand_id, seq, seat, kind, amount, user_id, client_id) "
    "VALUES (:hand, :seq, :seat, :kind, :amount, :user, :client)"
)
# Every finishing hand of a batch, seat by seat, in one query; columns 10 and 11
# say which hand a row is of, 12 where it is played (for its players' stats).
_FINISHING_COLUMNS = (
    "SELECT h.id, h.status, h.game, h.rake, h.house_result, p.table_seat, p.user_id, "
    "p.result, s.user_id, s.stack, h.table_id, h.number, "
    "CASE WHEN t.tournament_id IS NOT NULL THEN 'tournament' "
    "WHEN t.host_id IS NOT NULL THEN 'private' ELSE 'public' END, t.bots_only FROM hands h "
    "JOIN hand_players p ON p.hand_id = h.id JOIN room_tables t ON t.id = h.table_id "
    "LEFT JOIN table_seats s ON s.table_id = h.table_id AND s.seat = p.table_seat "
)
FINISHING_MANY = Stmt(
    f"{_FINISHING_COLUMNS} WHERE (h.table_id, h.number) IN (SELECT json_extract(value, '$[0]'), "
    "json_extract(value, '$[1]') FROM json_each(:hands)) ORDER BY h.id, p.hand_seat",
    postgresql=f"{_FINISHING_COLUMNS} WHERE (h.table_id, h.number) IN (SELECT * FROM unnest("
    "CAST(:tables AS BIGINT[]), CAST(:numbers AS BIGINT[]))) ORDER BY h.id, p.hand_seat",
)
# The batch's settlement keys reserved in one statement (see ledger.reserve).
RESERVE_SETTLEMENTS = Stmt(
    "INSERT INTO ledger_transactions (key, kind, fingerprint, memo, meta, created_at) "
    "SELECT json_extract(value, '$[0]'), 'settlement', json_extract(value, '$[1]'), "
    "json_extract(value, '$[2]'), json_extract(value, '$[3]'), :now FROM json_each(:rows) "
    "WHERE true ON CONFLICT (key) DO NOTHING RETURNING id, key",
    postgresql="INSERT INTO ledger_transactions (key, kind, fingerprint, memo, meta, created_at) "
    "SELECT k, 'settlement', f, m, x, :now FROM unnest(CAST(:keys AS TEXT[]), "
    "CAST(:fingerprints AS TEXT[]), CAST(:memos AS TEXT[]), CAST(:metas AS TEXT[])) "
    "AS v(k, f, m, x) ON CONFLICT (key) DO NOTHING RETURNING id, key",
)
ADD_TO_SEAT = Stmt(
    "UPDATE table_seats SET stack = stack + :delta "
    "WHERE table_id = :table AND seat = :seat AND user_id = :user"
)
SET_RESULT = Stmt(
    "UPDATE hand_players SET result = :result WHERE hand_id = :hand AND hand_seat = :hand_seat"
)
MARK_FINISHED = Stmt(
    "UPDATE hands SET status = 'finished', finished_at = :now, rake = :rake, "
    "house_result = :house, history = :history, settlement_id = :tx "
    "WHERE id = :hand AND status = 'running'"
)
# PostgreSQL: a settlement's balances, entries, stacks, results and "finished"
# marks in one round trip instead of five (the accounts are locked already; the
# other rows are the table's own, which only its lease holder writes).
FINISH_PG = Stmt(
    f"WITH {LEDGER_CTES_PG}, "
    "s AS (UPDATE table_seats t SET stack = t.stack + v.delta FROM unnest("
    "CAST(:s_table AS BIGINT[]), CAST(:s_seat AS INTEGER[]), CAST(:s_user AS BIGINT[]), "
    "CAST(:s_delta AS BIGINT[])) AS v(table_id, seat, user_id, delta) "
    "WHERE t.table_id = v.table_id AND t.seat = v.seat AND t.user_id = v.user_id RETURNING 1), "
    "r AS (UPDATE hand_players p SET result = v.result FROM unnest("
    "CAST(:r_hand AS BIGINT[]), CAST(:r_seat AS INTEGER[]), CAST(:r_result AS BIGINT[])) "
    "AS v(hand_id, hand_seat, result) "
    "WHERE p.hand_id = v.hand_id AND p.hand_seat = v.hand_seat RETURNING 1), "
    "f AS (UPDATE hands h SET status = 'finished', finished_at = :now, rake = v.rake, "
    "house_result = v.house, history = v.history, settlement_id = v.tx FROM unnest("
    "CAST(:f_hand AS BIGINT[]), CAST(:f_rake AS BIGINT[]), CAST(:f_house AS BIGINT[]), "
    "CAST(:f_history AS TEXT[]), CAST(:f_tx AS BIGINT[])) AS v(id, rake, house, history, tx) "
    "WHERE h.id = v.id AND h.status = 'running' RETURNING 1) "
    "SELECT (SELECT count(*) FROM b), (SELECT count(*) FROM e), (SELECT count(*) FROM s), "
    "(SELECT count(*) FROM r), (SELECT count(*) FROM f)",
    only="postgresql",
)
MARK_VOIDED = Stmt(
    "UPDATE hands SET status = 'voided', finished_at = :now, void_reason = :reason "
    "WHERE table_id = :table AND number = :number AND status = 'running' RETURNING id"
)
VOID_REASON = Stmt(
    "SELECT status, void_reason FROM hands WHERE table_id = :table AND number = :number"
)


def settlement_key(table_id: int, number: int) -> str:
    """The idempotency key of a hand's settlement."""
    return f"hand:{table_id}:{number}"


def batch_unit(ctx: Context, batch: Batch) -> Unit[BatchResult]:
    """Write a checked batch in one transaction."""
    games = yield from check_leases(batch)
    result = BatchResult()
    for move in batch.seats_in:
        result.moves[move.key] = (yield from seats.seat_in_unit(ctx, move)).transaction
    for start in batch.starts:
        result.hand_ids[start.table_id, start.number] = yield from _start(ctx, start, games)
    if batch.actions:
        yield from _append(batch.actions)
    if batch.finishes:
        result.settlements.update((yield from _finish(ctx, batch.finishes)))
    for void in batch.voids:
        yield from _void(ctx, void)
    for out in batch.seats_out:
        result.moves[out.key] = (yield from seats.seat_out_unit(ctx, out)).transaction
    return result


def check_leases(batch: Batch) -> Unit[dict[int, str]]:
    """Refuse the batch unless every write carries its table's current lease token;
    each table's game, by id."""
    items: list[ActionRecord | HandStart | HandFinish | HandVoid | SeatIn | SeatOut] = [
        *batch.starts,
        *batch.actions,
        *batch.finishes,
        *batch.voids,
        *batch.seats_in,
        *batch.seats_out,
    ]
    tables = sorted({item.table_id for item in items})
    if not tables:
        return {}
    rows = yield all_rows(LEASES, ids=tables)
    tokens = {row[0]: row[1] for row in rows}
    for item in items:
        token = tokens.get(item.table_id)
        if token is None:
            raise TableBookError("unknown_table", f"there is no table {item.table_id}")
        held = item.lease or 0
        if held != token:
            raise StaleLease(
                "stale_lease",
                f"table {item.table_id} is under lease {token}; this write holds {held}",
            )
    return {row[0]: row[2] for row in rows}


def _start(ctx: Context, start: HandStart, games: dict[int, str]) -> Unit[int]:
    table, number = start.table_id, start.number
    if games[table] != start.game:
        raise HandLogError("bad_hand", f"table {table} plays {games[table]}, not {start.game}")
    seated = {row[0]: (row[1], row[2]) for row in (yield all_rows(TABLE_SEATS, table=table))}
    for seat in start.seats:
        assert not isinstance(seat, tuple)
        if seated.get(seat.table_seat) != (seat.user_id, seat.stack):
            held = seated.get(seat.table_seat)
            raise HandLogError(
                "seat_mismatch",
                f"hand {number}: table seat {seat.table_seat} holds "
                f"{'nobody' if held is None else f'user {held[0]} with {held[1]}'}, "
                f"not user {seat.user_id} with {seat.stack}",
            )
    row = yield one(
        INSERT_HAND,
        table=table,
        number=number,
        game=start.game,
        spec=encode(start.spec),
        setup=encode(start.setup),
        start_seq=start.start_seq,
        now=ctx.now,
    )
    if row is None:
        if (yield one(HAND_STATE, table=table, number=number)) is not None:
            raise HandLogError("hand_exists", f"table {table} has a hand {number} already")
        running = yield one(RUNNING_HAND, table=table)
        raise HandLogError("hand_running", f"table {table} is still playing hand {running[0]}")
    hand_id = int(row[0])
    yield many(
        INSERT_PLAYER,
        [
            {
                "hand": hand_id,
                "hand_seat": index,
                "table_seat": seat.table_seat,
                "user": seat.user_id,
                "stack": seat.stack,
            }
            for index, seat in enumerate(start.seats)
            if not isinstance(seat, tuple)
        ],
    )
    yield one(INSERT_DECK, hand=hand_id, order=" ".join(start.deck_order), seed=start.deck_seed)
    return hand_id


def _append(actions: Sequence[ActionRecord]) -> Unit[None]:
    by_hand: dict[HandKey, list[ActionRecord]] = defaultdict(list)
    for action in actions:
        by_hand[action.table_id, action.number].append(action)
    advances: list[tuple[int, int, int, int]] = []
    for (table, number), logged in by_hand.items():
        first = logged[0].seq
        for offset, action in enumerate(logged):
            if action.seq != first + offset:
                raise HandLogError(
                    "bad_sequence",
                    f"hand {number} at table {table}: actions {first}.. must be consecutive",
                )
        advances.append((table, number, first, first + len(logged)))
    # Every hand of the batch in one statement (a group commit holds many tables' actions).
    if len(advances) == 1:
        table, number, first, after = advances[0]
        row = yield one(ADVANCE, table=table, number=number, first=first, next=after)
        found = {} if row is None else {(table, number): row[0]}
    else:
        returned = yield all_rows(
            ADVANCE_MANY,
            rows=[list(advance) for advance in advances],
            tables=[advance[0] for advance in advances],
            numbers=[advance[1] for advance in advances],
            firsts=[advance[2] for advance in advances],
            nexts=[advance[3] for advance in advances],
        )
        found = {(table, number): hand_id for hand_id, table, number in returned}
    for table, number, first, _ in advances:
        if (table, number) not in found:
            yield from _append_refused(table, number, first)
    yield many(
        INSERT_ACTION,
        [
            {
                "hand": found[key],
                "seq": a.seq,
                "seat": a.seat,
                "kind": a.kind,
                "amount": a.amount,
                "user": a.user_id,
                "client": a.client_id,
            }
            for key, logged in by_hand.items()
            for a in logged
        ],
    )


def _append_refused(table: int, number: int, first: int) -> Unit[None]:
    state = yield one(HAND_STATE, table=table, number=number)
    if state is None:
        raise HandLogError("unknown_hand", f"table {table} has no hand {number}")
    if state[1] != "running":
        raise HandLogError("hand_not_running", f"hand {number} at table {table} is {state[1]}")
    raise HandLogError(
        "bad_sequence",
        f"hand {number} at table {table} has {state[2]} actions logged; the next is {state[2]}, "
        f"not {first}",
    )


def _finish(ctx: Context, finishes: Sequence[HandFinish]) -> Unit[dict[HandKey, Transaction]]:
    done: dict[HandKey, Transaction] = {}
    todo: list[tuple[HandFinish, int, Posting, list[tuple[int, int, int]]]] = []
    keys: list[str] = []
    lines: list[stats.SeatLine] = []
    bot_lines: list[stats.BotLine] = []
    by_hand = yield from _finishing_rows(finishes)
    for finish in finishes:
        rows = by_hand.get((finish.table_id, finish.number), [])
        post, seats = _settlement(finish, rows)
        if rows[0][1] == "finished":
            done[finish.table_id, finish.number] = yield from _finished_again(
                ctx, finish, rows, post
            )
            continue
        todo.append((finish, int(rows[0][0]), post, seats))
        keys.extend(key for key, _ in post.entries)
        bot_lines.extend(
            (row[6], row[2], result)
            for row, result in zip(rows, finish.results, strict=True)
            if row[13]  # a table for bots only: the bots' leaderboard
        )
        if finish.figures is not None:
            lines.extend(
                (row[6], row[2], row[12], result, figures)
                for row, result, figures in zip(rows, finish.results, finish.figures, strict=True)
            )
    if not todo:
        return done
    yield from stats.add_unit(stats.week_of(ctx.now), lines)
    yield from stats.add_bots_unit(bot_lines)
    try:
        ids = yield from account_ids(ctx, dict.fromkeys(keys))
    except LedgerError as error:
        raise HandLogError(
            "seat_mismatch", f"a settlement has no account to go to: {error}"
        ) from None
    posts = [post for _, _, post, _ in todo]
    tx_ids = yield from _reserve_settlements(ctx, posts)
    reserved = [(tx_ids[post.key], post) for post in posts]
    afters, writes = yield from lock_and_check(ctx, reserved, ids)
    seat_rows: list[dict[str, Any]] = []
    result_rows: list[dict[str, Any]] = []
    hand_rows: list[dict[str, Any]] = []
    for (finish, hand_id, post, seats), (tx_id, _), after in zip(
        todo, reserved, afters, strict=True
    ):
        for seat, user, delta in seats:
            seat_rows.append({"table": finish.table_id, "seat": seat, "user": user, "delta": delta})
        result_rows.extend(
            {"hand": hand_id, "hand_seat": i, "result": r} for i, r in enumerate(finish.results)
        )
        hand_rows.append(
            {
                "hand": hand_id,
                "now": ctx.now,
                "rake": finish.rake,
                "house": finish.house_result,
                "history": finish.history,
                "tx": tx_id,
            }
        )
        done[finish.table_id, finish.number] = transaction_of(ctx, tx_id, post, after)
    if ctx.dialect == "postgresql":
        counts = yield one(FINISH_PG, now=ctx.now, **ledger_arrays(writes), **_columns(
            s_table=(r["table"] for r in seat_rows), s_seat=(r["seat"] for r in seat_rows),
            s_user=(r["user"] for r in seat_rows), s_delta=(r["delta"] for r in seat_rows),
            r_hand=(r["hand"] for r in result_rows), r_seat=(r["hand_seat"] for r in result_rows),
            r_result=(r["result"] for r in result_rows), f_hand=(r["hand"] for r in hand_rows),
            f_rake=(r["rake"] for r in hand_rows), f_house=(r["house"] for r in hand_rows),
            f_history=(r["history"] for r in hand_rows), f_tx=(r["tx"] for r in hand_rows),
        ))  # fmt: skip
        wanted = (len(writes.balances), len(writes.entries), len(seat_rows), len(result_rows))
        if tuple(counts) != (*wanted, len(hand_rows)):
            raise HandLogError("seat_mismatch", "a seat or a hand changed under the settlement")
        return done
    yield from write(ctx, writes)
    if seat_rows:
        yield many(ADD_TO_SEAT, seat_rows)
    yield many(SET_RESULT, result_rows)
    yield many(MARK_FINISHED, hand_rows)
    return done


def _columns(**columns: Any) -> dict[str, list[Any]]:
    return {name: list(values) for name, values in columns.items()}


def _finishing_rows(finishes: Sequence[HandFinish]) -> Unit[dict[HandKey, list[Any]]]:
    """Each finishing hand's rows (one a hand seat), by ``(table, number)``."""
    wanted = [(finish.table_id, finish.number) for finish in finishes]
    if len(set(wanted)) != len(wanted):
        raise HandLogError("bad_hand", "a batch finishes a hand once")
    rows = yield all_rows(
        FINISHING_MANY,
        hands=[list(key) for key in wanted],
        tables=[table for table, _ in wanted],
        numbers=[number for _, number in wanted],
    )
    by_hand: dict[HandKey, list[Any]] = defaultdict(list)
    for row in rows:
        by_hand[row[10], row[11]].append(row)
    return by_hand


def _reserve_settlements(ctx: Context, posts: Sequence[Posting]) -> Unit[dict[str, int]]:
    """Reserve every settlement key of the batch; their transaction ids."""
    rows = yield all_rows(
        RESERVE_SETTLEMENTS,
        now=ctx.now,
        rows=[[p.key, p.fingerprint, p.memo, p.meta] for p in posts],
        keys=[p.key for p in posts],
        fingerprints=[p.fingerprint for p in posts],
        memos=[p.memo for p in posts],
        metas=[p.meta for p in posts],
    )
    ids = {row[1]: int(row[0]) for row in rows}
    for post in posts:
        if post.key not in ids:
            raise IdempotencyConflict(
                "idempotency_conflict", f"{post.key} is settled although its hand is running"
            )
    return ids


def _settlement(
    finish: HandFinish, rows: Sequence[Sequence[Any]]
) -> tuple[Posting, list[tuple[int, int, int]]]:
    """The settlement posting of a finish, and each seat's stack change."""
    table, number = finish.table_id, finish.number
    if not rows:
        raise HandLogError("unknown_hand", f"table {table} has no hand {number}")
    status, game = rows[0][1], rows[0][2]
    if status == "voided":
        raise HandLogError("hand_not_running", f"hand {number} at table {table} was voided")
    if len(finish.results) != len(rows):
        raise HandLogError(
            "bad_results", f"hand {number} has {len(rows)} seats, not {len(finish.results)} results"
        )
    if finish.house_result and not get_game(game).banked:
        raise HandLogError("bad_results", f"{game} is not banked: the house plays no part")
    per_user: dict[int, int] = defaultdict(int)
    seats: list[tuple[int, int, int]] = []
    for row, result in zip(rows, finish.results, strict=True):
        table_seat, user, seat_user, seat_stack = row[5], row[6], row[8], row[9]
        if status == "running" and seat_user != user:
            raise HandLogError(
                "seat_mismatch",
                f"hand {number}: table seat {table_seat} is no longer user {user}'s",
            )
        if status == "running" and seat_stack + result < 0:
            raise HandLogError(
                "bad_results", f"hand {number}: seat {table_seat} cannot lose {-result} chips"
            )
        per_user[user] += result
        if result:
            seats.append((table_seat, user, result))
    entries: dict[Account, int] = {
        # The ids come from the database: no second check of each one.
        Account(AccountKind.IN_PLAY, user, table): amount
        for user, amount in per_user.items()
        if amount
    }
    if finish.rake:
        entries[RAKE] = finish.rake
    if finish.house_result:
        entries[HOUSE] = finish.house_result
    # Built from checked results: no second round of checks.
    post = trusted_posting(
        settlement_key(table, number),
        TransactionKind.SETTLEMENT,
        entries,
        f"hand {number}",
        f'{{"number":{number},"table":{table}}}',
    )
    seats.sort()
    return post, seats


def _finished_again(
    ctx: Context, finish: HandFinish, rows: Sequence[Sequence[Any]], post: Posting
) -> Unit[Transaction]:
    """A finish repeated (a retry after a lost reply): the first settlement, if it agrees."""
    same = (
        tuple(row[7] for row in rows) == tuple(finish.results)
        and rows[0][3] == finish.rake
        and rows[0][4] == finish.house_result
    )
    if not same:
        raise IdempotencyConflict(
            "idempotency_conflict",
            f"hand {finish.number} at table {finish.table_id} finished with other results",
        )
    return (yield from existing(ctx, post))


def _void(ctx: Context, void: HandVoid) -> Unit[None]:
    row = yield one(
        MARK_VOIDED, table=void.table_id, number=void.number, reason=void.reason, now=ctx.now
    )
    if row is not None:
        return
    state = yield one(VOID_REASON, table=void.table_id, number=void.number)
    if state is None:
        raise HandLogError("unknown_hand", f"table {void.table_id} has no hand {void.number}")
    if state[0] == "voided" and state[1] == void.reason:
        return  # the same void again
    raise HandLogError(
        "hand_not_running", f"hand {void.number} at table {void.table_id} is {state[0]}"
    )


def decode(text: str) -> dict[str, Any]:
    """A JSON object stored by the store."""
    value = json.loads(text)
    assert isinstance(value, dict)
    return value
