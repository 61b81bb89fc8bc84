"""Act ids a table remembers: enough that no resent act is applied twice, and no more, so
a table's memory does not grow with the actions it has played."""

from __future__ import annotations

from typing import Any

from pokerhouse.server.runner import REMEMBERED_HANDS
from pokerhouse.store import TableConfig
from tests.server.conftest import Client, serve
from tests.server.play import play_hand, sit

TABLE = TableConfig("3x4 heads-up", "3x4", {"ante": 1, "small_bet": 2}, 2)


def _sent_acts(clients: list[Client]) -> list[tuple[Client, dict[str, Any]]]:
    return [(c, f) for c in clients for f in c.sent if f.get("type") == "act"]


async def test_ids_are_kept_for_the_last_two_hands_and_a_resend_is_acknowledged(
    db_url: str,
) -> None:
    async with serve(db_url, [TABLE]) as room:
        ann, bob = await room.player(), await room.player()
        clients = [ann, bob]
        for client in clients:
            client.sent = []  # type: ignore[attr-defined]
            original = client.send

            async def recording(message: dict[str, Any], c: Client = client, o: Any = original):
                c.sent.append(message)  # type: ignore[attr-defined]
                await o(message)

            client.send = recording  # type: ignore[method-assign]
        table = room.table_id(TABLE.name)
        await sit(ann, table, 0)
        await sit(bob, table, 1)
        hands = 5
        for _ in range(hands):
            await play_hand(clients, table)
        await room.settle()
        runner = room.site.room.runners[table]
        assert 0 < len(runner._applied) <= REMEMBERED_HANDS
        kept = sum(len(ids) for ids in runner._applied.values())
        acts = _sent_acts(clients)  # type: ignore[arg-type]
        assert kept < len(acts)  # older hands' ids are gone
        # The last act of an ended hand, sent again: acknowledged, not applied again.
        client, last = acts[-1]
        played = runner.table.hands_played
        mark = len(client.frames)
        await client.send(last)
        ack = await client.wait_for(
            lambda f: f.get("type") in ("ack", "error") and f.get("id") == last["id"], after=mark
        )
        assert ack["type"] == "ack" and ack["repeated"] is True
        await room.settle()
        assert runner.table.hands_played == played
