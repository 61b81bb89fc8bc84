"""Real hands of every game, played through the store as the server will.

Each table deals from a stored deck, logs every accepted action (the tables'
appends grouped into one commit per round), is rebuilt from its log at
random points (the rebuilt hand must have the same events and the same seat
to act), and settles with the engine's results, the rake and the house's
result, in the same commit as the history. The books balance throughout.
"""

from __future__ import annotations

import random
from typing import Any

from pokerhouse.cards import Deck
from pokerhouse.engine.hand import Hand
from pokerhouse.games import get_game
from pokerhouse.history.json_history import spec_to_dict, to_json
from pokerhouse.store import (
    HOUSE,
    RAKE,
    Account,
    ActionRecord,
    Batch,
    HandFinish,
    HandStart,
    Store,
    TableConfig,
    rebuild_hand,
)
from tests.helpers import policy_action
from tests.store.writes import buy_in

GAMES = [("3x4", 4, {}), ("razz", 4, {}), ("teen-patti", 4, {}), ("casino-holdem", 3, {})]


class LiveTable:
    """One table's state between commits."""

    def __init__(self, table_id: int, game: str, options: dict[str, Any]) -> None:
        self.table_id = table_id
        self.info = get_game(game)
        self.spec = self.info.spec(**options)
        self.number = 0
        self.hand: Hand | None = None
        self.logged = 0

    async def deal(self, store: Store, rng: random.Random) -> HandStart | None:
        seats = [s for s in await store.tables.seats(self.table_id) if s.stack > 0]
        if len(seats) < max(2, self.info.min_players) and not self.info.banked:
            return None
        self.number += 1
        order = [str(card) for card in Deck(random.Random(rng.random())).order()]
        seed = rng.randrange(2**31)
        stacks = [s.stack for s in seats]
        self.hand = self.info.hand_type(
            self.spec, stacks, Deck.from_order(order, random.Random(seed))
        )
        self.logged = 0
        return HandStart(
            self.table_id,
            self.number,
            self.info.name,
            spec_to_dict(self.spec),
            self.hand.setup(),
            [(s.seat, s.user_id, s.stack) for s in seats],
            order,
            seed,
        )

    def step(self, rng: random.Random) -> list[ActionRecord]:
        """One action (if the hand is not over): what to log."""
        assert self.hand is not None
        if self.hand.is_over:
            return []
        seat = self.hand.to_act
        assert seat is not None
        self.hand.act(policy_action(self.hand, rng))
        record = ActionRecord.of(
            self.table_id, self.number, self.logged, seat, self.hand.actions[-1][1]
        )
        self.logged += 1
        return [record]

    def finish(self) -> HandFinish:
        assert self.hand is not None and self.hand.is_over
        results = list(self.hand.results())
        house = self.hand.house_result if self.info.banked else 0  # type: ignore[attr-defined]
        rake = 0
        best = max(range(len(results)), key=results.__getitem__)
        if not self.info.banked and results[best] >= 10:
            rake = 1  # a chip of rake from the winner of a big enough pot
            results[best] -= 1
        return HandFinish(self.table_id, self.number, results, rake, house, to_json(self.hand))


async def test_every_game_through_the_store(store: Store) -> None:
    rng = random.Random(2024)
    await store.ledger.fund_house(1_000_000, key="fund:1")
    tables: list[LiveTable] = []
    for n, (game, players, options) in enumerate(GAMES):
        boxes = 2 if game == "casino-holdem" else 1
        config = TableConfig(f"G{n}", game, options=options, seats=players, max_boxes=boxes,
                             min_buy_in=20, max_buy_in=400)  # fmt: skip
        table = await store.tables.create(config)
        for seat in range(players):
            user = await store.users.create(f"g{n}-seat{seat}", None, bot=True, grant=5_000)
            await buy_in(store, table.id, seat, user, 200)
        tables.append(LiveTable(table.id, game, options))
    hands_played = 0
    for _round in range(12):
        starts = [start for t in tables if (start := await t.deal(store, rng)) is not None]
        await store.commit(Batch(starts=starts))
        live = [
            t
            for t in tables
            if t.hand is not None and any(s.table_id == t.table_id for s in starts)
        ]
        while any(t.hand is not None and not t.hand.is_over for t in live):
            actions = [record for t in live for record in t.step(rng)]
            finishes = [t.finish() for t in live if t.hand is not None and t.hand.is_over]
            await store.commit(Batch(actions=actions, finishes=finishes))
            for t in live:
                if t.hand is not None and t.hand.is_over:
                    hands_played += 1
                    t.hand = None
                elif t.hand is not None and rng.random() < 0.1:
                    await _check_replay(store, t)
            live = [t for t in live if t.hand is not None]
    assert hands_played >= 40
    played = await store.hands.played_per_table()
    assert sum(played.values()) == hands_played
    # Chips moved only between players, the house and the rake.
    seats = [s for t in tables for s in await store.tables.seats(t.table_id)]
    in_play = sum(s.stack for s in seats)
    assert in_play + await store.ledger.balance(HOUSE) + await store.ledger.balance(
        RAKE
    ) == 1_000_000 + 200 * len(seats)
    for t in tables:
        for s in await store.tables.seats(t.table_id):
            assert await store.ledger.balance(Account.in_play(t.table_id, s.user_id)) == sum(
                x.stack for x in await store.tables.seats(t.table_id) if x.user_id == s.user_id
            )
    report = await store.check()
    assert report.ok, report.summary()


async def _check_replay(store: Store, table: LiveTable) -> None:
    (log,) = await store.hands.unfinished(table.table_id)
    rebuilt = rebuild_hand(log)
    assert table.hand is not None
    assert rebuilt.events == table.hand.events
    assert rebuilt.to_act == table.hand.to_act
