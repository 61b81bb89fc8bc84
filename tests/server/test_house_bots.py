"""The room's pool of house bots: a bot refused because it sits elsewhere leaves the pool."""

from __future__ import annotations

from pokerhouse.server.housebots import HouseBots
from pokerhouse.server.services import Services
from pokerhouse.store import Store, TableConfig
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
