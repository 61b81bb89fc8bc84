"""The engine's view rebuilt from a snapshot equals the engine's own, in every game."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pokerhouse.bots import RandomBot
from pokerhouse.bots.loading import load_bot
from pokerhouse.client.decision import Decision
from pokerhouse.client.rebuild import rebuild_view
from pokerhouse.engine import Action, ActionKind, LegalActions
from pokerhouse.errors import IllegalAction, InvalidAction
from pokerhouse.server.table.views import table_view
from pokerhouse.table import Act, Sit, StartHand, Table, TableLimits

GAMES = ("3x4", "razz", "teen-patti", "casino-holdem")


def as_sent(view: dict[str, Any]) -> dict[str, Any]:
    """The snapshot as a client reads it: through JSON."""
    return json.loads(json.dumps(view))  # type: ignore[no-any-return]


def assert_same(rebuilt: object, engine: object) -> None:
    """Field by field, so a difference names its field."""
    assert type(rebuilt) is type(engine)
    for field in dataclasses.fields(engine):  # type: ignore[arg-type]
        mine, theirs = getattr(rebuilt, field.name), getattr(engine, field.name)
        assert mine == theirs, (field.name, mine, theirs)
        if isinstance(theirs, LegalActions):
            assert type(mine) is type(theirs), field.name


def check_every_viewer(table: Table) -> None:
    hand = table.hand
    assert hand is not None
    for index, seat in enumerate(table.hand_seats):
        snapshot = as_sent(table_view(table, frozenset({seat})))
        assert_same(rebuild_view(snapshot, seat), hand.view(index))
    assert_same(rebuild_view(as_sent(table_view(table, frozenset())), None), hand.view(None))


@given(
    game=st.sampled_from(GAMES),
    seats=st.integers(2, 6),
    seed=st.integers(0, 2**32),
    stacks=st.lists(st.integers(1, 300), min_size=6, max_size=6),
)
def test_the_view_rebuilt_from_a_snapshot_is_the_engines(
    game: str, seats: int, seed: int, stacks: list[int]
) -> None:
    rng = random.Random(seed)
    table = Table(game, seats=seats, rng=rng, limits=TableLimits(1, 2000))
    low = 40 if game == "casino-holdem" else 1  # a box needs its ante and the call behind it
    for seat in range(seats):
        table.apply(Sit(seat, f"p{seat}", max(low, stacks[seat]) + 19))
    bot = RandomBot(rng=rng)
    for _ in range(3):  # a few hands: stacks drift apart, short stacks go all in
        if len(table.ready()) < (1 if game == "casino-holdem" else 2):
            break
        table.apply(StartHand())
        while table.hand is not None:
            check_every_viewer(table)
            acting = table.to_act()
            assert acting is not None
            snapshot = as_sent(table_view(table, frozenset({acting})))
            decision = Decision.from_snapshot(1, table.seq, snapshot, acting)
            assert decision.legal == table.view(acting).legal
            table.apply(Act(acting, bot.choose(decision.view())))


def a_decision(game: str = "3x4") -> tuple[Table, Decision]:
    table = Table(game, seats=3, rng=random.Random(7), limits=TableLimits(1, 2000))
    for seat in range(3):
        table.apply(Sit(seat, f"p{seat}", 100))
    table.apply(StartHand())
    acting = table.to_act()
    assert acting is not None
    return table, Decision.from_snapshot(
        5, table.seq, as_sent(table_view(table, frozenset({acting}))), acting
    )


def test_a_decision_names_its_options_and_checks_actions_as_the_engine_does() -> None:
    table, decision = a_decision()
    assert decision.table == 5 and decision.hand == table.hand_number == 1
    assert (
        decision.game == "3x4"
        and decision.stack
        == table.view(decision.seat).stacks[
            decision.view().seat  # type: ignore[index]
        ]
    )
    assert decision.kinds == ("fold", "check", "bet")
    bet = decision.option("bet")
    assert bet is not None and bet["min"] == 2 and bet["max"] == decision.stack
    assert bet["presets"][0]["name"] == "min"
    assert decision.option("raise") is None
    assert decision.legal.check(Action.bet(2)) == Action.bet(2)
    with pytest.raises(IllegalAction) as refused:
        decision.legal.check(Action.bet(1))
    assert refused.value.code == "amount_too_small"
    with pytest.raises(IllegalAction):
        decision.legal.check(Action(ActionKind.CALL))


def test_a_seat_not_to_act_has_no_decision_and_a_seat_not_dealt_in_no_view() -> None:
    table, decision = a_decision()
    other = next(seat for seat in table.hand_seats if seat != decision.seat)
    snapshot = as_sent(table_view(table, frozenset({other})))
    with pytest.raises(InvalidAction) as none:
        Decision.from_snapshot(5, table.seq, snapshot, other)
    assert none.value.code == "no_decision"
    assert rebuild_view(snapshot, other).legal == LegalActions(())
    with pytest.raises(InvalidAction) as absent:
        rebuild_view(snapshot, 9)
    assert absent.value.code == "not_in_hand"
    between = as_sent(table_view(Table("razz", seats=2), frozenset()))
    with pytest.raises(InvalidAction) as idle:
        rebuild_view(between, None)
    assert idle.value.code == "no_hand"


def test_a_snapshot_shows_no_other_seats_hidden_cards() -> None:
    table, decision = a_decision("teen-patti")
    snapshot = as_sent(table_view(table, frozenset({decision.seat})))
    for seat, entry in enumerate(snapshot["seats"]):
        if seat != decision.seat:
            assert entry["cards"] == [None, None, None]


@pytest.mark.parametrize("game", GAMES)
def test_a_house_bot_chooses_from_the_rebuilt_view_as_from_the_engines(game: str) -> None:
    table = Table(game, seats=3, rng=random.Random(3), limits=TableLimits(1, 2000))
    for seat in range(3):
        table.apply(Sit(seat, f"p{seat}", 200))
    for _ in range(2):
        table.apply(StartHand())
        while table.hand is not None:
            acting = table.to_act()
            assert acting is not None
            snapshot = as_sent(table_view(table, frozenset({acting})))
            rebuilt = Decision.from_snapshot(1, table.seq, snapshot, acting).view()
            ours = load_bot("smart", game, rng=random.Random(table.seq)).choose(rebuilt)
            engines = load_bot("smart", game, rng=random.Random(table.seq))
            assert ours == engines.choose(table.view(acting))
            table.apply(Act(acting, ours))
