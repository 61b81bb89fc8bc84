"""A few words from the house bots now and then: a greeting, "nice hand", "good game".

The room decides what a bot says (:class:`BotChat`, pure: events, the time
and a generator in, lines out); each line is a **phrase**, a stable key that
clients show in their reader's language (the web client from its i18n
files), with the English text beside it for any other client. A table
whose ``bot_chat`` setting is off hears nothing from its bots.

Bots speak seldom: a bot greets the table when it sits (one time in two),
may say "nice hand" to the winner of a pot shown down against it (a person
or another bot), "thanks" when it wins one, and "good game" when it
leaves; and the whole table's bots say at most one line in
:data:`QUIET_SECONDS`.

>>> import random
>>> chat = BotChat(random.Random(2))
>>> chat.sat("ann_bot", now=0.0)
('ann_bot', 'hello')
>>> chat.sat("ben_bot", now=1.0) is None  # the table heard a bot a moment ago
True
>>> PHRASES["nice_hand"]
'Nice hand'
"""

from __future__ import annotations

import random
from collections.abc import Sequence

#: Every phrase a bot may say, in English (clients translate the key).
PHRASES = {
    "hello": "Hi all",
    "good_luck": "Good luck, everyone",
    "nice_hand": "Nice hand",
    "well_played": "Well played",
    "thanks": "Thanks",
    "good_game": "Good game, everyone",
}
#: The least time between two lines of the table's bots.
QUIET_SECONDS = 90.0
#: How often each occasion is taken.
GREET, LOSE_SHOWDOWN, WIN_SHOWDOWN, LEAVE = 0.5, 0.3, 0.15, 0.5

#: A line: the bot's name and the phrase's key.
Line = tuple[str, str]


class BotChat:
    """What the bots at one table say (see the module's docstring)."""

    def __init__(self, rng: random.Random, quiet: float = QUIET_SECONDS) -> None:
        self.rng = rng
        self.quiet = quiet
        self._said_at: float | None = None

    def sat(self, bot: str, *, now: float) -> Line | None:
        """``bot`` sat down."""
        return self._maybe(bot, self.rng.choice(("hello", "good_luck")), GREET, now)

    def left(self, bot: str, *, now: float) -> Line | None:
        """``bot`` stood up."""
        return self._maybe(bot, "good_game", LEAVE, now)

    def showdown(
        self, bots: Sequence[str], winners: Sequence[str], losers: Sequence[str], *, now: float
    ) -> Line | None:
        """A pot was shown down: ``winners`` took chips from ``losers`` (names)."""
        beaten = [name for name in losers if name in bots]
        if beaten and winners:
            phrase = "nice_hand" if self.rng.random() < 0.7 else "well_played"
            return self._maybe(self.rng.choice(beaten), phrase, LOSE_SHOWDOWN, now)
        won = [name for name in winners if name in bots]
        if won and losers:
            return self._maybe(self.rng.choice(won), "thanks", WIN_SHOWDOWN, now)
        return None

    def _maybe(self, bot: str, phrase: str, chance: float, now: float) -> Line | None:
        if self._said_at is not None and now - self._said_at < self.quiet:
            return None
        if self.rng.random() >= chance:
            return None
        self._said_at = now
        return (bot, phrase)
