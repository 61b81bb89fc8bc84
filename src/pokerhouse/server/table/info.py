"""What a table shows of itself (its snapshot's extras, its lobby line) and counts.

Plain functions of a table task's parts, so the task stays a loop.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Iterable, Mapping
from typing import Any

from pokerhouse.engine.rounds import RoundHand
from pokerhouse.games import get_game
from pokerhouse.history.json_history import spec_to_dict
from pokerhouse.server.runtime.logs import now_ms, record
from pokerhouse.server.runtime.metrics import Metrics
from pokerhouse.server.socket import outgoing
from pokerhouse.server.table.inputs import Caller
from pokerhouse.server.table.lines import PlayerLine, TableLine
from pokerhouse.server.table.room_rules import ClockStarted, RoomRules, WindowOpened
from pokerhouse.store import TableConfig, User
from pokerhouse.table import Act, Command, Rake, Step, Table, TableLimits, Timeout, records

events_log = logging.getLogger("pokerhouse.events")


def new_table(
    config: TableConfig,
    spec: Any,
    rng: random.Random,
    lease: int,
    seated: tuple[tuple[int, str, int, int], ...],
    button: int | None,
    hands_played: int,
) -> Table:
    """The room's table for ``config`` as loaded under ``lease``: ``seated`` are
    ``(seat, name, stack, account)``."""
    assert config.min_buy_in is not None and config.max_buy_in is not None
    info = get_game(config.game)
    rake = Rake(f"{config.rake_bps}/100", config.rake_cap) if config.rake_bps else None
    # Games with a showdown order (3x4, Razz) let a losing hand be shown or mucked.
    hand_type = info.hand_type
    choose = isinstance(hand_type, type) and issubclass(hand_type, RoundHand)
    return Table(
        info.name,
        seats=config.seats,
        spec=spec,
        limits=TableLimits(config.min_buy_in, config.max_buy_in),
        rng=rng,
        rake=rake,
        boxes_per_player=config.max_boxes,
        log_size=0,  # the outbox keeps what clients coming back need, encoded
        # A player whose hand cannot win chooses to show or muck (RULES.md, Common).
        hand_options={"manual_showdown": True} if choose else None,
        # Numbers under a new lease start above every number of the last one,
        # so a client's stale cursor never matches an event of this run.
        first_seq=lease << 32,
        hands_played=hands_played,
        seated=seated,
        button=button,
        # A tournament's players are dealt every hand until busted (RULES.md, Tournaments).
        may_sit_out=config.tournament is None,
    )


def extras(
    table_id: int,
    config: TableConfig,
    spec: Any,
    bots: Iterable[int],
    rules: RoomRules,
    now: float,
) -> dict[str, Any]:
    """What the room adds to the table's view: the table, bots, the clock, the window."""
    return {
        "table": {
            "id": table_id,
            "name": config.name,
            "game": config.game,
            "title": get_game(config.game).title,
            "spec": spec_to_dict(spec),
            "min_buy_in": config.min_buy_in,
            "max_buy_in": config.max_buy_in,
            "max_boxes": config.max_boxes,
            "decision_seconds": config.decision_seconds,
            "time_bank_seconds": config.time_bank_seconds,
            "rake_bps": config.rake_bps,
            "rake_cap": config.rake_cap,
            # A tournament's table: the tournament it belongs to (null at a cash table).
            "tournament": config.tournament,
            "people_only": config.people_only,
            "bots_only": config.bots_only,
            # Whether the house bots say a few words now and then.
            "bot_chat": config.bot_chat,
        },
        "bots": sorted(bots),
        **rules.extras(now),
    }


def lobby_line(
    table_id: int,
    config: TableConfig,
    spec: Any,
    users: Mapping[int, User],
    table: Table,
    available: bool,
    hand_times: Iterable[float],
) -> TableLine:
    """The table's line in the lobby: who sits where, how busy it is."""
    now = time.time()
    recent = [t for t in hand_times if now - t <= 3600]
    hour = len(recent)
    if len(recent) >= 2 and now - recent[0] < 3600:
        hour = round(len(recent) * 3600 / max(60.0, now - recent[0]))
    return TableLine(
        id=table_id,
        name=config.name,
        game=config.game,
        title=get_game(config.game).title,
        spec=spec_to_dict(spec),
        seats=config.seats,
        players=[
            PlayerLine(seat, user.username, user.is_bot) for seat, user in sorted(users.items())
        ],
        free=config.seats - len(users),
        hands_played=table.hands_played,
        hands_per_hour=hour,
        min_buy_in=config.min_buy_in,
        max_buy_in=config.max_buy_in,
        available=available,
        # Who may sit: everyone, people only (no bot accounts) or bots only.
        people_only=config.people_only,
        bots_only=config.bots_only,
    )


def count(
    metrics: Metrics,
    table_id: int,
    game: str,
    command: Command,
    step: Step,
    seats: tuple[int, ...],
    started: float,
    caller: Caller | None,
) -> None:
    """Count and log what a stored step did (never a card: only what is public).

    ``seats`` are the table seats of the step's hand, in hand order.
    """
    # A room logging at warning (the usual) builds no log line at all.
    logs = events_log.isEnabledFor(logging.INFO)
    for item in step.records:
        if isinstance(item, records.ActionLogged) and isinstance(command, Act | Timeout):
            metrics.action(game)
            if not logs:
                continue
            record(
                events_log, "action", table=table_id, hand=item.number,
                seat=seats[item.hand_seat] if item.hand_seat < len(seats) else None,
                kind=item.kind, amount=item.amount, timeout=isinstance(command, Timeout),
                conn=caller.address if caller is not None else None, ms=now_ms(started),
            )  # fmt: skip
        elif isinstance(item, records.HandSettled):
            metrics.hand(game, "finished")
            if not logs:
                continue
            record(
                events_log, "hand", table=table_id, hand=item.number, game=game,
                seats=list(seats), net=list(item.net), rake=item.rake, house=item.house,
            )  # fmt: skip
        elif isinstance(item, records.VoidLogged):
            metrics.hand(game, "voided")
            record(events_log, "hand_voided", table=table_id, hand=item.number, reason=item.reason)


def announce(table_id: int, seq: int, intent: ClockStarted | WindowOpened) -> bytes:
    """The frame every watcher gets for a decision's clock or an opened betting window."""
    if isinstance(intent, ClockStarted):
        return outgoing.encode(
            outgoing.ClockShown(
                table=table_id, seq=seq, hand=intent.hand, seat=intent.seat,
                limit_ms=intent.limit_ms, bank_ms=intent.bank_ms,
            )
        )  # fmt: skip
    return outgoing.encode(
        outgoing.Window(table=table_id, seq=seq, open=True, seconds=intent.seconds)
    )
