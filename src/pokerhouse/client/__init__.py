"""A client library for bots in the room: :class:`BotRunner` plays a bot at a table.

A bot is any object with ``decide(decision) -> action``: it is fed a
:class:`Decision` (what a person's browser gets when their seat must act:
the legal actions with their bounds, costs and presets, and the table as
the seat sees it) and answers with an engine
:class:`~pokerhouse.engine.Action` or the wire's action dict. A house bot
(``choose(view)``) works as it is: it is fed ``decision.view()``, the
engine's exact view of the seat. The runner connects with the bot account's
token, sits, acts, and deals with reconnects, ``resume``, action ids and
rate limits (:mod:`pokerhouse.client.runner`); :class:`BotStopped` says
why the room refused it for good.

>>> class AlwaysPassive:
...     name = "passive"
...
...     def decide(self, decision):
...         for kind in ("check", "call", "bring_in", "show_hand", "accept"):
...             if kind in decision.kinds:
...                 return {"kind": kind}
...         return {"kind": "fold"}
>>> runner = BotRunner(AlwaysPassive(), room="http://127.0.0.1:8000", token="t0k3n", table=1)
>>> runner.url
'ws://127.0.0.1:8000/ws'
>>> BotRunner(object(), room="http://127.0.0.1:8000", token="t0k3n", table=1)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
pokerhouse.errors.InvalidSpec: <object object at ...> has neither decide(decision) nor choose(view)

``await runner.run(hands=10)`` plays ten hands and stands up; it returns a
:class:`RunSummary` (hands, net, reconnects).
"""

from pokerhouse.client.decision import Decision
from pokerhouse.client.runner import BotRunner, BotStopped, HandPlayed, RunSummary

__all__ = ["BotRunner", "BotStopped", "Decision", "HandPlayed", "RunSummary"]
