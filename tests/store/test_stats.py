"""Players' statistics in the store: summed with each settlement, by period; the leaderboards."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from pokerhouse.errors import InvalidSpec
from pokerhouse.history.figures import FIELDS
from pokerhouse.store import AccountError, Batch, HandFinish, HandLogError, Store, TableConfig
from pokerhouse.store.stats import week_of
from tests.store.conftest import Clock, dump
from tests.store.test_hands import start_for
from tests.store.writes import buy_in

WEEK = 7 * 86_400.0
# A seat that put chips in on the first round, raised and won at showdown; one that
# called to the showdown and lost.
RAISER = (1, 1, 2, 0, 1, 1, 0, 0, 0)
CALLER = (1, 0, 0, 2, 1, 0, 0, 0, 0)


async def play(
    store: Store,
    table: int,
    number: int,
    results: Sequence[int],
    figures: Sequence[Sequence[int]] | None = (RAISER, CALLER),
) -> None:
    """Start and settle hand ``number`` of ``table`` with these results and figures."""
    await store.commit(Batch(starts=[await start_for(store, table, number)]))
    await store.commit(Batch(finishes=[HandFinish(table, number, results, figures=figures)]))


async def two_at(store: Store, name: str, ann: int, bob: int, **settings: object) -> int:
    table = (await store.tables.create(TableConfig(name, "3x4", min_buy_in=20, max_buy_in=1000,
                                                  **settings))).id  # type: ignore[arg-type]  # fmt: skip
    await buy_in(store, table, 0, ann, 500)
    await buy_in(store, table, 1, bob, 500)
    return table


async def test_each_settlement_adds_its_seats_figures_and_chips(store: Store) -> None:
    ann = (await store.users.create("ann", "correct horse battery")).id
    bob = (await store.users.create("bob", "correct horse battery")).id
    table = await two_at(store, "T", ann, bob)
    await play(store, table, 1, [30, -30])
    await play(store, table, 2, [-4, 4], figures=(CALLER, RAISER))
    (mine,) = await store.stats.player(ann)
    assert (mine.game, mine.hands, mine.net) == ("3x4", 2, 26)
    both = [a + b for a, b in zip(RAISER, CALLER, strict=True)]
    assert [getattr(mine, name) for name in FIELDS] == both
    (theirs,) = await store.stats.player(bob)
    assert (theirs.hands, theirs.net, theirs.pfr, theirs.calls) == (2, -26, 1, 2)


async def test_a_settlement_repeated_is_counted_once(store: Store) -> None:
    ann = (await store.users.create("ann", None, bot=True)).id
    bob = (await store.users.create("bob", None, bot=True)).id
    table = await two_at(store, "T", ann, bob)
    await play(store, table, 1, [30, -30])
    # A retry after a lost reply: the first settlement stands, nothing is added twice.
    await store.commit(Batch(finishes=[HandFinish(table, 1, [30, -30], figures=(RAISER, CALLER))]))
    (mine,) = await store.stats.player(ann)
    assert (mine.hands, mine.net, mine.vpip) == (1, 30, 1)


async def test_figures_that_do_not_fit_the_hand_are_refused_and_nothing_is_written(
    store: Store,
) -> None:
    ann = (await store.users.create("ann", None, bot=True)).id
    bob = (await store.users.create("bob", None, bot=True)).id
    table = await two_at(store, "T", ann, bob)
    await store.commit(Batch(starts=[await start_for(store, table, 1)]))
    before = await dump(store)
    for figures, why in [
        ((RAISER,), "one row of figures per seat"),
        ((RAISER, CALLER[:-1]), "counters"),
        ((RAISER, (*CALLER[:-1], -1)), "a figure must be"),
    ]:
        finish = HandFinish(table, 1, [30, -30], figures=figures)
        with pytest.raises(HandLogError, match=why) as refused:
            await store.commit(Batch(finishes=[finish]))
        assert refused.value.code == "bad_results"
    assert await dump(store) == before


async def test_a_period_sums_its_weeks_only(store: Store, clock: Clock) -> None:
    ann = (await store.users.create("ann", None, bot=True)).id
    bob = (await store.users.create("bob", None, bot=True)).id
    table = await two_at(store, "T", ann, bob)
    await play(store, table, 1, [30, -30])
    clock.now += 5 * WEEK
    await play(store, table, 2, [-4, 4])
    hands = {period: [s.hands for s in await store.stats.player(ann, period)]
             for period in ("week", "month", "year", "all")}  # fmt: skip
    assert hands == {"week": [1], "month": [1], "year": [2], "all": [2]}
    with pytest.raises(AccountError) as refused:
        await store.stats.player(ann, "decade")
    assert refused.value.code == "bad_period"


async def test_the_leaderboard_is_people_at_public_tables_with_enough_hands(
    store: Store, clock: Clock
) -> None:
    people = [(await store.users.create(f"{n}nn", "correct horse battery")).id for n in "abcd"]
    bot = (await store.users.create("zbot", None, bot=True)).id
    a, b, c, _ = people
    public = await two_at(store, "Public", a, b)
    with_bot = await two_at(store, "Bots", c, bot)
    number = 0
    for results in ([10, -10], [10, -10], [-2, 2]):  # a: +18 in 3; b: -18 in 3 ...
        number += 1
        await play(store, public, number, results)
    for results in ([-1, 1], [-1, 1], [-1, 1]):  # c: -3 in 3; the bot +3
        await play(store, with_bot, number := number + 1, results)
    await play(store, public, number := number + 1, [5, -5])  # ... and a: +23 in 4
    week = week_of(clock.now)
    board = await store.stats.board("3x4", week, least=3)
    # By chips won a hand (5.75, -1, -5.75); the bot is not in it, nor d who never played.
    assert [(line.username, line.hands, line.net) for line in board] == [
        ("ann", 4, 23),
        ("cnn", 3, -3),
        ("bnn", 4, -23),
    ]
    least = await store.stats.board("3x4", week, least=4)
    assert [line.username for line in least] == ["ann", "bnn"]
    assert await store.stats.board("razz", week, least=1) == []
    clock.now += WEEK
    assert await store.stats.board("3x4", week_of(clock.now), least=1) == []


@pytest.mark.parametrize(
    ("game", "week", "least", "code"),
    [
        ("go fish", "2026-11-30", 10, "unknown_game"),
        ("3x4", "2026-12-01", 10, "bad_week"),
        ("3x4", "last week", 10, "bad_week"),
        ("3x4", "2026-11-30", 0, "bad_least"),
        ("3x4", "2026-11-30", True, "bad_least"),
    ],
)
async def test_a_bad_leaderboard_question_is_refused(
    store: Store, game: str, week: str, least: int, code: str
) -> None:
    with pytest.raises((AccountError, InvalidSpec)) as refused:
        await store.stats.board(game, week, least=least)
    assert refused.value.code == code
