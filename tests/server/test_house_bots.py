"""The room's house bots: the pool hands out a bot once; a bot's failure never stops a hand."""

from __future__ import annotations

import logging
import random

import pytest

from pokerhouse.bots import Bot
from pokerhouse.engine import Action, View
from pokerhouse.server.table.house_bots import HouseBots
from pokerhouse.server.table.services import Services
from pokerhouse.store import Store, TableConfig
from pokerhouse.table import Act, Sit, StartHand, Table
from tests.conftest import FAST_HASHER


async def test_a_bot_seated_elsewhere_is_not_handed_out_again(db_url: str) -> None:
    store = await Store.open(db_url, password_hasher=FAST_HASHER)
    try:
        services = Services(store)
        bots = HouseBots(services, TableConfig("Razz", "razz", bots=2), "razz")
        first = await services.bot_user()
        bots.unused(first)  # refused for a reason of its own table: free again
        assert (await services.bot_user()).id == first.id
        bots.unused(first, elsewhere=True)  # it sits at another node's table
        second = await services.bot_user()
        assert second.id != first.id and second.is_bot
        bots.unused(second)
        assert (await services.bot_user()).id == second.id
    finally:
        await store.close()


class Broken(Bot):
    """A policy with a bug: it raises whatever it is asked."""

    name = "broken"

    def choose(self, view: View) -> Action:
        raise ZeroDivisionError("a bug in the policy")


async def test_a_bot_that_fails_plays_the_default_action_and_the_failure_is_logged(
    db_url: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    store = await Store.open(db_url, password_hasher=FAST_HASHER)
    try:
        bots = HouseBots(Services(store), TableConfig("3x4", "3x4", bots=1), "3x4")
        table = Table("3x4", seats=2, rng=random.Random(5))
        table.apply(Sit(0, "Ann", 100))
        table.apply(Sit(1, "Bo", 100))
        table.apply(StartHand())
        seat = table.to_act()
        assert seat is not None
        monkeypatch.setattr(bots, "policy", lambda seat: Broken())
        with caplog.at_level(logging.ERROR, logger="pokerhouse.table"):
            action = await bots.choose(seat, table)
        assert action == table.default_action(seat)
        table.apply(Act(seat, action))  # the table takes it: the hand goes on
        assert table.to_act() != seat
        assert "could not choose" in caplog.text and "ZeroDivisionError" in caplog.text
    finally:
        await store.close()
