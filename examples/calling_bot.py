"""A complete bot for the room: it checks when it can and calls small bets, at every game.

Make a bot account and run this bot at table 1 (from this folder, so that
``calling_bot`` imports):

    pokerhouse accounts create calling_bot --bot --database-url sqlite:///room.db
    export POKERHOUSE_BOT_TOKEN=...        # the token printed above
    pokerhouse bot run calling_bot:CallingBot --room http://127.0.0.1:8000 --table 1

Or from Python, with the client library: ``python calling_bot.py URL TABLE``
(the token from ``POKERHOUSE_BOT_TOKEN`` as well).
"""

from __future__ import annotations

import asyncio
import os
import sys
from typing import Any

from pokerhouse.client import BotRunner, Decision


class CallingBot:
    """Checks when checking is free, calls (or shows, or brings in) when it costs at most a
    quarter of its stack, and folds to anything dearer.

    At Teen Patti it looks at its cards first and then bets the least it may;
    asked for a sideshow it accepts; at Casino Hold'em it calls every box.
    """

    name = "calling"

    def decide(self, decision: Decision) -> dict[str, Any]:
        """The action for this decision, as the wire carries it."""
        kinds = decision.kinds
        cheap = max(1, decision.stack // 4)
        for free in ("check", "show_hand", "accept", "look", "bring_in"):
            if free in kinds:
                return {"kind": free}
        call = decision.option("call")
        if call is not None and (decision.game == "casino-holdem" or call["cost"] <= cheap):
            return {"kind": "call"}
        show = decision.option("show")
        if show is not None and show["cost"] <= cheap:
            return {"kind": "show"}
        bet = decision.option("bet")
        if decision.game == "teen-patti" and bet is not None and bet["min"] <= cheap:
            return {"kind": "bet", "amount": bet["min"]}
        return {"kind": "fold"} if "fold" in kinds else {"kind": kinds[0]}


async def main(room: str, table: int) -> None:
    """Play until interrupted, printing each hand's result."""
    runner = BotRunner(
        CallingBot(),
        room=room,
        token=os.environ["POKERHOUSE_BOT_TOKEN"],
        table=table,
        on_hand=lambda hand: print(f"hand {hand.number}: {hand.net:+d}"),
    )
    summary = await runner.run()
    print(f"{summary.hands} hands, net {summary.net:+d}")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
