"""Hand histories: the canonical JSON record, PHH (Razz), readable text, and replay.

* :func:`to_json` / :func:`from_json` / :func:`record`: the versioned JSON
  history of any game, for the server (everything, replayable) or as one
  seat or a spectator may see it.
* :func:`replay`: re-create a hand from its JSON history, checking every event
  and the finishing stacks.
* :func:`to_phh` / :func:`read_phh` / :func:`replay_phh`: Razz in PHH, the
  TOML hand-history standard of the PokerKit project.
* :func:`to_text`: the hand as poker sites print it, for a seat or a spectator.
* :func:`load_hand` / :func:`load_history`: replay a JSON or PHH file (the
  latter with the players' names, when the file has them).

>>> from pokerhouse.games import new_hand
>>> hand = new_hand("razz", [100, 100, 100], seed=2)
>>> replay(to_json(hand)).events == hand.events
True
"""

from pokerhouse.history.json_history import (
    FORMAT,
    SERVER,
    HandRecord,
    Viewer,
    from_json,
    record,
    register_deal_reader,
    to_json,
)
from pokerhouse.history.phh import PhhHand, read_phh, replay_phh, to_phh
from pokerhouse.history.replay import LoadedHand, detect_format, load_hand, load_history, replay
from pokerhouse.history.text import to_text

__all__ = [
    "FORMAT",
    "SERVER",
    "HandRecord",
    "LoadedHand",
    "PhhHand",
    "Viewer",
    "detect_format",
    "from_json",
    "load_hand",
    "load_history",
    "read_phh",
    "record",
    "register_deal_reader",
    "replay",
    "replay_phh",
    "to_json",
    "to_phh",
    "to_text",
]
